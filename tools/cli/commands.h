// The `partstore` program's subcommands. Each lives in its own file and returns the process exit
// code; main.cc only parses arguments and dispatches.
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>

namespace partstore::cli {

// `partstore demo`: the main job. Until the simulator lands it demonstrates the data model on the
// seed articles' single-table e-commerce design.
int RunDemo(std::ostream& out);

// `partstore run [FILE]`: one DynamoDB JSON request per line in, one response per line out
// (run.cc has the format). `path` empty or "-" reads standard input.
int RunScript(std::istream& in, std::ostream& out);
int RunFile(const std::string& path, std::ostream& out, std::ostream& err);

// `partstore serve`: DynamoDB's wire protocol over HTTP (serve.cc; tools/server/server.h).
struct ServeOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8000;
  int threads = 0;  // 0: one per core
};
int RunServe(const ServeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace partstore::cli
