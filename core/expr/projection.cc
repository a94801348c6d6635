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

#include "core/item_attribute.h"
#include "core/stored_item_projection.h"

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

// The same projection over a tree value and an encoded one (partstore/stored_item.h): these
// adapters are all that differ.
const AttributeMap* AsMap(const Value& v) { return v.if_map(); }
std::optional<MapView> AsMap(const ValueView& v) {
  return v.is(Type::kM) ? std::optional<MapView>(v.as_map()) : std::nullopt;
}
const ValueList* AsList(const Value& v) { return v.if_list(); }
std::optional<ListView> AsList(const ValueView& v) {
  return v.is(Type::kL) ? std::optional<ListView>(v.as_list()) : std::nullopt;
}
const Value* Child(const AttributeMap& map, std::string_view name) {
  auto it = map.find(name);
  return it == map.end() ? nullptr : &it->second;
}
std::optional<ValueView> Child(const MapView& map, std::string_view name) { return map.Find(name); }
const Value* Element(const ValueList& list, int64_t index) {
  return static_cast<uint64_t>(index) < list.size() ? &list[static_cast<size_t>(index)] : nullptr;
}
std::optional<ValueView> Element(const ListView& list, int64_t index) {
  return static_cast<uint64_t>(index) < list.size() ? list.at(static_cast<size_t>(index))
                                                    : std::nullopt;
}
Value Whole(const Value& v) { return v; }
Value Whole(const ValueView& v) { return v.ToValue(); }

template <typename V>
std::optional<Value> ProjectValue(const V& source, std::vector<const Path*>& paths, size_t depth);

// Projects `child` for the group of paths [begin, end) that select it at `depth`: the whole value
// if one of them ends here, else the projection of the rest of the paths.
template <typename V>
std::optional<Value> ProjectChild(const V& child, std::vector<const Path*>::iterator begin,
                                  std::vector<const Path*>::iterator end, size_t depth) {
  std::vector<const Path*> deeper;
  for (auto it = begin; it != end; ++it) {
    if ((*it)->elements.size() == depth + 1) return Whole(child);
    deeper.push_back(*it);
  }
  return ProjectValue(child, deeper, depth + 1);
}

template <typename V>
std::optional<Value> ProjectValue(const V& source, std::vector<const Path*>& paths, size_t depth) {
  std::sort(paths.begin(), paths.end(), ElementLess{depth});
  if (const auto map = AsMap(source)) {
    AttributeMap out;
    for (auto it = paths.begin(); it != paths.end();) {
      auto group_end = it + 1;
      while (group_end != paths.end() && SameElement(*it, *group_end, depth)) ++group_end;
      const PathElement& element = (*it)->elements[depth];
      if (!element.is_index()) {
        if (const auto found = Child(*map, element.name)) {
          if (std::optional<Value> v = ProjectChild(*found, it, group_end, depth)) {
            out.insert_or_assign(element.name, std::move(*v));
          }
        }
      }
      it = group_end;
    }
    if (out.empty()) return std::nullopt;
    return Value(std::move(out));
  }
  if (const auto list = AsList(source)) {
    ValueList out;
    for (auto it = paths.begin(); it != paths.end();) {
      auto group_end = it + 1;
      while (group_end != paths.end() && SameElement(*it, *group_end, depth)) ++group_end;
      const PathElement& element = (*it)->elements[depth];
      if (element.is_index()) {
        if (const auto child = Element(*list, element.index)) {
          if (std::optional<Value> v = ProjectChild(*child, it, group_end, depth)) {
            out.push_back(std::move(*v));
          }
        }
      }
      it = group_end;
    }
    if (out.empty()) return std::nullopt;
    return Value(std::move(out));
  }
  return std::nullopt;
}

template <typename ItemT>
Item ProjectItem(const ProjectionExpression& projection, const ItemT& item) {
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
    if (const auto found = Attribute(item, name)) {
      if (std::optional<Value> v = ProjectChild(*found, it, group_end, 0)) {
        out.insert_or_assign(name, std::move(*v));
      }
    }
    it = group_end;
  }
  return out;
}

}  // namespace

Item Project(const ProjectionExpression& projection, const Item& item) {
  return ProjectItem(projection, item);
}

Item Project(const ProjectionExpression& projection, const StoredItem& item) {
  return ProjectItem(projection, item);
}

StoredItem ProjectStored(const ProjectionExpression& projection, const StoredItem& item) {
  std::vector<std::string_view> names;
  names.reserve(projection.paths.size());
  for (const Path& path : projection.paths) {
    if (path.elements.size() != 1 || path.elements[0].is_index()) {
      return StoredItem::Encode(ProjectItem(projection, item));
    }
    names.push_back(path.elements[0].name);
  }
  return ProjectStoredItem(item, std::move(names));
}

}  // namespace partstore::expr
