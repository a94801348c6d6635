// Tags on tables: TagResource, UntagResource, ListTagsOfResource, addressed by the table's ARN
// (DescribeTable's TableArn). CreateTable's Tags go through the same checks.
//
// DynamoDB's rules and texts (ValidationException unless said): a key of 1..128 and a value of
// 0..256 characters of letters, digits, spaces and _ . : / = + - @ ("The Tag Key provided is
// invalid, Key: k", "The Tag Value provided is invalid, Value: v"); no "aws:" prefix ("Tag Key
// cannot be prefixed with aws:, Key: k"); a key at most once per request ("Duplicate Tag Keys
// provided as input: Duplicate Tag Key found k"); at most 50 tags on a table ("Number of Tags
// exceed the current limit for the provided ResourceArn"); at least one tag or key ("Atleast one
// Tag needs to be provided as Input.", "Atleast one Tag Key needs to be provided as Input.");
// an ARN that is not a DynamoDB table's ("One or more parameter values were invalid: ARNs must
// start with 'arn:': x", "... Invalid resource arn provided, only table or stream is accepted.
// Provided resource arn: x"); an unknown table (ResourceNotFoundException). Tagging a key again
// replaces its value; untagging a key the table lacks is not an error.
//
// ListTagsOfResource answers every tag of the table in one page, in key order: DynamoDB does not
// page it ("Tags are limited to 50 per resource and therefore there's no need for pagination",
// the AWS SDK team on aws/aws-sdk#583; 50 tags come back at once, no NextToken, docs/reference.md).
// A NextToken given is still honoured: the page starts after that key.
//
// Thread safety: value types.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "partstore/table_settings.h"

namespace partstore {

inline constexpr size_t kTagsPerPage = 50;  // = kMaxTagsPerResource: one page

struct TagResourceRequest {
  std::string resource_arn{};
  std::vector<Tag> tags{};
};
struct UntagResourceRequest {
  std::string resource_arn{};
  std::vector<std::string> tag_keys{};
};
// TagResource and UntagResource answer nothing.
struct TagResourceResult {};
struct ListTagsOfResourceRequest {
  std::string resource_arn{};
  std::optional<std::string> next_token{};
};
struct ListTagsOfResourceResult {
  std::vector<Tag> tags{};
  std::optional<std::string> next_token{};
};

}  // namespace partstore
