// Seed 002's many-to-many use case, tags and posts, through the C++ API: an adjacency list stored
// both ways and written with BatchWriteItem (at most 25 writes a call, unprocessed ones resent),
// the posts with a tag and the tags of a post (Query begins_with, every page), and "related
// posts" ranked by how many tags they share with a post, before and after a tag is removed.
// Queries use the typed KeyCondition and QueryAll; edges' keys come from AdjacencyKey::ToItem and
// ids from KeyId.
//
// Key design: one table "Content", PK and SK strings; "post p has tag t" is two items, the
// seed's exact shapes:
//   PK = POST#p  SK = TAG#t   type HAS_TAG    (tags of p:     begins_with(SK, "TAG#"))
//   PK = TAG#t   SK = POST#p  type TAGGED_IN  (posts with t:  begins_with(SK, "POST#"))
// BatchWriteItem is atomic per item, not per batch: use TransactWriteItems (see
// social_graph.cc) when both directions must appear together.
//
// Every answer is checked against one worked out by hand; a wrong one prints MISMATCH and makes
// the program exit 1. Built and run by the test suite (example.tags_and_posts), so this example
// cannot rot.
#include <partstore/key_condition.h>
#include <partstore/key_patterns.h>
#include <partstore/store.h>

#include <algorithm>
#include <iostream>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "example_store.h"

namespace {

using partstore::Item;
using partstore::Result;
using partstore::Status;
using partstore::Store;
using partstore::WriteRequest;
using Ids = std::vector<std::string>;                     // post ids or tags, sorted
using Ranked = std::vector<std::pair<std::string, int>>;  // (post id, shared tags)

const std::string kTable = "Content";

// The two items of "post has tag", as puts (or, with kDelete, as the keys to delete).
std::vector<WriteRequest> TagWrites(std::string_view post, std::string_view tag,
                                    WriteRequest::Kind kind) {
  const std::string post_key = partstore::EntityKey("POST", post);
  const std::string tag_key = partstore::EntityKey("TAG", tag);
  std::vector<WriteRequest> writes;
  for (const auto& [edge, type] :
       {std::pair{partstore::AdjacencyKeys(post_key, tag_key), "HAS_TAG"},
        std::pair{partstore::AdjacencyKeys(tag_key, post_key), "TAGGED_IN"}}) {
    Item item = edge.ToItem("PK", "SK");
    if (kind == WriteRequest::Kind::kPut) item["type"] = type;
    writes.push_back({.kind = kind, .item = std::move(item)});
  }
  return writes;
}

// Sends `writes` in BatchWriteItem calls of at most 25, resending what a call leaves unprocessed
// (only a throttled table does; a real client would back off before resending).
Status BatchWrite(Store& db, const std::vector<WriteRequest>& writes) {
  for (size_t begin = 0; begin < writes.size(); begin += partstore::kMaxBatchWriteRequests) {
    const size_t end = std::min(writes.size(), begin + partstore::kMaxBatchWriteRequests);
    partstore::BatchWriteItemRequest batch;
    batch.request_items.emplace_back(kTable,
                                     std::vector(writes.begin() + begin, writes.begin() + end));
    std::cout << "BatchWriteItem: " << end - begin << " writes\n";
    for (int attempt = 1; !batch.request_items.empty(); ++attempt) {
      if (attempt > 5) {
        return Status(partstore::Code::kProvisionedThroughputExceeded,
                      "writes still unprocessed after 5 BatchWriteItem calls");
      }
      PARTSTORE_ASSIGN_OR_RETURN(auto result, db.BatchWriteItem(batch));
      batch.request_items = std::move(result.unprocessed_items);
    }
  }
  return Status::Ok();
}

// The ids of the "TYPE#id" sort keys under partition `pk`: every page of
// Query PK = pk AND begins_with(SK, "TYPE#"), in sort-key order.
Result<Ids> Children(Store& db, const std::string& pk, std::string_view type) {
  partstore::QueryRequest query{.table_name = kTable};
  PARTSTORE_RETURN_IF_ERROR(partstore::KeyCondition::Eq("PK", pk)
                                .BeginsWith("SK", partstore::KeyPrefix(type))
                                .ApplyTo(&query));
  Ids ids;
  auto items = db.QueryAll(std::move(query));
  for (const partstore::StoredItem& item : items) {
    // Every SK here begins with "TYPE#" (the begins_with), so KeyId has an id.
    ids.emplace_back(*partstore::KeyId(item.Find("SK")->as_string(), type));
  }
  PARTSTORE_RETURN_IF_ERROR(items.status());
  return ids;
}
Result<Ids> PostsWithTag(Store& db, std::string_view tag) {
  return Children(db, partstore::EntityKey("TAG", tag), "POST");
}
Result<Ids> TagsOf(Store& db, std::string_view post) {
  return Children(db, partstore::EntityKey("POST", post), "TAG");
}

// The other posts sharing a tag with `post`, most shared tags first, ties by id: one Query for
// the post's tags, then one per tag (as the seed's getRelatedPosts).
Result<Ranked> RelatedPosts(Store& db, const std::string& post) {
  PARTSTORE_ASSIGN_OR_RETURN(const Ids tags, TagsOf(db, post));
  std::map<std::string, int> shared;
  for (const std::string& tag : tags) {
    PARTSTORE_ASSIGN_OR_RETURN(const Ids posts, PostsWithTag(db, tag));
    for (const std::string& other : posts) {
      if (other != post) ++shared[other];
    }
  }
  Ranked ranked(shared.begin(), shared.end());  // in id order
  std::ranges::stable_sort(ranked, std::ranges::greater{}, &Ranked::value_type::second);
  return ranked;
}

std::string Show(const Ids& ids) {
  std::string out;
  for (const std::string& id : ids) out += (out.empty() ? "" : ", ") + id;
  return out.empty() ? "(none)" : out;
}
std::string Show(const Ranked& ranked) {
  std::string out;
  for (const auto& [id, n] : ranked)
    out += (out.empty() ? "" : ", ") + id + " " + std::to_string(n);
  return out.empty() ? "(none)" : out;
}

// Prints each answer; one that differs from the hand-worked one is a failure.
struct Checker {
  int failures = 0;
  template <typename T>
  void operator()(std::string_view what, const T& got, const T& want) {
    std::cout << what << ": " << Show(got);
    if (got != want) {
      std::cout << "   <-- MISMATCH, expected " << Show(want);
      ++failures;
    }
    std::cout << "\n";
  }
};

Status Run(Store& db, Checker& check) {
  const partstore::KeySchema key{{"PK", partstore::KeyType::kString},
                                 {{"SK", partstore::KeyType::kString}}};
  PARTSTORE_RETURN_IF_ERROR(db.CreateTable(partstore::SimpleTable(kTable, key)).status());

  // 7 posts, 8 tags, 17 taggings: 34 writes, so two BatchWriteItem calls (25 + 9).
  // clang-format off
  const std::vector<std::pair<std::string, Ids>> posts = {
      {"intro-dynamodb",     {"aws", "dynamodb", "nosql"}},
      {"single-table",       {"data-modeling", "dynamodb", "nosql"}},
      {"cpp-ranges",         {"cpp", "performance"}},
      {"adjacency-lists",    {"data-modeling", "dynamodb", "graphs"}},
      {"graph-algorithms",   {"cpp", "graphs", "performance"}},
      {"lambda-cold-starts", {"aws", "performance"}},
      {"gardening",          {"hobby"}}};
  // clang-format on
  std::vector<WriteRequest> writes;
  for (const auto& [post, tags] : posts) {
    for (const std::string& tag : tags) {
      std::ranges::move(TagWrites(post, tag, WriteRequest::Kind::kPut), std::back_inserter(writes));
    }
  }
  PARTSTORE_RETURN_IF_ERROR(BatchWrite(db, writes));

  PARTSTORE_ASSIGN_OR_RETURN(Ids found, PostsWithTag(db, "dynamodb"));
  check("posts tagged dynamodb", found, {"adjacency-lists", "intro-dynamodb", "single-table"});
  PARTSTORE_ASSIGN_OR_RETURN(found, PostsWithTag(db, "performance"));
  check("posts tagged performance", found,
        {"cpp-ranges", "graph-algorithms", "lambda-cold-starts"});
  PARTSTORE_ASSIGN_OR_RETURN(found, PostsWithTag(db, "rust"));
  check("posts tagged rust", found, {});
  PARTSTORE_ASSIGN_OR_RETURN(found, TagsOf(db, "adjacency-lists"));
  check("tags of adjacency-lists", found, {"data-modeling", "dynamodb", "graphs"});

  // Related posts: shared tags counted per other post, e.g. for adjacency-lists, single-table
  // shares data-modeling and dynamodb, intro-dynamodb dynamodb, graph-algorithms graphs.
  PARTSTORE_ASSIGN_OR_RETURN(Ranked related, RelatedPosts(db, "adjacency-lists"));
  check("related to adjacency-lists", related,
        {{"single-table", 2}, {"graph-algorithms", 1}, {"intro-dynamodb", 1}});
  PARTSTORE_ASSIGN_OR_RETURN(related, RelatedPosts(db, "cpp-ranges"));
  check("related to cpp-ranges", related, {{"graph-algorithms", 2}, {"lambda-cold-starts", 1}});
  PARTSTORE_ASSIGN_OR_RETURN(related, RelatedPosts(db, "intro-dynamodb"));
  check("related to intro-dynamodb", related,
        {{"single-table", 2}, {"adjacency-lists", 1}, {"lambda-cold-starts", 1}});
  PARTSTORE_ASSIGN_OR_RETURN(related, RelatedPosts(db, "gardening"));
  check("related to gardening", related, {});

  // Untagging deletes both items (deletes in a batch need only the keys).
  PARTSTORE_RETURN_IF_ERROR(
      BatchWrite(db, TagWrites("adjacency-lists", "graphs", WriteRequest::Kind::kDelete)));
  PARTSTORE_ASSIGN_OR_RETURN(found, TagsOf(db, "adjacency-lists"));
  check("tags of adjacency-lists", found, {"data-modeling", "dynamodb"});
  PARTSTORE_ASSIGN_OR_RETURN(found, PostsWithTag(db, "graphs"));
  check("posts tagged graphs", found, {"graph-algorithms"});
  PARTSTORE_ASSIGN_OR_RETURN(related, RelatedPosts(db, "adjacency-lists"));
  check("related to adjacency-lists", related, {{"single-table", 2}, {"intro-dynamodb", 1}});
  return Status::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  std::unique_ptr<Store> store = example::OpenStore(argc, argv);
  if (store == nullptr) return 2;
  Store& db = *store;
  Checker check;
  if (Status status = Run(db, check); !status.ok()) {
    std::cout << "error: " << status.ToString() << "\n";
    return 1;
  }
  if (check.failures > 0) {
    std::cout << check.failures << " answer(s) differ from the expected ones\n";
    return 1;
  }
  std::cout << "all answers as expected\n";
  return 0;
}
