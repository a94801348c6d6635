// Seed 002's adjacency-list pattern as a follow graph, through the C++ API: follow and unfollow
// as one transaction each (both directions or neither), followers and following (Query
// begins_with), is-following (GetItem), follower counts (Select COUNT, paged to its total by
// QueryAll), mutual followers, friends, the 2-hop neighbourhood, "people you may know" and a
// shortest path (BFS). Requests use the typed builders: KeyCondition for the queries, Condition
// for the transactions' conditions, AdjacencyKey::ToItem for the edges' keys, KeyId for the ids.
//
// Key design: one table "Social", PK and SK strings.
//   PK = USER#a  SK = USER#a      a's profile ("name")
//   PK = USER#a  SK = FOLLOWS#b   a follows b    (whom a follows: begins_with(SK, "FOLLOWS#"))
//   PK = USER#b  SK = FOLLOWER#a  the same edge  (who follows b:  begins_with(SK, "FOLLOWER#"))
// The seed stores the forward edge as SK = USER#b; here it is FOLLOWS#b, so each direction has
// its own prefix and a "whom a follows" query never picks up a's own profile item (SK = USER#a).
// follow(a, b) is one TransactWriteItems: both edges, each conditioned on Condition::NotExists
// (following twice is refused), and a ConditionCheck (Condition::Exists) that b has a profile.
//
// The graph is small and fixed; every answer is checked against one worked out by hand, and a
// wrong one prints MISMATCH and makes the program exit 1. Built and run by the test suite
// (example.social_graph), so this example cannot rot.
#include <partstore/condition_builder.h>
#include <partstore/error_detail.h>
#include <partstore/key_condition.h>
#include <partstore/key_patterns.h>
#include <partstore/store.h>

#include <algorithm>
#include <deque>
#include <iostream>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "example_store.h"

namespace {

using partstore::AdjacencyKey;
using partstore::Condition;
using partstore::ConditionCheckRequest;
using partstore::DeleteItemRequest;
using partstore::Item;
using partstore::PutItemRequest;
using partstore::QueryRequest;
using partstore::Result;
using partstore::Status;
using partstore::Store;
using partstore::TransactWriteItemsRequest;
using Ids = std::vector<std::string>;                     // user ids, in id order
using Ranked = std::vector<std::pair<std::string, int>>;  // (user id, number)

const std::string kTable = "Social";

std::string User(std::string_view id) { return partstore::EntityKey("USER", id); }
// The two items of "a follows b".
AdjacencyKey Forward(std::string_view a, std::string_view b) {
  return partstore::AdjacencyKeys(User(a), partstore::EntityKey("FOLLOWS", b));
}
AdjacencyKey Reverse(std::string_view a, std::string_view b) {
  return partstore::AdjacencyKeys(User(b), partstore::EntityKey("FOLLOWER", a));
}
Item ProfileKey(std::string_view id) { return {{"PK", User(id)}, {"SK", User(id)}}; }

// a follows b: both edges or neither. TransactionCanceledException when a already follows b
// (a put's condition fails) or b has no profile (the ConditionCheck fails).
Status Follow(Store& db, std::string_view a, std::string_view b) {
  TransactWriteItemsRequest follow;
  for (const auto& [edge, type] :
       {std::pair{Forward(a, b), "FOLLOWS"}, std::pair{Reverse(a, b), "FOLLOWED_BY"}}) {
    PutItemRequest put{.table_name = kTable, .item = edge.ToItem("PK", "SK")};
    put.item["type"] = type;
    PARTSTORE_RETURN_IF_ERROR(Condition::NotExists("PK").ApplyTo(&put));
    follow.transact_items.push_back({.put = std::move(put)});
  }
  ConditionCheckRequest profile{.table_name = kTable, .key = ProfileKey(b)};
  PARTSTORE_RETURN_IF_ERROR(Condition::Exists("PK").ApplyTo(&profile));
  follow.transact_items.push_back({.condition_check = std::move(profile)});
  return db.TransactWriteItems(follow).status();
}

// a stops following b: both edges deleted, or neither when a does not follow b.
Status Unfollow(Store& db, std::string_view a, std::string_view b) {
  TransactWriteItemsRequest unfollow;
  for (const AdjacencyKey& edge : {Forward(a, b), Reverse(a, b)}) {
    DeleteItemRequest del{.table_name = kTable, .key = edge.ToItem("PK", "SK")};
    PARTSTORE_RETURN_IF_ERROR(Condition::Exists("PK").ApplyTo(&del));
    unfollow.transact_items.push_back({.del = std::move(del)});
  }
  return db.TransactWriteItems(unfollow).status();
}

// The ids of user's TYPE#id items (their sort keys), every page of
// Query PK = USER#user AND begins_with(SK, "TYPE#"). In id order: the sort key's byte order, which
// is std::string's, so the set algorithms below can take the lists as they come.
Result<Ids> Edges(Store& db, std::string_view user, std::string_view type) {
  QueryRequest query{.table_name = kTable};
  PARTSTORE_RETURN_IF_ERROR(partstore::KeyCondition::Eq("PK", User(user))
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
Result<Ids> Following(Store& db, std::string_view user) { return Edges(db, user, "FOLLOWS"); }
Result<Ids> Followers(Store& db, std::string_view user) { return Edges(db, user, "FOLLOWER"); }

// One GetItem on the forward edge.
Result<bool> IsFollowing(Store& db, std::string_view a, std::string_view b) {
  PARTSTORE_ASSIGN_OR_RETURN(
      auto got, db.GetItemView({.table_name = kTable, .key = Forward(a, b).ToItem("PK", "SK")}));
  return got.item.has_value();
}

// How many follow `user`, counted by the engine (Select COUNT: no items come back; QueryAll's
// ReadToEnd follows LastEvaluatedKey and count() sums the pages' Count). Pages of 2, so there
// really are several pages on this small graph.
Result<int> FollowerCount(Store& db, std::string_view user) {
  QueryRequest query{.table_name = kTable, .select = partstore::Select::kCount, .limit = 2};
  PARTSTORE_RETURN_IF_ERROR(partstore::KeyCondition::Eq("PK", User(user))
                                .BeginsWith("SK", partstore::KeyPrefix("FOLLOWER"))
                                .ApplyTo(&query));
  auto pages = db.QueryAll(std::move(query));
  PARTSTORE_RETURN_IF_ERROR(pages.ReadToEnd());
  return static_cast<int>(pages.count());
}

Ids Intersection(const Ids& a, const Ids& b) {
  Ids both;
  std::ranges::set_intersection(a, b, std::back_inserter(both));
  return both;
}

// Everyone the people `user` follows follow, except `user` and those `user` already follows,
// each with how many of the people `user` follows follow them.
Result<std::map<std::string, int>> SecondDegree(Store& db, const std::string& user) {
  PARTSTORE_ASSIGN_OR_RETURN(const Ids direct, Following(db, user));
  std::map<std::string, int> common;
  for (const std::string& friend_id : direct) {
    PARTSTORE_ASSIGN_OR_RETURN(const Ids theirs, Following(db, friend_id));
    for (const std::string& candidate : theirs) {
      if (candidate != user && !std::ranges::binary_search(direct, candidate)) ++common[candidate];
    }
  }
  return common;
}

// "People you may know": the 2-hop neighbourhood, most common follows first, ties by id.
Result<Ranked> PeopleYouMayKnow(Store& db, const std::string& user) {
  PARTSTORE_ASSIGN_OR_RETURN(auto second, SecondDegree(db, user));
  Ranked ranked(second.begin(), second.end());  // in id order
  std::ranges::stable_sort(ranked, std::ranges::greater{}, &Ranked::value_type::second);
  return ranked;
}

// The fewest-hops chain of follows from `from` to `to` (both included): breadth-first over the
// FOLLOWS# lists, one Query per user dequeued. Empty when `to` cannot be reached.
Result<Ids> ShortestPath(Store& db, const std::string& from, const std::string& to) {
  std::map<std::string, std::string> parent{{from, ""}};
  std::deque<std::string> queue{from};
  while (!queue.empty() && !parent.contains(to)) {
    const std::string user = std::move(queue.front());
    queue.pop_front();
    PARTSTORE_ASSIGN_OR_RETURN(const Ids next, Following(db, user));
    for (const std::string& id : next) {
      if (parent.emplace(id, user).second) queue.push_back(id);
    }
  }
  Ids path;
  if (!parent.contains(to)) return path;
  for (std::string at = to; !at.empty(); at = parent[at]) path.push_back(at);
  std::ranges::reverse(path);
  return path;
}

std::string Show(bool b) { return b ? "yes" : "no"; }
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

// The codes of a TransactionCanceledException's CancellationReasons, one per action.
Ids ReasonCodes(const Status& status) {
  Ids codes;
  if (status.detail() != nullptr) {
    for (const auto& reason : status.detail()->cancellation_reasons) codes.push_back(reason.code);
  }
  return codes;
}

Status Run(Store& db, Checker& check) {
  const partstore::KeySchema key{{"PK", partstore::KeyType::kString},
                                 {{"SK", partstore::KeyType::kString}}};
  PARTSTORE_RETURN_IF_ERROR(db.CreateTable(partstore::SimpleTable(kTable, key)).status());

  // 11 users and 21 follows. "mallory" follows three people and nobody follows her; "judy"
  // follows nobody.
  const Ids users = {"alice", "bob",   "carol", "dave", "erin",   "frank",
                     "grace", "heidi", "ivan",  "judy", "mallory"};
  // clang-format off
  const std::vector<std::pair<std::string, Ids>> follows = {
      {"alice", {"bob", "carol", "dave"}},   {"bob",     {"alice", "carol", "erin"}},
      {"carol", {"alice", "erin", "frank"}}, {"dave",    {"frank", "grace"}},
      {"erin",  {"grace", "heidi"}},         {"frank",   {"heidi"}},
      {"grace", {"ivan"}},                   {"heidi",   {"ivan", "judy"}},
      {"ivan",  {"judy"}},                   {"mallory", {"alice", "bob", "carol"}}};
  // clang-format on
  for (const std::string& user : users) {
    Item profile = ProfileKey(user);
    profile["name"] = user;
    PARTSTORE_RETURN_IF_ERROR(db.PutItem({.table_name = kTable, .item = profile}).status());
  }
  for (const auto& [user, followed] : follows) {
    for (const std::string& other : followed) PARTSTORE_RETURN_IF_ERROR(Follow(db, user, other));
  }

  PARTSTORE_ASSIGN_OR_RETURN(Ids following, Following(db, "alice"));
  check("alice follows", following, {"bob", "carol", "dave"});
  PARTSTORE_ASSIGN_OR_RETURN(Ids followers, Followers(db, "alice"));
  check("alice's followers", followers, {"bob", "carol", "mallory"});
  PARTSTORE_ASSIGN_OR_RETURN(followers, Followers(db, "mallory"));
  check("mallory's followers", followers, {});
  PARTSTORE_ASSIGN_OR_RETURN(bool follows_ab, IsFollowing(db, "alice", "bob"));
  check("alice follows bob", follows_ab, true);
  PARTSTORE_ASSIGN_OR_RETURN(bool follows_bd, IsFollowing(db, "bob", "dave"));
  check("bob follows dave", follows_bd, false);

  Ranked counts;
  for (const std::string& user : users) {
    PARTSTORE_ASSIGN_OR_RETURN(int n, FollowerCount(db, user));
    counts.emplace_back(user, n);
  }
  // clang-format off
  check("follower counts (Select COUNT)", counts,
        {{"alice", 3}, {"bob", 2},  {"carol", 3}, {"dave", 1}, {"erin", 2}, {"frank", 2},
         {"grace", 2}, {"heidi", 2}, {"ivan", 2}, {"judy", 2}, {"mallory", 0}});
  // clang-format on

  PARTSTORE_ASSIGN_OR_RETURN(Ids alice_followers, Followers(db, "alice"));
  PARTSTORE_ASSIGN_OR_RETURN(Ids carol_followers, Followers(db, "carol"));
  check("follow both alice and carol", Intersection(alice_followers, carol_followers),
        {"bob", "mallory"});
  check("alice's friends (follow each other)", Intersection(following, alice_followers),
        {"bob", "carol"});

  PARTSTORE_ASSIGN_OR_RETURN(auto second, SecondDegree(db, "alice"));
  Ids two_hop;
  for (const auto& [id, common] : second) two_hop.push_back(id);
  check("alice's 2-hop neighbourhood", two_hop, {"erin", "frank", "grace"});
  PARTSTORE_ASSIGN_OR_RETURN(Ranked ranked, PeopleYouMayKnow(db, "alice"));
  check("people alice may know (common follows)", ranked,
        {{"erin", 2}, {"frank", 2}, {"grace", 1}});
  PARTSTORE_ASSIGN_OR_RETURN(ranked, PeopleYouMayKnow(db, "mallory"));
  check("people mallory may know (common follows)", ranked,
        {{"erin", 2}, {"dave", 1}, {"frank", 1}});

  PARTSTORE_ASSIGN_OR_RETURN(Ids path, ShortestPath(db, "alice", "judy"));
  check("shortest path alice -> judy", path, {"alice", "bob", "erin", "heidi", "judy"});
  PARTSTORE_ASSIGN_OR_RETURN(path, ShortestPath(db, "alice", "mallory"));
  check("shortest path alice -> mallory", path, {});

  // Refused writes: the transaction cancels and says which action failed, nothing is written.
  Status again = Follow(db, "alice", "bob");
  std::cout << "follow(alice, bob) again: " << again.ToString() << "\n";
  check("  reasons", ReasonCodes(again),
        {"ConditionalCheckFailed", "ConditionalCheckFailed", "None"});
  Status unknown = Follow(db, "alice", "zoe");
  std::cout << "follow(alice, zoe), no such user: " << unknown.ToString() << "\n";
  check("  reasons", ReasonCodes(unknown), {"None", "None", "ConditionalCheckFailed"});
  PARTSTORE_ASSIGN_OR_RETURN(followers, Followers(db, "zoe"));
  check("zoe's followers", followers, {});

  // Unfollow takes both edges away; the next shortest path goes through carol.
  PARTSTORE_RETURN_IF_ERROR(Unfollow(db, "alice", "bob"));
  std::cout << "unfollow(alice, bob): OK\n";
  PARTSTORE_ASSIGN_OR_RETURN(follows_ab, IsFollowing(db, "alice", "bob"));
  check("alice follows bob", follows_ab, false);
  PARTSTORE_ASSIGN_OR_RETURN(followers, Followers(db, "bob"));
  check("bob's followers", followers, {"mallory"});
  PARTSTORE_ASSIGN_OR_RETURN(path, ShortestPath(db, "alice", "judy"));
  check("shortest path alice -> judy", path, {"alice", "carol", "erin", "heidi", "judy"});
  Status twice = Unfollow(db, "alice", "bob");
  std::cout << "unfollow(alice, bob) again: " << twice.ToString() << "\n";
  check("  reasons", ReasonCodes(twice), {"ConditionalCheckFailed", "ConditionalCheckFailed"});
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
