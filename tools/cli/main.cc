// partstore: the command-line program. Parses arguments with CLI11 and dispatches to one file per
// subcommand (commands.h).
#include <CLI/CLI.hpp>
#include <iostream>

#include "tools/cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{
      "partstore: an in-memory store with Amazon DynamoDB's data model and capacity behaviour"};
  app.set_version_flag("--version", std::string("partstore ") + PARTSTORE_VERSION);
  app.require_subcommand(1);

  CLI::App* demo = app.add_subcommand(
      "demo", "Demonstrate partstore on the seed articles' single-table e-commerce model");

  std::string run_file;
  CLI::App* run = app.add_subcommand(
      "run",
      "Execute DynamoDB JSON requests, one {\"op\": ..., \"request\": ...} per line, printing "
      "one response per line");
  run->add_option("FILE", run_file, "The requests (default: standard input)");

  partstore::cli::ServeOptions serve_options;
  CLI::App* serve = app.add_subcommand(
      "serve", "Serve the DynamoDB wire protocol over HTTP (for the AWS SDKs and CLI)");
  serve->add_option("--host", serve_options.host, "Address to listen on")->capture_default_str();
  serve->add_option("--port", serve_options.port, "Port to listen on (0: any free port)")
      ->capture_default_str();
  serve->add_option("--threads", serve_options.threads, "Worker threads (0: one per core)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);

  CLI11_PARSE(app, argc, argv);

  if (*demo) return partstore::cli::RunDemo(std::cout);
  if (*run) return partstore::cli::RunFile(run_file, std::cout, std::cerr);
  if (*serve) return partstore::cli::RunServe(serve_options, std::cout, std::cerr);
  return 0;
}
