// The random table shapes of the index model tests (index_model_test.cc): a table key of S or
// N, 1-3 GSIs and 0-2 LSIs over the candidate attributes, with every projection type, and the
// CreateTable request and one-line description of such a shape.
#pragma once

#include <map>
#include <random>
#include <string>
#include <vector>

#include "partstore/database.h"
#include "tests/shard/index_model.h"
#include "tests/shard/index_model_values.h"

namespace partstore::testing {

inline constexpr char kTable[] = "IndexModel";

struct SequenceConfig {
  KeySchema table;
  std::map<std::string, KeyType> types;  // every attribute that is a key of the table or an index
  std::vector<ModelIndexSpec> indexes;
  size_t stripes = 64;
};

// A random table and indexes.
inline SequenceConfig RandomConfig(std::mt19937_64& rng) {
  auto key_type = [&] { return RandomChance(rng, 0.5) ? KeyType::kString : KeyType::kNumber; };
  SequenceConfig c;
  c.table.partition = {"pk", key_type()};
  if (RandomChance(rng, 0.75)) c.table.sort = KeyAttribute{"sk", key_type()};
  std::map<std::string, KeyType> candidate_types;
  for (const char* name : kKeyCandidates) candidate_types[name] = key_type();
  candidate_types["pk"] = c.table.partition.type;
  if (c.table.sort) candidate_types["sk"] = c.table.sort->type;
  auto attribute = [&](const std::string& name) {
    c.types[name] = candidate_types.at(name);
    return KeyAttribute{name, candidate_types.at(name)};
  };
  auto projection = [&](ModelIndexSpec* spec) {
    const int pick = RandomInt(rng, 0, 2);
    spec->projection = pick == 0   ? ProjectionType::kKeysOnly
                       : pick == 1 ? ProjectionType::kInclude
                                   : ProjectionType::kAll;
    if (spec->projection == ProjectionType::kInclude) {
      static const char* const kIncludable[] = {"x", "y", "big", "gs", "ls"};
      for (const char* name : kIncludable) {
        // Not the index's own key attributes (those are projected anyway).
        const bool own = name == spec->partition.name || (spec->sort && name == spec->sort->name);
        if (!own && RandomChance(rng, 0.45)) spec->include.push_back(name);
      }
      if (spec->include.empty()) spec->include.push_back("x");
    }
  };
  const int globals = RandomInt(rng, 1, 3);
  for (int i = 0; i < globals; ++i) {
    ModelIndexSpec spec;
    spec.name = "gsi" + std::to_string(i);
    spec.global = true;
    std::vector<std::string> partitions = {"ga", "gb"};
    if (c.table.sort) partitions.push_back("sk");  // inverted index
    spec.partition =
        attribute(partitions[RandomInt(rng, 0, static_cast<int>(partitions.size()) - 1)]);
    if (RandomChance(rng, 0.65)) {
      std::vector<std::string> sorts;
      for (const char* name : {"gs", "gb", "ga", "pk"}) {
        if (name != spec.partition.name) sorts.push_back(name);
      }
      spec.sort = attribute(sorts[RandomInt(rng, 0, static_cast<int>(sorts.size()) - 1)]);
    }
    projection(&spec);
    c.indexes.push_back(std::move(spec));
  }
  if (c.table.sort) {
    std::vector<std::string> sorts = {"ls", "lt", "gs"};
    std::shuffle(sorts.begin(), sorts.end(), rng);
    const int locals = RandomInt(rng, 0, 2);
    for (int i = 0; i < locals; ++i) {
      ModelIndexSpec spec;
      spec.name = "lsi" + std::to_string(i);
      spec.global = false;
      spec.partition = c.table.partition;
      spec.sort = attribute(sorts[static_cast<size_t>(i)]);
      projection(&spec);
      c.indexes.push_back(std::move(spec));
    }
  }
  static constexpr size_t kStripes[] = {1, 2, 4, 64};
  c.stripes = kStripes[RandomInt(rng, 0, 3)];
  return c;
}

inline CreateTableRequest CreateRequest(const SequenceConfig& c) {
  CreateTableRequest request{.table_name = kTable};
  request.billing_mode = BillingMode::kPayPerRequest;
  std::map<std::string, KeyType> defined = c.types;
  defined[c.table.partition.name] = c.table.partition.type;
  if (c.table.sort) defined[c.table.sort->name] = c.table.sort->type;
  for (const auto& [name, type] : defined) request.attribute_definitions.push_back({name, type});
  request.key_schema.push_back({c.table.partition.name, KeyRoleName::kHash});
  if (c.table.sort) request.key_schema.push_back({c.table.sort->name, KeyRoleName::kRange});
  for (const ModelIndexSpec& spec : c.indexes) {
    std::vector<KeySchemaElement> key{{spec.partition.name, KeyRoleName::kHash}};
    if (spec.sort) key.push_back({spec.sort->name, KeyRoleName::kRange});
    Projection projection{.projection_type = spec.projection};
    if (spec.projection == ProjectionType::kInclude) projection.non_key_attributes = spec.include;
    if (spec.global) {
      request.global_secondary_indexes.push_back(
          {.index_name = spec.name, .key_schema = key, .projection = projection});
    } else {
      request.local_secondary_indexes.push_back(
          {.index_name = spec.name, .key_schema = key, .projection = projection});
    }
  }
  return request;
}

inline std::string Describe(const SequenceConfig& c) {
  std::string out =
      "table pk:" + std::string(c.table.partition.type == KeyType::kString ? "S" : "N");
  if (c.table.sort) out += " sk:" + std::string(c.table.sort->type == KeyType::kString ? "S" : "N");
  for (const ModelIndexSpec& s : c.indexes) {
    out += "; " + s.name + "(" + s.partition.name + (s.sort ? "," + s.sort->name : "") + " " +
           std::string(ProjectionTypeName(s.projection));
    for (const std::string& a : s.include) out += " " + a;
    out += ")";
  }
  for (const auto& [name, type] : c.types) {
    out += " " + name + ":" + (type == KeyType::kString ? "S" : "N");
  }
  return out + " stripes " + std::to_string(c.stripes);
}

}  // namespace partstore::testing
