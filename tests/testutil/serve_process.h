// `partstore serve` as a child process, for tests that kill and restart it. The program's path
// comes from PARTSTORE_CLI (a compile definition the test's CMake sets); its first line on
// stdout gives the port.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace partstore::testing {

class ServeProcess {
 public:
  // `partstore serve --port PORT ARGS...` (port 0: any free one).
  ServeProcess(const std::vector<std::string>& args, uint16_t port) {
    int out[2];
    EXPECT_EQ(pipe(out), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    std::vector<std::string> all = {PARTSTORE_CLI, "serve", "--port", std::to_string(port)};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    EXPECT_EQ(posix_spawn(&pid_, PARTSTORE_CLI, &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    FILE* lines = fdopen(out[0], "r");
    char line[256] = {};
    if (lines != nullptr && fgets(line, sizeof line, lines) != nullptr) {
      const std::string text(line);
      const size_t colon = text.rfind(':');
      if (text.starts_with("partstore serve: listening on") && colon != std::string::npos) {
        port_ = static_cast<uint16_t>(std::stoi(text.substr(colon + 1)));
      }
    }
    if (lines != nullptr) fclose(lines);
    EXPECT_NE(port_, 0) << "partstore serve did not start: " << line;
  }
  ~ServeProcess() { Kill(); }
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  uint16_t port() const { return port_; }

  // SIGKILL: the process stops wherever it is.
  void Kill() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  // SIGTERM, then its exit status (a clean stop is 0); SIGKILL after `patience`.
  int Terminate(std::chrono::milliseconds patience = std::chrono::seconds(20)) {
    if (pid_ <= 0) return -1;
    kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + patience;
    int status = 0;
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        Kill();
        return -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  uint16_t port_ = 0;
};

}  // namespace partstore::testing
