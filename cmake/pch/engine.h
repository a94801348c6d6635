// Precompiled for partstore_shard (cmake/build_speed.cmake): what nearly every engine file reads
// through shard/table.h and shard/database_state.h (the public API, Abseil's and Boost's
// containers, the simulated partitions' capacity headers).
#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

#include "partstore/database.h"
#include "shard/database_state.h"
#include "shard/table.h"
