// Database: partstore's capacity extensions (partstore/capacity_requests.h): the manual clock, and
// what the simulated partitions, metrics and Contributor Insights of a table or GSI show.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/capacity_units.h"
#include "shard/constraints.h"
#include "shard/database_state.h"

namespace partstore {

namespace {

constexpr std::string_view kCapacityOff =
    "Capacity simulation is off: start partstore with --capacity on (or --clock manual), or set "
    "DatabaseOptions::capacity.enabled";

double TokensToUnits(int64_t tokens) {
  return static_cast<double>(tokens) / static_cast<double>(2 * capacity::kTokensPerHalfUnit);
}
double Seconds(int64_t micros) {
  return static_cast<double>(micros) / static_cast<double>(capacity::kMicrosPerSecond);
}

}  // namespace

Result<AdvanceClockResult> Database::AdvanceClock(const AdvanceClockRequest& request) {
  auto* clock = dynamic_cast<capacity::ManualClock*>(state_->options_.capacity.clock.get());
  if (!state_->options_.capacity.enabled || clock == nullptr) {
    return Status::Validation(
        "The clock is not manual: start partstore with --clock manual (or give "
        "DatabaseOptions::capacity a ManualClock)");
  }
  // At most about 292 years in microseconds; no going back.
  if (!std::isfinite(request.seconds) || request.seconds < 0 || request.seconds > 9.2e12) {
    return Status::Validation(fmt::format(
        "1 validation error detected: Value '{}' at 'seconds' failed to satisfy constraint: "
        "Member must be a number of seconds between 0 and 9200000000000",
        request.seconds));
  }
  const int64_t micros = static_cast<int64_t>(std::llround(request.seconds * 1e6));
  if (micros > INT64_MAX / 2 - clock->NowMicros()) {
    return Status::Validation(
        "The clock cannot move that far: it would pass 4.6e12 seconds (about 146,000 years)");
  }
  clock->Advance(micros);
  // On the manual clock items expire when the clock says so: TTL deletes happen here, at once.
  state_->DeleteExpiredItems();
  return AdvanceClockResult{Seconds(clock->NowMicros())};
}

namespace {

// The table's simulated capacity, or DynamoDB-style errors.
Result<std::shared_ptr<Table>> CapacityTable(const Database& db, const std::string& table_name,
                                             const std::optional<std::string>& index_name) {
  ConstraintViolations violations;
  violations.TableName(table_name);
  if (index_name) violations.Name(*index_name, "indexName");
  PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  if (!db.options().capacity.enabled) return Status::Validation(std::string(kCapacityOff));
  Result<std::shared_ptr<Table>> table = internal::GetTable(db, table_name);
  if (!table.ok()) {
    return Status::ResourceNotFound("Requested resource not found: Table: " + table_name +
                                    " not found");
  }
  return table;
}

Status IndexNotFound(const std::string& table, const std::string& index) {
  return Status::ResourceNotFound("Requested resource not found: Index " + index + " for table " +
                                  table);
}

}  // namespace

Result<DescribePartitionsResult> Database::DescribePartitions(
    const DescribePartitionsRequest& request) {
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table,
                             CapacityTable(*this, request.table_name, request.index_name));
  DescribePartitionsResult result;
  result.table_name = request.table_name;
  result.index_name = request.index_name;
  const bool found = table->capacity()->Inspect(
      request.index_name.value_or(""), [&](const capacity::ResourceCapacity& r, int64_t now) {
        result.billing_mode = r.settings().on_demand ? "PAY_PER_REQUEST" : "PROVISIONED";
        result.now_seconds = Seconds(now);
        if (r.settings().on_demand) {
          result.peak_read_units = static_cast<double>(r.peak_read_units());
          result.peak_write_units = static_cast<double>(r.peak_write_units());
        }
        for (const capacity::Partition& p : r.partitions()) {
          PartitionDescription d;
          d.partition_id = p.id;
          d.hash_range_start = p.begin;
          d.hash_range_end = p.end;
          d.size_bytes = p.size_bytes;
          d.item_count = p.item_count;
          d.allocated_read_units = TokensToUnits(p.read.allocated.rate);
          d.allocated_write_units = TokensToUnits(p.write.allocated.rate);
          d.max_read_units = TokensToUnits(p.read.cap.rate);
          d.max_write_units = TokensToUnits(p.write.cap.rate);
          d.burst_read_units = TokensToUnits(p.read.burst.available());
          d.burst_write_units = TokensToUnits(p.write.burst.available());
          const capacity::MetricCounters& total = p.metrics.total();
          d.consumed_read_units = HalfUnitsToDouble(total.consumed_read_half_units);
          d.consumed_write_units = HalfUnitsToDouble(total.consumed_write_half_units);
          d.adaptive_read_units = TokensToUnits(p.read.adaptive_tokens);
          d.adaptive_write_units = TokensToUnits(p.write.adaptive_tokens);
          d.throttled_read_requests = total.throttled_read_requests;
          d.throttled_write_requests = total.throttled_write_requests;
          for (int64_t events : total.throttle_events) d.throttle_events += events;
          d.created_seconds = Seconds(p.created_micros);
          result.partitions.push_back(d);
        }
        for (const capacity::PartitionSplit& s : r.splits()) {
          result.splits.push_back({Seconds(s.time_micros), s.parent, s.left, s.right, s.at,
                                   std::string(capacity::SplitReasonName(s.reason))});
        }
        for (const capacity::ThrottledRequest& t : r.recent_throttles()) {
          result.recent_throttles.push_back(
              {Seconds(t.time_micros), t.partition_id, t.reason.name(), t.key});
        }
      });
  if (!found) return IndexNotFound(request.table_name, *request.index_name);
  return result;
}

Result<GetMetricsResult> Database::GetMetrics(const GetMetricsRequest& request) {
  if (request.period != 1 && request.period != 60) {
    return Status::Validation(fmt::format(
        "1 validation error detected: Value '{}' at 'period' failed to satisfy constraint: "
        "Member must satisfy enum value set: [1, 60]",
        request.period));
  }
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table,
                             CapacityTable(*this, request.table_name, request.index_name));
  GetMetricsResult result;
  result.table_name = request.table_name;
  result.index_name = request.index_name;
  result.period = request.period;
  const int64_t from = request.start_time.value_or(INT64_MIN);
  const int64_t to = request.end_time.value_or(INT64_MAX);
  const bool found = table->capacity()->Inspect(
      request.index_name.value_or(""), [&](const capacity::ResourceCapacity& r, int64_t) {
        result.points = r.metrics().Points(request.period, from, to);
        if (!request.include_partitions) return;
        for (const auto& [id, series] : r.retired_metrics()) {
          result.partitions.push_back({id, series.Points(request.period, from, to)});
        }
        for (const capacity::Partition& p : r.partitions()) {
          result.partitions.push_back({p.id, p.metrics.Points(request.period, from, to)});
        }
        std::sort(result.partitions.begin(), result.partitions.end(),
                  [](const auto& a, const auto& b) { return a.partition_id < b.partition_id; });
      });
  if (!found) return IndexNotFound(request.table_name, *request.index_name);
  return result;
}

Result<UpdateContributorInsightsResult> Database::UpdateContributorInsights(
    const UpdateContributorInsightsRequest& request) {
  if (!request.action) {
    return Status::Validation(
        "1 validation error detected: Value null at 'contributorInsightsAction' failed to satisfy "
        "constraint: Member must not be null");
  }
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table,
                             CapacityTable(*this, request.table_name, request.index_name));
  const bool enable = *request.action == ContributorInsightsAction::kEnable;
  if (!table->capacity()->SetInsights(request.index_name.value_or(""), enable)) {
    return IndexNotFound(request.table_name, *request.index_name);
  }
  {
    std::lock_guard<std::mutex> lock(state_->insights_mu_);
    state_->insights_updated_[request.table_name + "/" + request.index_name.value_or("")] =
        static_cast<double>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count()) /
        1000.0;
  }
  return UpdateContributorInsightsResult{request.table_name, request.index_name,
                                         enable ? "ENABLING" : "DISABLING"};
}

Result<DescribeContributorInsightsResult> Database::DescribeContributorInsights(
    const DescribeContributorInsightsRequest& request) {
  if (!options().capacity.enabled) {
    // Without the simulation there are no insights: DISABLED, as a table that never had them
    // (GUI tools ask for every table).
    ConstraintViolations violations;
    violations.TableName(request.table_name);
    if (request.index_name) violations.Name(*request.index_name, "indexName");
    PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
    Result<std::shared_ptr<Table>> table = state_->GetTable(request.table_name);
    if (!table.ok()) {
      return Status::ResourceNotFound("Requested resource not found: Table: " + request.table_name +
                                      " not found");
    }
    if (request.index_name) {
      const auto& definitions = (*table)->index_definitions();
      if (std::none_of(definitions.begin(), definitions.end(), [&](const IndexDefinition& d) {
            return d.name == *request.index_name && d.kind == IndexKind::kGlobal;
          })) {
        return IndexNotFound(request.table_name, *request.index_name);
      }
    }
    return DescribeContributorInsightsResult{
        .table_name = request.table_name, .index_name = request.index_name, .status = "DISABLED"};
  }
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table,
                             CapacityTable(*this, request.table_name, request.index_name));
  DescribeContributorInsightsResult result;
  result.table_name = request.table_name;
  result.index_name = request.index_name;
  {
    std::lock_guard<std::mutex> lock(state_->insights_mu_);
    auto it =
        state_->insights_updated_.find(request.table_name + "/" + request.index_name.value_or(""));
    if (it != state_->insights_updated_.end()) result.last_update_date_time = it->second;
  }
  const bool found = table->capacity()->Inspect(
      request.index_name.value_or(""), [&](const capacity::ResourceCapacity& r, int64_t) {
        result.status = r.insights_enabled() ? "ENABLED" : "DISABLED";
      });
  if (!found) return IndexNotFound(request.table_name, *request.index_name);
  if (result.status == "ENABLED") {
    // DynamoDB's rule names: PKC / PKT (most accessed / throttled partition keys) and, with a sort
    // key, SKC / SKT (items); then the table (and index) name and the rules' creation time.
    const std::string resource =
        request.table_name + (request.index_name ? "-" + *request.index_name : "");
    const int64_t millis = static_cast<int64_t>(result.last_update_date_time.value_or(0) * 1000);
    std::vector<std::string> kinds{"PKC", "PKT"};
    const bool sort = request.index_name
                          ? [&] {
                              for (const IndexDefinition& d : table->index_definitions()) {
                                if (d.name == *request.index_name) return d.key.sort.has_value();
                              }
                              return false;
                            }()
                          : table->key_schema().sort.has_value();
    if (sort) kinds.insert(kinds.end(), {"SKC", "SKT"});
    for (const std::string& kind : kinds) {
      result.rule_list.push_back(
          fmt::format("DynamoDBContributorInsights-{}-{}-{}", kind, resource, millis));
    }
  }
  return result;
}

Result<GetContributorInsightsResult> Database::GetContributorInsights(
    const GetContributorInsightsRequest& request) {
  if (request.top_n < 1 || request.top_n > 1000) {
    return Status::Validation(fmt::format(
        "1 validation error detected: Value '{}' at 'topN' failed to satisfy constraint: Member "
        "must have value between 1 and 1000",
        request.top_n));
  }
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table,
                             CapacityTable(*this, request.table_name, request.index_name));
  GetContributorInsightsResult result;
  result.table_name = request.table_name;
  result.index_name = request.index_name;
  bool enabled = true;
  const bool found = table->capacity()->Inspect(
      request.index_name.value_or(""), [&](const capacity::ResourceCapacity& r, int64_t now) {
        enabled = r.insights_enabled();
        for (size_t i = 0; i < capacity::kInsightsRuleCount; ++i) {
          const auto rule = static_cast<capacity::InsightsRule>(i);
          const bool accessed = rule == capacity::InsightsRule::kAccessedPartitionKeys ||
                                rule == capacity::InsightsRule::kAccessedItems;
          InsightsRuleResult out;
          out.rule_name = std::string(capacity::InsightsRuleName(rule));
          for (auto& c : r.insights().Top(rule, static_cast<size_t>(request.top_n))) {
            out.contributors.push_back(
                {c.key, accessed ? HalfUnitsToDouble(c.value) : static_cast<double>(c.value),
                 c.minute});
          }
          result.rules.push_back(std::move(out));
        }
      });
  if (!found) return IndexNotFound(request.table_name, *request.index_name);
  if (!enabled) {
    return Status::Validation("Contributor Insights is not enabled for table " +
                              request.table_name +
                              (request.index_name ? " index " + *request.index_name : "") +
                              ": turn it on with UpdateContributorInsights");
  }
  return result;
}

Result<ListContributorInsightsResult> Database::ListContributorInsights(
    const ListContributorInsightsRequest& request) {
  ConstraintViolations violations;
  if (request.table_name) violations.TableName(*request.table_name);
  if (request.max_results) violations.Range(*request.max_results, 0, 100, "maxResults");
  PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  // The position in the list of resources (tables in name order, each followed by its GSIs).
  size_t start = 0;
  if (request.next_token) {
    const std::string& token = *request.next_token;
    if (token.empty() || token.size() > 9 ||
        !std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return Status::Validation("Invalid NextToken: " + token);
    }
    start = std::stoul(token);
  }
  const size_t page =
      request.max_results && *request.max_results > 0 ? *request.max_results : size_t{100};
  std::vector<DescribeContributorInsightsRequest> resources;
  std::vector<std::string> names;
  if (request.table_name) {
    if (!state_->GetTable(*request.table_name).ok()) {
      return Status::ResourceNotFound(
          "Requested resource not found: Table: " + *request.table_name + " not found");
    }
    names.push_back(*request.table_name);
  } else {
    std::shared_lock lock(state_->mu_);
    for (const auto& [name, table] : state_->tables_) names.push_back(name);
  }
  for (const std::string& name : names) {
    Result<std::shared_ptr<Table>> table = state_->GetTable(name);
    if (!table.ok()) continue;  // deleted meanwhile
    resources.push_back({.table_name = name});
    for (const IndexDefinition& d : (*table)->index_definitions()) {
      if (d.kind == IndexKind::kGlobal)
        resources.push_back({.table_name = name, .index_name = d.name});
    }
  }
  ListContributorInsightsResult result;
  size_t i = start;
  for (; i < resources.size() && result.summaries.size() < page; ++i) {
    Result<DescribeContributorInsightsResult> described = DescribeContributorInsights(resources[i]);
    if (!described.ok()) continue;  // deleted meanwhile
    result.summaries.push_back({.table_name = described->table_name,
                                .index_name = described->index_name,
                                .status = described->status});
  }
  if (i < resources.size()) result.next_token = std::to_string(i);
  return result;
}

}  // namespace partstore
