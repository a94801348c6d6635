// The live page of `partstore serve` and `partstore simulate --live`: GET /ui is one
// self-contained HTML page (CSS and JavaScript inline, no network access beyond this server) that
// polls GET /ui/data (live_view.h) every second and draws each table's and GSI's partitions
// coloured by the share of their limits consumed, splits, consumed against provisioned over the
// last minutes, throttles per second by reason with what each means, the hottest keys and the last
// throttled requests.
//
// GET /ui/data takes `table` (only that table and its GSIs), `window` (seconds of history,
// 1..600, default 120) and `tables` (at most this many tables, 1..200, default 20) as query
// parameters; a bad one is a ValidationException (HTTP 400) and an unknown table a
// ResourceNotFoundException, in DynamoDB's JSON error shape.
//
// With access keys (`serve --auth sigv4`), both ask for HTTP Basic authentication with an access
// key id as the user and its secret as the password (a browser cannot sign requests with SigV4);
// anything else is 401 with a WWW-Authenticate challenge. The page shows table names and keys.
//
// Thread safety: Answer is safe to call from many threads (the Database is).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "partstore/cached_store.h"
#include "partstore/database.h"
#include "tools/server/authenticator.h"
#include "tools/server/handler.h"

namespace partstore::live {

struct LivePageOptions {
  // Non-null: Basic authentication against these keys.
  const server::AccessKeys* access_keys = nullptr;
  // What the page's title names (the simulator names its workload).
  std::string title = "partstore";
};

// The answer for GET /ui or /ui/data (with or without a query), or nullopt for any other request.
std::optional<server::Reply> Answer(Database& db, const server::HttpRequest& request,
                                    const LivePageOptions& options);
// The same for a cache in front of another endpoint (`serve --upstream`): /ui/data is
// CacheViewJson of what `stats` returns (live_view.h), and takes no parameters.
std::optional<server::Reply> Answer(const std::function<CacheStats()>& stats,
                                    const server::HttpRequest& request,
                                    const LivePageOptions& options);

// The page's HTML (what GET /ui answers), for `title`.
std::string PageHtml(std::string_view title);

}  // namespace partstore::live
