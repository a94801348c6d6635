// `partstore serve`: the DynamoDB wire protocol over HTTP on one in-memory Database, until SIGINT
// or SIGTERM. Prints one start-up line on standard output,
//   partstore serve: listening on http://127.0.0.1:8000
// (flushed at once, so scripts and tests can wait for it and read the port when --port 0 picked
// one), then, only when capacity simulation is on (--capacity on, --clock manual), a second one,
//   partstore serve: capacity simulation on (manual clock)
// and a line on standard error when it stops. With --auth sigv4 --access-keys FILE every request
// must be signed with one of the file's keys (tools/server/authenticator.h); listening beyond the
// loopback without it prints a warning on standard error. At start-up the soft open-file limit is
// raised to the hard one; if that still holds fewer than 10,000 connections, a warning says so. The
// first line's format is what the client suites parse (tests/clients/): keep it.
#include <sys/resource.h>

#include <iostream>

#include "partstore/database.h"
#include "tools/cli/commands.h"
#include "tools/server/authenticator.h"
#include "tools/server/server.h"

namespace partstore::cli {

namespace {

// Connections the server is expected to hold at once; each is a file descriptor.
constexpr rlim_t kConnections = 10000;
constexpr rlim_t kSpareDescriptors = 64;  // listening socket, epoll, standard streams, files

// Raises the soft limit on open files to the hard one (where the system allows), so that the
// server can hold its connections; says what happens when it cannot hold kConnections.
void RaiseFileLimit(std::ostream& err) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  if (limit.rlim_cur < limit.rlim_max) {
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max == RLIM_INFINITY ? rlim_t{1} << 20 : limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
  }
  if (limit.rlim_cur < kConnections + kSpareDescriptors) {
    err << "partstore serve: warning: the open-file limit is " << limit.rlim_cur << " (hard limit "
        << limit.rlim_max << "): about "
        << (limit.rlim_cur > kSpareDescriptors ? limit.rlim_cur - kSpareDescriptors : 0)
        << " connections at once; further ones wait in the listen queue until others close "
           "(raise the limit with ulimit -n)\n";
  }
}

}  // namespace

int RunServe(const ServeOptions& options, std::ostream& out, std::ostream& err) {
  server::ServerOptions server_options;
  server_options.host = options.host;
  server_options.port = options.port;
  server_options.threads = options.threads;
  if (options.auth == "sigv4") {
    if (options.access_keys_file.empty()) {
      err << "partstore serve: --auth sigv4 needs --access-keys FILE\n";
      return 2;
    }
    Result<server::AccessKeys> keys = server::AccessKeys::Load(options.access_keys_file);
    if (!keys.ok()) {
      err << "partstore serve: " << keys.status().message() << '\n';
      return 2;
    }
    server_options.access_keys = std::make_shared<const server::AccessKeys>(std::move(*keys));
  } else if (!options.access_keys_file.empty()) {
    err << "partstore serve: --access-keys needs --auth sigv4\n";
    return 2;
  }
  const bool loopback = options.host == "127.0.0.1" || options.host == "::1" ||
                        options.host == "localhost" || options.host.starts_with("127.");
  if (!loopback && !server_options.access_keys) {
    err << "partstore serve: warning: listening on " << options.host
        << " without --auth: anyone who can reach it can read and change every table\n";
  }
  RaiseFileLimit(err);
  Database db(DatabaseOptionsFor(options.capacity));
  server::Server server(db, server_options);
  if (Status started = server.Start(); !started.ok()) {
    err << "partstore serve: " << started.message() << '\n';
    return 1;
  }
  out << "partstore serve: listening on http://" << options.host << ':' << server.port()
      << std::endl;
  if (const std::string capacity = options.capacity.Describe(); !capacity.empty()) {
    out << "partstore serve: " << capacity << std::endl;
  }
  server.Run();
  err << "partstore serve: stopped" << std::endl;
  return 0;
}

}  // namespace partstore::cli
