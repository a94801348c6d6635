// One table at one point in time: what exports are made of (partstore/database.h:
// ReadTableImage; loading goes through Database::ImportItem).
//
// ReadTableImage holds the table's stripes shared for as long as it takes to copy each item's
// handle (stored items are immutable: the handles are the copy), so writes to the table wait only
// for that, and a transaction is in the image whole or not at all.

#pragma once

#include <cstdint>
#include <vector>

#include "partstore/status.h"
#include "partstore/stored_item.h"
#include "partstore/table_requests.h"

namespace partstore {

struct TableImage {
  TableDescription table{};         // DescribeTable's answer at the point in time
  std::vector<StoredItem> items{};  // every item, in no particular order
  double time = 0;                  // the point in time, seconds since the epoch
};

}  // namespace partstore
