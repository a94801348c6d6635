// libFuzzer target for UpdateItem's write path on an existing item (ApplyUpdateToStored,
// core/expr/update_stored.h). The input is an update expression, a newline, and a stored item's
// encoding (as StoredItem::Decode reads it; a fixed item when it does not decode). The update is
// parsed and resolved against a fixed set of values; then the new version written in place must
// be byte for byte StoredItem::Encode of what ApplyUpdate makes of the whole tree, with the same
// UPDATED_OLD / UPDATED_NEW, and fail exactly when that path fails, with the same error; and when
// the update can be written into the item's own buffer (PlanUpdateInPlace), that write makes the
// same bytes. Violations abort.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "core/expr/parser.h"
#include "core/expr/resolve.h"
#include "core/expr/update.h"
#include "core/expr/update_stored.h"
#include "partstore/item.h"
#include "partstore/stored_item.h"

namespace {

using namespace partstore;        // NOLINT
using namespace partstore::expr;  // NOLINT

void Check(bool condition) {
  if (!condition) std::abort();
}

const KeySchema& Schema() {
  static const KeySchema schema{KeyAttribute{"pk", KeyType::kString},
                                KeyAttribute{"sk", KeyType::kNumber}};
  return schema;
}

const AttributeMap& Values() {
  static const AttributeMap values{
      {":s", Value("text")},
      {":e", Value("")},
      {":n", Value(Number::Parse("-12.5").value())},
      {":one", Value(1)},
      {":l", Value::List({Value(1), Value("two"), Value::Map({{"x", Value(3)}})})},
      {":m", Value::Map({{"x", Value::List({Value(1)})}, {"y", Value(true)}})},
      {":ss", Value(StringSet{"a", "b"})},
      {":ns", Value(NumberSet{Number::Parse("1").value(), Number::Parse("2").value()})},
      {":bs", Value(BinarySet{Bytes{"\x01"}})},
      {":big", Value(std::string(200'000, 'z') + "!")},
  };
  return values;
}

const Item& DefaultItem() {
  static const Item item{
      {"pk", "k"},
      {"sk", 1},
      {"a", Value::Map({{"x", Value::List({Value(1), Value("s")})}, {"y", Value(2)}})},
      {"b", Value::List({Value(1), Value::Map({{"x", Value("v")}}), Value(StringSet{"a"})})},
      {"c", Value(Number::Parse("3").value())},
      {"d", Value(StringSet{"a", "c"})},
      {"e", Value(std::string(150'000, 'e') + "!")},
  };
  return item;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t newline = input.find('\n');
  const std::string_view text = input.substr(0, newline);
  Result<UpdateExpression> parsed = ParseUpdate(text);
  if (!parsed.ok()) return 0;
  Resolver resolver(nullptr, &Values());
  Result<UpdateExpression> update = resolver.Resolve(*parsed);
  if (!update.ok()) return 0;

  StoredItem old;
  if (newline != std::string_view::npos) {
    Result<StoredItem> decoded = StoredItem::Decode(input.substr(newline + 1));
    if (decoded.ok()) old = std::move(*decoded);
  }
  if (old.empty()) old = StoredItem::Encode(DefaultItem());
  const Item tree = old.ToItem();

  for (const UpdatedAttributes wanted :
       {UpdatedAttributes::kNone, UpdatedAttributes::kUpdatedOld, UpdatedAttributes::kUpdatedNew}) {
    Result<UpdateOutcome> want = ApplyUpdate(*update, &tree, Schema(), wanted);
    Status valid = want.ok() ? ValidateItem(want->item) : want.status();
    static constexpr std::string_view kAlso[] = {"c", "e"};
    Result<StoredUpdateOutcome> got = ApplyUpdateToStored(*update, old, Schema(), wanted, kAlso);
    Check(got.ok() == valid.ok());
    if (!valid.ok()) {
      Check(got.status().code() == valid.code() && got.status().message() == valid.message());
      continue;
    }
    const StoredItem encoded = StoredItem::Encode(want->item);
    Check(got->item.encoding() == encoded.encoding());
    Check(got->item.item_size() == encoded.item_size());
    Check(got->attributes == want->attributes);
    // The in-place write, when the update can be one, makes the same bytes in the item's own
    // buffer (a sole copy of it: `old` is shared with nothing else here but must stay as it is).
    StoredItem sole = StoredItem::Encode(tree);
    if (std::optional<InPlaceUpdate> in_place =
            PlanUpdateInPlace(*update, sole, Schema(), wanted)) {
      const char* buffer = sole.encoding().data();
      ApplyUpdateInPlace(sole, *in_place);
      Check(sole.encoding().data() == buffer);
      Check(sole.encoding() == encoded.encoding());
      Check(sole.item_size() == encoded.item_size());
    }
  }
  return 0;
}
