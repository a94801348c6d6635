// Persistence: a data directory for a database's snapshot and, optionally, its write-ahead log
// (partstore/database.h: Database::Open; snapshots: partstore/snapshot.h).
//
//   options.persistence = {.data_dir = "/var/lib/app", .wal = partstore::WalSync::kEverySecond};
//   auto db = partstore::Database::Open(options);  // loads, replays, logs
//
// Database::Open with a data_dir (created if missing) loads DIR/partstore.snapshot when there is
// one, replays the write-ahead log written after it (DIR/wal.<n>), takes a new snapshot (which
// truncates the log) and, with `wal` set, logs every change from then on. CreateSnapshot writes
// DIR/partstore.snapshot and truncates the log at the snapshot's point in time.
//
// What a write has once it is acknowledged (returned from the call, answered on the wire), by
// mode:
//   kAlways       written to the log and fsynced: nothing acknowledged is lost, whatever stops.
//   kEverySecond  written to the log (the operating system has it: a killed or crashed process
//                 loses nothing); fsynced within about a second: a power cut or kernel crash
//                 loses up to the last second or so.
//   kOff          written to the log, fsynced only at a snapshot and at close: a killed process
//                 loses nothing; a power cut loses what the operating system had not yet written
//                 (typically up to 30 s on Linux).
//   no wal        nothing is logged: a stop that is not a clean close loses every change since the
//                 last snapshot.
// A change is logged after it is applied in memory and before it is acknowledged, so a change
// that was never acknowledged may also be there after a restart (as with any database). A
// transaction is logged as one record: a replay applies all of it or none. A damaged last record
// of the newest log segment (cut short, or failing its checksum: what a process stopped while
// writing it leaves, or disk damage) is dropped, and said: Database::DescribePersistence names the
// file, the offset, the bytes dropped and why (`partstore serve` prints it on standard error and
// counts it in /metrics as partstore_wal_records_dropped_total). Damage anywhere else stops Open
// with an error naming the file and offset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace partstore {

enum class WalSync : uint8_t { kAlways, kEverySecond, kOff };

struct PersistenceOptions {
  // Where the snapshot and the log live; empty: nothing is kept (CreateSnapshot is refused).
  std::string data_dir;
  // The write-ahead log and how it syncs; absent: no log (snapshots only). Needs data_dir.
  std::optional<WalSync> wal;
};

// What Open found in the data directory (Database::DescribePersistence). Set by Open, constant
// after it.
struct PersistenceStats {
  // Damaged last records of the write-ahead log that Open dropped (at most one per Open: only the
  // newest segment's last record may be dropped), and their bytes.
  uint64_t wal_records_dropped = 0;
  uint64_t wal_bytes_dropped = 0;
  // One line per record dropped: "<segment file>: dropped the last record (<n> bytes at offset
  // <offset>): <why>", e.g. "data/wal.000002: dropped the last record (61 bytes at offset 4130):
  // checksum mismatch (the block is damaged)".
  std::vector<std::string> wal_drops;
};

}  // namespace partstore
