#include "shard/persist/table_settings.h"

#include "shard/persist/byte_codec.h"

namespace partstore::persist {
namespace {

// Bounds on what a table block may declare (far above DynamoDB's own limits, which the replay
// checks): a count is refused before anything is sized by it.
constexpr uint64_t kMaxEntries = 4096;

void PutKeySchema(ByteWriter& w, const std::vector<KeySchemaElement>& schema) {
  w.Varint(schema.size());
  for (const KeySchemaElement& element : schema) {
    w.String(element.attribute_name);
    w.Byte(static_cast<uint8_t>(element.key_type));
  }
}

bool GetKeySchema(ByteReader& r, std::vector<KeySchemaElement>* schema) {
  uint64_t count = 0;
  if (!r.Count(kMaxEntries, &count)) return false;
  schema->resize(count);
  for (KeySchemaElement& element : *schema) {
    uint8_t role = 0;
    if (!r.String(&element.attribute_name) || !r.Enum(1, &role)) return false;
    element.key_type = static_cast<KeyRoleName>(role);
  }
  return true;
}

void PutProjection(ByteWriter& w, const Projection& projection) {
  w.Bool(projection.projection_type.has_value());
  if (projection.projection_type) w.Byte(static_cast<uint8_t>(*projection.projection_type));
  w.Bool(projection.non_key_attributes.has_value());
  if (projection.non_key_attributes) {
    w.Varint(projection.non_key_attributes->size());
    for (const std::string& name : *projection.non_key_attributes) w.String(name);
  }
}

bool GetProjection(ByteReader& r, Projection* projection) {
  bool has = false;
  if (!r.Bool(&has)) return false;
  if (has) {
    uint8_t type = 0;
    if (!r.Enum(2, &type)) return false;
    projection->projection_type = static_cast<ProjectionType>(type);
  }
  if (!r.Bool(&has)) return false;
  if (has) {
    uint64_t count = 0;
    if (!r.Count(kMaxEntries, &count)) return false;
    projection->non_key_attributes.emplace(count);
    for (std::string& name : *projection->non_key_attributes) {
      if (!r.String(&name)) return false;
    }
  }
  return true;
}

void PutThroughput(ByteWriter& w, const std::optional<ProvisionedThroughput>& throughput) {
  w.Bool(throughput.has_value());
  if (throughput) {
    w.Varint(static_cast<uint64_t>(throughput->read_capacity_units));
    w.Varint(static_cast<uint64_t>(throughput->write_capacity_units));
  }
}

bool GetThroughput(ByteReader& r, std::optional<ProvisionedThroughput>* throughput) {
  bool has = false;
  if (!r.Bool(&has)) return false;
  if (!has) return true;
  uint64_t read = 0;
  uint64_t write = 0;
  // (Units are checked by CreateTable; here only that they fit its type.)
  if (!r.Count(INT64_MAX, &read) || !r.Count(INT64_MAX, &write)) return false;
  *throughput = ProvisionedThroughput{static_cast<int64_t>(read), static_cast<int64_t>(write)};
  return true;
}

void PutOptionalString(ByteWriter& w, const std::optional<std::string>& s) {
  w.Bool(s.has_value());
  if (s) w.String(*s);
}

bool GetOptionalString(ByteReader& r, std::optional<std::string>* s) {
  bool has = false;
  if (!r.Bool(&has)) return false;
  if (!has) return true;
  return r.String(&s->emplace());
}

void PutStream(ByteWriter& w, const std::optional<StreamSpecification>& spec) {
  w.Bool(spec.has_value());
  if (!spec) return;
  w.Bool(spec->stream_enabled);
  w.Bool(spec->stream_view_type.has_value());
  if (spec->stream_view_type) w.Byte(static_cast<uint8_t>(*spec->stream_view_type));
}

bool GetStream(ByteReader& r, std::optional<StreamSpecification>* out) {
  bool has = false;
  if (!r.Bool(&has)) return false;
  if (!has) return true;
  StreamSpecification& spec = out->emplace();
  if (!r.Bool(&spec.stream_enabled) || !r.Bool(&has)) return false;
  if (has) {
    uint8_t view = 0;
    if (!r.Enum(3, &view)) return false;
    spec.stream_view_type = static_cast<StreamViewType>(view);
  }
  return true;
}

void PutBillingMode(ByteWriter& w, const std::optional<BillingMode>& mode) {
  w.Bool(mode.has_value());
  if (mode) w.Byte(static_cast<uint8_t>(*mode));
}

bool GetBillingMode(ByteReader& r, std::optional<BillingMode>* mode) {
  bool has = false;
  if (!r.Bool(&has)) return false;
  if (!has) return true;
  uint8_t value = 0;
  if (!r.Enum(1, &value)) return false;
  *mode = static_cast<BillingMode>(value);
  return true;
}

void PutDefinitions(ByteWriter& w, const std::vector<AttributeDefinition>& definitions) {
  w.Varint(definitions.size());
  for (const AttributeDefinition& definition : definitions) {
    w.String(definition.attribute_name);
    w.Byte(static_cast<uint8_t>(definition.attribute_type));
  }
}

bool GetDefinitions(ByteReader& r, std::vector<AttributeDefinition>* definitions) {
  uint64_t count = 0;
  if (!r.Count(kMaxEntries, &count)) return false;
  definitions->resize(count);
  for (AttributeDefinition& definition : *definitions) {
    uint8_t type = 0;
    if (!r.String(&definition.attribute_name) || !r.Enum(2, &type)) return false;
    definition.attribute_type = static_cast<KeyType>(type);
  }
  return true;
}

void PutOptionalInt(ByteWriter& w, const std::optional<int64_t>& v) {
  w.Bool(v.has_value());
  if (v) w.Varint(static_cast<uint64_t>(*v));
}

bool GetOptionalInt(ByteReader& r, std::optional<int64_t>* v) {
  bool has = false;
  uint64_t raw = 0;
  if (!r.Bool(&has)) return false;
  if (!has) return true;
  if (!r.Varint(&raw)) return false;
  *v = static_cast<int64_t>(raw);
  return true;
}

void PutOptionalBool(ByteWriter& w, const std::optional<bool>& v) {
  w.Bool(v.has_value());
  if (v) w.Bool(*v);
}

bool GetOptionalBool(ByteReader& r, std::optional<bool>* v) {
  bool has = false;
  if (!r.Bool(&has)) return false;
  return !has || r.Bool(&v->emplace());
}

void PutTags(ByteWriter& w, const std::vector<Tag>& tags) {
  w.Varint(tags.size());
  for (const Tag& tag : tags) {
    w.String(tag.key);
    w.String(tag.value);
  }
}

bool GetTags(ByteReader& r, std::vector<Tag>* tags) {
  uint64_t count = 0;
  if (!r.Count(kMaxEntries, &count)) return false;
  tags->resize(count);
  for (Tag& tag : *tags) {
    if (!r.String(&tag.key) || !r.String(&tag.value)) return false;
  }
  return true;
}

// The settings of partstore/table_settings.h, in CreateTable and UpdateTable alike: a trailing
// section, absent from records written before them (then every setting is absent).
struct Settings {
  std::optional<TableClass> table_class;
  std::optional<bool> deletion_protection_enabled;
  std::optional<SseSpecification> sse_specification;
  std::optional<OnDemandThroughput> on_demand_throughput;
  std::optional<WarmThroughput> warm_throughput;
};

// A table's or GSI's OnDemandThroughput and WarmThroughput.
void PutThroughputSettings(ByteWriter& w, const std::optional<OnDemandThroughput>& on_demand,
                           const std::optional<WarmThroughput>& warm) {
  w.Bool(on_demand.has_value());
  if (on_demand) {
    PutOptionalInt(w, on_demand->max_read_request_units);
    PutOptionalInt(w, on_demand->max_write_request_units);
  }
  w.Bool(warm.has_value());
  if (warm) {
    PutOptionalInt(w, warm->read_units_per_second);
    PutOptionalInt(w, warm->write_units_per_second);
  }
}

bool GetThroughputSettings(ByteReader& r, std::optional<OnDemandThroughput>* on_demand,
                           std::optional<WarmThroughput>* warm) {
  bool has = false;
  if (!r.Bool(&has)) return false;
  if (has) {
    OnDemandThroughput& t = on_demand->emplace();
    if (!GetOptionalInt(r, &t.max_read_request_units) ||
        !GetOptionalInt(r, &t.max_write_request_units)) {
      return false;
    }
  }
  if (!r.Bool(&has)) return false;
  if (has) {
    WarmThroughput& t = warm->emplace();
    if (!GetOptionalInt(r, &t.read_units_per_second) ||
        !GetOptionalInt(r, &t.write_units_per_second)) {
      return false;
    }
  }
  return true;
}

void PutSettings(ByteWriter& w, const Settings& s) {
  w.Bool(s.table_class.has_value());
  if (s.table_class) w.Byte(static_cast<uint8_t>(*s.table_class));
  PutOptionalBool(w, s.deletion_protection_enabled);
  w.Bool(s.sse_specification.has_value());
  if (s.sse_specification) {
    PutOptionalBool(w, s.sse_specification->enabled);
    PutOptionalString(w, s.sse_specification->sse_type);
    PutOptionalString(w, s.sse_specification->kms_master_key_id);
  }
  PutThroughputSettings(w, s.on_demand_throughput, s.warm_throughput);
}

bool GetSettings(ByteReader& r, Settings* s) {
  bool has = false;
  if (!r.Bool(&has)) return false;
  if (has) {
    uint8_t table_class = 0;
    if (!r.Enum(1, &table_class)) return false;
    s->table_class = static_cast<TableClass>(table_class);
  }
  if (!GetOptionalBool(r, &s->deletion_protection_enabled) || !r.Bool(&has)) return false;
  if (has) {
    SseSpecification& sse = s->sse_specification.emplace();
    if (!GetOptionalBool(r, &sse.enabled) || !GetOptionalString(r, &sse.sse_type) ||
        !GetOptionalString(r, &sse.kms_master_key_id)) {
      return false;
    }
  }
  return GetThroughputSettings(r, &s->on_demand_throughput, &s->warm_throughput);
}

template <typename Request>
Settings SettingsOf(const Request& request) {
  return Settings{request.table_class, request.deletion_protection_enabled,
                  request.sse_specification, request.on_demand_throughput, request.warm_throughput};
}

template <typename Request>
void SetSettings(const Settings& s, Request* request) {
  request->table_class = s.table_class;
  request->deletion_protection_enabled = s.deletion_protection_enabled;
  request->sse_specification = s.sse_specification;
  request->on_demand_throughput = s.on_demand_throughput;
  request->warm_throughput = s.warm_throughput;
}

}  // namespace

void EncodeTags(const std::vector<Tag>& tags, std::string* out) {
  ByteWriter w(out);
  PutTags(w, tags);
}

bool DecodeTags(std::string_view bytes, std::vector<Tag>* out) {
  ByteReader r(bytes);
  return GetTags(r, out) && r.done();
}

CreateTableRequest CreateRequestOf(const TableDescription& d) {
  CreateTableRequest request;
  request.table_name = d.table_name;
  request.attribute_definitions = d.attribute_definitions;
  request.key_schema = d.key_schema;
  request.billing_mode = d.billing_mode;
  const bool provisioned = d.billing_mode == BillingMode::kProvisioned;
  if (provisioned) {
    request.provisioned_throughput =
        ProvisionedThroughput{d.provisioned_throughput.read_capacity_units,
                              d.provisioned_throughput.write_capacity_units};
  }
  for (const LocalSecondaryIndexDescription& index : d.local_secondary_indexes) {
    request.local_secondary_indexes.push_back({.index_name = index.index_name,
                                               .key_schema = index.key_schema,
                                               .projection = index.projection});
  }
  for (const GlobalSecondaryIndexDescription& index : d.global_secondary_indexes) {
    GlobalSecondaryIndex gsi{.index_name = index.index_name,
                             .key_schema = index.key_schema,
                             .projection = index.projection,
                             .provisioned_throughput = std::nullopt,
                             .on_demand_throughput = index.on_demand_throughput,
                             .warm_throughput = index.warm_throughput};
    if (provisioned) {
      gsi.provisioned_throughput =
          ProvisionedThroughput{index.provisioned_throughput.read_capacity_units,
                                index.provisioned_throughput.write_capacity_units};
    }
    request.global_secondary_indexes.push_back(std::move(gsi));
  }
  if (d.stream_specification && d.stream_specification->stream_enabled) {
    request.stream_specification = d.stream_specification;
  }
  request.table_class = d.table_class;
  if (d.deletion_protection_enabled) request.deletion_protection_enabled = true;
  if (d.sse_description) {
    request.sse_specification =
        SseSpecification{.enabled = true,
                         .sse_type = "KMS",
                         .kms_master_key_id = d.sse_description->kms_master_key_arn};
  }
  request.on_demand_throughput = d.on_demand_throughput;
  request.warm_throughput = d.warm_throughput;
  return request;
}

void EncodeTableSettings(const TableSettings& settings, std::string* out) {
  ByteWriter w(out);
  const CreateTableRequest& c = settings.create;
  w.String(c.table_name);
  PutDefinitions(w, c.attribute_definitions);
  PutKeySchema(w, c.key_schema);
  w.Varint(c.local_secondary_indexes.size());
  for (const LocalSecondaryIndex& index : c.local_secondary_indexes) {
    w.String(index.index_name);
    PutKeySchema(w, index.key_schema);
    PutProjection(w, index.projection);
  }
  w.Varint(c.global_secondary_indexes.size());
  for (const GlobalSecondaryIndex& index : c.global_secondary_indexes) {
    w.String(index.index_name);
    PutKeySchema(w, index.key_schema);
    PutProjection(w, index.projection);
    PutThroughput(w, index.provisioned_throughput);
  }
  PutBillingMode(w, c.billing_mode);
  PutThroughput(w, c.provisioned_throughput);
  PutStream(w, c.stream_specification);
  PutOptionalString(w, settings.time_to_live_attribute);
  w.Varint(settings.sharding_policies.size());
  for (const sharding::ShardingPolicy& policy : settings.sharding_policies) {
    EncodeShardingPolicy(policy, out);
  }
  w.Varint(settings.log_number);
  PutSettings(w, SettingsOf(c));
  PutTags(w, settings.tags.empty() ? c.tags : settings.tags);
  // The GSIs' settings: a trailing section, absent from records written before them.
  for (const GlobalSecondaryIndex& index : c.global_secondary_indexes) {
    PutThroughputSettings(w, index.on_demand_throughput, index.warm_throughput);
  }
}

bool DecodeTableSettings(std::string_view bytes, TableSettings* out) {
  ByteReader r(bytes);
  CreateTableRequest& c = out->create;
  uint64_t count = 0;
  if (!r.String(&c.table_name) || !GetDefinitions(r, &c.attribute_definitions) ||
      !GetKeySchema(r, &c.key_schema) || !r.Count(kMaxEntries, &count)) {
    return false;
  }
  c.local_secondary_indexes.resize(count);
  for (LocalSecondaryIndex& index : c.local_secondary_indexes) {
    if (!r.String(&index.index_name) || !GetKeySchema(r, &index.key_schema) ||
        !GetProjection(r, &index.projection)) {
      return false;
    }
  }
  if (!r.Count(kMaxEntries, &count)) return false;
  c.global_secondary_indexes.resize(count);
  for (GlobalSecondaryIndex& index : c.global_secondary_indexes) {
    if (!r.String(&index.index_name) || !GetKeySchema(r, &index.key_schema) ||
        !GetProjection(r, &index.projection) || !GetThroughput(r, &index.provisioned_throughput)) {
      return false;
    }
  }
  if (!GetBillingMode(r, &c.billing_mode) || !GetThroughput(r, &c.provisioned_throughput) ||
      !GetStream(r, &c.stream_specification)) {
    return false;
  }
  if (!GetOptionalString(r, &out->time_to_live_attribute)) return false;
  if (!r.Count(kMaxEntries, &count)) return false;
  out->sharding_policies.resize(count);
  for (sharding::ShardingPolicy& policy : out->sharding_policies) {
    if (!DecodeShardingPolicy(r, &policy)) return false;
  }
  if (!r.Varint(&out->log_number)) return false;
  if (r.done()) return true;  // written before the settings
  Settings settings;
  if (!GetSettings(r, &settings) || !GetTags(r, &c.tags)) return false;
  SetSettings(settings, &c);
  out->tags = c.tags;
  if (r.done()) return true;  // written before the GSIs' settings
  for (GlobalSecondaryIndex& index : c.global_secondary_indexes) {
    if (!GetThroughputSettings(r, &index.on_demand_throughput, &index.warm_throughput)) {
      return false;
    }
  }
  return r.done();
}

void EncodeShardingPolicy(const sharding::ShardingPolicy& policy, std::string* out) {
  ByteWriter w(out);
  PutOptionalString(w, policy.index_name);
  w.String(policy.key);
  w.Byte(static_cast<uint8_t>(policy.match));
  w.Varint(static_cast<uint64_t>(policy.shard_count));
  w.String(policy.suffix_format);
  w.Byte(static_cast<uint8_t>(policy.strategy));
  PutOptionalString(w, policy.calculated_from);
  w.String(policy.logical_key_attribute);
}

bool DecodeShardingPolicy(ByteReader& r, sharding::ShardingPolicy* policy) {
  uint8_t match = 0;
  uint8_t strategy = 0;
  uint64_t shards = 0;
  if (!GetOptionalString(r, &policy->index_name) || !r.String(&policy->key) || !r.Enum(1, &match) ||
      !r.Count(INT32_MAX, &shards) || !r.String(&policy->suffix_format) || !r.Enum(1, &strategy) ||
      !GetOptionalString(r, &policy->calculated_from) ||
      !r.String(&policy->logical_key_attribute)) {
    return false;
  }
  policy->match = static_cast<sharding::KeyMatch>(match);
  policy->strategy = static_cast<sharding::ShardStrategy>(strategy);
  policy->shard_count = static_cast<int32_t>(shards);
  return true;
}

void EncodeUpdateTable(const UpdateTableRequest& request, std::string* out) {
  ByteWriter w(out);
  w.String(request.table_name);
  PutBillingMode(w, request.billing_mode);
  PutThroughput(w, request.provisioned_throughput);
  PutDefinitions(w, request.attribute_definitions);
  w.Bool(request.global_secondary_index_updates.has_value());
  if (request.global_secondary_index_updates) {
    w.Varint(request.global_secondary_index_updates->size());
    for (const GlobalSecondaryIndexUpdate& update : *request.global_secondary_index_updates) {
      w.Bool(update.create.has_value());
      if (update.create) {
        w.String(update.create->index_name);
        PutKeySchema(w, update.create->key_schema);
        PutProjection(w, update.create->projection);
        PutThroughput(w, update.create->provisioned_throughput);
      }
      w.Bool(update.update.has_value());
      if (update.update) {
        w.String(update.update->index_name);
        PutThroughput(w, update.update->provisioned_throughput);
      }
      w.Bool(update.remove.has_value());
      if (update.remove) w.String(update.remove->index_name);
    }
  }
  PutStream(w, request.stream_specification);
  PutSettings(w, SettingsOf(request));
  // The index actions' settings: a trailing section, absent from records written before them.
  if (request.global_secondary_index_updates) {
    for (const GlobalSecondaryIndexUpdate& update : *request.global_secondary_index_updates) {
      if (update.create) {
        PutThroughputSettings(w, update.create->on_demand_throughput,
                              update.create->warm_throughput);
      }
      if (update.update) {
        PutThroughputSettings(w, update.update->on_demand_throughput,
                              update.update->warm_throughput);
      }
    }
  }
}

bool DecodeUpdateTable(std::string_view bytes, UpdateTableRequest* out) {
  ByteReader r(bytes);
  bool has = false;
  uint64_t count = 0;
  if (!r.String(&out->table_name) || !GetBillingMode(r, &out->billing_mode) ||
      !GetThroughput(r, &out->provisioned_throughput) ||
      !GetDefinitions(r, &out->attribute_definitions)) {
    return false;
  }
  if (!r.Bool(&has)) return false;
  if (has) {
    if (!r.Count(kMaxEntries, &count)) return false;
    out->global_secondary_index_updates.emplace(count);
    for (GlobalSecondaryIndexUpdate& update : *out->global_secondary_index_updates) {
      if (!r.Bool(&has)) return false;
      if (has) {
        GlobalSecondaryIndex& create = update.create.emplace();
        if (!r.String(&create.index_name) || !GetKeySchema(r, &create.key_schema) ||
            !GetProjection(r, &create.projection) ||
            !GetThroughput(r, &create.provisioned_throughput)) {
          return false;
        }
      }
      if (!r.Bool(&has)) return false;
      if (has) {
        GlobalSecondaryIndexUpdate::Update change;
        if (!r.String(&change.index_name) || !GetThroughput(r, &change.provisioned_throughput)) {
          return false;
        }
        update.update = std::move(change);
      }
      if (!r.Bool(&has)) return false;
      if (has) {
        GlobalSecondaryIndexUpdate::Delete remove;
        if (!r.String(&remove.index_name)) return false;
        update.remove = std::move(remove);
      }
    }
  }
  if (!GetStream(r, &out->stream_specification)) return false;
  if (r.done()) return true;  // written before the settings
  Settings settings;
  if (!GetSettings(r, &settings)) return false;
  SetSettings(settings, out);
  if (r.done() || !out->global_secondary_index_updates) return r.done();
  for (GlobalSecondaryIndexUpdate& update : *out->global_secondary_index_updates) {
    if (update.create && !GetThroughputSettings(r, &update.create->on_demand_throughput,
                                                &update.create->warm_throughput)) {
      return false;
    }
    if (update.update && !GetThroughputSettings(r, &update.update->on_demand_throughput,
                                                &update.update->warm_throughput)) {
      return false;
    }
  }
  return r.done();
}

}  // namespace partstore::persist
