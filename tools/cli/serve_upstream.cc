// `partstore serve --upstream URL`: the DynamoDB wire protocol in front of another DynamoDB
// endpoint, through a cache (partstore/cached_store.h): DAX's item and query caches for every SDK,
// without a DAX client. Requests the cache answers never reach the upstream; the others are sent
// with the upstream's own credentials (the AWS chain: environment, profile), and its answers,
// errors and throttles included, reach the client as the upstream gave them: the proxy does not
// retry (max_attempts 1), so that the client's own retry mode decides, as it would against the
// upstream. --auth guards the proxy itself. Prints the same first line as `serve`, then
//   partstore serve: caching http://...: items 300 s, pages 300 s, 256 MiB, streams every 0.25 s
// and adds the cache's counters (partstore_cache_*) to /metrics.
#include <chrono>
#include <iostream>
#include <memory>

#include "partstore/cached_store.h"
#include "partstore/remote_store.h"
#include "tools/cli/commands.h"
#include "tools/live/live_page.h"
#include "tools/protocol/dispatch.h"
#include "tools/server/server.h"

namespace partstore::cli {
namespace {

// The first flag given that only an engine has, or empty.
std::string EngineOnlyFlag(const ServeOptions& options) {
  const CapacityFlags& c = options.capacity;
  if (!options.region.empty()) return "--region";  // the proxy's is the upstream's
  if (!options.data_dir.empty()) return "--data-dir";
  if (options.snapshot_every > 0) return "--snapshot-every";
  if (!options.wal.empty()) return "--wal";
  if (!options.s3_dir.empty()) return "--s3-dir";
  if (!c.capacity.empty() || c.clock != "system") return "--capacity / --clock";
  if (c.memory_policy != "reject") return "--memory-policy";
  if (c.expiry_mode != "dynamodb") return "--expiry-mode";
  if (!c.record.empty()) return "--record";
  return "";
}

}  // namespace

int RunServeUpstream(const ServeOptions& options, const server::ServerOptions& server_options,
                     std::ostream& out, std::ostream& err) {
  if (std::string flag = EngineOnlyFlag(options); !flag.empty()) {
    err << "partstore serve: " << flag
        << " applies to the engine; --upstream serves a cache in front of another endpoint\n";
    return 2;
  }
  RemoteOptions remote_options;
  remote_options.endpoint = options.upstream;
  remote_options.region = options.upstream_region;
  remote_options.profile = options.upstream_profile;
  remote_options.retry.max_attempts = 1;
  Result<std::unique_ptr<RemoteStore>> remote = RemoteStore::Open(remote_options);
  if (!remote.ok()) {
    err << "partstore serve: --upstream " << options.upstream << ": " << remote.status().message()
        << '\n';
    return 2;
  }
  const uint64_t memory =
      options.capacity.memory_limit > 0 ? options.capacity.memory_limit : uint64_t{256} << 20;
  CacheOptions cache_options{
      .item_ttl_seconds = options.cache_item_ttl,
      .negative_ttl_seconds = options.cache_negative_ttl,
      .query_ttl_seconds = options.cache_query_ttl,
      .memory_limit_bytes = memory,
      .follow_streams = options.stream_poll_seconds > 0,
      .stream_poll_interval = std::chrono::milliseconds(
          options.stream_poll_seconds > 0
              ? std::max<int64_t>(1, static_cast<int64_t>(options.stream_poll_seconds * 1000))
              : 250)};
  Result<std::unique_ptr<CachedStore>> cache = CachedStore::Open(**remote, cache_options);
  if (!cache.ok()) {
    err << "partstore serve: " << cache.status().message() << '\n';
    return 2;
  }
  server::ServerOptions proxy_options = server_options;
  CachedStore& cached = **cache;
  proxy_options.extra_metrics = [&cached] { return cached.PrometheusMetrics(); };
  // The live page shows the cache: its hit ratio, its upstream calls (tools/live/live_page.h).
  const std::function<CacheStats()> stats = [&cached] { return cached.stats(); };
  if (options.ui) {
    const live::LivePageOptions page{.access_keys = server_options.access_keys.get(),
                                     .title = "partstore serve --upstream"};
    proxy_options.pages = [&stats, page](const server::HttpRequest& request) {
      return live::Answer(stats, request, page);
    };
  }
  server::Server server(protocol::Backend{cached, nullptr, (*remote)->region()}, proxy_options);
  if (Status started = server.Start(); !started.ok()) {
    err << "partstore serve: " << started.message() << '\n';
    return started.code() == Code::kValidation ? 2 : 1;
  }
  const bool ipv6 = options.host.find(':') != std::string::npos;
  out << "partstore serve: listening on http://" << (ipv6 ? "[" : "") << options.host
      << (ipv6 ? "]" : "") << ':' << server.port() << std::endl;
  out << "partstore serve: caching " << (*remote)->endpoint() << ": items "
      << options.cache_item_ttl << " s, pages " << options.cache_query_ttl << " s, "
      << (memory >> 20) << " MiB, "
      << (options.stream_poll_seconds > 0
              ? "streams every " + std::to_string(options.stream_poll_seconds).substr(0, 5) + " s"
              : std::string("streams not followed"))
      << std::endl;
  if (options.ui) {
    out << "partstore serve: the cache's live page at http://" << (ipv6 ? "[" : "") << options.host
        << (ipv6 ? "]" : "") << ':' << server.port() << "/ui" << std::endl;
  }
  server.Run();
  err << "partstore serve: stopped" << std::endl;
  return 0;
}

}  // namespace partstore::cli
