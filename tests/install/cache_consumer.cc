// A user's program of the installed partstore::cache: a CachedStore in front of the engine; the
// second read is a hit.
#include <partstore/cached_store.h>
#include <partstore/database.h>

#include <cstdio>

int main() {
  partstore::Database table;
  partstore::KeySchema key;
  key.partition = {"PK", partstore::KeyType::kString};
  if (!table.CreateTable(partstore::SimpleTable("Products", key)).ok()) return 1;
  auto cache = partstore::CachedStore::Open(table, {});
  if (!cache.ok()) return 1;
  partstore::Store& store = **cache;
  if (!store.PutItem({.table_name = "Products", .item = {{"PK", partstore::Value("p1")}}}).ok()) {
    return 1;
  }
  auto got = store.GetItem({.table_name = "Products", .key = {{"PK", partstore::Value("p1")}}});
  if (!got.ok() || !got->item || (*cache)->stats().item_hits != 1) return 1;
  std::printf("cache consumer: one hit\n");
  return 0;
}
