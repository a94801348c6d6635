// remote_getitem URL THREADS SECONDS: RemoteStore's GetItem load on a DynamoDB endpoint, the
// client side of bench/wire/client.sh. THREADS threads share one RemoteStore (its pool holds one
// kept-alive connection per thread) and read random items of the key space load.py loads (PKS x
// SKS, from the environment as wrk's scripts take them) for SECONDS seconds. Prints one line:
//   RESULT rps=<requests/s> requests=<n> errors=<n> cpu_s=<this process's CPU seconds>
//          cpu_us_per_request=<...> seconds=<...>
// (credentials and region: the AWS_* environment, as any RemoteStore.)
#include <partstore/remote_store.h>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : fallback;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s URL THREADS SECONDS\n", argv[0]);
    return 2;
  }
  const int threads = std::atoi(argv[2]);
  const double seconds = std::atof(argv[3]);
  const int pks = EnvInt("PKS", 10000), sks = EnvInt("SKS", 10);
  const char* table_env = std::getenv("TABLE");
  const std::string table = table_env != nullptr ? table_env : "WireBench";
  auto opened = partstore::RemoteStore::Open(
      {.endpoint = argv[1], .max_connections = static_cast<size_t>(threads)});
  if (!opened.ok()) {
    std::fprintf(stderr, "%s\n", opened.status().ToString().c_str());
    return 1;
  }
  partstore::RemoteStore& store = **opened;
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> requests{0}, errors{0};
  const double cpu0 = CpuSeconds();
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      std::mt19937_64 random(1234 + t);
      char pk[16], sk[16];
      uint64_t n = 0, bad = 0;
      partstore::GetItemRequest get{.table_name = table};
      while (!stop.load(std::memory_order_relaxed)) {
        std::snprintf(pk, sizeof pk, "USER#%06d", static_cast<int>(random() % pks));
        std::snprintf(sk, sizeof sk, "ORDER#%02d", static_cast<int>(random() % sks));
        get.key = {{"PK", partstore::Value(pk)}, {"SK", partstore::Value(sk)}};
        auto got = store.GetItem(get);
        ++n;
        if (!got.ok() || !got->item) ++bad;
      }
      requests += n;
      errors += bad;
    });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  for (std::thread& w : workers) w.join();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = CpuSeconds() - cpu0;
  std::printf(
      "RESULT rps=%.0f requests=%llu errors=%llu cpu_s=%.3f cpu_us_per_request=%.2f "
      "seconds=%.2f\n",
      requests / elapsed, static_cast<unsigned long long>(requests.load()),
      static_cast<unsigned long long>(errors.load()), cpu,
      requests > 0 ? cpu * 1e6 / requests : 0.0, elapsed);
  return errors > 0 ? 1 : 0;
}
