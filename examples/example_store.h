// The store an example runs on: the in-process engine, or any DynamoDB endpoint.
//
//   example_social_graph                              # a partstore::Database in this process
//   example_social_graph --endpoint http://127.0.0.1:8000
//                                                     # a partstore::RemoteStore: the region and
//                                                     # credentials from the AWS_* environment
//                                                     # or ~/.aws, as the AWS SDKs find them
//
// Each example's code takes a partstore::Store& and never knows which it got: the test suite runs
// every example both ways and checks the same answers (tests/client/example_both_homes.sh).
#pragma once

#include <partstore/database.h>
#include <partstore/remote_store.h>

#include <iostream>
#include <memory>
#include <string_view>

namespace example {

// The store named by argv (see above), or null after printing why there is none.
inline std::unique_ptr<partstore::Store> OpenStore(int argc, char** argv) {
  if (argc == 1) return std::make_unique<partstore::Database>();
  if (argc == 3 && std::string_view(argv[1]) == "--endpoint") {
    auto remote = partstore::RemoteStore::Open({.endpoint = argv[2]});
    if (remote.ok()) return std::move(*remote);
    std::cerr << argv[0] << ": " << remote.status().ToString() << "\n";
    return nullptr;
  }
  std::cerr << "usage: " << argv[0] << " [--endpoint URL]\n";
  return nullptr;
}

}  // namespace example
