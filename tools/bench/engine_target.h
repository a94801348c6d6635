// The in-process engine as a bench Target: a partstore::Database driven through its typed C++ API
// (GetItemRequest, UpdateItemRequest with an UpdateExpression, QueryRequest with a
// KeyConditionExpression, ...), exactly as a C++ program using partstore as a cache would, with
// capacity simulation off (the default: an in-process cache pays nothing for it).
//
// Thread safety: the Database is shared by every session; sessions are per thread.
#pragma once

#include <memory>
#include <string>

#include "partstore/database.h"
#include "tools/bench/target.h"

namespace partstore::bench {

std::unique_ptr<Target> MakeEngineTarget(std::string name, DatabaseOptions options = {});

}  // namespace partstore::bench
