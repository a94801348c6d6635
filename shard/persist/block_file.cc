#include "shard/persist/block_file.h"

#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cstring>
#include <random>

#include "shard/persist/byte_codec.h"

namespace partstore::persist {

// XXH3-64 of the payload, seeded with the XXH3-64 of the kind and length bytes.
uint64_t BlockChecksum(uint8_t kind, uint32_t length, std::string_view payload) {
  std::string frame;
  ByteWriter writer(&frame);
  writer.Byte(kind);
  writer.Fixed32(length);
  return XXH3_64bits_withSeed(payload.data(), payload.size(),
                              XXH3_64bits(frame.data(), frame.size()));
}

namespace {

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string SystemError(std::string_view file, std::string_view what, int error) {
  return std::string(file) + ": " + std::string(what) + ": " + std::strerror(error);
}

}  // namespace

Result<std::unique_ptr<BlockFileWriter>> BlockFileWriter::Create(std::string path,
                                                                 std::string_view magic,
                                                                 uint32_t version) {
  // A name of the writer's own: two writers of one target never share a temporary file.
  std::random_device random;
  const std::string temp = path + ".tmp-" + std::to_string(getpid()) + "-" +
                           std::to_string(random()) + std::to_string(random());
  std::FILE* file = std::fopen(temp.c_str(), "wbx");
  if (file == nullptr) {
    return Status(Code::kInternal, SystemError(temp, "cannot create", errno));
  }
  std::unique_ptr<BlockFileWriter> writer(new BlockFileWriter(std::move(path), temp, file));
  std::string header(magic);
  ByteWriter(&header).Fixed32(version);
  PARTSTORE_RETURN_IF_ERROR(writer->Write(header));
  return writer;
}

BlockFileWriter::~BlockFileWriter() {
  if (file_ != nullptr) std::fclose(file_);
  if (!committed_) std::remove(temp_.c_str());
}

Status BlockFileWriter::Error(std::string_view what) const {
  return Status(Code::kInternal, SystemError(temp_, what, errno));
}

Status BlockFileWriter::Write(std::string_view bytes) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    return Error("cannot write");
  }
  offset_ += bytes.size();
  return Status::Ok();
}

Status BlockFileWriter::Append(uint8_t kind, std::string_view payload) {
  const auto length = static_cast<uint32_t>(payload.size());
  std::string frame;
  ByteWriter writer(&frame);
  writer.Byte(kind);
  writer.Fixed32(length);
  PARTSTORE_RETURN_IF_ERROR(Write(frame));
  PARTSTORE_RETURN_IF_ERROR(Write(payload));
  frame.clear();
  writer.Fixed64(BlockChecksum(kind, length, payload));
  return Write(frame);
}

Status BlockFileWriter::Commit() {
  if (std::fflush(file_) != 0) return Error("cannot write");
  if (::fsync(fileno(file_)) != 0) return Error("cannot fsync");
  const int closed = std::fclose(file_);
  file_ = nullptr;
  if (closed != 0) return Error("cannot close");
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
    return Status(Code::kInternal, SystemError(path_, "cannot rename " + temp_ + " to it", errno));
  }
  committed_ = true;
  // The rename itself made durable: the directory's entry.
  const std::string directory = DirectoryOf(path_);
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    const int synced = ::fsync(fd);
    const int error = errno;
    ::close(fd);
    if (synced != 0) {
      return Status(Code::kInternal, SystemError(directory, "cannot fsync the directory", error));
    }
  }
  return Status::Ok();
}

Result<std::unique_ptr<BlockFileReader>> BlockFileReader::Open(const std::string& path,
                                                               std::string_view magic,
                                                               uint32_t max_version) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    const int error = errno;
    return Status(error == ENOENT ? Code::kResourceNotFound : Code::kInternal,
                  SystemError(path, "cannot open", error));
  }
  return FromStream(file, path, magic, max_version);
}

Result<std::unique_ptr<BlockFileReader>> BlockFileReader::FromStream(std::FILE* file,
                                                                     std::string name,
                                                                     std::string_view magic,
                                                                     uint32_t max_version) {
  std::unique_ptr<BlockFileReader> reader(new BlockFileReader(file, std::move(name)));
  std::setvbuf(file, nullptr, _IOFBF, 1 << 20);
  PARTSTORE_RETURN_IF_ERROR(reader->ReadHeader(magic, max_version));
  return reader;
}

BlockFileReader::~BlockFileReader() { std::fclose(file_); }

bool BlockFileReader::ReadExactly(char* out, size_t size) {
  const size_t read = std::fread(out, 1, size, file_);
  offset_ += read;
  return read == size;
}

Status BlockFileReader::Corrupt(uint64_t offset, std::string_view what) const {
  return Status::Validation(name_ + ": " + std::string(what) + " at offset " +
                            std::to_string(offset));
}

Status BlockFileReader::ReadHeader(std::string_view magic, uint32_t max_version) {
  std::string header(magic.size() + 4, '\0');
  if (!ReadExactly(header.data(), header.size()) ||
      std::string_view(header).substr(0, magic.size()) != magic) {
    if (std::ferror(file_))
      return Status(Code::kInternal, SystemError(name_, "cannot read", errno));
    return Status::Validation(name_ + ": not a partstore " +
                              std::string(magic.substr(0, magic.find_last_not_of('\n') + 1)) +
                              " file (its first bytes are not the magic number)");
  }
  ByteReader(std::string_view(header).substr(magic.size())).Fixed32(&version_);
  if (version_ == 0 || version_ > max_version) {
    return Corrupt(magic.size(), "format version " + std::to_string(version_) +
                                     " (this partstore reads versions 1 to " +
                                     std::to_string(max_version) + ")");
  }
  return Status::Ok();
}

Result<BlockFileReader::Block> BlockFileReader::Next() {
  const uint64_t start = offset_;
  failure_.clear();
  auto damaged = [&](std::string what) -> Status {
    failure_ = std::move(what);
    return Corrupt(start, failure_);
  };
  auto read_failed = [&](std::string_view what) -> Status {
    if (std::ferror(file_))
      return Status(Code::kInternal, SystemError(name_, "cannot read", errno));
    torn_ = true;
    return damaged(std::string("truncated block (") + std::string(what) + ")");
  };
  char frame[5];
  if (!ReadExactly(frame, sizeof frame)) return read_failed("its header is cut short");
  ByteReader header(std::string_view(frame, sizeof frame));
  Block block;
  uint32_t length = 0;
  header.Byte(&block.kind);
  header.Fixed32(&length);
  block.offset = start;
  if (length > kMaxBlockPayload) {
    return damaged("block length " + std::to_string(length) + " over the limit of " +
                   std::to_string(kMaxBlockPayload));
  }
  buffer_.resize(length + 8);
  if (!ReadExactly(buffer_.data(), buffer_.size())) return read_failed("its payload is cut short");
  block.payload = std::string_view(buffer_).substr(0, length);
  uint64_t checksum = 0;
  ByteReader(std::string_view(buffer_).substr(length)).Fixed64(&checksum);
  if (checksum != BlockChecksum(block.kind, length, block.payload)) {
    torn_ = AtEnd();
    return damaged("checksum mismatch (the block is damaged)");
  }
  return block;
}

bool BlockFileReader::AtEnd() {
  const int c = std::fgetc(file_);
  if (c == EOF) return true;
  std::ungetc(c, file_);
  return false;
}

}  // namespace partstore::persist
