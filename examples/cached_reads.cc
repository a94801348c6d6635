// A cache in front of the table (partstore/cached_store.h): DynamoDB Accelerator's semantics for
// a product page read again and again. The first read of the product item and of its reviews
// goes to the table; the next 99 come from memory. A review written through the cache replaces
// what it changed: the next page read goes to the table once, then is cached again. The same
// program runs against a DynamoDB endpoint (--endpoint URL), the cache in front of it.
#include <partstore/cached_store.h>
#include <partstore/store.h>

#include <iostream>

#include "example_store.h"

using partstore::AttributeMap;
using partstore::Item;
using partstore::Value;

int main(int argc, char** argv) {
  std::unique_ptr<partstore::Store> table = example::OpenStore(argc, argv);
  if (table == nullptr) return 2;
  partstore::KeySchema key;
  key.partition = {"PK", partstore::KeyType::kString};
  key.sort = partstore::KeyAttribute{"SK", partstore::KeyType::kString};
  if (!table->CreateTable(partstore::SimpleTable("Products", key)).ok()) return 1;
  auto opened =
      partstore::CachedStore::Open(*table, {.item_ttl_seconds = 300, .query_ttl_seconds = 60});
  if (!opened.ok()) return 1;
  partstore::CachedStore& cache = **opened;
  partstore::Store& store = cache;  // the same code as against the table

  if (!store
           .PutItem({.table_name = "Products",
                     .item = {{"PK", "PRODUCT#42"}, {"SK", "PRODUCT"}, {"name", "Lamp"}}})
           .ok()) {
    return 1;
  }
  for (const char* review : {"REVIEW#1", "REVIEW#2"}) {
    if (!store
             .PutItem({.table_name = "Products",
                       .item = {{"PK", "PRODUCT#42"}, {"SK", review}, {"stars", Value(5)}}})
             .ok()) {
      return 1;
    }
  }
  const partstore::QueryRequest reviews{
      .table_name = "Products",
      .key_condition_expression = "PK = :p AND begins_with(SK, :r)",
      .expression_attribute_values = AttributeMap{{":p", "PRODUCT#42"}, {":r", "REVIEW#"}}};
  for (int i = 0; i < 100; ++i) {  // the page: the product and its reviews
    auto product =
        store.GetItem({.table_name = "Products", .key = {{"PK", "PRODUCT#42"}, {"SK", "PRODUCT"}}});
    auto page = store.Query(reviews);
    if (!product.ok() || !product->item || !page.ok() || page->count != 2) return 1;
  }
  partstore::CacheStats stats = cache.stats();
  std::cout << "item hits " << stats.item_hits << ", item misses " << stats.item_misses
            << ", page hits " << stats.query_hits << ", page misses " << stats.query_misses << "\n";
  // The writes went through the cache, so the product was cached by its PutItem: no item miss.
  if (stats.item_misses != 0 || stats.query_misses != 1) return 1;

  // A new review through the cache drops the product's pages: the next read sees it.
  if (!store
           .PutItem({.table_name = "Products",
                     .item = {{"PK", "PRODUCT#42"}, {"SK", "REVIEW#3"}, {"stars", Value(4)}}})
           .ok()) {
    return 1;
  }
  auto page = store.Query(reviews);
  if (!page.ok()) return 1;
  std::cout << "after a new review: " << page->count << " reviews, page misses "
            << cache.stats().query_misses << "\n";
  return page->count == 3 && cache.stats().query_misses == 2 ? 0 : 1;
}
