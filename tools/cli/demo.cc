// `partstore demo`. Until the capacity simulator lands (it will replace this), the demo walks the
// seed articles' single-table e-commerce model through the data model: item sizes and capacity
// units by DynamoDB's rules, item collections in sort-key order, numeric key order, and
// DynamoDB's validation errors returned as values.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/capacity.h"
#include "core/item.h"
#include "core/key.h"
#include "core/key_encoding.h"
#include "core/number.h"
#include "tools/cli/commands.h"

namespace partstore::cli {
namespace {

Number Num(std::string_view text) { return Number::Parse(text).value(); }

// The e-commerce single-table design from the seed article (PK/SK, GSI1PK/GSI1SK overloading).
std::vector<Item> EcommerceItems() {
  return {
      {{"PK", "USER#12345"},
       {"SK", "USER#12345"},
       {"Type", "User"},
       {"userId", "12345"},
       {"name", "John Doe"},
       {"email", "john@example.com"},
       {"userType", "customer"},
       {"GSI1PK", "USER"},
       {"GSI1SK", "2024-01-15T10:30:00Z"}},
      {{"PK", "USER#67890"},
       {"SK", "USER#67890"},
       {"Type", "User"},
       {"userId", "67890"},
       {"name", "TechStore Inc"},
       {"email", "contact@techstore.com"},
       {"userType", "seller"},
       {"GSI1PK", "USER"},
       {"GSI1SK", "2024-01-10T08:15:00Z"}},
      {{"PK", "PRODUCT#ABC123"},
       {"SK", "PRODUCT#ABC123"},
       {"Type", "Product"},
       {"productId", "ABC123"},
       {"name", "Wireless Headphones"},
       {"price", Num("199.99")},
       {"description", "Premium wireless headphones"},
       {"sellerId", "67890"},
       {"GSI1PK", "PRODUCT"},
       {"GSI1SK", "2024-01-16T14:20:00Z"}},
      {{"PK", "CATEGORY#electronics"},
       {"SK", "CATEGORY#electronics"},
       {"Type", "Category"},
       {"categoryId", "electronics"},
       {"name", "Electronics"},
       {"description", "Electronic devices and accessories"}},
      {{"PK", "PRODUCT#ABC123"},
       {"SK", "CATEGORY#electronics"},
       {"Type", "ProductCategory"},
       {"productId", "ABC123"},
       {"categoryId", "electronics"},
       {"GSI1PK", "CATEGORY#electronics"},
       {"GSI1SK", "PRODUCT#ABC123"}},
      {{"PK", "ORDER#ORD001"},
       {"SK", "ORDER#ORD001"},
       {"Type", "Order"},
       {"orderId", "ORD001"},
       {"customerId", "12345"},
       {"total", Num("199.99")},
       {"status", "shipped"},
       {"orderDate", "2024-01-20T12:00:00Z"},
       {"GSI1PK", "USER#12345"},
       {"GSI1SK", "ORDER#2024-01-20T12:00:00Z"}},
      {{"PK", "ORDER#ORD001"},
       {"SK", "PRODUCT#ABC123"},
       {"Type", "OrderItem"},
       {"orderId", "ORD001"},
       {"productId", "ABC123"},
       {"quantity", 1},
       {"unitPrice", Num("199.99")},
       {"totalPrice", Num("199.99")},
       {"GSI1PK", "PRODUCT#ABC123"},
       {"GSI1SK", "ORDER#ORD001"}},
      {{"PK", "REVIEW#REV001"},
       {"SK", "REVIEW#REV001"},
       {"Type", "Review"},
       {"reviewId", "REV001"},
       {"customerId", "12345"},
       {"productId", "ABC123"},
       {"rating", 5},
       {"comment", "Excellent sound quality!"},
       {"reviewDate", "2024-01-25T09:30:00Z"},
       {"CreatedAt", "2024-01-25T09:30:00Z"}},
      {{"PK", "USER#12345"},
       {"SK", "REVIEW#REV001"},
       {"Type", "UserReview"},
       {"customerId", "12345"},
       {"reviewId", "REV001"},
       {"GSI1PK", "REVIEW#REV001"},
       {"GSI1SK", "USER#12345"},
       {"CreatedAt", "2024-01-25T09:30:00Z"}},
      {{"PK", "PRODUCT#ABC123"},
       {"SK", "REVIEW#REV001"},
       {"Type", "ProductReview"},
       {"productId", "ABC123"},
       {"reviewId", "REV001"},
       {"rating", 5},
       {"GSI1PK", "REVIEW#REV001"},
       {"GSI1SK", "PRODUCT#ABC123"},
       {"CreatedAt", "2024-01-25T09:30:00Z"}},
  };
}

void ShowSizes(const std::vector<Item>& items, std::ostream& out) {
  fmt::print(out, "{:<22} {:<22} {:>5} {:>4} {:>11} {:>13}\n", "PK", "SK", "bytes", "WCU",
             "RCU strong", "RCU eventual");
  for (const Item& item : items) {
    const size_t size = ItemSize(item);
    fmt::print(out, "{:<22} {:<22} {:>5} {:>4} {:>11} {:>13}\n", item.at("PK").as_string(),
               item.at("SK").as_string(), size, WriteUnits(size, WriteKind::kStandard),
               HalfUnitsToDouble(ReadHalfUnits(size, ReadConsistency::kStrong)),
               HalfUnitsToDouble(ReadHalfUnits(size, ReadConsistency::kEventual)));
  }
}

void ShowCollections(const std::vector<Item>& items, std::ostream& out) {
  // partition key -> (encoded sort key -> sort key): the shape of an item collection.
  std::map<std::string, std::map<std::string, std::string>> collections;
  for (const Item& item : items) {
    const Value& sk = item.at("SK");
    collections[item.at("PK").as_string()][EncodeKey(sk)] = sk.as_string();
  }
  for (const auto& [pk, sorted] : collections) {
    std::vector<std::string> keys;
    for (const auto& [encoded, sk] : sorted) keys.push_back(sk);
    fmt::print(out, "  {:<22} {}\n", pk, fmt::join(keys, ", "));
  }
}

void ShowNumberOrder(std::ostream& out) {
  std::vector<std::pair<std::string, std::string>> keys;  // (encoding, text as written)
  for (std::string_view text : {"1E1", "-3", "0.001", "100", "-1.5E2", "2", "0", "9.99"}) {
    keys.emplace_back(EncodeKey(Value(Num(text))), std::string(text));
  }
  std::sort(keys.begin(), keys.end());
  std::vector<std::string> shown;
  for (const auto& [encoded, text] : keys) {
    shown.push_back(fmt::format("{} ({})", text, Num(text).ToString()));
  }
  fmt::print(out, "  {}\n", fmt::join(shown, " < "));
}

void ShowValidation(std::ostream& out) {
  auto show = [&](std::string_view what, const Status& status) {
    fmt::print(out, "  {:<34} -> {}\n", what, status.ToString());
  };
  show("a number with 39 digits",
       Number::Parse("123456789012345678901234567890123456789").status());
  show("1E126", Number::Parse("1E126").status());
  Value nested = Value::Map({});
  for (int i = 0; i < 32; ++i) nested = Value::Map({{"a", std::move(nested)}});
  show("maps nested 33 levels deep", ValidateItem({{"PK", "x"}, {"nested", nested}}));
  show("an item of 410,000 bytes",
       ValidateItem({{"PK", "x"}, {"blob", std::string(410'000, 'x')}}));
  show("an empty string set", ValidateItem({{"PK", "x"}, {"tags", StringSet{}}}));
  show("a 2049-byte partition key",
       CheckKeyValue({"PK", KeyType::kString}, KeyRole::kPartition, std::string(2049, 'k')));
  show("a number where PK is a string",
       CheckKeyValue({"PK", KeyType::kString}, KeyRole::kPartition, Value(42)));
}

}  // namespace

int RunDemo(std::ostream& out) {
  const std::vector<Item> items = EcommerceItems();
  fmt::print(out, "partstore demo: the single-table e-commerce model from the seed article\n\n");
  fmt::print(out, "Item sizes and capacity units, by DynamoDB's rules:\n");
  ShowSizes(items, out);
  fmt::print(out, "\nItem collections in sort-key order (the order Query returns):\n");
  ShowCollections(items, out);
  fmt::print(out,
             "\nNumber keys sort by value, whatever their text (canonical form in brackets):\n");
  ShowNumberOrder(out);
  fmt::print(out, "\nBad input gets DynamoDB's error, as a value:\n");
  ShowValidation(out);
  return 0;
}

}  // namespace partstore::cli
