#include "tests/consistency/fault_proxy_testutil.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace partstore::consistency {
namespace {

sockaddr_in Loopback(uint16_t port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return addr;
}

bool WriteAll(int fd, const char* data, size_t n) {
  while (n > 0) {
    const ssize_t w = send(fd, data, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

}  // namespace

FaultProxy::FaultProxy(uint16_t upstream_port, uint64_t seed)
    : upstream_port_(upstream_port), rng_(seed) {
  listener_ = socket(AF_INET, SOCK_STREAM, 0);
  const int one = 1;
  setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr = Loopback(0);
  if (bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      listen(listener_, 128) != 0) {
    close(listener_);
    listener_ = -1;
    return;
  }
  socklen_t len = sizeof addr;
  getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] { Accept(); });
}

FaultProxy::~FaultProxy() {
  stop_ = true;
  if (acceptor_.joinable()) acceptor_.join();
  if (listener_ >= 0) close(listener_);
  std::unique_lock lock(mu_);
  for (int fd : open_) shutdown(fd, SHUT_RDWR);
  pumps_done_.wait(lock, [&] { return pumps_ == 0; });
}

void FaultProxy::Accept() {
  while (!stop_.load()) {
    pollfd p{.fd = listener_, .events = POLLIN, .revents = 0};
    if (poll(&p, 1, 50) <= 0) continue;
    const int client = accept(listener_, nullptr, nullptr);
    if (client < 0) continue;
    ++connections_;
    const int server = socket(AF_INET, SOCK_STREAM, 0);
    const sockaddr_in addr = Loopback(upstream_port_);
    if (connect(server, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
      close(server);
      Close(client, /*reset=*/true);  // the server is down
      continue;
    }
    const int one = 1;
    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int64_t cut_after = -1;
    std::lock_guard lock(mu_);
    if (std::uniform_real_distribution<double>(0, 1)(rng_) < cut_probability_.load()) {
      cut_after = static_cast<int64_t>(rng_() % 8192);
    }
    open_.insert(client);
    open_.insert(server);
    ++pumps_;
    std::thread([this, client, server, cut_after] { Pump(client, server, cut_after); }).detach();
  }
}

void FaultProxy::Close(int fd, bool reset) {
  if (reset) {
    const linger hard{.l_onoff = 1, .l_linger = 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
  }
  close(fd);
}

// Forwards both ways until either side closes, or, when cut_after >= 0, until that many bytes
// (both directions together) have passed: then both sides are reset.
void FaultProxy::Pump(int client, int server, int64_t cut_after) {
  char buffer[16384];
  int64_t passed = 0;
  bool reset = false;
  pollfd fds[2] = {{.fd = client, .events = POLLIN, .revents = 0},
                   {.fd = server, .events = POLLIN, .revents = 0}};
  while (!stop_.load()) {
    if (poll(fds, 2, 100) < 0 && errno != EINTR) break;
    bool done = false;
    for (int i = 0; i < 2 && !done; ++i) {
      if (fds[i].revents == 0) continue;
      const ssize_t n = recv(fds[i].fd, buffer, sizeof buffer, 0);
      if (n <= 0) {
        done = true;
        break;
      }
      size_t forward = static_cast<size_t>(n);
      if (cut_after >= 0 && passed + n > cut_after) {
        forward = static_cast<size_t>(cut_after - passed);
        reset = true;
      }
      passed += static_cast<int64_t>(forward);
      if (!WriteAll(fds[1 - i].fd, buffer, forward) || reset) done = true;
    }
    if (done) break;
  }
  if (reset) ++cuts_;
  std::lock_guard lock(mu_);
  open_.erase(client);
  open_.erase(server);
  // A side that closed cleanly passes its close on; a cut resets both.
  Close(client, reset);
  Close(server, reset);
  if (--pumps_ == 0) pumps_done_.notify_all();
}

}  // namespace partstore::consistency
