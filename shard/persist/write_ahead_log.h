// WriteAheadLog: every acknowledged change, appended to DIR/wal.<generation> before the answer
// (partstore/persistence.h says what each sync mode can lose).
//
// Segments: a snapshot taken through Database::CreateSnapshot starts a new segment (Rotate) at its
// point in time and names it in its header; once the snapshot is in place, the segments before it
// are deleted. Opening a data directory loads the snapshot, then replays the segments from the
// one it names, in order.
//
// A segment is a block file (shard/persist/block_file.h; magic "PSTWAL1\n") whose blocks are
// records (WalRecord). A record is appended whole under the log's mutex, so the log's order is
// one order of the changes: writers append under their item's stripe lock, so one item's records
// are in write order, and a transaction appends all its changes as one record under all its
// locks (WalGroup), so a replay applies all or none of it.
//
// Durability is group commit: Append only buffers; Sync(position) returns once everything up to
// `position` is written to the file (write(2): it survives the process being killed) and, with
// WalSync::kAlways, fsynced (fdatasync: it survives the machine stopping). The first thread to
// call Sync writes out what every thread buffered; the others find their records done. With
// kEverySecond a flusher thread fsyncs once a second; with kOff only Rotate and the destructor
// do.
//
// Thread safety: safe for concurrent use. Lock order: sync_mu_, then mu_ (a leaf: appenders hold
// a stripe lock, and a stream's mutex, when they take it, and nothing else is taken under it).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "partstore/persistence.h"
#include "partstore/status.h"
#include "shard/persist/stream_image.h"

namespace partstore::persist {

inline constexpr std::string_view kWalMagic = "PSTWAL1\n";
// Version 2 added change kinds 3 and 4 and the stream records (9, 10); version 4 items with short
// scalars and unindexed maps (core/stored_item_format.h). Versions 1 and 2 are read too. 3 is
// skipped: the header has no checksum, and no single bit flipped in 4 gives a version a reader
// takes, as one in 3 would give 2 or 1.
inline constexpr uint32_t kWalVersion = 4;

enum class WalRecord : uint8_t {
  kCreateTable = 1,           // table number (varint), TableSettings (the CreateTableRequest)
  kDeleteTable = 2,           // table number
  kUpdateTable = 3,           // table number, UpdateTableRequest (table_settings.h)
  kTimeToLive = 4,            // table number, enabled (bool), attribute (string)
  kPutShardingPolicy = 5,     // table number, ShardingPolicy
  kDeleteShardingPolicy = 6,  // table number, DeleteShardingPolicyRequest's policy key
  kWrite = 7,                 // count, then per change: table number, kind (0 put, 1 delete,
                              // 2 token, 3 put and 4 delete with a stream record), the item's
                              // portable encoding (StoredItem::PortableEncoding; a delete: its
                              // key attributes; a token: table number 0
                              // and a LoggedToken), then for 3 and 4 a StreamMark
  kTags = 8,                  // table number, the table's tags after the change (table_settings.h)
  kStream = 9,                // table number, a new stream's StreamImage (stream_image.h)
  kStreamShards = 10,         // table number, stream number, the shards a split closed and opened
};

class WriteAheadLog {
 public:
  // Creates DIR/wal.<generation> (which must not exist) and, for kEverySecond, the flusher.
  static Result<std::unique_ptr<WriteAheadLog>> Create(std::string directory, uint64_t generation,
                                                       WalSync sync);
  ~WriteAheadLog();  // writes out and fsyncs what is buffered
  WriteAheadLog(const WriteAheadLog&) = delete;
  WriteAheadLog& operator=(const WriteAheadLog&) = delete;

  // Buffers one record; returns the log position after it (also kept as this thread's
  // last_position(), what a write then waits for).
  uint64_t Append(WalRecord kind, std::string_view payload);
  // Waits until everything up to `position` is written (kAlways: and fsynced). An I/O error is
  // returned to every waiter (InternalServerError naming the file) and to every later Sync.
  Status Sync(uint64_t position);
  // The position of this thread's last Append (0: none).
  static uint64_t last_position();
  // The position after every record appended so far, and whether everything up to `position` is
  // written out (kAlways: and fsynced); without a lock.
  uint64_t appended() const { return appended_now_.load(std::memory_order_acquire); }
  bool durable_through(uint64_t position) const {
    return durable_now_.load(std::memory_order_acquire) >= position;
  }

  // Writes out and fsyncs the current segment, then starts generation + 1; returns it.
  Result<uint64_t> Rotate();
  uint64_t generation() const;
  const std::string& directory() const { return directory_; }

  // The path of a segment, and the generations of the segments in `directory`, ascending.
  static std::string SegmentPath(const std::string& directory, uint64_t generation);
  static std::vector<uint64_t> Segments(const std::string& directory);
  // Deletes the segments before `generation`.
  static void RemoveBefore(const std::string& directory, uint64_t generation);

 private:
  WriteAheadLog(std::string directory, WalSync sync)
      : directory_(std::move(directory)), sync_(sync) {}
  Status OpenSegment(uint64_t generation);  // REQUIRES: mu_ held (or not yet shared)
  // Writes `bytes` to the segment; fsyncs when `fsync`. REQUIRES: sync_mu_ held.
  Status WriteOut(const std::string& bytes, bool fsync);
  void Flusher();

  const std::string directory_;
  const WalSync sync_;
  std::mutex sync_mu_;    // one writer of the file at a time
  Status error_;          // guarded by sync_mu_: the first I/O error, for good
  uint64_t durable_ = 0;  // guarded by sync_mu_: written (and, kAlways, fsynced) up to here
  std::atomic<uint64_t> durable_now_{0};   // durable_, for durable_through
  std::atomic<uint64_t> appended_now_{0};  // appended_, for appended()
  mutable std::mutex mu_;                  // guards what follows
  std::string buffer_;                     // appended, not yet written
  uint64_t appended_ = 0;                  // the position after the last record appended
  uint64_t generation_ = 0;
  int fd_ = -1;
  std::string path_;
  // kEverySecond's flusher.
  std::condition_variable flusher_cv_;
  bool stop_ = false;  // guarded by mu_
  std::thread flusher_;
};

// The ClientRequestToken of a committed TransactWriteItems, logged in the same record as its
// changes: a replay remembers it, so that the request repeated after a restart (as the SDKs
// repeat one whose answer was lost) is answered, not applied a second time.
struct LoggedToken {
  std::string token;
  uint64_t fingerprint = 0;           // of the request (shard/transaction.cc)
  int64_t finished_epoch_micros = 0;  // when it finished, Unix microseconds
};
void EncodeToken(const LoggedToken& token, std::string* out);
bool DecodeToken(std::string_view bytes, LoggedToken* token);

// A transaction's changes, appended as one record (WalRecord::kWrite) by Commit. While one is
// alive on a thread, that thread's item changes (AppendChange) go into it instead of the log.
class WalGroup {
 public:
  WalGroup();
  ~WalGroup();
  WalGroup(const WalGroup&) = delete;
  WalGroup& operator=(const WalGroup&) = delete;
  // The transaction's token, committed with its changes.
  void AddToken(const LoggedToken& token);
  // Appends the changes gathered to `log` as one record (nothing when there are none), then runs
  // what was to follow it (AfterCommit), as the destructor does when Commit was not called.
  void Commit(WriteAheadLog& log);
  // The group of this thread's transaction (null: none), and something to run once its record
  // is appended (a stream record of one of its changes becomes readable).
  static WalGroup* current();
  void AfterCommit(std::function<void()> then) { after_.push_back(std::move(then)); }

 private:
  friend bool AppendChange(WriteAheadLog& log, uint64_t table, bool erase,
                           std::string_view encoding, const StreamMark* mark);
  void RunAfter();
  std::string changes_;
  uint64_t count_ = 0;
  std::vector<std::function<void()>> after_;
};

// One item change of table number `table`: a put of the item `encoding` (portable:
// StoredItem::PortableEncoding), or (erase) a delete of the item with the key attributes
// `encoding`, with the stream record it wrote (`mark`, or null).
// Appended as its own record (returns true), or into the thread's WalGroup (false).
bool AppendChange(WriteAheadLog& log, uint64_t table, bool erase, std::string_view encoding,
                  const StreamMark* mark = nullptr);

// The tokens still remembered, carried into a new segment when a snapshot cuts the log (the
// segments holding their transactions are deleted); returns the log position after the record
// (0: none appended).
uint64_t AppendTokens(WriteAheadLog& log, const std::vector<LoggedToken>& tokens);

}  // namespace partstore::persist
