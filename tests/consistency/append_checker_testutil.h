// Strict serializability of a list-append history, as Jepsen's Elle checks it.
//
// Every read of a key returns the key's list, so the reads give each key's version order (the
// longest read; every other read must be a prefix of it). From that order come the dependencies
// between transactions: write-write (the append after mine), write-read (you read my append as
// the last element), read-write (I read the list before your append), and real time (I completed
// before you were invoked). The history is strictly serializable exactly when that graph has no
// cycle. Also reported: a duplicate element, an element no transaction appended, one a failed
// transaction appended (an aborted read), reads that are not prefixes of one order, and an
// acknowledged append missing from a read invoked after it completed (a lost write).
//
// Unknown transactions take part when one of their appends was read (then they committed);
// otherwise they have no effect to check.
#pragma once

#include "tests/consistency/history_testutil.h"

namespace partstore::consistency {

CheckReport CheckLists(const ListHistory& history);

}  // namespace partstore::consistency
