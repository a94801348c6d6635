// Links the engine alone (partstore::partstore): a Store in this process, no HTTP, no OpenSSL.
#include <partstore/database.h>

#include <iostream>

int main() {
  partstore::Database db;
  partstore::Store& store = db;
  const partstore::KeySchema key{{"PK", partstore::KeyType::kString}, {}};
  if (!store.CreateTable(partstore::SimpleTable("T", key)).ok()) return 1;
  if (!store.PutItem({.table_name = "T", .item = {{"PK", partstore::Value("a")}}}).ok()) return 1;
  auto got = store.GetItem({.table_name = "T", .key = {{"PK", partstore::Value("a")}}});
  if (!got.ok() || !got->item) return 1;
  std::cout << "engine alone: ok\n";
  return 0;
}
