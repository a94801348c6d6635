// Precompiled for partstore_core (cmake/build_speed.cmake): the standard and Boost headers most of
// core/ includes. Only headers that change rarely belong here: an edit to one rebuilds the target.
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/container/flat_map.hpp>
#include <boost/container/small_vector.hpp>

#include "partstore/status.h"
#include "partstore/value.h"
