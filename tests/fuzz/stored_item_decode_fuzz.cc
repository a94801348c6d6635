// libFuzzer target for StoredItem::Decode, the reader of stored-item encodings that snapshot
// files will carry. Any input must decode or fail with an Internal error, never crash, hang or
// read past its end; what decodes must be exactly what the encoder writes for its item
// (re-encoding gives the same bytes), have the size ItemSize computes, pass ValidateItem, and
// read the same through the views as through the tree, and write the same DynamoDB JSON from the
// encoding as from the tree, and project onto a subset of attributes as encoding the subset
// would. Conditions and projections over its attributes give the same answers read from the
// encoding as from the tree (comparisons, functions and size() between attributes, and against
// tree constants), and two encoded values are equal exactly when their trees are. Violations
// abort.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "core/expr/evaluate.h"
#include "core/expr/projection.h"
#include "core/stored_item_projection.h"
#include "partstore/item.h"
#include "partstore/stored_item.h"
#include "tests/expr/condition_builders.h"
#include "tools/protocol/attribute_value_json.h"

namespace {

using partstore::Code;
using partstore::Item;
using partstore::Result;
using partstore::StoredItem;

void Check(bool condition) {
  if (!condition) std::abort();
}

namespace expr = partstore::expr;

// A path operand of one top-level attribute, with an optional index or name step below it (names
// from the input may hold '.' or '[', so paths are built, not parsed).
expr::Operand Attribute(std::string_view name, int64_t index = -1, std::string_view member = {}) {
  expr::Operand o;
  o.kind = expr::OperandKind::kPath;
  o.path.elements.push_back(expr::PathElement{std::string(name), -1});
  if (index >= 0) o.path.elements.push_back(expr::PathElement{"", index});
  if (!member.empty()) o.path.elements.push_back(expr::PathElement{std::string(member), -1});
  return o;
}

// The conditions and projections between attributes `a` and `b` (b's value also as a constant)
// agree on the encoding and the tree.
void CheckExpressions(const StoredItem& stored, const Item& item, const std::string& a,
                      const std::string& b, const partstore::Value& b_value) {
  using namespace partstore::expr;            // NOLINT: the expression API
  using namespace partstore::expr::builders;  // NOLINT: the test builders
  std::vector<Condition> conditions;
  for (const char* op : {"=", "<>", "<", "<=", ">", ">="}) {
    conditions.push_back(Cmp(Attribute(a), op, Attribute(b)));
    conditions.push_back(Cmp(Attribute(a), op, ValOp(":v", &b_value)));
    conditions.push_back(Cmp(SizeOp(Attribute(a)), op, Attribute(b)));
  }
  conditions.push_back(Fn("contains", {Attribute(a), Attribute(b)}));
  conditions.push_back(Fn("contains", {Attribute(a), ValOp(":v", &b_value)}));
  conditions.push_back(Fn("begins_with", {Attribute(a), Attribute(b)}));
  conditions.push_back(Between(Attribute(a), Attribute(b), ValOp(":v", &b_value)));
  conditions.push_back(Cmp(Attribute(a, 0), "=", Attribute(b)));
  conditions.push_back(Fn("attribute_exists", {Attribute(a, 1)}));
  conditions.push_back(Fn("attribute_exists", {Attribute(a, -1, b)}));
  for (const Condition& c : conditions) {
    Check(Evaluate(c, &stored) == Evaluate(c, &item));
  }
  ProjectionExpression projection;
  for (const Operand& path : {Attribute(a, 0), Attribute(b), Attribute(a, -1, b)}) {
    projection.paths.push_back(path.path);
  }
  Check(Project(projection, stored) == Project(projection, item));
  Check(ProjectStored(projection, stored) == Project(projection, item));
  ProjectionExpression top;  // top-level names only: the attributes' bytes are copied
  top.paths = {Attribute(a).path, Attribute(b).path};
  Check(ProjectStored(top, stored) == Project(top, item));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Result<StoredItem> decoded = StoredItem::Decode(bytes);
  if (!decoded.ok()) {
    Check(decoded.status().code() == Code::kInternal);
    return 0;
  }
  const Item item = decoded->ToItem();
  Check(partstore::ValidateItem(item).ok());
  Check(decoded->item_size() == partstore::ItemSize(item));
  Check(*decoded == item);
  // What Decode adopts is what Encode produces, and its portable encoding is the input itself,
  // or (an older version's form encoded again: a run written out, a short scalar written with its
  // length, a small map with offsets) something no longer: an empty map's older form, width 1 and
  // no offsets, is as long as its new one.
  const StoredItem again = StoredItem::Encode(item);
  Check(again.encoding() == decoded->encoding());
  const std::string portable = decoded->PortableEncoding();
  Check(portable == bytes || portable.size() <= bytes.size());
  Check(partstore::protocol::ItemToJson(*decoded) == partstore::protocol::ItemToJson(item));
  // A projection onto every other attribute has the bytes of encoding those attributes.
  std::vector<std::string_view> names;
  Item subset;
  bool take = true;
  for (const auto& [name, value] : item) {
    auto view = decoded->Find(name);
    Check(view.has_value() && *view == value && view->Size() == partstore::ValueSize(value));
    if (take) {
      names.push_back(name);
      subset.emplace(name, value);
    }
    take = !take;
  }
  const StoredItem projected = ProjectStoredItem(*decoded, names);
  Check(projected.encoding() == StoredItem::Encode(subset).encoding());
  Check(projected.item_size() == partstore::ItemSize(subset));
  // Pairs of the first attributes: equality of encodings, conditions and projections.
  int pairs = 0;
  for (const auto& [a, a_value] : item) {
    for (const auto& [b, b_value] : item) {
      if (++pairs > 36) return 0;
      Check((*decoded->Find(a) == *decoded->Find(b)) == (a_value == b_value));
      CheckExpressions(*decoded, item, a, b, b_value);
    }
  }
  return 0;
}
