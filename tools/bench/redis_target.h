// Redis as a bench Target: the same operations as hashes and sorted sets, through hiredis'
// synchronous API (redisCommandArgv, binary-safe: no value goes through a format string), one
// connection per Session, pipelined wherever several commands go together.
//
//   what                            key                    type        holds
//   an item, table without sort key <table>:<pk>           hash        every attribute, the key
//   an item, table with sort key    <table>:<pk>\x1f<sk>   hash          attributes included
//   a partition's item collection   <table>:c:<pk>         sorted set  the sort keys
//   a GSI partition                 <table>:g:<gsi pk>     sorted set  <gsi sk>\x1f<item key>
//   the scan index (no sort key)    <table>:index          sorted set  the partition keys
//
// where <item key> is the item's key after "<table>:" (<pk>, or <pk>\x1f<sk>).
//
// Every sorted-set member has score 0, so ZRANGEBYLEX walks it in bytewise order, DynamoDB's order
// of S sort keys. The operations:
//   Get     HGETALL <item>, the whole item as GetItem returns it.
//   Put     MULTI, DEL <item>, HSET <item> f v ..., ZADD <collection or index> 0 <sk or pk>, EXEC:
//           the item is replaced (not merged) and no reader sees it half written. On a table with
//           a GSI the item's old GSI keys are read first (WATCH <item> + HMGET) and, when they
//           changed, the old member is ZREMed in the same MULTI; a concurrent writer makes EXEC
//           fail and the put starts over after a random pause of up to 1 ms (optimistic
//           locking, Redis' own idiom; after 100 conflicts in a row the put is an error).
//   Update  HSET <item> <attribute> <value> (creates a partial hash if the item does not exist);
//           an update of a GSI key attribute moves the GSI member as Put does.
//   Query   ZRANGEBYLEX <set> [<prefix> (<prefix's successor> LIMIT 0 <limit> ("- +" without a
//           prefix), then HGETALL of each member's item, pipelined: two round trips.
//   Scan    ZRANGEBYLEX <table>:index (<start> + LIMIT 0 <limit> ("- +" from the beginning), then
//           HGETALL each, pipelined. YCSB's own Redis binding also scans through one sorted-set
//           index, but by ZRANGEBYSCORE over hashed keys; by lexical range here, the scan order is
//           the partition keys' bytewise order (DynamoDB's follows the keys' hashes).
//   Load    256 items per round trip, each DEL + HSET + ZADDs, without MULTI (nobody reads a table
//           being loaded) and without the GSI read (the table is new and empty).
//   Prepare for each table, SCAN 0 MATCH <table>:* COUNT 1000 and UNLINK each page of keys until
//           the cursor is 0. Never FLUSHDB: the server may hold other data, which stays.
//
// Layout limits: key attributes must not contain \x1f (GSI sort keys may), and in a table without
// sort key the partition keys "index" and "g:..." would collide with the index and GSI sets; none
// of the bench's keys do. Tables named "t" and "t:c" (any name plus ':') would share keys.
//
// Errors: every Redis error reply (also inside EXEC's answer) and every I/O error is a non-OK
// Status (Internal, with the server's host:port); after an I/O error the Session's connection is
// dead and every later call fails: make a new Session. Replies are read with a 10 s timeout.
// MakeRedisTarget sets SIGPIPE to SIG_IGN if it was SIG_DFL: hiredis writes with write(2), and a
// write to a connection the server reset must be an error, not the end of the process.
//
// Thread safety: the Target is shared (Prepare, NewSession and name() may be called from any
// thread; Prepare opens its own connection); a Session and its connection belong to one thread at
// a time.
#pragma once

#include <memory>
#include <string>

#include "partstore/status.h"
#include "tools/bench/target.h"

namespace partstore::bench {

struct RedisOptions {
  std::string host = "127.0.0.1";
  int port = 6379;
};

// Connects once to check that the server answers PING; an error Status (naming host:port and
// hiredis' reason) if not.
Result<std::unique_ptr<Target>> MakeRedisTarget(std::string name, RedisOptions options);

}  // namespace partstore::bench
