// Persistence (issue 27): how fast a database is saved and loaded, how long writes wait for a
// snapshot, and what the write-ahead log costs a write.
//
//   BM_Snapshot_Save/<items>   SaveSnapshot of one table of `items` 200-byte items (items/s and
//                              the file's MB/s; pause_us: the point-in-time copy writes waited
//                              for, the median's run).
//   BM_Snapshot_Load/<items>   LoadSnapshot of that file into an empty database, from a warm page
//                              cache (items/s); /1 adds a GSI with an ALL projection, rebuilt as
//                              the items load.
//   BM_Wal_Put/<mode>          PutItem overwriting one of 100k keys with a 200-byte item, 1 and 2
//                              threads; mode -1: no log, 0 fsync=always, 1 everysec, 2 off.
//   BM_Wal_StreamPut/<mode>    The same on a table with a NEW_AND_OLD_IMAGES stream (each put a
//                              record, logged with its change under the stream's mutex).
//   BM_Wal_ReadWhileWriting/<writer>  GetItem of one of 10k keys under fsync=always, alone (/0)
//                              and while another thread puts (/1): a read waits until the log
//                              holds what it may show (p50_us / p99_us of the reads).
//   BM_Export/<items>          ExportTableToPointInTime's work: the image and the gzipped files.
//   BM_Import/<items>          ImportTable's work on those files: gunzip, parse, store.
//   BM_Backup/<items>/<restore>  CreateBackup (/0), and with RestoreTableFromBackup (/1).
// Files go to $TMPDIR (default /tmp; on this machine ext4 on a virtual disk). Figures:
// bench/README.md, "Persistence".
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "partstore/database.h"
#include "tools/transfer/export_writer.h"
#include "tools/transfer/import_reader.h"

namespace partstore::persistence_benchmark {
namespace {

std::string SnapshotPath(int64_t items, bool gsi) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/partstore_snapshot_bench." +
         std::to_string(getpid()) + "." + std::to_string(items) + (gsi ? ".gsi" : "");
}

std::unique_ptr<Database> MakeDb(int64_t items, bool gsi) {
  auto db = std::make_unique<Database>();
  CreateTableRequest table =
      SimpleTable("Bench", KeySchema{{"PK", KeyType::kString}, {{"SK", KeyType::kString}}});
  if (gsi) {
    table.attribute_definitions.push_back({"group", KeyType::kString});
    table.global_secondary_indexes.push_back(
        {.index_name = "ByGroup",
         .key_schema = {{"group", KeyRoleName::kHash}, {"PK", KeyRoleName::kRange}},
         .projection = {.projection_type = ProjectionType::kAll, .non_key_attributes = {}},
         .provisioned_throughput = std::nullopt});
  }
  (void)db->CreateTable(table);
  for (int64_t i = 0; i < items; ++i) {
    (void)db->PutItem({.table_name = "Bench",
                       .item = {{"PK", Value("USER#" + std::to_string(1000000 + i / 4))},
                                {"SK", Value("ORDER#" + std::to_string(i % 4))},
                                {"group", Value("G" + std::to_string(i % 1000))},
                                {"total", Value(Number::Parse(std::to_string(i)).value())},
                                {"payload", Value(std::string(130, 'x'))}}});
  }
  return db;
}

void BM_Snapshot_Save(benchmark::State& state) {
  const int64_t items = state.range(0);
  std::unique_ptr<Database> db = MakeDb(items, false);
  const std::string path = SnapshotPath(items, false);
  double pause = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    Result<SnapshotInfo> saved = db->SaveSnapshot(path);
    if (!saved.ok()) {
      state.SkipWithError(std::string(saved.status().message()).c_str());
      break;
    }
    pause = saved->pause_seconds;
    bytes = saved->bytes;
  }
  std::remove(path.c_str());
  state.SetItemsProcessed(state.iterations() * items);
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["pause_us"] = pause * 1e6;
}
BENCHMARK(BM_Snapshot_Save)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_Snapshot_Load(benchmark::State& state) {
  const int64_t items = state.range(0);
  const bool gsi = state.range(1) != 0;
  const std::string path = SnapshotPath(items, gsi);
  {
    std::unique_ptr<Database> db = MakeDb(items, gsi);
    if (!db->SaveSnapshot(path).ok()) {
      state.SkipWithError("save failed");
      return;
    }
  }
  for (auto _ : state) {
    auto db = std::make_unique<Database>();
    Result<SnapshotInfo> loaded = db->LoadSnapshot(path);
    if (!loaded.ok()) {
      state.SkipWithError(std::string(loaded.status().message()).c_str());
      break;
    }
    state.PauseTiming();  // (the database's destruction is not the load)
    db.reset();
    state.ResumeTiming();
  }
  std::remove(path.c_str());
  state.SetItemsProcessed(state.iterations() * items);
}
BENCHMARK(BM_Snapshot_Load)
    ->Args({1'000'000, 0})
    ->Args({1'000'000, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

std::string TempRoot() {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp");
}

void WalPut(benchmark::State& state, bool stream) {
  static std::unique_ptr<Database> db;
  static std::string dir;
  constexpr int kKeys = 100'000;
  if (state.thread_index() == 0) {
    dir = TempRoot() + "/partstore_wal_bench." + std::to_string(getpid());
    std::filesystem::remove_all(dir);
    DatabaseOptions options;
    if (state.range(0) >= 0) {
      options.persistence = {.data_dir = dir, .wal = static_cast<WalSync>(state.range(0))};
    }
    db = std::move(*Database::Open(options));
    CreateTableRequest table =
        SimpleTable("Bench", KeySchema{{"PK", KeyType::kString}, {{"SK", KeyType::kString}}});
    if (stream) {
      table.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
    }
    (void)db->CreateTable(table);
  }
  // 1024 keys, each put in turn with two payloads: every put changes its item (a stream record
  // each).
  std::vector<PutItemRequest> requests;
  uint64_t rng = 0x9e3779b97f4a7c15ull * static_cast<uint64_t>(state.thread_index() + 1);
  for (int i = 0; i < 1024; ++i) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    requests.push_back({.table_name = "Bench",
                        .item = {{"PK", Value("USER#" + std::to_string((rng >> 33) % kKeys))},
                                 {"SK", Value("PROFILE")},
                                 {"n", Value(Number::Parse(std::to_string(i)).value())},
                                 {"payload", Value(std::string(150, 'x'))}}});
  }
  for (int i = 0; i < 1024; ++i) {
    PutItemRequest again = requests[static_cast<size_t>(i)];
    again.item["payload"] = Value(std::string(150, 'y'));
    requests.push_back(std::move(again));
  }
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(db->PutItem(requests[i++ & 2047]));
  }
  state.SetItemsProcessed(state.iterations());
  if (state.thread_index() == 0) {
    db.reset();
    std::filesystem::remove_all(dir);
  }
}
void BM_Wal_Put(benchmark::State& state) { WalPut(state, /*stream=*/false); }
BENCHMARK(BM_Wal_Put)->DenseRange(-1, 2)->Threads(1)->Threads(2)->Threads(8)->UseRealTime();
void BM_Wal_StreamPut(benchmark::State& state) { WalPut(state, /*stream=*/true); }
BENCHMARK(BM_Wal_StreamPut)->Arg(-1)->Arg(2)->Threads(1)->Threads(2)->UseRealTime();

void BM_Wal_ReadWhileWriting(benchmark::State& state) {
  const std::string dir = TempRoot() + "/partstore_wal_read_bench." + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  DatabaseOptions options;
  options.persistence = {.data_dir = dir, .wal = WalSync::kAlways};
  std::unique_ptr<Database> db = std::move(*Database::Open(options));
  (void)db->CreateTable(SimpleTable("Bench", KeySchema{{"PK", KeyType::kString}, std::nullopt}));
  constexpr int kKeys = 10'000;
  auto item = [](int key, int n) {
    return Item{{"PK", Value("USER#" + std::to_string(key))},
                {"n", Value(Number::Parse(std::to_string(n)).value())},
                {"payload", Value(std::string(150, 'x'))}};
  };
  {
    BatchWriteItemRequest batch;
    for (int k = 0; k < kKeys; ++k) {
      if (batch.request_items.empty()) batch.request_items.push_back({"Bench", {}});
      batch.request_items[0].second.push_back(
          {.kind = WriteRequest::Kind::kPut, .item = item(k, 0)});
      if (batch.request_items[0].second.size() == 25) {
        (void)db->BatchWriteItem(batch);
        batch.request_items.clear();
      }
    }
  }
  std::atomic<bool> stop{false};
  std::atomic<int64_t> writes{0};
  std::thread writer;
  if (state.range(0) == 1) {
    writer = std::thread([&] {
      for (int n = 1; !stop; ++n) {
        (void)db->PutItem({.table_name = "Bench", .item = item(n % kKeys, n)});
        writes.fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
  std::vector<double> micros;
  uint64_t rng = 0x9e3779b97f4a7c15ull;
  for (auto _ : state) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(
        db->GetItem({.table_name = "Bench",
                     .key = {{"PK", Value("USER#" + std::to_string((rng >> 33) % kKeys))}},
                     .consistent_read = true}));
    micros.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
  }
  stop = true;
  if (writer.joinable()) writer.join();
  std::sort(micros.begin(), micros.end());
  if (!micros.empty()) {
    state.counters["p50_us"] = micros[micros.size() / 2];
    state.counters["p99_us"] = micros[micros.size() * 99 / 100];
    state.counters["p999_us"] = micros[micros.size() * 999 / 1000];
    state.counters["waited"] = static_cast<double>(std::count_if(micros.begin(), micros.end(),
                                                                 [](double m) { return m > 50; })) /
                               static_cast<double>(micros.size());
  }
  state.counters["writes"] = static_cast<double>(writes.load());
  db.reset();
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_Wal_ReadWhileWriting)->Arg(0)->Arg(1)->UseRealTime();

// An export of the table (its point-in-time image, then the gzipped data files and manifests),
// and an import of those files into a new table (ImportTable's path: read, gunzip, parse, store).
Result<transfer::ExportFiles> ExportTo(Database& db, const std::string& dir) {
  PARTSTORE_ASSIGN_OR_RETURN(TableImage image, db.ReadTableImage("Bench"));
  transfer::ExportDescription description{
      .export_arn = transfer::NewTransferArn(image.table.table_arn, "export"),
      .table_arn = image.table.table_arn};
  return transfer::WriteExport(image, description, dir);
}

void BM_Export(benchmark::State& state) {
  const int64_t items = state.range(0);
  std::unique_ptr<Database> db = MakeDb(items, false);
  const std::string dir = TempRoot() + "/partstore_export_bench." + std::to_string(getpid());
  for (auto _ : state) {
    Result<transfer::ExportFiles> files = ExportTo(*db, dir);
    if (!files.ok()) {
      state.SkipWithError(std::string(files.status().message()).c_str());
      break;
    }
  }
  std::filesystem::remove_all(dir);
  state.SetItemsProcessed(state.iterations() * items);
}
BENCHMARK(BM_Export)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Import(benchmark::State& state) {
  const int64_t items = state.range(0);
  const std::string dir = TempRoot() + "/partstore_import_bench." + std::to_string(getpid());
  std::string data;
  {
    Result<transfer::ExportFiles> files = ExportTo(*MakeDb(items, false), dir);
    if (!files.ok()) {
      state.SkipWithError("export failed");
      return;
    }
    data = dir + "/" + std::filesystem::path(files->manifest_summary_key).parent_path().string();
  }
  Result<transfer::LocalSource> source = transfer::FindLocalSource(data);
  for (auto _ : state) {
    auto db = std::make_unique<Database>();
    (void)db->CreateTable(
        SimpleTable("Bench", KeySchema{{"PK", KeyType::kString}, {{"SK", KeyType::kString}}}));
    int64_t imported = 0;
    Status loaded = transfer::LoadObjects(
        *db, "Bench", source->paths, {}, source->gzip,
        [&](const transfer::ImportCounts& more) { imported += more.imported; });
    if (!loaded.ok() || imported != items) {
      state.SkipWithError("import failed");
      break;
    }
    state.PauseTiming();  // (the database's destruction is not the import)
    db.reset();
    state.ResumeTiming();
  }
  std::filesystem::remove_all(dir);
  state.SetItemsProcessed(state.iterations() * items);
}
BENCHMARK(BM_Import)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();

// CreateBackup (the handle copy; no data directory: nothing written) and RestoreTableFromBackup
// (a new table filled through ImportItem).
void BM_Backup(benchmark::State& state) {
  const int64_t items = state.range(0);
  std::unique_ptr<Database> db = MakeDb(items, false);
  int round = 0;
  for (auto _ : state) {
    Result<CreateBackupResult> backup =
        db->CreateBackup({.table_name = "Bench", .backup_name = "bench"});
    if (state.range(1) == 1) {
      Result<RestoreTableFromBackupResult> restored =
          db->RestoreTableFromBackup({.target_table_name = "Restored" + std::to_string(round++),
                                      .backup_arn = backup->backup_details.backup_arn});
      if (!restored.ok()) {
        state.SkipWithError(std::string(restored.status().message()).c_str());
        break;
      }
    }
  }
  state.SetItemsProcessed(state.iterations() * items);
}
BENCHMARK(BM_Backup)
    ->Args({100'000, 0})
    ->Args({100'000, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace partstore::persistence_benchmark
