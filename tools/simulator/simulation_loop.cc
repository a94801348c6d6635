// The simulated client (simulation_internal.h): each phase's requests offered at their arrival
// times (evenly spaced at the phase's rate, or along its ramp), the operation drawn from the mix by
// weight, interleaved in time order with the retries of throttled requests (exponential backoff
// with jitter, RetryPolicy), the manual clock advanced from one to the next, and every attempt
// tallied (ClientTally) per mix entry and per simulated second.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tools/simulator/simulation_internal.h"

namespace partstore::sim::internal {

int64_t Driver::Backoff(int32_t retries_so_far) {
  const RetryPolicy& r = w_.retries;
  const int32_t doublings = std::min(retries_so_far, 40);
  const double raw = static_cast<double>(r.base_micros) * std::ldexp(1.0, doublings);
  const int64_t backoff =
      static_cast<int64_t>(std::min(raw, static_cast<double>(r.max_backoff_micros)));
  switch (r.jitter) {
    case RetryPolicy::Jitter::kFull:
      return static_cast<int64_t>(random_.Below(static_cast<uint64_t>(backoff) + 1));
    case RetryPolicy::Jitter::kEqual:
      return backoff / 2 +
             static_cast<int64_t>(random_.Below(static_cast<uint64_t>(backoff / 2) + 1));
    case RetryPolicy::Jitter::kNone:
      return backoff;
  }
  return backoff;
}

void Driver::Offer(int32_t phase, int32_t index, int64_t now) {
  Entry& entry = entries_[phase][index];
  const Operation& op = *entry.op;
  Pending pending;
  pending.phase = phase;
  pending.entry = index;
  pending.first_micros = now;
  const int32_t n = (op.kind == OpKind::kBatchGet || op.kind == OpKind::kBatchWrite ||
                     op.kind == OpKind::kTransactWrite || op.kind == OpKind::kTransactGet)
                        ? op.batch
                        : 1;
  const bool writes = op.kind == OpKind::kPut || op.kind == OpKind::kUpdate ||
                      op.kind == OpKind::kBatchWrite || op.kind == OpKind::kTransactWrite;
  pending.specs.reserve(static_cast<size_t>(n));
  // Batches and transactions need distinct primary keys (DynamoDB refuses duplicates): a draw
  // whose expanded key is already in the request is drawn again, at most kRedraws times in all;
  // a key space too small to give `batch` distinct keys makes a smaller request.
  constexpr int kRedraws = 8;
  std::vector<std::string> seen;
  for (int32_t misses = 0; static_cast<int32_t>(pending.specs.size()) < n && misses <= kRedraws;) {
    RequestSpec spec;
    spec.key = entry.keys.Next(random_, now);
    spec.item =
        op.items > 1 ? static_cast<int64_t>(random_.Below(static_cast<uint64_t>(op.items))) : 0;
    spec.seq = entry.seq++;
    spec.time_millis = now / 1000;
    if (writes) spec.size = DrawSize(op.size.value_or(SizeDistribution{}), random_);
    if (n > 1) {
      std::string key;
      Expand(op.key, spec, key);
      if (op.sort) {
        key += '\0';
        op.sort->Expand({spec.key, spec.item, spec.seq, spec.time_millis}, key);
      }
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
        ++misses;
        continue;
      }
      seen.push_back(std::move(key));
    }
    pending.specs.push_back(spec);
  }
  ++tally_.operations[phase][index].offered;
  ++tally_.Second(now).offered;
  Send(std::move(pending), now);
}

void Driver::Send(Pending&& pending, int64_t now) {
  Entry& entry = entries_[pending.phase][pending.entry];
  RequestCounts& op = tally_.operations[pending.phase][pending.entry];
  RequestCounts& second = tally_.Second(now);
  ++pending.attempt;
  ++attempts_;
  ++op.attempts;
  ++second.attempts;
  if (pending.attempt > 1) {
    ++op.retries;
    ++second.retries;
  }
  Attempt a = Execute(entry, pending);
  switch (a.outcome) {
    case Outcome::kServed:
      ++op.served;
      ++second.served;
      if (pending.attempt > 1) tally_.delays[pending.phase].push_back(now - pending.first_micros);
      return;
    case Outcome::kConditionFailed:
      ++op.condition_failed;
      ++second.condition_failed;
      return;
    case Outcome::kError:
      ++op.errors;
      ++second.errors;
      ++tally_.errors[a.error];
      return;
    case Outcome::kThrottled:
    case Outcome::kThrottledFinal:
      ++op.throttled;
      ++second.throttled;
      break;
  }
  const bool retry = a.outcome == Outcome::kThrottled &&
                     w_.retries.mode == RetryPolicy::Mode::kExponential &&
                     pending.attempt < w_.retries.max_attempts;
  if (!retry) {
    ++op.gave_up;
    ++second.gave_up;
    return;
  }
  pending.due = now + Backoff(pending.attempt - 1);
  if (a.unprocessed_writes) pending.writes = std::move(a.unprocessed_writes);
  if (a.unprocessed_reads) pending.reads = std::move(a.unprocessed_reads);
  const int64_t due = pending.due;
  retries_.Push(due, std::move(pending));
}

void Driver::ChangeThroughput(const std::vector<ThroughputChange>& changes, int64_t now) {
  for (const ThroughputChange& change : changes) {
    auto described = db_.DescribeTable({change.table});
    if (!described.ok()) {
      ++tally_.errors[std::string(described.status().message())];
      continue;
    }
    ProvisionedThroughputDescription have = described->table.provisioned_throughput;
    for (const GlobalSecondaryIndexDescription& gsi : described->table.global_secondary_indexes) {
      if (change.index && gsi.index_name == *change.index) have = gsi.provisioned_throughput;
    }
    const ProvisionedThroughput want{
        change.read_capacity > 0 ? change.read_capacity : have.read_capacity_units,
        change.write_capacity > 0 ? change.write_capacity : have.write_capacity_units};
    if (want.read_capacity_units == have.read_capacity_units &&
        want.write_capacity_units == have.write_capacity_units) {
      continue;
    }
    UpdateTableRequest request{.table_name = change.table};
    if (change.index) {
      GlobalSecondaryIndexUpdate update;
      update.update = GlobalSecondaryIndexUpdate::Update{.index_name = *change.index,
                                                         .provisioned_throughput = want};
      request.global_secondary_index_updates = {{update}};
    } else {
      request.provisioned_throughput = want;
    }
    if (Status updated = db_.UpdateTable(request).status(); !updated.ok()) {
      ++tally_.errors[std::string(updated.message())];
      continue;
    }
    if (scaler_) scaler_->NoteCapacity(change.table, change.index, want);
    const double at = static_cast<double>(now) / 1e6;
    for (const bool read : {true, false}) {
      const int64_t from = read ? have.read_capacity_units : have.write_capacity_units;
      const int64_t to = read ? want.read_capacity_units : want.write_capacity_units;
      if (from == to) continue;
      tally_.scaling.push_back({.time_seconds = at,
                                .effective_seconds = at,
                                .table = change.table,
                                .index = change.index,
                                .read = read,
                                .from = from,
                                .to = to,
                                .consumed_per_second = 0,
                                .reason = "scheduled"});
    }
  }
}

void Driver::Run(const SimulateOptions& options, SimulationCost* cost) {
  const auto started = Clock::now();
  const int64_t total = std::max<int64_t>(TotalMicros(w_), 1);
  int64_t next_report = 0;
  // With a pace, the simulated time `now` is due at started + now / pace on the wall clock: a run
  // that is ahead waits (in steps of at least 2 ms, so as not to sleep per request).
  auto pace = [&](int64_t now) {
    const auto due = started + std::chrono::microseconds(
                                   static_cast<int64_t>(static_cast<double>(now) / options.pace));
    if (due > Clock::now() + std::chrono::milliseconds(2)) std::this_thread::sleep_until(due);
  };
  auto progress = [&](int64_t now) {
    if (options.pace > 0) pace(now);
    if (!options.progress || now < next_report) return;
    options.progress(static_cast<double>(now) / static_cast<double>(total));
    next_report = now + total / 100;
  };
  // Sends every retry due by `until` (inclusive), in time order.
  auto drain = [&](int64_t until) {
    while (!retries_.empty() && retries_.next_due() <= until) {
      Pending pending = retries_.Pop();
      AdvanceTo(pending.due);
      const int64_t due = pending.due;
      Send(std::move(pending), due);
    }
  };

  int64_t start = 0;
  for (size_t p = 0; p < w_.phases.size(); ++p) {
    const Phase& phase = w_.phases[p];
    drain(start);
    AdvanceTo(start);
    Status policies = SetPolicies(phase.sharding);
    if (!policies.ok()) ++tally_.errors[std::string(policies.message())];
    ChangeThroughput(phase.throughput, start);
    if (replay_ != nullptr) {  // the one phase of a replay: the recorded requests at their times
      for (size_t i = 0; i < replay_->requests.size(); ++i) {
        const int64_t now = start + replay_->requests[i].micros;
        drain(now);
        AdvanceTo(now);
        progress(now);
        OfferRecord(static_cast<int64_t>(i), now);
      }
      start += phase.duration_micros;
      continue;
    }
    double weight_sum = 0;
    for (const Operation& op : phase.mix) weight_sum += op.weight;
    const double duration = static_cast<double>(phase.duration_micros) / 1e6;
    const double r0 = phase.rate;
    const double r1 = phase.rate_end.value_or(phase.rate);
    const double a = (r1 - r0) / (2 * duration);  // N(t) = r0 t + a t^2 arrivals by t seconds
    for (int64_t i = 0;; ++i) {
      double t;  // seconds into the phase of arrival i
      if (std::abs(a) < 1e-12) {
        if (r0 <= 0) break;
        t = static_cast<double>(i) / r0;
      } else {
        const double disc = r0 * r0 + 4 * a * static_cast<double>(i);
        if (disc < 0) break;
        t = (-r0 + std::sqrt(disc)) / (2 * a);
      }
      if (!(t < duration)) break;
      const int64_t now = start + static_cast<int64_t>(t * 1e6);
      drain(now);
      AdvanceTo(now);
      progress(now);
      // The operation, by weight.
      double pick = random_.Uniform() * weight_sum;
      int32_t index = 0;
      for (; index + 1 < static_cast<int32_t>(phase.mix.size()); ++index) {
        pick -= phase.mix[index].weight;
        if (pick < 0) break;
      }
      Offer(static_cast<int32_t>(p), index, now);
    }
    start += phase.duration_micros;
  }
  // Retries due before the end still run; later ones never do (the run is over): given up.
  drain(start - 1);
  if (options.pace > 0) pace(start);
  AdvanceTo(start);
  retries_.ForEach([&](const Pending& pending) {
    ++tally_.operations[pending.phase][pending.entry].gave_up;
    ++tally_.Second(start - 1).gave_up;
  });
  retries_.clear();
  if (scaler_) {
    tally_.scaling.insert(tally_.scaling.end(), scaler_->actions().begin(),
                          scaler_->actions().end());
  }
  if (options.progress) options.progress(1.0);
  if (cost != nullptr) {
    cost->requests = attempts_;
    cost->wall_seconds = SecondsSince(started);
  }
}

}  // namespace partstore::sim::internal
