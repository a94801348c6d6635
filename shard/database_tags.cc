// Database: TagResource, UntagResource, ListTagsOfResource (partstore/tags.h).
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

Result<std::shared_ptr<Table>> internal::DatabaseState::TableOfArn(std::string_view arn) {
  PARTSTORE_RETURN_IF_ERROR(CheckArn(arn));
  PARTSTORE_ASSIGN_OR_RETURN(std::string name, TableNameOfArn(arn));
  Result<std::shared_ptr<Table>> table = GetTable(name);
  if (!table.ok() || (*table)->Describe().table_arn != arn) {
    return Status::ResourceNotFound(
        "Requested resource not found: ResourceArn: " + std::string(arn) + " not found");
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
                             state_->TableOfArn(request.resource_arn));
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
                             state_->TableOfArn(request.resource_arn));
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
                             state_->TableOfArn(request.resource_arn));
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
