// The `partstore` program's subcommands. Each lives in its own file and returns the process exit
// code; main.cc only parses arguments and dispatches.
#pragma once

#include <iosfwd>

namespace partstore::cli {

// `partstore demo`: the main job. Until the simulator lands it demonstrates the data model on the
// seed articles' single-table e-commerce design.
int RunDemo(std::ostream& out);

}  // namespace partstore::cli
