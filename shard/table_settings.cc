// Table: the settings of partstore/table_settings.h (class, deletion protection, encryption,
// on-demand maximum, warm throughput) and the tags. DynamoDB's texts: the ack-api-quirks
// ValidationException catalogue (live captures, us-east-1 and us-west-2, 2026-10-09).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <tuple>
#include <utility>

#include "shard/constraints.h"
#include "shard/table.h"
#include "shard/tags.h"
#include "shard/throughput_settings.h"
#include "shard/wall_clock.h"

namespace partstore {
namespace {

constexpr std::array<std::string_view, 2> kTableClassNames = {"STANDARD",
                                                              "STANDARD_INFREQUENT_ACCESS"};

// On-demand starts able to serve 12,000 read and 4,000 write units a second (the capacity
// model's initial peak, doubled; reference §3).
constexpr int64_t kInitialOnDemandReadUnits = 12000;
constexpr int64_t kInitialOnDemandWriteUnits = 4000;

Status CheckSse(const SseSpecification& sse) {
  const bool enabled = sse.enabled.value_or(false);
  if (sse.sse_type && *sse.sse_type == "AES256") {
    return Status::Validation(
        fmt::format("{}SSEType AES256 is not supported", kInvalidParameterValues));
  }
  if (!enabled && sse.sse_type) {
    return Status::Validation(
        fmt::format("{}SSEType can not be specified if Enabled is false", kInvalidParameterValues));
  }
  if (!enabled && sse.kms_master_key_id) {
    return Status::Validation(fmt::format(
        "{}KMSMasterKeyId can not be specified if Enabled is false", kInvalidParameterValues));
  }
  return Status::Ok();
}

// An on-demand maximum: at least 1; -1 clears it on UpdateTable. `resource`: "table", or
// "index <name>" (the index texts are partstore's, the table's with the index named).
Status CheckOnDemand(const OnDemandThroughput& throughput, bool update,
                     std::string_view resource = "table") {
  for (auto [value, name] : {std::pair{throughput.max_read_request_units, "MaxReadRequestUnits"},
                             {throughput.max_write_request_units, "MaxWriteRequestUnits"}}) {
    if (value && *value < 1 && !(update && *value == -1)) {
      return Status::Validation(
          fmt::format("{}Requested {} for OnDemandThroughput for {} is outside of valid range",
                      kInvalidParameterValues, name, resource));
    }
  }
  return Status::Ok();
}

Status OnDemandOnProvisioned(const OnDemandThroughput& throughput, std::string_view resource = "") {
  return Status::Validation(fmt::format(
      "{}{} for OnDemandThroughput{} cannot be specified when the table BillingMode is "
      "PROVISIONED",
      kInvalidParameterValues,
      throughput.max_read_request_units ? "MaxReadRequestUnits" : "MaxWriteRequestUnits",
      resource));
}

// Warm throughput `want` against the floors (`on_demand`: of an on-demand table or its index) and
// the current value (UpdateTable: only ever raised).
Status CheckWarm(const WarmThroughput& want, int64_t read_floor, int64_t write_floor,
                 bool on_demand, std::string_view resource,
                 const std::optional<WarmThroughput>& current) {
  for (auto [value, name, floor] :
       {std::tuple{want.read_units_per_second, "Read", read_floor},
        std::tuple{want.write_units_per_second, "Write", write_floor}}) {
    if (!value || *value >= floor) continue;
    if (on_demand) {
      // (DynamoDB's text goes on with "See: " and a link to its documentation.)
      return Status::Validation(
          fmt::format("{}Requested {}UnitsPerSecond for WarmThroughput for {} is lower than "
                      "initial throughput for OnDemand",
                      kInvalidParameterValues, name, resource));
    }
    return Status::Validation(
        fmt::format("{}Requested {}UnitsPerSecond for WarmThroughput for {} is lower than {}"
                    "CapacityUnits of ProvisionedThroughput",
                    kInvalidParameterValues, name, resource, name));
  }
  if (!current) return Status::Ok();
  for (auto [wanted, had, name] :
       {std::tuple{want.read_units_per_second, current->read_units_per_second, "Read"},
        std::tuple{want.write_units_per_second, current->write_units_per_second, "Write"}}) {
    if (wanted && had && *wanted < *had) {
      return Status::Validation(fmt::format(
          "{}Requested {}UnitsPerSecond for WarmThroughput for {} is lower than current "
          "WarmThroughput, decreasing WarmThroughput is not supported",
          kInvalidParameterValues, name, resource));
    }
  }
  return Status::Ok();
}

// OnDemandThroughput's and WarmThroughput's units into the simulation's settings (bounded as its
// throughputs are: Table::SettingsOf).
void ApplyThroughputSettings(const std::optional<OnDemandThroughput>& on_demand,
                             const std::optional<WarmThroughput>& warm,
                             capacity::ResourceSettings* settings) {
  if (on_demand) {
    settings->max_read_request_units = on_demand->max_read_request_units.value_or(0);
    settings->max_write_request_units = on_demand->max_write_request_units.value_or(0);
  }
  if (warm) {
    settings->warm_read_units =
        std::min(warm->read_units_per_second.value_or(0), capacity::kMaxUnitsPerSecond);
    settings->warm_write_units =
        std::min(warm->write_units_per_second.value_or(0), capacity::kMaxUnitsPerSecond);
  }
}

// The KMS key ARN DynamoDB reports for `key` (an ARN, a key id, or absent: the AWS managed key),
// in the table's region and account.
std::string KmsKeyArn(std::string_view table_arn, const std::optional<std::string>& key) {
  if (key && key->starts_with("arn:")) return *key;
  // arn:aws:dynamodb:REGION:ACCOUNT:table/NAME -> arn:aws:kms:REGION:ACCOUNT:
  std::string prefix(table_arn.substr(0, table_arn.rfind(':') + 1));
  if (const size_t at = prefix.find(":dynamodb:"); at != std::string::npos) {
    prefix.replace(at, 10, ":kms:");
  }
  return prefix + "key/" + (key ? *key : std::string("aws/dynamodb"));
}

}  // namespace

int64_t WarmThroughputFloor(BillingMode mode,
                            const std::optional<ProvisionedThroughput>& provisioned, bool read) {
  if (mode == BillingMode::kPayPerRequest) {
    return read ? kInitialOnDemandReadUnits : kInitialOnDemandWriteUnits;
  }
  if (!provisioned) return 0;
  return read ? provisioned->read_capacity_units : provisioned->write_capacity_units;
}

int64_t WarmThroughputFloor(const TableDescription& d, bool read) {
  return WarmThroughputFloor(d.billing_mode,
                             ProvisionedThroughput{d.provisioned_throughput.read_capacity_units,
                                                   d.provisioned_throughput.write_capacity_units},
                             read);
}

void RaiseWarmThroughputToFloor(BillingMode mode,
                                const std::optional<ProvisionedThroughput>& provisioned,
                                std::optional<WarmThroughput>* warm) {
  if (!*warm) return;
  for (auto [value, read] : {std::pair{&(*warm)->read_units_per_second, true},
                             std::pair{&(*warm)->write_units_per_second, false}}) {
    if (*value) *value = std::max(**value, WarmThroughputFloor(mode, provisioned, read));
  }
}

void RaiseWarmThroughputToFloor(TableDescription* d) {
  RaiseWarmThroughputToFloor(d->billing_mode,
                             ProvisionedThroughput{d->provisioned_throughput.read_capacity_units,
                                                   d->provisioned_throughput.write_capacity_units},
                             &d->warm_throughput);
}

Status CheckIndexThroughputSettings(std::string_view index, BillingMode mode,
                                    const std::optional<ProvisionedThroughput>& provisioned,
                                    const std::optional<OnDemandThroughput>& on_demand,
                                    const std::optional<WarmThroughput>& warm, bool update,
                                    const std::optional<WarmThroughput>& current) {
  const std::string resource = fmt::format("index {}", index);
  const bool is_on_demand = mode == BillingMode::kPayPerRequest;
  if (on_demand) {
    if (!is_on_demand) return OnDemandOnProvisioned(*on_demand, " for " + resource);
    PARTSTORE_RETURN_IF_ERROR(CheckOnDemand(*on_demand, update, resource));
  }
  if (warm) {
    PARTSTORE_RETURN_IF_ERROR(CheckWarm(*warm, WarmThroughputFloor(mode, provisioned, true),
                                        WarmThroughputFloor(mode, provisioned, false), is_on_demand,
                                        resource, current));
  }
  return Status::Ok();
}

std::optional<OnDemandThroughput> MergeOnDemandThroughput(
    const std::optional<OnDemandThroughput>& have, const OnDemandThroughput& want) {
  OnDemandThroughput merged = have.value_or(OnDemandThroughput{});
  if (want.max_read_request_units) merged.max_read_request_units = want.max_read_request_units;
  if (want.max_write_request_units) merged.max_write_request_units = want.max_write_request_units;
  if (merged.max_read_request_units == -1) merged.max_read_request_units.reset();
  if (merged.max_write_request_units == -1) merged.max_write_request_units.reset();
  if (!merged.max_read_request_units && !merged.max_write_request_units) return std::nullopt;
  return merged;
}

WarmThroughput MergeWarmThroughput(const std::optional<WarmThroughput>& have,
                                   const WarmThroughput& want) {
  WarmThroughput merged = have.value_or(WarmThroughput{});
  if (want.read_units_per_second) merged.read_units_per_second = want.read_units_per_second;
  if (want.write_units_per_second) merged.write_units_per_second = want.write_units_per_second;
  return merged;
}

std::string_view TableClassName(TableClass table_class) {
  return kTableClassNames[static_cast<size_t>(table_class)];
}

std::optional<TableClass> TableClassNamed(std::string_view name) {
  for (size_t i = 0; i < kTableClassNames.size(); ++i) {
    if (kTableClassNames[i] == name) return static_cast<TableClass>(i);
  }
  return std::nullopt;
}

Status Table::CheckSettings(const CreateTableRequest& request) {
  PARTSTORE_RETURN_IF_ERROR(CheckTags(request.tags));
  if (request.tags.size() > kMaxTagsPerResource) {
    return Status::Validation(
        "Number of Tags exceed the current limit for the provided ResourceArn");
  }
  if (request.sse_specification) PARTSTORE_RETURN_IF_ERROR(CheckSse(*request.sse_specification));
  const bool on_demand = request.billing_mode == BillingMode::kPayPerRequest;
  if (request.on_demand_throughput) {
    if (!on_demand) return OnDemandOnProvisioned(*request.on_demand_throughput);
    PARTSTORE_RETURN_IF_ERROR(CheckOnDemand(*request.on_demand_throughput, /*update=*/false));
  }
  if (request.warm_throughput) {
    const auto& provisioned = request.provisioned_throughput;
    const BillingMode mode = on_demand ? BillingMode::kPayPerRequest : BillingMode::kProvisioned;
    PARTSTORE_RETURN_IF_ERROR(
        CheckWarm(*request.warm_throughput, WarmThroughputFloor(mode, provisioned, true),
                  WarmThroughputFloor(mode, provisioned, false), on_demand, "table", std::nullopt));
  }
  return Status::Ok();
}

void Table::ApplyCreateSettings(const CreateTableRequest& request) {
  TableDescription& d = description_;
  d.deletion_protection_enabled = request.deletion_protection_enabled.value_or(false);
  if (request.table_class) {
    d.table_class = request.table_class;
    d.table_class_last_update_date_time = d.creation_date_time;
  }
  if (request.sse_specification && request.sse_specification->enabled.value_or(false)) {
    d.sse_description = SseDescription{
        .kms_master_key_arn = KmsKeyArn(d.table_arn, request.sse_specification->kms_master_key_id)};
  }
  d.on_demand_throughput = request.on_demand_throughput;
  d.warm_throughput = request.warm_throughput;
  std::vector<Tag> tags = request.tags;
  std::sort(tags.begin(), tags.end(), [](const Tag& a, const Tag& b) { return a.key < b.key; });
  tags_ = std::move(tags);
}

Status Table::CheckSettingsChange(const UpdateTableRequest& request) const {
  const bool index_updates =
      request.global_secondary_index_updates && !request.global_secondary_index_updates->empty();
  const bool others = index_updates || request.provisioned_throughput ||
                      request.stream_specification || request.on_demand_throughput;
  const int exclusive = int{request.sse_specification.has_value()} +
                        int{request.table_class.has_value()} +
                        int{request.deletion_protection_enabled.has_value()} +
                        int{request.warm_throughput.has_value()};
  const bool crowded = others || request.billing_mode || exclusive > 1;
  if (request.sse_specification && crowded) {
    return Status::Validation(fmt::format(
        "{}Server-Side Encryption modification must be the only operation in the request",
        kInvalidParameterValues));
  }
  if (request.table_class && crowded) {
    return Status::Validation(
        fmt::format("{}TableClass modification must be the only operation in the request",
                    kInvalidParameterValues));
  }
  if (request.deletion_protection_enabled && crowded) {
    return Status::Validation(
        fmt::format("{}DeletionProtection modification must be the only operation in the request",
                    kInvalidParameterValues));
  }
  if (request.warm_throughput && crowded) {
    return Status::Validation(fmt::format(
        "{}WarmThroughput must be the only operation in the request", kInvalidParameterValues));
  }
  if (request.on_demand_throughput &&
      (index_updates || request.provisioned_throughput || request.stream_specification)) {
    return Status::Validation(fmt::format(
        "{}OnDemandThroughput can only be combined with BillingMode in an UpdateTable request",
        kInvalidParameterValues));
  }
  const TableDescription& d = description_;
  if (request.sse_specification) {
    PARTSTORE_RETURN_IF_ERROR(CheckSse(*request.sse_specification));
    if (!request.sse_specification->enabled.value_or(false) && !d.sse_description) {
      return Status::Validation(
          fmt::format("{}Table is already encrypted by default", kInvalidParameterValues));
    }
  }
  if (request.on_demand_throughput) {
    if (request.billing_mode.value_or(d.billing_mode) != BillingMode::kPayPerRequest) {
      return OnDemandOnProvisioned(*request.on_demand_throughput);
    }
    PARTSTORE_RETURN_IF_ERROR(CheckOnDemand(*request.on_demand_throughput, /*update=*/true));
  }
  if (request.warm_throughput) {
    PARTSTORE_RETURN_IF_ERROR(CheckWarm(
        *request.warm_throughput, WarmThroughputFloor(d, true), WarmThroughputFloor(d, false),
        d.billing_mode == BillingMode::kPayPerRequest, "table", d.warm_throughput));
  }
  return Status::Ok();
}

void Table::ApplySettingsChange(const UpdateTableRequest& request) {
  TableDescription& d = description_;
  if (request.deletion_protection_enabled) {
    d.deletion_protection_enabled = *request.deletion_protection_enabled;
  }
  if (request.table_class) {
    d.table_class = request.table_class;
    d.table_class_last_update_date_time = WallClockSeconds();
  }
  if (request.sse_specification) {
    if (request.sse_specification->enabled.value_or(false)) {
      d.sse_description =
          SseDescription{.kms_master_key_arn =
                             KmsKeyArn(d.table_arn, request.sse_specification->kms_master_key_id)};
    } else {
      d.sse_description.reset();
    }
  }
  if (request.on_demand_throughput) {
    d.on_demand_throughput =
        MergeOnDemandThroughput(d.on_demand_throughput, *request.on_demand_throughput);
  }
  if (request.warm_throughput) {
    d.warm_throughput = MergeWarmThroughput(d.warm_throughput, *request.warm_throughput);
  }
  // The capacity simulation throttles at the new maximum and adds the partitions warm throughput
  // calls for.
  if (capacity_ && (request.on_demand_throughput || request.warm_throughput)) {
    capacity_->Update(CapacitySettingsLocked());
  }
}

capacity::ResourceSettings Table::CapacitySettingsLocked() const {
  const TableDescription& d = description_;
  capacity::ResourceSettings settings =
      SettingsOf(d.billing_mode, d.provisioned_throughput.read_capacity_units,
                 d.provisioned_throughput.write_capacity_units);
  ApplyThroughputSettings(d.on_demand_throughput, d.warm_throughput, &settings);
  return settings;
}

capacity::ResourceSettings Table::IndexCapacitySettings(const IndexDefinition& index,
                                                        const TableDescription& d) {
  const auto& own = index.provisioned_throughput;
  capacity::ResourceSettings settings = SettingsOf(
      d.billing_mode, own ? own->read_capacity_units : d.provisioned_throughput.read_capacity_units,
      own ? own->write_capacity_units : d.provisioned_throughput.write_capacity_units);
  ApplyThroughputSettings(index.on_demand_throughput, index.warm_throughput, &settings);
  return settings;
}

bool Table::deletion_protected() const {
  std::lock_guard<std::mutex> lock(description_mu_);
  return description_.deletion_protection_enabled;
}

std::vector<Tag> Table::tags() const {
  std::lock_guard<std::mutex> lock(description_mu_);
  return tags_;
}

void Table::set_tags(std::vector<Tag> tags) {
  std::lock_guard<std::mutex> lock(description_mu_);
  tags_ = std::move(tags);
}

}  // namespace partstore
