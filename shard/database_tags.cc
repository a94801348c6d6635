// Database: TagResource, UntagResource, ListTagsOfResource (partstore/tags.h).
#include <fmt/format.h>

#include <algorithm>

#include "partstore/database.h"
#include "shard/constraints.h"
#include "shard/database_state.h"
#include "shard/persist/table_settings.h"
#include "shard/table.h"
#include "shard/tags.h"

namespace partstore {
namespace {

Status CheckArn(std::string_view arn) {
  ConstraintViolations violations;
  violations.Length(arn, 1, 1283, "resourceArn");
  return violations.ToStatus();
}

}  // namespace

Result<std::shared_ptr<Table>> internal::DatabaseState::TableOfArn(std::string_view arn,
                                                                   std::string_view operation) {
  PARTSTORE_RETURN_IF_ERROR(CheckArn(arn));
  PARTSTORE_ASSIGN_OR_RETURN(TableArn parts, ParseTableArn(arn));
  // Another region's ARN: DynamoDB's ValidationException (a live catalogue of its answers, cited in
  // docs/reference.md, "Tags and table settings").
  if (parts.region != options_.region) {
    return Status::Validation("Invalid TableArn: Invalid ResourceArn provided as input " +
                              std::string(arn));
  }
  // Another account's table: DynamoDB does not say whether it exists; the caller may not read it.
  // The text is IAM's, with the caller as this account's root (partstore has no IAM users).
  if (parts.account != options_.account_id) {
    return Status(Code::kAccessDenied,
                  fmt::format("User: arn:aws:iam::{}:root is not authorized to perform: "
                              "dynamodb:{} on resource: {}",
                              options_.account_id, operation, arn));
  }
  Result<std::shared_ptr<Table>> table = GetTable(parts.name);
  if (!table.ok() || (*table)->Describe().table_arn != arn) {
    // "ResourcArn" (sic) is what DynamoDB answers: every verbatim capture of the text from the live
    // service has it (dynalite's tests recorded against AWS; logs of cloud-custodian#3514 and
    // steampipe-plugin-aws#1516, the latter with a DynamoDB request id).
    return Status::ResourceNotFound(
        fmt::format("Requested resource not found: ResourcArn: {} not found", arn));
  }
  return table;
}

Result<TagResourceResult> Database::TagResource(const TagResourceRequest& request) {
  PARTSTORE_RETURN_IF_ERROR(CheckArn(request.resource_arn));
  if (request.tags.empty()) {
    return Status::Validation("Atleast one Tag needs to be provided as Input.");
  }
  PARTSTORE_RETURN_IF_ERROR(CheckTags(request.tags));
  std::shared_lock control(state_->control_mu_);
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table,
                             state_->TableOfArn(request.resource_arn, "TagResource"));
  std::lock_guard<std::mutex> serialized(state_->tags_mu_);
  PARTSTORE_ASSIGN_OR_RETURN(std::vector<Tag> tags, MergeTags(table->tags(), request.tags));
  state_->SetTags(*table, std::move(tags));
  PARTSTORE_RETURN_IF_ERROR(state_->Durable());
  return TagResourceResult{};
}

Result<TagResourceResult> Database::UntagResource(const UntagResourceRequest& request) {
  PARTSTORE_RETURN_IF_ERROR(CheckArn(request.resource_arn));
  if (request.tag_keys.empty()) {
    return Status::Validation("Atleast one Tag Key needs to be provided as Input.");
  }
  for (const std::string& key : request.tag_keys) PARTSTORE_RETURN_IF_ERROR(CheckTagKey(key));
  std::shared_lock control(state_->control_mu_);
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table,
                             state_->TableOfArn(request.resource_arn, "UntagResource"));
  std::lock_guard<std::mutex> serialized(state_->tags_mu_);
  std::vector<Tag> tags = table->tags();
  std::erase_if(tags, [&](const Tag& tag) {
    return std::find(request.tag_keys.begin(), request.tag_keys.end(), tag.key) !=
           request.tag_keys.end();
  });
  state_->SetTags(*table, std::move(tags));
  PARTSTORE_RETURN_IF_ERROR(state_->Durable());
  return TagResourceResult{};
}

Result<ListTagsOfResourceResult> Database::ListTagsOfResource(
    const ListTagsOfResourceRequest& request) {
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table,
                             state_->TableOfArn(request.resource_arn, "ListTagsOfResource"));
  const std::vector<Tag> tags = table->tags();  // sorted by key
  // The token is the last key of the previous page.
  auto it = tags.begin();
  if (request.next_token) {
    it = std::upper_bound(tags.begin(), tags.end(), *request.next_token,
                          [](const std::string& key, const Tag& tag) { return key < tag.key; });
  }
  ListTagsOfResourceResult result;
  for (; it != tags.end() && result.tags.size() < kTagsPerPage; ++it) result.tags.push_back(*it);
  if (it != tags.end()) result.next_token = result.tags.back().key;
  return result;
}

void internal::DatabaseState::SetTags(Table& table, std::vector<Tag> tags) {
  if (wal_) {
    std::string body;
    persist::EncodeTags(tags, &body);
    LogControl(persist::WalRecord::kTags, table.log_number(), body);
  }
  table.set_tags(std::move(tags));
}

}  // namespace partstore
