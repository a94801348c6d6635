// The wire target of `partstore bench`: any DynamoDB endpoint driven over HTTP or HTTPS with
// DynamoDB's JSON 1.0 protocol, as an SDK would drive it: `partstore serve`, dynalite, ScyllaDB
// Alternator, DynamoDB itself. The operations map to DynamoDB calls as target.h's table says:
//
//   Get    GetItem (ConsistentRead false)
//   Put    PutItem
//   Update UpdateItem  SET #a = :v
//   Query  Query  #pk = :pk [AND begins_with(#sk, :p)], on the table or its GSI, Limit; pages
//          (LastEvaluatedKey) are followed until `limit` items or the end
//   Scan   Scan Limit, ExclusiveStartKey {pk: start}
//   Load   BatchWriteItem, 25 items per call, UnprocessedItems resent with a short backoff
//   Prepare DeleteTable, wait until gone, CreateTable (PAY_PER_REQUEST, the GSI with an ALL
//          projection), wait until the table and its GSI are ACTIVE (at most 10 minutes)
//
// Signing: with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) in the
// environment, every request is signed with SigV4 (sigv4.h) for the region:
// EndpointOptions::region, else the one in a *.amazonaws.com host, else $AWS_REGION, else
// $AWS_DEFAULT_REGION, else us-east-1. Without credentials a fixed, well-formed but unsigned
// Authorization header and X-Amz-Date are sent, as bench/wire/load.py does: dynalite requires their
// presence, partstore and Alternator without authentication ignore them. AWS_CA_BUNDLE adds trusted
// certificates for https.
//
// Cost per request: request headers are pre-built per operation (unsigned) or only the date and
// signature are computed (signed); bodies are written into a reused buffer; read responses are
// counted with RapidJSON's SAX reader, without a DOM. Errors: a non-200 response is a non-OK
// Status with the Code of DynamoDB's `__type` (tools/protocol/errors.h names them) and a message
// "<exception name>: <message>"; a connection failure is Code::kInternal.
//
// Static-response mode (EndpointOptions::static_response): for the ceiling, a server answering
// every POST with one fixed body (nginx). Prepare and Load send nothing, any 200 is a success,
// read responses are still parsed (the client's cost stays that of a real run) but never followed
// to a next page and never rejected.
//
// Thread safety: the Target is shared (NewSession from any thread; Prepare alone); each Session
// has its own kept-alive connection and is used by one thread at a time.
#pragma once

#include <memory>
#include <string>

#include "partstore/status.h"
#include "tools/bench/target.h"

namespace partstore::bench {

struct EndpointOptions {
  std::string name;  // the name in reports, e.g. "partstore-serve", "dynalite"
  std::string url;   // http://127.0.0.1:8000 or https://dynamodb.us-east-1.amazonaws.com
  // empty: the one in a *.amazonaws.com host, else $AWS_REGION, else us-east-1
  std::string region;
  // true: a static-response server (nginx answering every POST with one fixed body), the
  // ceiling: Prepare and Load do nothing, and a response only has to be HTTP 200.
  bool static_response = false;
};

// A bad URL is a Validation Status; nothing is connected before NewSession or Prepare.
Result<std::unique_ptr<Target>> MakeDynamoDbTarget(EndpointOptions options);

}  // namespace partstore::bench
