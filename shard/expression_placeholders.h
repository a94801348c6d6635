// Placeholders: what the typed expression builders (KeyCondition, Condition, Update) write into a
// request besides the expression text: ExpressionAttributeNames "#<prefix><n>" (one per distinct
// attribute name) and ExpressionAttributeValues ":<prefix><n>" (one per value). Internal to the
// builders; users never see it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/expr/resolve.h"
#include "partstore/status.h"
#include "partstore/value.h"

namespace partstore::builder_internal {

class Placeholders {
 public:
  explicit Placeholders(std::string prefix) : prefix_(std::move(prefix)) {}

  // "#<prefix><n>" for `name`, the same one each time the name recurs.
  std::string Name(const std::string& name) {
    for (const auto& [placeholder, n] : names_) {
      if (n == name) return placeholder;
    }
    std::string placeholder = "#" + prefix_ + std::to_string(names_.size());
    names_.emplace(placeholder, name);
    return placeholder;
  }
  // A new ":<prefix><n>" for `value`.
  std::string Value(partstore::Value value) {
    std::string placeholder = ":" + prefix_ + std::to_string(values_.size());
    values_.emplace(placeholder, std::move(value));
    return placeholder;
  }

  // Writes `expression` into *field and the placeholders into *names / *values. Validation error,
  // nothing written, when *field is already set (`what` names it) or a placeholder is taken.
  Status WriteInto(std::string expression, std::string_view what, std::optional<std::string>* field,
                   std::optional<expr::NameMap>* names, std::optional<AttributeMap>* values) const {
    if (*field) return Status::Validation("the request already has a " + std::string(what));
    for (const auto& [placeholder, name] : names_) {
      if (*names && (*names)->contains(placeholder)) return Taken(placeholder);
    }
    for (const auto& [placeholder, value] : values_) {
      if (*values && (*values)->contains(placeholder)) return Taken(placeholder);
    }
    if (!names_.empty()) {
      if (!*names) names->emplace();
      for (const auto& entry : names_) (*names)->insert(entry);
    }
    if (!values_.empty()) {
      if (!*values) values->emplace();
      for (const auto& entry : values_) (*values)->insert(entry);
    }
    *field = std::move(expression);
    return Status::Ok();
  }

 private:
  static Status Taken(const std::string& placeholder) {
    return Status::Validation("the request already defines the placeholder " + placeholder);
  }

  std::string prefix_;
  expr::NameMap names_;
  AttributeMap values_;
};

}  // namespace partstore::builder_internal
