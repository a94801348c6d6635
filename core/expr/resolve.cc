// Stage 2: binding ExpressionAttributeNames / ExpressionAttributeValues, and every check DynamoDB
// makes once names and values are known.
//
// The order of checks follows DynamoDB's own validator (its expression library is shared with
// DynamoDB Local, whose decompiled datamodel/ExpressionValidator, OperatorValidator and
// parser/ASTListener were studied; live-verified messages from the conformance suites confirm the
// texts):
//   - Conditions are validated bottom-up, left to right: an operator's operands (paths: '#'
//     names; values: ':' placeholders; nested size()) first, then the operator itself: operand
//     types, then "first operand must be distinct", then the operator's own rule (document path
//     required, attribute_type's type name, BETWEEN's bounds).
//   - UpdateExpression: its actions are processed in REVERSE textual order (DynamoDB's parser pops
//     them off a stack). First every target path: names, then overlap / conflict with the paths
//     already seen; then every action's value: names, values, operator checks, and ADD / DELETE
//     operand types.
//   - ProjectionExpression: paths in reverse textual order, names then overlap / conflict.
// So "path one" of an overlap message is the textually earlier path and "path two" an existing
// one reached from the point of collision by following the first child of DynamoDB's HashMap
// (reproduced below with Java's hash and bucket order).
#include "core/expr/resolve.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "partstore/item.h"

namespace partstore::expr {
namespace {

// ---- Messages --------------------------------------------------------------------------------

// The type set of a document path operand as DynamoDB prints it (live text via dynalite's
// tests: "operand type: {NS,SS,L,BS,N,M,B,BOOL,NULL,S}").
// attribute_type's valid names, in DynamoDB's order.
constexpr std::string_view kValidTypeNames = "{B,NULL,SS,BOOL,L,BS,N,NS,S,M}";

std::string Base64(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t n = (uint32_t(uint8_t(bytes[i])) << 16) | (uint32_t(uint8_t(bytes[i + 1])) << 8) |
                 uint8_t(bytes[i + 2]);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += kAlphabet[n & 63];
  }
  if (i + 1 == bytes.size()) {
    uint32_t n = uint32_t(uint8_t(bytes[i])) << 16;
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += "==";
  } else if (i + 2 == bytes.size()) {
    uint32_t n = (uint32_t(uint8_t(bytes[i])) << 16) | (uint32_t(uint8_t(bytes[i + 1])) << 8);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += '=';
  }
  return out;
}

// "AttributeValue: {N:1}", as in the BETWEEN messages. Only S, N and B reach it (the operand
// type check rejects other bound types first).
std::string BoundText(const Value& value) {
  std::string out = "AttributeValue: {";
  out += TypeName(value.type());
  out += ':';
  switch (value.type()) {
    case Type::kS:
      out += value.as_string();
      break;
    case Type::kN:
      value.as_number().AppendTo(&out);
      break;
    case Type::kB:
      out += Base64(value.as_binary());
      break;
    default:
      out += DebugString(value);
      break;
  }
  out += '}';
  return out;
}

// ---- Java's hashing, for DynamoDB's HashMap / HashSet iteration orders -------------------------

// java.lang.String.hashCode() over the UTF-16 code units of a UTF-8 string.
int32_t JavaStringHash(std::string_view utf8) {
  uint32_t h = 0;
  size_t i = 0;
  while (i < utf8.size()) {
    const uint8_t b = uint8_t(utf8[i]);
    uint32_t cp;
    size_t len;
    if (b < 0x80) {
      cp = b, len = 1;
    } else if ((b >> 5) == 0x6) {
      cp = b & 0x1F, len = 2;
    } else if ((b >> 4) == 0xE) {
      cp = b & 0x0F, len = 3;
    } else if ((b >> 3) == 0x1E) {
      cp = b & 0x07, len = 4;
    } else {
      cp = b, len = 1;  // Not UTF-8: count the byte as one unit.
    }
    if (i + len > utf8.size()) len = 1, cp = b;
    for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (uint8_t(utf8[i + k]) & 0x3F);
    i += len;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      h = 31 * h + (0xD800 + (cp >> 10));
      h = 31 * h + (0xDC00 + (cp & 0x3FF));
    } else {
      h = 31 * h + cp;
    }
  }
  return int32_t(h);
}

// java.util.HashMap's bucket of a key hash in a table of `capacity` (a power of two).
uint32_t JavaBucket(int32_t hash, uint32_t capacity) {
  const uint32_t h = uint32_t(hash);
  return (h ^ (h >> 16)) & (capacity - 1);
}

// Capacity of a HashMap after `count` insertions into a default-constructed one.
uint32_t JavaGrownCapacity(size_t count) {
  uint32_t capacity = 16;
  while (count > size_t(capacity) * 3 / 4) capacity *= 2;
  return capacity;
}

// DynamoDB's path elements hash as commons-lang HashCodeBuilder(8191, 127).append(x).
int32_t JavaPathElementHash(const PathElement& element) {
  const uint32_t base = 8191u * 127u;
  const uint32_t h = element.is_index() ? uint32_t(int32_t(element.index))
                                        : uint32_t(JavaStringHash(element.name));
  return int32_t(base + h);
}

// ---- Overlapping / conflicting document paths (UpdateExpression, ProjectionExpression) -------

// A trie of the paths seen so far, shaped like DynamoDB's projection tree: a child whose `node`
// is -1 is where a path ended.
class PathTrie {
 public:
  PathTrie() : nodes_(1) {}

  // Adds `path`, or returns DynamoDB's overlap / conflict message (without the prefix).
  std::optional<std::string> Insert(const Path& path) {
    int node = 0;
    const auto& elements = path.elements;
    for (size_t depth = 0; depth < elements.size(); ++depth) {
      const PathElement& element = elements[depth];
      Child* child = Find(node, element);
      if (child == nullptr) {
        const auto& children = nodes_[node].children;
        if (!children.empty() && children.front().element.is_index() != element.is_index()) {
          return Message("Two document paths conflict with each other", path, depth, node);
        }
        AddChain(node, elements, depth);
        return std::nullopt;
      }
      if (child->node >= 0 && depth + 1 < elements.size()) {
        node = child->node;
        continue;
      }
      return Message("Two document paths overlap with each other", path, depth, node);
    }
    return std::nullopt;
  }

 private:
  struct Child {
    PathElement element;
    int node = -1;
  };
  struct Node {
    std::vector<Child> children;  // in insertion order
  };

  Child* Find(int node, const PathElement& element) {
    for (Child& c : nodes_[node].children) {
      if (c.element == element) return &c;
    }
    return nullptr;
  }

  void AddChain(int node, const std::vector<PathElement>& elements, size_t depth) {
    for (size_t d = depth; d < elements.size(); ++d) {
      int next = -1;
      if (d + 1 < elements.size()) {
        next = int(nodes_.size());
        nodes_.emplace_back();
      }
      nodes_[node].children.push_back(Child{elements[d], next});
      node = next;
    }
  }

  // The child a java.util.HashMap iterates first: lowest bucket, then earliest inserted.
  const Child& FirstChild(int node) const {
    const auto& children = nodes_[node].children;
    const uint32_t capacity = JavaGrownCapacity(children.size());
    const Child* best = &children.front();
    uint32_t best_bucket = JavaBucket(JavaPathElementHash(best->element), capacity);
    for (const Child& c : children) {
      uint32_t bucket = JavaBucket(JavaPathElementHash(c.element), capacity);
      if (bucket < best_bucket) best = &c, best_bucket = bucket;
    }
    return *best;
  }

  // "...; path one: [new path], path two: [prefix + first-child chain]".
  std::string Message(std::string_view what, const Path& path, size_t depth, int node) const {
    Path other;
    other.elements.assign(path.elements.begin(), path.elements.begin() + long(depth));
    for (int n = node;;) {
      const Child& c = FirstChild(n);
      other.elements.push_back(c.element);
      if (c.node < 0 || nodes_[c.node].children.empty()) break;
      n = c.node;
    }
    std::string out(what);
    out += "; must remove or rewrite one of these paths; path one: ";
    out += path.ToListString();
    out += ", path two: ";
    out += other.ToListString();
    return out;
  }

  std::vector<Node> nodes_;
};

// ---- Operand types ---------------------------------------------------------------------------

using TypeMask = uint16_t;
constexpr TypeMask Bit(Type t) { return TypeMask(1u << unsigned(t)); }
constexpr TypeMask kAllTypes = 0x3FF;
constexpr TypeMask kOrderedTypes = Bit(Type::kS) | Bit(Type::kN) | Bit(Type::kB);
constexpr TypeMask kStringBinary = Bit(Type::kS) | Bit(Type::kB);
constexpr TypeMask kIterableTypes = Bit(Type::kS) | Bit(Type::kB) | Bit(Type::kSS) |
                                    Bit(Type::kNS) | Bit(Type::kBS) | Bit(Type::kL) | Bit(Type::kM);
constexpr TypeMask kNumberType = Bit(Type::kN);
constexpr TypeMask kListType = Bit(Type::kL);
constexpr TypeMask kAddTypes = Bit(Type::kN) | Bit(Type::kSS) | Bit(Type::kNS) | Bit(Type::kBS);
constexpr TypeMask kDeleteTypes = Bit(Type::kSS) | Bit(Type::kNS) | Bit(Type::kBS);

// The types a resolved operand may produce, and how DynamoDB prints them.
struct OperandTypes {
  TypeMask mask = kAllTypes;
  std::string_view symbols = kAnyTypeSymbols;
};

OperandTypes TypesOf(const Operand& operand) {
  switch (operand.kind) {
    case OperandKind::kValue:
      return {Bit(operand.value->type()), TypeName(operand.value->type())};
    case OperandKind::kSize:
    case OperandKind::kPlus:
    case OperandKind::kMinus:
      return {kNumberType, "N"};
    case OperandKind::kListAppend:
      return {kListType, "L"};
    case OperandKind::kPath:
    case OperandKind::kIfNotExists:
      return {};
  }
  return {};
}

// "Incorrect operand type ..." for the first operand `allowed` does not cover.
Status CheckOperandTypes(ExpressionKind kind, std::string_view op, TypeMask allowed,
                         const std::vector<Operand>& operands) {
  for (const Operand& operand : operands) {
    OperandTypes types = TypesOf(operand);
    if ((types.mask & allowed) == 0) {
      std::string message =
          "Incorrect operand type for operator or function; operator or function: ";
      message += op;
      message += ", operand type: ";
      message += types.symbols;
      return InvalidExpression(kind, message);
    }
  }
  return Status::Ok();
}

// "The first operand must be distinct ..." when operand 0 and a later operand are the same path.
Status CheckDistinct(ExpressionKind kind, std::string_view op,
                     const std::vector<Operand>& operands) {
  if (operands.size() < 2 || operands[0].kind != OperandKind::kPath) return Status::Ok();
  for (size_t i = 1; i < operands.size(); ++i) {
    if (operands[i].kind == OperandKind::kPath && operands[i].path == operands[0].path) {
      std::string message =
          "The first operand must be distinct from the remaining operands for this operator or "
          "function; operator: ";
      message += op;
      message += ", first operand: ";
      message += operands[0].path.ToListString();
      return InvalidExpression(kind, message);
    }
  }
  return Status::Ok();
}

Status RequirePath(ExpressionKind kind, std::string_view op, const Operand& operand) {
  if (operand.kind == OperandKind::kPath) return Status::Ok();
  std::string message = "Operator or function requires a document path; operator or function: ";
  message += op;
  return InvalidExpression(kind, message);
}

// Java HashSet order of `keys` (a subset of a request map holding `map_size` keys), as DynamoDB
// lists them in "unused" messages: new HashSet<>(map.keySet()) sizes its table from map_size.
std::string JoinInJavaSetOrder(std::vector<std::string_view> keys, size_t map_size) {
  uint32_t capacity = 16;
  const size_t wanted = std::max<size_t>(map_size * 4 / 3 + 1, 16);
  while (capacity < wanted) capacity *= 2;
  std::stable_sort(keys.begin(), keys.end(), [capacity](std::string_view a, std::string_view b) {
    return JavaBucket(JavaStringHash(a), capacity) < JavaBucket(JavaStringHash(b), capacity);
  });
  std::string out = "{";
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i > 0) out += ", ";
    out += keys[i];
  }
  out += '}';
  return out;
}

bool ValidPlaceholder(std::string_view key, char prefix) {
  if (key.size() < 2 || key[0] != prefix) return false;
  for (char c : key.substr(1)) {
    const bool ok =
        (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

// ---- Resolver --------------------------------------------------------------------------------

Resolver::Resolver(const NameMap* names, const AttributeMap* values)
    : names_(names), values_(values) {}

namespace {

Status CheckMapContents(const NameMap* names, const AttributeMap* values) {
  if (names != nullptr) {
    if (names->empty()) return Status::Validation("ExpressionAttributeNames must not be empty");
    for (const auto& [key, name] : *names) {
      if (!ValidPlaceholder(key, '#')) {
        return Status::Validation(
            "ExpressionAttributeNames contains invalid key: Syntax error; key: \"" + key + "\"");
      }
      // An empty name: DynamoDB's text as an application quotes it ("ExpressionAttributeNames
      // contains invalid value: Empty attribute name for key #DE"). A name over 65535 bytes:
      // a ValidationException starting "Attribute name" (scylladb test_limits.py, run against
      // DynamoDB), the text items get.
      if (name.empty()) {
        return Status::Validation(
            "ExpressionAttributeNames contains invalid value: Empty attribute name for key " + key);
      }
      PARTSTORE_RETURN_IF_ERROR(CheckAttributeName(name));
    }
  }
  if (values != nullptr) {
    if (values->empty()) return Status::Validation("ExpressionAttributeValues must not be empty");
    for (const auto& [key, value] : *values) {
      if (!ValidPlaceholder(key, ':')) {
        return Status::Validation(
            "ExpressionAttributeValues contains invalid key: Syntax error; key: \"" + key + "\"");
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Status Resolver::CheckMaps(int expression_count) const {
  if (expression_count == 0) {
    if (names_ != nullptr) {
      return Status::Validation(
          "ExpressionAttributeNames can only be specified when using expressions");
    }
    if (values_ != nullptr) {
      return Status::Validation(
          "ExpressionAttributeValues can only be specified when using expressions");
    }
    return Status::Ok();
  }
  return CheckMapContents(names_, values_);
}

Status Resolver::CheckMaps(std::span<const ExpressionKind> present,
                           std::span<const ExpressionKind> value_kinds) const {
  if (present.empty() && names_ != nullptr) {
    return Status::Validation(
        "ExpressionAttributeNames can only be specified when using expressions");
  }
  if (values_ != nullptr && !value_kinds.empty()) {
    const bool any = std::any_of(value_kinds.begin(), value_kinds.end(), [&](ExpressionKind k) {
      return std::find(present.begin(), present.end(), k) != present.end();
    });
    if (!any) {
      std::string message =
          "ExpressionAttributeValues can only be specified when using expressions: ";
      for (size_t i = 0; i < value_kinds.size(); ++i) {
        if (i > 0) message += " and ";
        message += ParameterName(value_kinds[i]);
      }
      message += value_kinds.size() > 1 ? " are null" : " is null";
      return Status::Validation(std::move(message));
    }
  }
  if (present.empty()) return Status::Ok();
  return CheckMapContents(names_, value_kinds.empty() ? nullptr : values_);
}

void Resolver::MarkUsed(UsedKeys* used, const std::string& key) {
  if (!Used(*used, key)) used->push_back(&key);
}

bool Resolver::Used(const UsedKeys& used, const std::string& key) {
  return std::find(used.begin(), used.end(), &key) != used.end();
}

Status Resolver::ResolvePath(Path* path, ExpressionKind kind) {
  for (PathElement& element : path->elements) {
    if (element.is_index() || element.name.empty() || element.name[0] != '#') continue;
    auto it = names_ != nullptr ? names_->find(element.name) : NameMap::const_iterator();
    if (names_ == nullptr || it == names_->end()) {
      return InvalidExpression(
          kind,
          "An expression attribute name used in the document path is not defined; "
          "attribute name: " +
              element.name);
    }
    MarkUsed(&used_names_, it->first);
    element.name = it->second;
  }
  return Status::Ok();
}

Status Resolver::ResolveValue(Operand* operand, ExpressionKind kind) {
  // Trees translated from legacy parameters (legacy.h) come bound already.
  if (operand->value != nullptr && operand->placeholder.empty()) return Status::Ok();
  auto it =
      values_ != nullptr ? values_->find(operand->placeholder) : AttributeMap::const_iterator();
  if (values_ == nullptr || it == values_->end()) {
    return InvalidExpression(
        kind,
        "An expression attribute value used in expression is not defined; attribute "
        "value: " +
            operand->placeholder);
  }
  MarkUsed(&used_values_, it->first);
  operand->value = &it->second;
  return Status::Ok();
}

Status Resolver::ResolveOperand(Operand* operand, ExpressionKind kind) {
  switch (operand->kind) {
    case OperandKind::kPath:
      return ResolvePath(&operand->path, kind);
    case OperandKind::kValue:
      return ResolveValue(operand, kind);
    default:
      break;
  }
  for (Operand& arg : operand->args) PARTSTORE_RETURN_IF_ERROR(ResolveOperand(&arg, kind));
  switch (operand->kind) {
    case OperandKind::kSize:
      return CheckOperandTypes(kind, "size", kIterableTypes, operand->args);
    case OperandKind::kPlus:
      return CheckOperandTypes(kind, "+", kNumberType, operand->args);
    case OperandKind::kMinus:
      return CheckOperandTypes(kind, "-", kNumberType, operand->args);
    case OperandKind::kListAppend:
      return CheckOperandTypes(kind, "list_append", kListType, operand->args);
    case OperandKind::kIfNotExists:
      PARTSTORE_RETURN_IF_ERROR(CheckDistinct(kind, "if_not_exists", operand->args));
      if (operand->args.empty()) return Status::Ok();
      return RequirePath(kind, "if_not_exists", operand->args[0]);
    default:
      return Status::Ok();
  }
}

Status Resolver::ResolveCondition(Condition* condition, ExpressionKind kind) {
  const ConditionKind ck = condition->kind;
  if (ck == ConditionKind::kAnd || ck == ConditionKind::kOr || ck == ConditionKind::kNot) {
    for (Condition& child : condition->children) {
      PARTSTORE_RETURN_IF_ERROR(ResolveCondition(&child, kind));
    }
    return Status::Ok();
  }
  std::vector<Operand>& operands = condition->operands;
  for (Operand& operand : operands) PARTSTORE_RETURN_IF_ERROR(ResolveOperand(&operand, kind));

  const std::string_view op =
      ck == ConditionKind::kCompare ? ComparatorText(condition->comparator) : ConditionKindText(ck);
  switch (ck) {
    case ConditionKind::kCompare: {
      const bool equality =
          condition->comparator == Comparator::kEq || condition->comparator == Comparator::kNe;
      if (!equality) {
        PARTSTORE_RETURN_IF_ERROR(CheckOperandTypes(kind, op, kOrderedTypes, operands));
      }
      return CheckDistinct(kind, op, operands);
    }
    case ConditionKind::kBetween: {
      PARTSTORE_RETURN_IF_ERROR(CheckOperandTypes(kind, op, kOrderedTypes, operands));
      PARTSTORE_RETURN_IF_ERROR(CheckDistinct(kind, op, operands));
      if (operands.size() == 3 && operands[1].kind == OperandKind::kValue &&
          operands[2].kind == OperandKind::kValue) {
        const Value& lower = *operands[1].value;
        const Value& upper = *operands[2].value;
        if (lower.type() != upper.type()) {
          return InvalidExpression(
              kind,
              "The BETWEEN operator requires same data type for lower and upper "
              "bounds; lower bound operand: " +
                  BoundText(lower) + ", upper bound operand: " + BoundText(upper));
        }
        if (Compare(lower, upper) == std::partial_ordering::greater) {
          return InvalidExpression(
              kind,
              "The BETWEEN operator requires upper bound to be greater than or equal "
              "to lower bound; lower bound operand: " +
                  BoundText(lower) + ", upper bound operand: " + BoundText(upper));
        }
      }
      return Status::Ok();
    }
    case ConditionKind::kIn: {
      PARTSTORE_RETURN_IF_ERROR(CheckDistinct(kind, op, operands));
      if (operands.size() > kMaxInOperands + 1) {
        return InvalidExpression(
            kind, "The IN operator is provided with too many operands; number of operands: " +
                      std::to_string(operands.size() - 1));
      }
      return Status::Ok();
    }
    case ConditionKind::kAttributeExists:
    case ConditionKind::kAttributeNotExists:
      if (operands.empty()) return Status::Ok();
      return RequirePath(kind, op, operands[0]);
    case ConditionKind::kAttributeType: {
      PARTSTORE_RETURN_IF_ERROR(CheckDistinct(kind, op, operands));
      if (operands.size() != 2) return Status::Ok();
      const Operand& type_operand = operands[1];
      if (type_operand.kind != OperandKind::kValue || !type_operand.value->is(Type::kS)) {
        std::string message =
            "Incorrect operand type for operator or function; operator or function: "
            "attribute_type, operand type: ";
        message += TypesOf(type_operand).symbols;
        return InvalidExpression(kind, message);
      }
      const std::string& name = type_operand.value->as_string();
      if (!TypeFromName(name).has_value()) {
        std::string message =
            "Invalid attribute type name found; type: " + name + ", valid types: ";
        message += kValidTypeNames;
        return InvalidExpression(kind, message);
      }
      return Status::Ok();
    }
    case ConditionKind::kBeginsWith:
      PARTSTORE_RETURN_IF_ERROR(CheckOperandTypes(kind, op, kStringBinary, operands));
      return CheckDistinct(kind, op, operands);
    case ConditionKind::kContains:
      return CheckDistinct(kind, op, operands);
    default:
      return Status::Ok();
  }
}

Result<Condition> Resolver::Resolve(const Condition& parsed, ExpressionKind kind) {
  Condition resolved = parsed;
  PARTSTORE_RETURN_IF_ERROR(ResolveCondition(&resolved, kind));
  return resolved;
}

Result<UpdateExpression> Resolver::Resolve(const UpdateExpression& parsed) {
  constexpr ExpressionKind kind = ExpressionKind::kUpdate;
  UpdateExpression resolved = parsed;
  auto& actions = resolved.actions;
  // Target paths, last action first: names, then overlap / conflict (which one action cannot
  // have: the common single SET skips the trie's allocations).
  std::optional<PathTrie> trie;
  if (actions.size() > 1) trie.emplace();
  for (size_t i = actions.size(); i-- > 0;) {
    PARTSTORE_RETURN_IF_ERROR(ResolvePath(&actions[i].path, kind));
    if (!trie) continue;
    if (std::optional<std::string> error = trie->Insert(actions[i].path)) {
      return InvalidExpression(kind, *error);
    }
  }
  // Values, last action first.
  for (size_t i = actions.size(); i-- > 0;) {
    UpdateAction& action = actions[i];
    if (action.kind == UpdateActionKind::kRemove) continue;
    PARTSTORE_RETURN_IF_ERROR(ResolveOperand(&action.operand, kind));
    if (action.kind == UpdateActionKind::kSet) continue;
    const bool add = action.kind == UpdateActionKind::kAdd;
    if (action.operand.kind != OperandKind::kValue) {
      return Status::Internal("ADD / DELETE without an expression attribute value");  // parser bug
    }
    if (parsed.from_attribute_updates) continue;  // legacy ADD also takes lists (legacy.h)
    const Type type = action.operand.value->type();
    if ((Bit(type) & (add ? kAddTypes : kDeleteTypes)) == 0) {
      std::string message = "Incorrect operand type for operator or function; operator: ";
      message += add ? "ADD" : "DELETE";
      message += ", operand type: ";
      message += LongTypeName(type);
      message +=
          add ? ", typeSet: ALLOWED_FOR_ADD_OPERAND" : ", typeSet: ALLOWED_FOR_DELETE_OPERAND";
      return InvalidExpression(kind, message);
    }
  }
  return resolved;
}

Result<ProjectionExpression> Resolver::Resolve(const ProjectionExpression& parsed) {
  constexpr ExpressionKind kind = ExpressionKind::kProjection;
  ProjectionExpression resolved = parsed;
  PathTrie trie;
  for (size_t i = resolved.paths.size(); i-- > 0;) {
    PARTSTORE_RETURN_IF_ERROR(ResolvePath(&resolved.paths[i], kind));
    if (std::optional<std::string> error = trie.Insert(resolved.paths[i])) {
      return InvalidExpression(kind, *error);
    }
  }
  return resolved;
}

Status Resolver::CheckAllUsed() const {
  if (names_ != nullptr && used_names_.size() < names_->size()) {
    std::vector<std::string_view> unused;
    for (const auto& [key, name] : *names_) {
      if (!Used(used_names_, key)) unused.push_back(key);
    }
    return Status::Validation(
        "Value provided in ExpressionAttributeNames unused in expressions: keys: " +
        JoinInJavaSetOrder(std::move(unused), names_->size()));
  }
  if (values_ != nullptr && used_values_.size() < values_->size()) {
    std::vector<std::string_view> unused;
    for (const auto& [key, value] : *values_) {
      if (!Used(used_values_, key)) unused.push_back(key);
    }
    return Status::Validation(
        "Value provided in ExpressionAttributeValues unused in expressions: keys: " +
        JoinInJavaSetOrder(std::move(unused), values_->size()));
  }
  return Status::Ok();
}

}  // namespace partstore::expr
