// Projection keeps the hierarchy of each path (DynamoDB's projection tree, live-verified by the
// conformance suites): `a.b[2].c` gives {a: {b: [ {c: ...} ]}}; several indexes of one list are
// gathered in ascending index order and compacted (`l[2], l[0]` on [x, y, z] gives [x, z]);
// several paths below one index merge into that element (`l[0].a, l[0].b` gives [{a, b}]); a
// path that does not resolve is omitted, and so is a map or list none of whose selected children
// exist. Overlapping paths are rejected when resolving (resolve.cc), so each selected value is
// copied once.
#include "core/expr/projection.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

namespace partstore::expr {
namespace {

// Orders paths by their element at `depth`: names by bytes, indexes numerically, indexes before
// names (a mix only occurs in unresolved input; each kind is then matched separately).
struct ElementLess {
  size_t depth;
  bool operator()(const Path* a, const Path* b) const {
    const PathElement& x = a->elements[depth];
    const PathElement& y = b->elements[depth];
    if (x.is_index() != y.is_index()) return x.is_index();
    if (x.is_index()) return x.index < y.index;
    return x.name < y.name;
  }
};

bool SameElement(const Path* a, const Path* b, size_t depth) {
  return a->elements[depth] == b->elements[depth];
}

std::optional<Value> ProjectValue(const Value& source, std::vector<const Path*>& paths,
                                  size_t depth);

// Projects `child` for the group of paths [begin, end) that select it at `depth`: the whole value
// if one of them ends here, else the projection of the rest of the paths.
std::optional<Value> ProjectChild(const Value& child, std::vector<const Path*>::iterator begin,
                                  std::vector<const Path*>::iterator end, size_t depth) {
  std::vector<const Path*> deeper;
  for (auto it = begin; it != end; ++it) {
    if ((*it)->elements.size() == depth + 1) return child;
    deeper.push_back(*it);
  }
  return ProjectValue(child, deeper, depth + 1);
}

std::optional<Value> ProjectValue(const Value& source, std::vector<const Path*>& paths,
                                  size_t depth) {
  std::sort(paths.begin(), paths.end(), ElementLess{depth});
  if (const AttributeMap* map = source.if_map()) {
    AttributeMap out;
    for (auto it = paths.begin(); it != paths.end();) {
      auto group_end = it + 1;
      while (group_end != paths.end() && SameElement(*it, *group_end, depth)) ++group_end;
      const PathElement& element = (*it)->elements[depth];
      if (!element.is_index()) {
        auto found = map->find(std::string_view(element.name));
        if (found != map->end()) {
          if (std::optional<Value> v = ProjectChild(found->second, it, group_end, depth)) {
            out.insert_or_assign(element.name, std::move(*v));
          }
        }
      }
      it = group_end;
    }
    if (out.empty()) return std::nullopt;
    return Value(std::move(out));
  }
  if (const ValueList* list = source.if_list()) {
    ValueList out;
    for (auto it = paths.begin(); it != paths.end();) {
      auto group_end = it + 1;
      while (group_end != paths.end() && SameElement(*it, *group_end, depth)) ++group_end;
      const PathElement& element = (*it)->elements[depth];
      if (element.is_index() && static_cast<uint64_t>(element.index) < list->size()) {
        const Value& child = (*list)[static_cast<size_t>(element.index)];
        if (std::optional<Value> v = ProjectChild(child, it, group_end, depth)) {
          out.push_back(std::move(*v));
        }
      }
      it = group_end;
    }
    if (out.empty()) return std::nullopt;
    return Value(std::move(out));
  }
  return std::nullopt;
}

}  // namespace

Item Project(const ProjectionExpression& projection, const Item& item) {
  std::vector<const Path*> paths;
  paths.reserve(projection.paths.size());
  for (const Path& path : projection.paths) {
    if (!path.elements.empty() && !path.elements[0].is_index()) paths.push_back(&path);
  }
  std::sort(paths.begin(), paths.end(), ElementLess{0});
  Item out;
  for (auto it = paths.begin(); it != paths.end();) {
    auto group_end = it + 1;
    while (group_end != paths.end() && SameElement(*it, *group_end, 0)) ++group_end;
    const std::string& name = (*it)->elements[0].name;
    auto found = item.find(std::string_view(name));
    if (found != item.end()) {
      if (std::optional<Value> v = ProjectChild(found->second, it, group_end, 0)) {
        out.insert_or_assign(name, std::move(*v));
      }
    }
    it = group_end;
  }
  return out;
}

}  // namespace partstore::expr
