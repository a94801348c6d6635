// The secondary-index part of CreateTable and UpdateTable validation: each LocalSecondaryIndex /
// GlobalSecondaryIndex checked against the table's key schema, attribute definitions and billing
// mode, with DynamoDB's messages (research catalogue §5.1: live captures and the ACK probe
// catalogue), and turned into IndexDefinitions.
//
// Thread safety: pure functions.
#pragma once

#include <vector>

#include "partstore/status.h"
#include "partstore/table_requests.h"
#include "shard/secondary_index.h"

namespace partstore {

// All indexes of a CreateTable request, LSIs first, in request order.
Result<std::vector<IndexDefinition>> IndexDefinitionsOf(const CreateTableRequest& request,
                                                        const KeySchema& table_key,
                                                        BillingMode mode);

// One GSI added by UpdateTable. `definitions`: the request's AttributeDefinitions (the new key
// attributes must be defined there); `table_key` and `existing`, the table's key and indexes: name
// clashes, the 20 limit, and key attributes keeping their types.
Result<IndexDefinition> GlobalIndexDefinitionOf(const GlobalSecondaryIndex& index,
                                                const std::vector<AttributeDefinition>& definitions,
                                                const KeySchema& table_key,
                                                const std::vector<IndexDefinition>& existing,
                                                BillingMode mode);

// An UpdateTable Update action on GSI `index` of a `mode` table: at least one setting, provisioned
// throughput on provisioned tables only, the on-demand maximum and warm throughput as the
// table's (shard/throughput_settings.h).
Status CheckIndexUpdate(const GlobalSecondaryIndexUpdate::Update& change,
                        const IndexDefinition& index, BillingMode mode);

// The key schema an index's KeySchemaElements name (first HASH, optional RANGE), typed from
// `definitions`; DynamoDB's texts for a bad shape or an undefined attribute.
Result<KeySchema> IndexKeySchemaOf(const std::vector<KeySchemaElement>& elements,
                                   const std::vector<AttributeDefinition>& definitions);

}  // namespace partstore
