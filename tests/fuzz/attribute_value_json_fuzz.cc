// libFuzzer target for the AttributeValue JSON codec. Any input must decode or fail with a
// ValidationException / SerializationException, never crash, hang or throw. A decoded item must
// satisfy DynamoDB's value rules, and survive encode -> decode unchanged with a stable canonical
// encoding. The same checks run on the input read as a single AttributeValue. The whole-text UTF-8
// check agrees with RapidJSON's own, ParseJson takes what RapidJSON's strict parse took, the
// server's in-place parse agrees with ParseJson, and the item encoded straight from the JSON
// (EncodeItemJson, what the server's PutItem stores) is declined whenever the tree decoder refuses
// the item, and otherwise is the tree's encoding byte for byte. Violations abort.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "partstore/item.h"
#include "partstore/stored_item.h"
#include "tests/testutil/strict_json_oracle.h"
#include "tools/protocol/attribute_value_json.h"

namespace {

using partstore::Code;
using partstore::Item;
using partstore::Result;
using partstore::Status;
using partstore::StoredItem;
using partstore::Value;
namespace protocol = partstore::protocol;

void Check(bool condition) {
  if (!condition) std::abort();
}

void CheckError(const Status& status) {
  Check(!status.ok());
  Check(status.code() == Code::kValidation || status.code() == Code::kSerialization);
}

void CheckItem(const Item& item) {
  for (const auto& [name, value] : item) {
    Check(!name.empty() && name.size() <= partstore::kMaxAttributeNameSize);
    Check(partstore::ValidateValue(value).ok());
  }
  const std::string json = protocol::ItemToJson(item);
  Result<Item> again = protocol::ParseItemJson(json);
  Check(again.ok());
  Check(*again == item);
  Check(protocol::ItemToJson(*again) == json);
}

void CheckValue(const Value& value) {
  Check(partstore::ValidateValue(value).ok());
  const std::string json = protocol::ValueToJson(value);
  rapidjson::Document document;
  Check(protocol::ParseJson(json, &document).ok());
  Result<Value> again = protocol::DecodeAttributeValue(document);
  Check(again.ok());
  Check(*again == value);
  Check(protocol::ValueToJson(*again) == json);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  Result<Item> item = protocol::ParseItemJson(text);
  if (item.ok()) {
    CheckItem(*item);
  } else {
    CheckError(item.status());
  }

  Check(protocol::IsValidUtf8(text) == partstore::testing::RapidJsonTakesAsUtf8(std::string(text)));

  rapidjson::Document document;
  Status parsed = protocol::ParseJson(text, &document);
  Check(parsed.ok() == partstore::testing::StrictRapidJsonParseAccepts(text));
  protocol::InsituJson in_place;
  Check(in_place.Parse(text) == parsed);
  Check(!parsed.ok() || partstore::testing::SameJson(in_place.root(), document));
  if (!parsed.ok()) {
    Check(parsed.code() == Code::kSerialization && parsed.message().empty());
    Check(!item.ok() && item.status() == parsed);
    return 0;
  }
  // The shape check alone agrees with the full decoder about serialization errors.
  Status shape = protocol::CheckItemJson(document);
  Check(shape.ok() || shape.code() == Code::kSerialization);
  Check(shape.ok() == (item.ok() || item.status().code() != Code::kSerialization));

  // The item encoded straight from the JSON: declined whenever the tree path refuses it, and
  // when taken, the tree's encoding and size.
  std::optional<StoredItem> direct = protocol::EncodeItemJson(document);
  Check(!direct || item.ok());
  if (direct) {
    const StoredItem want = StoredItem::Encode(*item);
    Check(direct->encoding() == want.encoding());
    Check(direct->item_size() == want.item_size());
  }

  Result<Value> value = protocol::DecodeAttributeValue(document);
  if (value.ok()) {
    CheckValue(*value);
  } else {
    CheckError(value.status());
  }
  return 0;
}
