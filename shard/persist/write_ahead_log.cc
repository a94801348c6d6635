#include "shard/persist/write_ahead_log.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "shard/persist/block_file.h"
#include "shard/persist/byte_codec.h"

namespace partstore::persist {
namespace {

thread_local uint64_t tls_position = 0;
thread_local WalGroup* tls_group = nullptr;

std::string Framed(WalRecord kind, std::string_view payload) {
  std::string out;
  ByteWriter writer(&out);
  writer.Byte(static_cast<uint8_t>(kind));
  writer.Fixed32(static_cast<uint32_t>(payload.size()));
  out.append(payload);
  writer.Fixed64(
      BlockChecksum(static_cast<uint8_t>(kind), static_cast<uint32_t>(payload.size()), payload));
  return out;
}

Status IoError(const std::string& path, std::string_view what, int error) {
  return Status(Code::kInternal, path + ": " + std::string(what) + ": " + std::strerror(error));
}

}  // namespace

std::string WriteAheadLog::SegmentPath(const std::string& directory, uint64_t generation) {
  char name[32];
  std::snprintf(name, sizeof name, "wal.%020" PRIu64, generation);
  return directory + "/" + name;
}

std::vector<uint64_t> WriteAheadLog::Segments(const std::string& directory) {
  std::vector<uint64_t> out;
  DIR* dir = opendir(directory.c_str());
  if (dir == nullptr) return out;
  while (dirent* entry = readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (name.size() != 24 || !name.starts_with("wal.")) continue;
    uint64_t generation = 0;
    bool digits = true;
    for (char c : name.substr(4)) {
      digits = digits && c >= '0' && c <= '9';
      generation = generation * 10 + static_cast<uint64_t>(c - '0');
    }
    if (digits) out.push_back(generation);
  }
  closedir(dir);
  std::sort(out.begin(), out.end());
  return out;
}

void WriteAheadLog::RemoveBefore(const std::string& directory, uint64_t generation) {
  for (uint64_t g : Segments(directory)) {
    if (g < generation) std::remove(SegmentPath(directory, g).c_str());
  }
}

Result<std::unique_ptr<WriteAheadLog>> WriteAheadLog::Create(std::string directory,
                                                             uint64_t generation, WalSync sync) {
  std::unique_ptr<WriteAheadLog> log(new WriteAheadLog(std::move(directory), sync));
  PARTSTORE_RETURN_IF_ERROR(log->OpenSegment(generation));
  if (sync == WalSync::kEverySecond)
    log->flusher_ = std::thread([raw = log.get()] { raw->Flusher(); });
  return log;
}

Status WriteAheadLog::OpenSegment(uint64_t generation) {
  const std::string path = SegmentPath(directory_, generation);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return IoError(path, "cannot create", errno);
  std::string header(kWalMagic);
  ByteWriter(&header).Fixed32(kWalVersion);
  if (::write(fd, header.data(), header.size()) != static_cast<ssize_t>(header.size()) ||
      ::fdatasync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    return IoError(path, "cannot write", error);
  }
  // The new file's directory entry made durable, before anything is acknowledged through it.
  if (const int dir = ::open(directory_.c_str(), O_RDONLY | O_DIRECTORY); dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  fd_ = fd;
  path_ = path;
  generation_ = generation;
  return Status::Ok();
}

WriteAheadLog::~WriteAheadLog() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  flusher_cv_.notify_all();
  if (flusher_.joinable()) flusher_.join();
  {
    std::lock_guard sync(sync_mu_);
    std::string pending;
    {
      std::lock_guard lock(mu_);
      pending.swap(buffer_);
    }
    if (error_.ok()) (void)WriteOut(pending, /*fsync=*/true);
  }
  if (fd_ >= 0) ::close(fd_);
}

uint64_t WriteAheadLog::Append(WalRecord kind, std::string_view payload) {
  const std::string record = Framed(kind, payload);
  std::lock_guard lock(mu_);
  buffer_ += record;
  appended_ += record.size();
  appended_now_.store(appended_, std::memory_order_release);
  tls_position = appended_;
  return appended_;
}

uint64_t WriteAheadLog::last_position() { return tls_position; }

uint64_t WriteAheadLog::generation() const {
  std::lock_guard lock(mu_);
  return generation_;
}

Status WriteAheadLog::WriteOut(const std::string& bytes, bool fsync) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return error_ = IoError(path_, "cannot write", errno);
    }
    done += static_cast<size_t>(n);
  }
  if (fsync && ::fdatasync(fd_) != 0) return error_ = IoError(path_, "cannot fsync", errno);
  return Status::Ok();
}

Status WriteAheadLog::Sync(uint64_t position) {
  std::lock_guard sync(sync_mu_);
  if (!error_.ok()) return error_;
  if (durable_ >= position) return Status::Ok();
  // This thread writes out every record buffered so far (its own and other threads').
  std::string pending;
  uint64_t end = 0;
  {
    std::lock_guard lock(mu_);
    pending.swap(buffer_);
    end = appended_;
  }
  PARTSTORE_RETURN_IF_ERROR(WriteOut(pending, sync_ == WalSync::kAlways));
  durable_ = end;
  durable_now_.store(durable_, std::memory_order_release);
  return Status::Ok();
}

Result<uint64_t> WriteAheadLog::Rotate() {
  std::lock_guard sync(sync_mu_);
  if (!error_.ok()) return error_;
  std::lock_guard lock(mu_);
  std::string pending;
  pending.swap(buffer_);
  PARTSTORE_RETURN_IF_ERROR(WriteOut(pending, /*fsync=*/true));
  durable_ = appended_;
  durable_now_.store(durable_, std::memory_order_release);
  const int old_fd = fd_;
  PARTSTORE_RETURN_IF_ERROR(OpenSegment(generation_ + 1));
  ::close(old_fd);
  return generation_;
}

void WriteAheadLog::Flusher() {
  std::unique_lock lock(mu_);
  while (!flusher_cv_.wait_for(lock, std::chrono::seconds(1), [this] { return stop_; })) {
    lock.unlock();
    {
      std::lock_guard sync(sync_mu_);
      if (error_.ok()) {
        std::string pending;
        uint64_t end = 0;
        {
          std::lock_guard inner(mu_);
          pending.swap(buffer_);
          end = appended_;
        }
        if (WriteOut(pending, /*fsync=*/true).ok()) {
          durable_ = std::max(durable_, end);
          durable_now_.store(durable_, std::memory_order_release);
        }
      }
    }
    lock.lock();
  }
}

WalGroup::WalGroup() { tls_group = this; }
WalGroup::~WalGroup() {
  if (tls_group == this) tls_group = nullptr;
  RunAfter();
}
WalGroup* WalGroup::current() { return tls_group; }

void WalGroup::RunAfter() {
  std::vector<std::function<void()>> after = std::move(after_);
  after_.clear();
  for (auto& then : after) then();
}

namespace {
constexpr uint8_t kTokenChange = 2;
}  // namespace

void EncodeToken(const LoggedToken& token, std::string* out) {
  ByteWriter writer(out);
  writer.String(token.token);
  writer.Fixed64(token.fingerprint);
  writer.Fixed64(static_cast<uint64_t>(token.finished_epoch_micros));
}

bool DecodeToken(std::string_view bytes, LoggedToken* token) {
  ByteReader reader(bytes);
  std::string_view text;
  uint64_t finished = 0;
  if (!reader.Bytes(&text) || !reader.Fixed64(&token->fingerprint) || !reader.Fixed64(&finished) ||
      !reader.done()) {
    return false;
  }
  token->token = std::string(text);
  token->finished_epoch_micros = static_cast<int64_t>(finished);
  return true;
}

void WalGroup::AddToken(const LoggedToken& token) {
  std::string encoded;
  EncodeToken(token, &encoded);
  ByteWriter writer(&changes_);
  writer.Varint(0);
  writer.Byte(kTokenChange);
  writer.String(encoded);
  ++count_;
}

uint64_t AppendTokens(WriteAheadLog& log, const std::vector<LoggedToken>& tokens) {
  // Records of at most kTokensPerRecord tokens (~1 MiB), far below a block's limit however many
  // tokens there are.
  constexpr size_t kTokensPerRecord = 16384;
  uint64_t position = 0;
  std::string payload, encoded;
  for (size_t first = 0; first < tokens.size(); first += kTokensPerRecord) {
    const size_t count = std::min(kTokensPerRecord, tokens.size() - first);
    payload.clear();
    ByteWriter writer(&payload);
    writer.Varint(count);
    for (size_t i = first; i < first + count; ++i) {
      encoded.clear();
      EncodeToken(tokens[i], &encoded);
      writer.Varint(0);
      writer.Byte(kTokenChange);
      writer.String(encoded);
    }
    position = log.Append(WalRecord::kWrite, payload);
  }
  return position;
}

void WalGroup::Commit(WriteAheadLog& log) {
  tls_group = nullptr;
  if (count_ != 0) {
    std::string payload;
    ByteWriter(&payload).Varint(count_);
    payload += changes_;
    log.Append(WalRecord::kWrite, payload);
  }
  RunAfter();
}

namespace {

void EncodeChange(uint64_t table, bool erase, std::string_view encoding, const StreamMark* mark,
                  ByteWriter& writer) {
  writer.Varint(table);
  writer.Byte(static_cast<uint8_t>((erase ? 1 : 0) + (mark != nullptr ? 3 : 0)));
  writer.String(encoding);
  if (mark != nullptr) EncodeStreamMark(*mark, writer);
}

}  // namespace

bool AppendChange(WriteAheadLog& log, uint64_t table, bool erase, std::string_view encoding,
                  const StreamMark* mark) {
  if (WalGroup* group = tls_group) {
    ByteWriter writer(&group->changes_);
    EncodeChange(table, erase, encoding, mark, writer);
    ++group->count_;
    return false;
  }
  std::string payload;
  ByteWriter writer(&payload);
  writer.Varint(1);
  EncodeChange(table, erase, encoding, mark, writer);
  log.Append(WalRecord::kWrite, payload);
  return true;
}

}  // namespace partstore::persist
