// What the tests that talk to a `partstore serve` they kill and restart share: a RemoteStore whose
// retries outlast a restart, and a directory of the test's own.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "partstore/remote_store.h"
#include "tests/consistency/workload_testutil.h"

namespace partstore::consistency {

// Client `client`'s store (its own retry seed) for the server on `port`.
inline std::unique_ptr<RemoteStore> Connect(uint16_t port, int client) {
  RemoteOptions options;
  options.endpoint = "http://127.0.0.1:" + std::to_string(port);
  options.region = "us-east-1";
  options.credentials = AwsCredentials{"AKIDHISTORY", "secret", ""};
  options.connect_timeout = std::chrono::milliseconds(500);
  options.request_timeout = std::chrono::milliseconds(3000);
  options.max_connections = 2;
  options.seed = static_cast<uint64_t>(client + 1);
  // Enough attempts, with enough backoff, to outlast a restart.
  options.retry.max_attempts = 20;
  options.retry.base_delay = std::chrono::milliseconds(20);
  options.retry.max_backoff = std::chrono::milliseconds(300);
  options.retry.quota = 1'000'000;
  auto opened = RemoteStore::Open(options);
  EXPECT_TRUE(opened.ok()) << opened.status().ToString();
  return std::move(*opened);
}

// A directory under the system's temporary one, removed before and after.
class ScratchDirectory {
 public:
  explicit ScratchDirectory(const std::string& name)
      : path_((std::filesystem::temp_directory_path() / (name + "_" + std::to_string(getpid())))
                  .string()) {
    std::filesystem::remove_all(path_);
  }
  ~ScratchDirectory() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace partstore::consistency
