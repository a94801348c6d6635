// The responses the wire target (dynamodb_target.h) reads from a DynamoDB endpoint, parsed into
// what `partstore bench` needs. Every body here comes from whatever server the bench is pointed
// at, so each function takes any bytes: malformed input is a Status saying what is wrong, never a
// crash, an exception or unbounded work (tests/fuzz/bench_wire_fuzz.cc).
//
//   CountReadResponse   GetItem / Query / Scan (200): items, bytes, LastEvaluatedKey
//   ErrorStatus         any non-200 response: the Status of DynamoDB's `__type`
//   ParseDescribeTable  DescribeTable (200): the table's and its GSIs' status
//   ParseBatchWriteResponse  BatchWriteItem (200): what is left in UnprocessedItems
//
// Limits:
//   - CountReadResponse parses with RapidJSON's SAX reader in iterative mode (the call stack stays
//     flat however deep the input nests) and stops at kMaxResponseDepth JSON levels (a DynamoDB
//     document nests at most 32 levels, about 70 JSON levels in a Query response); it counts at
//     most INT_MAX items and keeps at most kMaxKeyParts LastEvaluatedKey attributes.
//   - The DOM parses (ErrorStatus, ParseDescribeTable, ParseBatchWriteResponse) go through
//     protocol::ParseJson: iterative, strict UTF-8, at most 1000 JSON levels.
//   - ErrorStatus reads JSON only from bodies of at most kMaxErrorBodyBytes (a larger body is
//     reported as raw text) and keeps at most kMaxErrorNameBytes / kMaxErrorMessageBytes of the
//     exception name and message.
//
// Thread safety: free functions; thread-safe for distinct arguments.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/status.h"
#include "tools/bench/target.h"

namespace partstore::bench {

inline constexpr int kMaxResponseDepth = 128;
inline constexpr size_t kMaxKeyParts = 8;  // a GSI's LastEvaluatedKey has 4: table and index keys
inline constexpr size_t kMaxErrorBodyBytes = 1 << 20;
inline constexpr size_t kMaxErrorNameBytes = 200;
inline constexpr size_t kMaxErrorMessageBytes = 1000;

// One attribute of a LastEvaluatedKey / ExclusiveStartKey: "name": {"type": "value"}.
struct KeyPart {
  std::string name, type, value;
};

// Counts what a GetItem ({"Item": {...}}) or Query / Scan ({"Items": [{...}, ...]}) response
// returned into *outcome: +1 item per item, + the bytes of every attribute name and of every
// top-level S, N or B value (nested M / L contents are not counted); with outcome->values set,
// the S value of each item's attribute outcome->collect is appended to it. *last_key is replaced
// by the response's LastEvaluatedKey (empty: none). Other members are skipped.
//
// The shape is checked where it is counted: the body must be a JSON object; "Item" an object,
// "Items" an array of objects, each item's attribute values objects; "LastEvaluatedKey" an object
// of at most kMaxKeyParts attributes, each {"<type>": "<string>"} with exactly one member. A null
// Item / Items / LastEvaluatedKey is absent. Anything else (not JSON, a raw NUL byte, trailing
// text, nesting beyond kMaxResponseDepth, a wrong shape) is a Code::kInternal Status naming the
// problem; *outcome may then hold a partial count (and values) and *last_key is empty.
Status CountReadResponse(std::string_view body, ReadOutcome* outcome,
                         std::vector<KeyPart>* last_key);

// A non-200 response as a Status: the Code whose exception name is the part of `__type` after
// '#' (tools/protocol/errors.h), message "<name>: <message>" (`message`, else `Message`). A body
// without a `__type` string (not JSON, not an object, larger than kMaxErrorBodyBytes) is
// "HTTP <status>: <the body's first 200 bytes>". Unknown names are Code::kInternal for a 5xx
// status, else Code::kValidation.
Status ErrorStatus(int http_status, std::string_view body);

// A DescribeTable response: Table.TableStatus ("ACTIVE" when absent) and whether every entry of
// Table.GlobalSecondaryIndexes has IndexStatus "ACTIVE". A body that is not an object with a
// "Table" object is a Code::kInternal Status.
struct TableState {
  std::string status;
  bool gsi_active = true;
};
Result<TableState> ParseDescribeTable(std::string_view body);

// A BatchWriteItem response: *unprocessed is set to the JSON text of UnprocessedItems when it is
// a non-empty object, else cleared. A body that is not a JSON object is a Code::kInternal Status.
Status ParseBatchWriteResponse(std::string_view body, std::string* unprocessed);

}  // namespace partstore::bench
