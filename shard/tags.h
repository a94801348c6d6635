// The checks of tags (partstore/tags.h has DynamoDB's rules and texts), shared by CreateTable,
// TagResource and UntagResource, and the table an ARN names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "partstore/status.h"
#include "partstore/table_settings.h"

namespace partstore {

// `tags` as a request gives them: each key and value well formed, no "aws:" key, no key twice.
Status CheckTags(const std::vector<Tag>& tags);
// A key as UntagResource gives it.
Status CheckTagKey(std::string_view key);
// `have` with `add` set (replacing values of keys it has), sorted by key; the 50-tag limit.
Result<std::vector<Tag>> MergeTags(std::vector<Tag> have, const std::vector<Tag>& add);
// The parts of a table ARN "arn:PARTITION:dynamodb:REGION:ACCOUNT:table/NAME".
struct TableArn {
  std::string region;
  std::string account;
  std::string name;
};
// `arn` taken apart, or DynamoDB's ValidationException for one that is not a table's.
Result<TableArn> ParseTableArn(std::string_view arn);

}  // namespace partstore
