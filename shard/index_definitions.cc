#include "shard/index_definitions.h"

#include <set>

#include "shard/constraints.h"
#include "shard/throughput_settings.h"

namespace partstore {

namespace {

Status Invalid(std::string text) {
  return Status::Validation(std::string(kInvalidParameterValues) + text);
}

Result<ProjectionType> ProjectionOf(const Projection& projection) {
  if (!projection.projection_type) return Invalid("Unknown ProjectionType: null");
  const ProjectionType type = *projection.projection_type;
  if (type == ProjectionType::kInclude &&
      (!projection.non_key_attributes || projection.non_key_attributes->empty())) {
    return Invalid("ProjectionType is INCLUDE, but NonKeyAttributes is not specified");
  }
  if (type != ProjectionType::kInclude && projection.non_key_attributes) {
    return Invalid("ProjectionType is " + std::string(ProjectionTypeName(type)) +
                   ", but NonKeyAttributes is specified");
  }
  return type;
}

Result<IndexDefinition> DefinitionOf(std::string name, IndexKind kind,
                                     const std::vector<KeySchemaElement>& key_schema,
                                     const Projection& projection,
                                     const std::vector<AttributeDefinition>& definitions) {
  IndexDefinition out;
  out.name = std::move(name);
  out.kind = kind;
  PARTSTORE_ASSIGN_OR_RETURN(out.key, IndexKeySchemaOf(key_schema, definitions));
  PARTSTORE_ASSIGN_OR_RETURN(out.projection, ProjectionOf(projection));
  if (projection.non_key_attributes) out.non_key_attributes = *projection.non_key_attributes;
  out.projection_as_requested = projection;
  return out;
}

Status CheckThroughput(const std::string& index, const std::optional<ProvisionedThroughput>& t,
                       BillingMode mode) {
  if (mode == BillingMode::kPayPerRequest && t) {
    return Invalid("ProvisionedThroughput should not be specified for index: " + index +
                   " when BillingMode is PAY_PER_REQUEST");
  }
  if (mode == BillingMode::kProvisioned && !t) {
    return Invalid("ProvisionedThroughput is not specified for index: " + index);
  }
  return Status::Ok();
}

// A GSI's throughput settings, checked, into its definition.
Status CheckGlobalThroughputs(const GlobalSecondaryIndex& index, BillingMode mode,
                              IndexDefinition* definition) {
  PARTSTORE_RETURN_IF_ERROR(CheckThroughput(index.index_name, index.provisioned_throughput, mode));
  PARTSTORE_RETURN_IF_ERROR(CheckIndexThroughputSettings(
      index.index_name, mode, index.provisioned_throughput, index.on_demand_throughput,
      index.warm_throughput, /*update=*/false, std::nullopt));
  definition->provisioned_throughput = index.provisioned_throughput;
  definition->on_demand_throughput = index.on_demand_throughput;
  definition->warm_throughput = index.warm_throughput;
  return Status::Ok();
}

}  // namespace

Result<KeySchema> IndexKeySchemaOf(const std::vector<KeySchemaElement>& elements,
                                   const std::vector<AttributeDefinition>& definitions) {
  if (elements.empty() || elements.size() > 2) {
    return Status::Validation(
        "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  }
  if (elements[0].key_type != KeyRoleName::kHash) {
    return Status::Validation(
        "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  }
  if (elements.size() == 2 && elements[1].key_type != KeyRoleName::kRange) {
    return Status::Validation(
        "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
  }
  if (elements.size() == 2 && elements[0].attribute_name == elements[1].attribute_name) {
    return Status::Validation(
        "Both the Hash Key and the Range Key element in the KeySchema have the same name");
  }
  auto find = [&](const std::string& name) -> const AttributeDefinition* {
    for (const AttributeDefinition& d : definitions) {
      if (d.attribute_name == name) return &d;
    }
    return nullptr;
  };
  std::vector<std::string> keys, defined;
  bool missing = false;
  for (const KeySchemaElement& e : elements) {
    keys.push_back(e.attribute_name);
    missing = missing || find(e.attribute_name) == nullptr;
  }
  if (missing) {
    for (const AttributeDefinition& d : definitions) defined.push_back(d.attribute_name);
    return Invalid("Some index key attributes are not defined in AttributeDefinitions. Keys: " +
                   NameList(keys) + ", AttributeDefinitions: " + NameList(defined));
  }
  KeySchema schema;
  schema.partition = {elements[0].attribute_name, find(elements[0].attribute_name)->attribute_type};
  if (elements.size() == 2) {
    schema.sort =
        KeyAttribute{elements[1].attribute_name, find(elements[1].attribute_name)->attribute_type};
  }
  return schema;
}

Result<std::vector<IndexDefinition>> IndexDefinitionsOf(const CreateTableRequest& request,
                                                        const KeySchema& table_key,
                                                        BillingMode mode) {
  ConstraintViolations violations;
  for (size_t i = 0; i < request.local_secondary_indexes.size(); ++i) {
    violations.Name(request.local_secondary_indexes[i].index_name,
                    "localSecondaryIndexes." + std::to_string(i + 1) + ".member.indexName");
  }
  for (size_t i = 0; i < request.global_secondary_indexes.size(); ++i) {
    violations.Name(request.global_secondary_indexes[i].index_name,
                    "globalSecondaryIndexes." + std::to_string(i + 1) + ".member.indexName");
  }
  PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());

  if (!request.local_secondary_indexes.empty() && !table_key.sort) {
    return Invalid(
        "Table KeySchema does not have a range key, which is required when specifying a "
        "LocalSecondaryIndex");
  }
  if (request.local_secondary_indexes.size() > kMaxLocalSecondaryIndexes) {
    return Invalid("Number of LocalSecondaryIndexes exceeds per-table limit of " +
                   std::to_string(kMaxLocalSecondaryIndexes));
  }
  if (request.global_secondary_indexes.size() > kMaxGlobalSecondaryIndexes) {
    return Invalid("GlobalSecondaryIndex count exceeds the per-table limit of " +
                   std::to_string(kMaxGlobalSecondaryIndexes));
  }
  std::vector<IndexDefinition> out;
  std::set<std::string> names;
  size_t projected = 0;
  for (const LocalSecondaryIndex& index : request.local_secondary_indexes) {
    if (!names.insert(index.index_name).second) {
      return Invalid("Duplicate index name: " + index.index_name);
    }
    PARTSTORE_ASSIGN_OR_RETURN(IndexDefinition definition,
                               DefinitionOf(index.index_name, IndexKind::kLocal, index.key_schema,
                                            index.projection, request.attribute_definitions));
    if (definition.key.partition.name != table_key.partition.name || !definition.key.sort) {
      return Invalid(
          "Index KeySchema does not have the same leading hash key as table KeySchema "
          "for index: " +
          index.index_name + ". index hash key: " + definition.key.partition.name +
          ", table hash key: " + table_key.partition.name);
    }
    projected += definition.non_key_attributes.size();
    out.push_back(std::move(definition));
  }
  for (const GlobalSecondaryIndex& index : request.global_secondary_indexes) {
    if (!names.insert(index.index_name).second) {
      return Invalid("Duplicate index name: " + index.index_name);
    }
    PARTSTORE_ASSIGN_OR_RETURN(IndexDefinition definition,
                               DefinitionOf(index.index_name, IndexKind::kGlobal, index.key_schema,
                                            index.projection, request.attribute_definitions));
    PARTSTORE_RETURN_IF_ERROR(CheckGlobalThroughputs(index, mode, &definition));
    projected += definition.non_key_attributes.size();
    out.push_back(std::move(definition));
  }
  if (projected > kMaxProjectedAttributes) {
    return Invalid(
        "The sum of NonKeyAttributes across all secondary indexes exceeds the limit of " +
        std::to_string(kMaxProjectedAttributes));
  }
  return out;
}

namespace {

// A key schema as DynamoDB writes it in "Attributes cannot be redefined":
// "Schema:[SchemaElement: key{xyz:S:HASH}]". The one capture (Alternator's test_gsi_updatetable.py,
// quoting DynamoDB) has a one-element schema; two elements are joined with ", " here.
std::string SchemaText(const KeySchema& key) {
  std::string out = "Schema:[SchemaElement: key{" + key.partition.name + ":" +
                    std::string(KeyTypeName(key.partition.type)) + ":HASH}";
  if (key.sort) {
    out += ", SchemaElement: key{" + key.sort->name + ":" +
           std::string(KeyTypeName(key.sort->type)) + ":RANGE}";
  }
  return out + "]";
}

// The new index's key attributes keep the type the table's key or another index's key gave them:
// DynamoDB refuses a GSI that would redefine one (Alternator's
// test_gsi_key_type_conflict_on_update, run against DynamoDB). AttributeDefinitions no key of the
// new index uses are not checked; DynamoDB ignores them on UpdateTable (a live catalogue of its
// answers, docs/reference.md).
Status CheckKeyTypesKept(const KeySchema& added, const KeySchema& table_key,
                         const std::vector<IndexDefinition>& existing) {
  auto conflicts = [&](const KeySchema& have) {
    for (const KeyAttribute* mine : {&added.partition, added.sort ? &*added.sort : nullptr}) {
      if (mine == nullptr) continue;
      for (const KeyAttribute* theirs : {&have.partition, have.sort ? &*have.sort : nullptr}) {
        if (theirs != nullptr && theirs->name == mine->name && theirs->type != mine->type) {
          return true;
        }
      }
    }
    return false;
  };
  const KeySchema* clash = conflicts(table_key) ? &table_key : nullptr;
  for (size_t i = 0; clash == nullptr && i < existing.size(); ++i) {
    if (conflicts(existing[i].key)) clash = &existing[i].key;
  }
  if (clash == nullptr) return Status::Ok();
  return Invalid(
      "Attributes cannot be redefined. Please check that your attribute has the same type as "
      "previously defined. Existing schema: " +
      SchemaText(*clash) + " New schema: " + SchemaText(added));
}

}  // namespace

Result<IndexDefinition> GlobalIndexDefinitionOf(const GlobalSecondaryIndex& index,
                                                const std::vector<AttributeDefinition>& definitions,
                                                const KeySchema& table_key,
                                                const std::vector<IndexDefinition>& existing,
                                                BillingMode mode) {
  ConstraintViolations violations;
  violations.Name(index.index_name, "globalSecondaryIndexUpdates.1.member.create.indexName");
  PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  size_t globals = 0;
  size_t projected = 0;
  for (const IndexDefinition& d : existing) {
    // A GSI or an LSI of that name: DynamoDB's text names neither (a live catalogue of its
    // UpdateTable errors; Alternator's test_gsi_updatetable.py matches "already exists" for both,
    // run against DynamoDB).
    if (d.name == index.index_name) {
      return Status::Validation("Attempting to create an index which already exists");
    }
    globals += d.kind == IndexKind::kGlobal;
    projected += d.non_key_attributes.size();
  }
  if (globals + 1 > kMaxGlobalSecondaryIndexes) {
    return Invalid("GlobalSecondaryIndex count exceeds the per-table limit of " +
                   std::to_string(kMaxGlobalSecondaryIndexes));
  }
  PARTSTORE_ASSIGN_OR_RETURN(IndexDefinition definition,
                             DefinitionOf(index.index_name, IndexKind::kGlobal, index.key_schema,
                                          index.projection, definitions));
  PARTSTORE_RETURN_IF_ERROR(CheckKeyTypesKept(definition.key, table_key, existing));
  PARTSTORE_RETURN_IF_ERROR(CheckGlobalThroughputs(index, mode, &definition));
  if (projected + definition.non_key_attributes.size() > kMaxProjectedAttributes) {
    return Invalid(
        "The sum of NonKeyAttributes across all secondary indexes exceeds the limit of " +
        std::to_string(kMaxProjectedAttributes));
  }
  return definition;
}

Status CheckIndexUpdate(const GlobalSecondaryIndexUpdate::Update& change,
                        const IndexDefinition& index, BillingMode mode) {
  if (!change.provisioned_throughput && !change.on_demand_throughput && !change.warm_throughput) {
    // (partstore's text: the API reference makes each member optional.)
    return Invalid(
        "One of ProvisionedThroughput, OnDemandThroughput or WarmThroughput is "
        "required to update index: " +
        change.index_name);
  }
  if (change.provisioned_throughput && mode == BillingMode::kPayPerRequest) {
    return Invalid("ProvisionedThroughput should not be specified for index: " + change.index_name +
                   " when BillingMode is PAY_PER_REQUEST");
  }
  return CheckIndexThroughputSettings(
      change.index_name, mode,
      change.provisioned_throughput ? change.provisioned_throughput : index.provisioned_throughput,
      change.on_demand_throughput, change.warm_throughput, /*update=*/true, index.warm_throughput);
}

}  // namespace partstore
