#include "partstore/update_builder.h"

#include <utility>

#include "shard/expression_placeholders.h"

namespace partstore {

namespace {

// The expression, its clauses in the order SET, REMOVE, ADD, DELETE, each action in the order it
// was added.
std::string Render(const auto& actions, builder_internal::Placeholders& p) {
  using Kind = std::decay_t<decltype(actions.front().kind)>;
  std::string set, remove, add, del;
  auto append = [](std::string& clause, const std::string& text) {
    clause += clause.empty() ? "" : ", ";
    clause += text;
  };
  for (const auto& a : actions) {
    const std::string name = p.Name(a.name);
    switch (a.kind) {
      case Kind::kSet:
        append(set, name + " = " + p.Value(*a.value));
        break;
      case Kind::kSetIfNotExists:
        append(set, name + " = if_not_exists(" + name + ", " + p.Value(*a.value) + ")");
        break;
      case Kind::kAppend:
        append(set, name + " = list_append(" + name + ", " + p.Value(*a.value) + ")");
        break;
      case Kind::kAdd:
        append(add, name + " " + p.Value(*a.value));
        break;
      case Kind::kRemove:
        append(remove, name);
        break;
      case Kind::kDelete:
        append(del, name + " " + p.Value(*a.value));
        break;
    }
  }
  std::string out;
  for (const auto& [keyword, clause] : {std::pair<const char*, const std::string&>{"SET ", set},
                                        {"REMOVE ", remove},
                                        {"ADD ", add},
                                        {"DELETE ", del}}) {
    if (clause.empty()) continue;
    if (!out.empty()) out += ' ';
    out += keyword;
    out += clause;
  }
  return out;
}

}  // namespace

Update& Update::Push(Kind kind, std::string name, std::optional<Value> value) {
  actions_.push_back({kind, std::move(name), std::move(value)});
  return *this;
}

Update& Update::Set(std::string name, Value value) {
  return Push(Kind::kSet, std::move(name), std::move(value));
}
Update& Update::SetIfNotExists(std::string name, Value value) {
  return Push(Kind::kSetIfNotExists, std::move(name), std::move(value));
}
Update& Update::Append(std::string name, Value list) {
  return Push(Kind::kAppend, std::move(name), std::move(list));
}
Update& Update::Add(std::string name, Value value) {
  return Push(Kind::kAdd, std::move(name), std::move(value));
}
Update& Update::Remove(std::string name) { return Push(Kind::kRemove, std::move(name), {}); }
Update& Update::Delete(std::string name, Value subset) {
  return Push(Kind::kDelete, std::move(name), std::move(subset));
}

std::string Update::Expression() const {
  builder_internal::Placeholders p("u");
  return Render(actions_, p);
}

Status Update::Write(std::optional<std::string>* field, std::optional<expr::NameMap>* names,
                     std::optional<AttributeMap>* values) const {
  if (actions_.empty()) return Status::Validation("Update: no action to write");
  builder_internal::Placeholders p("u");
  std::string expression = Render(actions_, p);
  return p.WriteInto(std::move(expression), "update expression", field, names, values);
}

}  // namespace partstore
