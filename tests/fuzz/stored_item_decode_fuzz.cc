// libFuzzer target for StoredItem::Decode, the reader of stored-item encodings that snapshot
// files will carry. Any input must decode or fail with an Internal error, never crash, hang or
// read past its end; what decodes must be exactly what the encoder writes for its item
// (re-encoding gives the same bytes), have the size ItemSize computes, pass ValidateItem, and
// read the same through the views as through the tree, and write the same DynamoDB JSON from the
// encoding as from the tree, and project onto a subset of attributes as encoding the subset
// would. Violations abort.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "core/item.h"
#include "core/stored_item.h"
#include "tools/protocol/attribute_value_json.h"

namespace {

using partstore::Code;
using partstore::Item;
using partstore::Result;
using partstore::StoredItem;

void Check(bool condition) {
  if (!condition) std::abort();
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
  const StoredItem again = StoredItem::Encode(item);
  Check(again.encoding() == bytes);
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
  const StoredItem projected = StoredItem::Project(*decoded, names);
  Check(projected.encoding() == StoredItem::Encode(subset).encoding());
  Check(projected.item_size() == partstore::ItemSize(subset));
  return 0;
}
