// `partstore serve`: the DynamoDB wire protocol over HTTP on one in-memory Database, until SIGINT
// or SIGTERM. Prints one start-up line on standard output,
//   partstore serve: listening on http://127.0.0.1:8000
// (flushed at once, so scripts and tests can wait for it and read the port when --port 0 picked
// one), then, only when capacity simulation is on (--capacity on, --clock manual), a second one,
//   partstore serve: capacity simulation on (manual clock)
// and a line on standard error when it stops. The first line's format is what the client suites
// parse (tests/clients/): keep it.
#include <iostream>

#include "partstore/database.h"
#include "tools/cli/commands.h"
#include "tools/server/server.h"

namespace partstore::cli {

int RunServe(const ServeOptions& options, std::ostream& out, std::ostream& err) {
  Database db(DatabaseOptionsFor(options.capacity));
  server::ServerOptions server_options;
  server_options.host = options.host;
  server_options.port = options.port;
  server_options.threads = options.threads;
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
