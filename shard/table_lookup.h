// TableLookup: a Database's tables found by name without writes to memory that every thread
// writes.
//
// Every request finds its table by name. Through the catalogue alone (a shared_mutex and a map of
// shared_ptrs) that is, per request, a shared lock and a copy of the table's shared_ptr: four
// atomic read-modify-writes on two cache lines that every running thread writes, which then move
// between the cores on every request. With two threads reading (`partstore bench`, YCSB C) they
// took about a sixth of the time (perf: pthread_rwlock_rdlock, the reference count's increment
// and release), and a second thread added no throughput.
//
// So the lookups go through slots: a thread always uses the same slot (threads are numbered as they
// first look up, the number modulo kSlots). A slot remembers the last tables its threads found,
// each behind a holder: a shared_ptr<Table> in a block the slot allocated, so a hit copies a
// reference to the holder, whose count only the slot's threads write. The result shares the
// holder's ownership, so it keeps its table alive whatever the slot does afterwards.
//
// A slot never answers "no such table": a name it does not hold is looked up in the catalogue.
// So adding a table needs nothing; a table removed from the catalogue must be forgotten by every
// slot (Forget) before its removal returns, or a slot would keep answering with it. A lookup that
// found the table in the catalogue just before its removal keeps it in its slot only if no Forget
// began since (a generation count, checked under the slot's lock).
//
// Thread safety: Find and Forget may be called from any thread at once. Each slot has its own
// mutex, uncontended unless two running threads share the slot. Lock order: the slots' mutexes
// are leaves, held only to read or change their slot; the catalogue's lookup (`find`) runs with
// none held, so a caller may hold the catalogue's own lock.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/mutex.h"
#include "core/thread_annotations.h"

namespace partstore {

class Table;

class TableLookup {
 public:
  // The catalogue's lookup: the table named so, or null.
  using CatalogueFind = std::function<std::shared_ptr<Table>(std::string_view)>;

  static constexpr size_t kSlots = 32;
  static constexpr size_t kTablesPerSlot = 8;

  explicit TableLookup(CatalogueFind find) : find_(std::move(find)) {}
  TableLookup(const TableLookup&) = delete;
  TableLookup& operator=(const TableLookup&) = delete;

  // The table named `name` (the slot's, or the catalogue's), or null.
  std::shared_ptr<Table> Find(std::string_view name);

  // Every slot forgets the table named `name`. Call it after the catalogue no longer holds it
  // and before the removal is reported done.
  void Forget(std::string_view name);

 private:
  struct Entry {
    std::string name;
    std::shared_ptr<std::shared_ptr<Table>> holder;  // the slot's own reference to the table
  };
  struct alignas(64) Slot {
    Mutex mu;
    std::vector<Entry> entries PARTSTORE_GUARDED_BY(mu);  // at most kTablesPerSlot
    size_t next_victim PARTSTORE_GUARDED_BY(mu) = 0;
  };

  static size_t ThreadSlot();

  CatalogueFind find_;
  std::atomic<uint64_t> generation_{0};  // Forget calls begun
  std::array<Slot, kSlots> slots_;
};

}  // namespace partstore
