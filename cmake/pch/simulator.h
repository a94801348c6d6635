// Precompiled for partstore_simulator (cmake/build_speed.cmake): fmt, RapidJSON and the engine's
// public API, which the simulator's driver and reports all read.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "partstore/database.h"
