// The wire target of `partstore bench`: any DynamoDB endpoint driven over HTTP or HTTPS with
// DynamoDB's JSON 1.0 protocol through partstore::RemoteStore (partstore/remote_store.h), the
// project's one DynamoDB client: `partstore serve`, dynalite, ScyllaDB Alternator, DynamoDB
// itself. The operations map to DynamoDB calls as target.h's table says:
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
// One RemoteStore per target, shared by its sessions: a pool of at most
// EndpointOptions::max_connections kept-alive connections, SigV4 on every request, x-amz-crc32
// checked, the AWS SDKs' standard retry mode (a throttle or a 5xx is retried up to
// $AWS_MAX_ATTEMPTS, default 3, attempts; an operation counts as an error only when that gives
// up). What RemoteStore resolves, it resolves as the SDKs do (remote_store.h), except:
//   region       EndpointOptions::region, else the one in a *.amazonaws.com host, else
//                RemoteStore's chain ($AWS_REGION, $AWS_DEFAULT_REGION, the profile), else
//                us-east-1;
//   credentials  RemoteStore's chain (the environment, the shared files); when it finds none,
//                the fixed dummy key AKIDBENCH / secret "bench", so that a local server without
//                authentication (partstore serve, dynalite, Alternator) is still driven: it
//                ignores the signature, while a server that checks signatures refuses it.
// AWS_CA_BUNDLE adds trusted certificates for https.
//
// Errors: the Status RemoteStore returns, DynamoDB's Code and message (Status::ToString gives
// "<CodeName>: <message>"); a connection failure is Code::kInternal naming the endpoint.
//
// Static-response mode (EndpointOptions::static_response): for the ceiling, a server answering
// every POST with one fixed body (nginx returning partstore's GetItem response for a loaded item,
// bench/wire/nginx.conf.template). Prepare and Load send nothing; every other operation decodes
// that body as its own result (DynamoDB's decoders ignore members they do not know, so a GetItem
// body is a valid result of every operation), and a Query never follows its LastEvaluatedKey.
//
// Thread safety: the Target is shared (NewSession from any thread; Prepare alone); each Session
// is used by one thread at a time and takes a pooled connection per request.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "partstore/status.h"
#include "tools/bench/target.h"

namespace partstore::bench {

struct EndpointOptions {
  std::string name;  // the name in reports, e.g. "partstore-serve", "dynalite"
  std::string url;   // http://127.0.0.1:8000 or https://dynamodb.us-east-1.amazonaws.com
  // empty: the one in a *.amazonaws.com host, else RemoteStore's chain, else us-east-1
  std::string region;
  // true: a static-response server (nginx answering every POST with one fixed body), the
  // ceiling: Prepare and Load do nothing.
  bool static_response = false;
  // The connection pool's size: at least the number of threads that use the target at once
  // (more threads wait for a free connection).
  size_t max_connections = 64;
};

// A bad URL, or a region / profile / AWS_MAX_ATTEMPTS RemoteStore refuses, is a Validation
// Status; nothing is connected before the first request.
Result<std::unique_ptr<Target>> MakeDynamoDbTarget(EndpointOptions options);

}  // namespace partstore::bench
