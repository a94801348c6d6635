// Table: the settings of partstore/table_settings.h (class, deletion protection, encryption,
// on-demand maximum, warm throughput) and the tags. DynamoDB's texts: the ack-api-quirks
// ValidationException catalogue (live captures, us-east-1 and us-west-2, 2026-10-09).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <tuple>
#include <utility>

#include "shard/table.h"
#include "shard/tags.h"
#include "shard/warm_throughput.h"

namespace partstore {
namespace {

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";

constexpr std::array<std::string_view, 2> kTableClassNames = {"STANDARD",
                                                              "STANDARD_INFREQUENT_ACCESS"};

// On-demand starts able to serve 12,000 read and 4,000 write units a second (the capacity
// model's initial peak, doubled; reference §3).
constexpr int64_t kInitialOnDemandReadUnits = 12000;
constexpr int64_t kInitialOnDemandWriteUnits = 4000;

Status CheckSse(const SseSpecification& sse) {
  const bool enabled = sse.enabled.value_or(false);
  if (sse.sse_type && *sse.sse_type == "AES256") {
    return Status::Validation(fmt::format("{}SSEType AES256 is not supported", kInvalid));
  }
  if (!enabled && sse.sse_type) {
    return Status::Validation(
        fmt::format("{}SSEType can not be specified if Enabled is false", kInvalid));
  }
  if (!enabled && sse.kms_master_key_id) {
    return Status::Validation(
        fmt::format("{}KMSMasterKeyId can not be specified if Enabled is false", kInvalid));
  }
  return Status::Ok();
}

// An on-demand maximum: at least 1; -1 clears it on UpdateTable.
Status CheckOnDemand(const OnDemandThroughput& throughput, bool update) {
  for (auto [value, name] : {std::pair{throughput.max_read_request_units, "MaxReadRequestUnits"},
                             {throughput.max_write_request_units, "MaxWriteRequestUnits"}}) {
    if (value && *value < 1 && !(update && *value == -1)) {
      return Status::Validation(
          fmt::format("{}Requested {} for OnDemandThroughput for table is outside of valid range",
                      kInvalid, name));
    }
  }
  return Status::Ok();
}

Status OnDemandOnProvisioned(const OnDemandThroughput& throughput) {
  return Status::Validation(fmt::format(
      "{}{} for OnDemandThroughput cannot be specified when the table BillingMode is PROVISIONED",
      kInvalid,
      throughput.max_read_request_units ? "MaxReadRequestUnits" : "MaxWriteRequestUnits"));
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

double NowSeconds() {
  using namespace std::chrono;
  return static_cast<double>(
             duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count()) /
         1000.0;
}

}  // namespace

int64_t WarmThroughputFloor(const TableDescription& d, bool read) {
  if (d.billing_mode == BillingMode::kPayPerRequest) {
    return read ? kInitialOnDemandReadUnits : kInitialOnDemandWriteUnits;
  }
  return read ? d.provisioned_throughput.read_capacity_units
              : d.provisioned_throughput.write_capacity_units;
}

void RaiseWarmThroughputToFloor(TableDescription* d) {
  if (!d->warm_throughput) return;
  for (auto [value, read] : {std::pair{&d->warm_throughput->read_units_per_second, true},
                             std::pair{&d->warm_throughput->write_units_per_second, false}}) {
    if (*value) *value = std::max(**value, WarmThroughputFloor(*d, read));
  }
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
    const WarmThroughput& warm = *request.warm_throughput;
    for (auto [value, name, provisioned, initial] :
         {std::tuple{warm.read_units_per_second, "Read",
                     request.provisioned_throughput
                         ? request.provisioned_throughput->read_capacity_units
                         : 0,
                     kInitialOnDemandReadUnits},
          std::tuple{warm.write_units_per_second, "Write",
                     request.provisioned_throughput
                         ? request.provisioned_throughput->write_capacity_units
                         : 0,
                     kInitialOnDemandWriteUnits}}) {
      if (!value) continue;
      if (on_demand && *value < initial) {
        // (DynamoDB's text goes on with "See: " and a link to its documentation.)
        return Status::Validation(fmt::format(
            "{}Requested {}UnitsPerSecond for WarmThroughput for table is lower than initial "
            "throughput for OnDemand",
            kInvalid, name));
      }
      if (!on_demand && *value < provisioned) {
        return Status::Validation(
            fmt::format("{}Requested {}UnitsPerSecond for WarmThroughput for table is lower than {}"
                        "CapacityUnits of ProvisionedThroughput",
                        kInvalid, name, name));
      }
    }
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
        kInvalid));
  }
  if (request.table_class && crowded) {
    return Status::Validation(fmt::format(
        "{}TableClass modification must be the only operation in the request", kInvalid));
  }
  if (request.deletion_protection_enabled && crowded) {
    return Status::Validation(fmt::format(
        "{}DeletionProtection modification must be the only operation in the request", kInvalid));
  }
  if (request.warm_throughput && crowded) {
    return Status::Validation(
        fmt::format("{}WarmThroughput must be the only operation in the request", kInvalid));
  }
  if (request.on_demand_throughput &&
      (index_updates || request.provisioned_throughput || request.stream_specification)) {
    return Status::Validation(fmt::format(
        "{}OnDemandThroughput can only be combined with BillingMode in an UpdateTable request",
        kInvalid));
  }
  const TableDescription& d = description_;
  if (request.sse_specification) {
    PARTSTORE_RETURN_IF_ERROR(CheckSse(*request.sse_specification));
    if (!request.sse_specification->enabled.value_or(false) && !d.sse_description) {
      return Status::Validation(fmt::format("{}Table is already encrypted by default", kInvalid));
    }
  }
  if (request.on_demand_throughput) {
    if (request.billing_mode.value_or(d.billing_mode) != BillingMode::kPayPerRequest) {
      return OnDemandOnProvisioned(*request.on_demand_throughput);
    }
    PARTSTORE_RETURN_IF_ERROR(CheckOnDemand(*request.on_demand_throughput, /*update=*/true));
  }
  if (request.warm_throughput) {
    const WarmThroughput& want = *request.warm_throughput;
    for (auto [value, name, read] : {std::tuple{want.read_units_per_second, "Read", true},
                                     std::tuple{want.write_units_per_second, "Write", false}}) {
      if (!value) continue;
      const int64_t floor = WarmThroughputFloor(d, read);
      if (*value < floor && d.billing_mode == BillingMode::kPayPerRequest) {
        return Status::Validation(fmt::format(
            "{}Requested {}UnitsPerSecond for WarmThroughput for table is lower than initial "
            "throughput for OnDemand",
            kInvalid, name));
      }
      if (*value < floor) {
        return Status::Validation(
            fmt::format("{}Requested {}UnitsPerSecond for WarmThroughput for table is lower than {}"
                        "CapacityUnits of ProvisionedThroughput",
                        kInvalid, name, name));
      }
    }
  }
  if (request.warm_throughput && d.warm_throughput) {
    const WarmThroughput& want = *request.warm_throughput;
    const WarmThroughput& have = *d.warm_throughput;
    for (auto [wanted, had, name] :
         {std::tuple{want.read_units_per_second, have.read_units_per_second, "Read"},
          std::tuple{want.write_units_per_second, have.write_units_per_second, "Write"}}) {
      if (wanted && had && *wanted < *had) {
        return Status::Validation(fmt::format(
            "{}Requested {}UnitsPerSecond for WarmThroughput for table is lower than current "
            "WarmThroughput, decreasing WarmThroughput is not supported",
            kInvalid, name));
      }
    }
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
    d.table_class_last_update_date_time = NowSeconds();
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
    OnDemandThroughput merged = d.on_demand_throughput.value_or(OnDemandThroughput{});
    const OnDemandThroughput& want = *request.on_demand_throughput;
    if (want.max_read_request_units) merged.max_read_request_units = want.max_read_request_units;
    if (want.max_write_request_units) merged.max_write_request_units = want.max_write_request_units;
    if (merged.max_read_request_units == -1) merged.max_read_request_units.reset();
    if (merged.max_write_request_units == -1) merged.max_write_request_units.reset();
    if (merged.max_read_request_units || merged.max_write_request_units) {
      d.on_demand_throughput = merged;
    } else {
      d.on_demand_throughput.reset();
    }
  }
  if (request.warm_throughput) {
    WarmThroughput merged = d.warm_throughput.value_or(WarmThroughput{});
    if (request.warm_throughput->read_units_per_second) {
      merged.read_units_per_second = request.warm_throughput->read_units_per_second;
    }
    if (request.warm_throughput->write_units_per_second) {
      merged.write_units_per_second = request.warm_throughput->write_units_per_second;
    }
    d.warm_throughput = merged;
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
  if (d.on_demand_throughput) {
    settings.max_read_request_units = d.on_demand_throughput->max_read_request_units.value_or(0);
    settings.max_write_request_units = d.on_demand_throughput->max_write_request_units.value_or(0);
  }
  if (d.warm_throughput) {
    // (Bounded as the simulation's throughputs are: SettingsOf.)
    settings.warm_read_units = std::min(d.warm_throughput->read_units_per_second.value_or(0),
                                        capacity::kMaxUnitsPerSecond);
    settings.warm_write_units = std::min(d.warm_throughput->write_units_per_second.value_or(0),
                                         capacity::kMaxUnitsPerSecond);
  }
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
