#include "shard/tags.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

namespace partstore {
namespace {

// Characters, as DynamoDB counts them (UTF-8 code points).
size_t CodePoints(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

// Letters, digits and spaces of any script, and _ . : / = + - @ (the Tagging page of DynamoDB's
// developer guide). Bytes of multi-byte UTF-8 characters are taken as letters.
bool TagText(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x80 || std::isalnum(u) || c == ' ' || c == '\t' ||
           std::string_view("_.:/=+-@").find(c) != std::string_view::npos;
  });
}

}  // namespace

Status CheckTagKey(std::string_view key) {
  const size_t length = CodePoints(key);
  if (length < 1 || length > 128 || !TagText(key)) {
    return Status::Validation(fmt::format("The Tag Key provided is invalid, Key: {}", key));
  }
  if (key.starts_with("aws:")) {
    return Status::Validation(fmt::format("Tag Key cannot be prefixed with aws:, Key: {}", key));
  }
  return Status::Ok();
}

Status CheckTags(const std::vector<Tag>& tags) {
  std::set<std::string_view> keys;
  for (const Tag& tag : tags) {
    PARTSTORE_RETURN_IF_ERROR(CheckTagKey(tag.key));
    if (CodePoints(tag.value) > 256 || !TagText(tag.value)) {
      return Status::Validation(
          fmt::format("The Tag Value provided is invalid, Value: {}", tag.value));
    }
    if (!keys.insert(tag.key).second) {
      return Status::Validation(
          fmt::format("Duplicate Tag Keys provided as input: Duplicate Tag Key found {}", tag.key));
    }
  }
  return Status::Ok();
}

Result<std::vector<Tag>> MergeTags(std::vector<Tag> have, const std::vector<Tag>& add) {
  for (const Tag& tag : add) {
    auto it =
        std::find_if(have.begin(), have.end(), [&](const Tag& t) { return t.key == tag.key; });
    if (it != have.end()) {
      it->value = tag.value;
    } else {
      have.push_back(tag);
    }
  }
  if (have.size() > kMaxTagsPerResource) {
    return Status::Validation(
        "Number of Tags exceed the current limit for the provided ResourceArn");
  }
  std::sort(have.begin(), have.end(), [](const Tag& a, const Tag& b) { return a.key < b.key; });
  return have;
}

Result<TableArn> ParseTableArn(std::string_view arn) {
  if (!arn.starts_with("arn:")) {
    return Status::Validation(fmt::format(
        "One or more parameter values were invalid: ARNs must start with 'arn:': {}", arn));
  }
  // arn:PARTITION:dynamodb:REGION:ACCOUNT:table/NAME
  size_t colons[5] = {};
  size_t colon = 0;
  for (int i = 0; i < 5 && colon != std::string_view::npos; ++i) {
    colon = arn.find(':', colon + 1);
    colons[i] = colon;
  }
  const bool dynamodb = arn.find(":dynamodb:") != std::string_view::npos;
  if (colon == std::string_view::npos || !dynamodb) {
    return Status::Validation(fmt::format(
        "One or more parameter values were invalid: Provided Arn is not a DynamoDB resource arn: "
        "{}",
        arn));
  }
  std::string_view resource = arn.substr(colon + 1);
  if (!resource.starts_with("table/") || resource.find('/', 6) != std::string_view::npos ||
      resource.size() == 6) {
    return Status::Validation(fmt::format(
        "One or more parameter values were invalid: Invalid resource arn provided, only table or "
        "stream is accepted. Provided resource arn: {}",
        arn));
  }
  return TableArn{.region = std::string(arn.substr(colons[2] + 1, colons[3] - colons[2] - 1)),
                  .account = std::string(arn.substr(colons[3] + 1, colons[4] - colons[3] - 1)),
                  .name = std::string(resource.substr(6))};
}

}  // namespace partstore
