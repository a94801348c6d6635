// A TCP proxy between the clients and `partstore serve` that cuts connections: with the chosen
// probability, a connection is reset (RST, both sides) after a random number of bytes, in the
// middle of a request or of a response. While the server is down, a new connection is reset at
// once. The clients see what a flaky network or a crashed peer shows them.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <random>
#include <set>
#include <thread>

namespace partstore::consistency {

class FaultProxy {
 public:
  // Listens on 127.0.0.1 (any free port) and forwards to 127.0.0.1:`upstream_port`.
  explicit FaultProxy(uint16_t upstream_port, uint64_t seed = 1);
  ~FaultProxy();
  FaultProxy(const FaultProxy&) = delete;
  FaultProxy& operator=(const FaultProxy&) = delete;

  uint16_t port() const { return port_; }
  // The share of new connections that are cut (0: none, the default).
  void set_cut_probability(double p) { cut_probability_.store(p); }
  uint64_t connections() const { return connections_.load(); }
  uint64_t cuts() const { return cuts_.load(); }

 private:
  void Accept();
  void Pump(int client, int server, int64_t cut_after);
  void Close(int fd, bool reset);

  const uint16_t upstream_port_;
  int listener_ = -1;
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<double> cut_probability_{0};
  std::atomic<uint64_t> connections_{0}, cuts_{0};
  std::mutex mu_;  // guards what follows
  std::condition_variable pumps_done_;
  std::mt19937_64 rng_;
  std::set<int> open_;  // the pumps' sockets, shut down by the destructor to end them
  int pumps_ = 0;       // running (detached) pump threads
  std::thread acceptor_;
};

}  // namespace partstore::consistency
