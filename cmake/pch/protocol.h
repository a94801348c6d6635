// Precompiled for partstore_protocol (cmake/build_speed.cmake): RapidJSON and the typed requests
// every JSON codec translates.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "partstore/database.h"
#include "tools/protocol/request_json.h"
