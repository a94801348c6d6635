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
// transaction is logged as one record: a replay applies all of it or none. A torn record at the
// end of the log (the process stopped while writing it) is dropped; damage anywhere else stops
// Open with an error naming the file and offset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace partstore {

enum class WalSync : uint8_t { kAlways, kEverySecond, kOff };

struct PersistenceOptions {
  // Where the snapshot and the log live; empty: nothing is kept (CreateSnapshot is refused).
  std::string data_dir;
  // The write-ahead log and how it syncs; absent: no log (snapshots only). Needs data_dir.
  std::optional<WalSync> wal;
};

}  // namespace partstore
