// What the process holds: resident pages and the allocator's count of live heap bytes. The
// benchmarks that measure memory (engine, index, seed memory) take one before and one after a
// load and report the difference per item.
//
// RSS is exact only when the load is the first large allocation of the process (run such a
// benchmark alone); the heap count is exact whatever ran before (jemalloc's stats.allocated when
// jemalloc is the allocator, glibc's mallinfo2 otherwise).
#pragma once

#include <malloc.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>

// jemalloc's control interface, when jemalloc is the allocator (Debian's libjemalloc exports it
// unprefixed); null otherwise.
extern "C" int mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen)
    __attribute__((weak));

namespace partstore::bench {

struct MemorySnapshot {
  int64_t rss = 0;   // bytes resident
  int64_t heap = 0;  // bytes allocated and not freed, by the allocator's count
};

inline const char* AllocatorName() { return mallctl != nullptr ? "jemalloc" : "glibc"; }

inline int64_t HeapAllocated() {
  if (mallctl != nullptr) {
    uint64_t epoch = 1;
    size_t len = sizeof epoch;
    mallctl("epoch", &epoch, &len, &epoch, len);
    size_t allocated = 0;
    len = sizeof allocated;
    if (mallctl("stats.allocated", &allocated, &len, nullptr, 0) == 0) {
      return static_cast<int64_t>(allocated);
    }
  }
  struct mallinfo2 info = mallinfo2();
  return static_cast<int64_t>(info.uordblks + info.hblkhd);
}

inline MemorySnapshot TakeMemorySnapshot() {
  MemorySnapshot s;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    long size = 0, resident = 0;
    if (std::fscanf(f, "%ld %ld", &size, &resident) == 2) {
      s.rss = static_cast<int64_t>(resident) * sysconf(_SC_PAGESIZE);
    }
    std::fclose(f);
  }
  s.heap = HeapAllocated();
  return s;
}

}  // namespace partstore::bench
