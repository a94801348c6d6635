// libFuzzer target for the PartiQL parser (core/partiql) and the compiler that turns a statement
// into the engine's requests (shard/partiql_compile.h). Any input must parse or be refused with a
// ValidationException, never crash, hang or recurse without bound; a parsed statement, with as
// many parameters as it has `?`s, must compile (against a table with a composite key and a GSI)
// or be refused with a ValidationException, in each of the three contexts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/partiql/parser.h"
#include "shard/partiql_compile.h"

namespace {

void Check(bool condition) {
  if (!condition) std::abort();
}

const partstore::TableDescription& Table() {
  static const partstore::TableDescription table = [] {
    partstore::TableDescription t;
    t.table_name = "Music";
    t.key_schema = {{"pk", partstore::KeyRoleName::kHash}, {"sk", partstore::KeyRoleName::kRange}};
    partstore::GlobalSecondaryIndexDescription gsi;
    gsi.index_name = "GSI1";
    gsi.key_schema = {{"g", partstore::KeyRoleName::kHash}};
    t.global_secondary_indexes.push_back(gsi);
    return t;
  }();
  return table;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = partstore::partiql::ParseStatement(text);
  if (!parsed.ok()) {
    Check(parsed.error().code() == partstore::Code::kValidation);
    return 0;
  }
  Check(parsed->parameter_count >= 0 && static_cast<size_t>(parsed->parameter_count) <= size);
  std::vector<partstore::Value> parameters(static_cast<size_t>(parsed->parameter_count),
                                           partstore::Value("p"));
  using partstore::internal::partiql::Context;
  for (Context context : {Context::kSingle, Context::kBatch, Context::kTransaction}) {
    auto compiled = partstore::internal::partiql::Compile(*parsed, parameters, Table(), context);
    if (!compiled.ok()) Check(compiled.error().code() == partstore::Code::kValidation);
  }
  return 0;
}
