// Snapshots: a database's tables (definitions, settings and items) in one file, and a database
// opened from one (partstore/database.h: SaveSnapshot, LoadSnapshot, Open).
//
// What a snapshot keeps of each table: its name, key schema, billing mode and throughput, LSIs
// and GSIs (their entries are rebuilt from the items on load), the stream's view type while a
// stream is enabled, the TTL attribute while TTL is enabled, the write-sharding policies, and
// every item; and every stream the database keeps (a table's enabled one, those it disabled,
// those of deleted tables) with its label and ARN, its shards and its records, so that a
// consumer's iterators and sequence numbers go on after a load. What it does not keep: the
// simulated partition map and its statistics (a restored table starts with DynamoDB's initial
// partitions; a stream's open shards split again as those do), Contributor Insights settings,
// point-in-time recovery's setting, the creation time, and the ClientRequestTokens of recent
// transactions.
//
// The point in time: SaveSnapshot holds every base stripe of every table shared at once, for as
// long as it takes to copy each item's handle (a pointer and a reference count: stored items are
// immutable, so the copy is the snapshot), then writes the file with no lock held. Writes wait
// only for that copy (SnapshotInfo::pause_seconds; bench/README.md has numbers); a transaction is
// in it whole or not at all.
//
// The file (format: shard/persist/snapshot_format.h) is written under a temporary name beside
// `path`, fsynced and renamed over it, so `path` holds the previous snapshot or the whole new one,
// never a part. A truncated or damaged file is refused (every block carries a checksum) with
// ValidationException naming the file and the offset, and LoadSnapshot then leaves the database
// as it was.
#pragma once

#include <cstdint>
#include <string>

namespace partstore {

// Partstore.CreateSnapshot: a snapshot to the data directory's (DatabaseOptions::persistence).
struct CreateSnapshotRequest {};

struct SnapshotInfo {
  std::string path;
  int64_t tables = 0;
  int64_t items = 0;
  int64_t bytes = 0;         // the file's size
  double seconds = 0;        // the whole save or load
  double pause_seconds = 0;  // SaveSnapshot: how long writes waited
};

}  // namespace partstore
