// The `partstore` program's subcommands. Each lives in its own file and returns the process exit
// code; main.cc only parses arguments and dispatches.
#pragma once

#include <istream>
#include <ostream>
#include <string>

#include <iosfwd>

namespace partstore::cli {

// `partstore demo`: the main job. Until the simulator lands it demonstrates the data model on the
// seed articles' single-table e-commerce design.
int RunDemo(std::ostream& out);

// `partstore run [FILE]`: one DynamoDB JSON request per line in, one response per line out
// (run.cc has the format). `path` empty or "-" reads standard input.
int RunScript(std::istream& in, std::ostream& out);
int RunFile(const std::string& path, std::ostream& out, std::ostream& err);

}  // namespace partstore::cli
