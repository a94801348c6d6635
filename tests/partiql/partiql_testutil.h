// Helpers of the PartiQL tests: tables, items written as DynamoDB JSON, and running statements.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "partstore/database.h"
#include "tools/protocol/attribute_value_json.h"

namespace partstore::testing {

inline Item J(const std::string& json) {
  Result<Item> item = protocol::ParseItemJson(json);
  EXPECT_TRUE(item.ok()) << json << ": " << item.status().ToString();
  return item.ok() ? *item : Item{};
}

inline Value JV(const std::string& json) { return J("{\"v\":" + json + "}")["v"]; }

inline std::string Show(const std::vector<Item>& items) {
  std::string out = "[";
  for (const Item& item : items) out += protocol::ItemToJson(item) + " ";
  return out + "]";
}

// "Music": Artist (S) / SongTitle (S), GSI "ByAlbum" (AlbumTitle / SongTitle).
inline void CreateMusic(Database& db) {
  KeySchema key;
  key.partition = KeyAttribute{"Artist", KeyType::kString};
  key.sort = KeyAttribute{"SongTitle", KeyType::kString};
  CreateTableRequest request = SimpleTable("Music", key);
  request.attribute_definitions.push_back({"AlbumTitle", KeyType::kString});
  GlobalSecondaryIndex gsi;
  gsi.index_name = "ByAlbum";
  gsi.key_schema = {{"AlbumTitle", KeyRoleName::kHash}, {"SongTitle", KeyRoleName::kRange}};
  gsi.projection.projection_type = ProjectionType::kAll;
  request.global_secondary_indexes.push_back(gsi);
  ASSERT_TRUE(db.CreateTable(request).ok());
}

inline Result<ExecuteStatementResult> Exec(Database& db, const std::string& statement,
                                           std::vector<Value> parameters = {}) {
  ExecuteStatementRequest request{.statement = statement};
  if (!parameters.empty()) request.parameters = std::move(parameters);
  return db.ExecuteStatement(request);
}

}  // namespace partstore::testing
