// A stream as the data directory keeps it (shard/stream.h is the live one): its identity and
// shards (a snapshot's stream block, and the log's record of a new stream or of shards a split
// opened), its records (a snapshot's record blocks), and the mark a logged item change carries
// when it wrote a stream record (shard/persist/write_ahead_log.h).
//
// Times are Unix microseconds, so that they mean the same after a restart (the database clock
// starts again at zero). A shard is named by its starting sequence number: its id is made from it
// and the stream's ARN (Stream::OpenShard).
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partstore/key.h"
#include "partstore/stored_item.h"
#include "partstore/streams.h"

namespace partstore::persist {

class ByteReader;
class ByteWriter;

struct StreamShardImage {
  uint64_t starting = 0;
  uint64_t parent_starting = 0;    // 0: no parent
  uint64_t begin = 0, end = 0;     // hash range (inclusive)
  uint64_t last = 0;               // the newest record's sequence number (0: none yet)
  std::optional<uint64_t> ending;  // set once closed
  int64_t closed_epoch_micros = 0;
  uint64_t trimmed_through = 0;
};

struct StreamImage {
  uint64_t number = 0;  // the table's n-th stream (1 on); what a logged change names
  std::string table_name, table_arn;
  KeySchema key_schema;
  StreamViewType view_type = StreamViewType::kKeysOnly;
  std::string label;
  int64_t created_epoch_micros = 0;
  bool enabled = true;
  uint64_t next_sequence = 1;
  std::vector<StreamShardImage> shards;  // creation order
};

struct StreamRecordImage {
  uint64_t sequence = 0;
  int64_t epoch_micros = 0;
  StreamEventName event = StreamEventName::kInsert;
  StreamRemover remover = StreamRemover::kClient;
  uint32_t size_bytes = 0;
  StoredItem old_item, new_item;  // as the stream keeps them (what its view type carries)
};

// What an item change logged with a stream record says of it; the record's images are the item
// before the change (the table's state when the change is replayed) and the change's item.
struct StreamMark {
  uint64_t stream = 0;  // StreamImage::number
  uint64_t sequence = 0;
  uint64_t shard = 0;  // the shard's starting sequence number
  int64_t epoch_micros = 0;
  StreamRemover remover = StreamRemover::kClient;
};

// What a decoder accepts: Unix microseconds in [0, kMaxEpochMicros] (the year 5138), sequence
// numbers up to kMaxSequence (a restart moves a stream's next number on by kRestartGap; shard/
// stream.h).
inline constexpr int64_t kMaxEpochMicros = 100'000'000'000'000'000;
inline constexpr uint64_t kMaxSequence = uint64_t{1} << 62;

void EncodeStreamImage(const StreamImage& image, ByteWriter& out);
void EncodeShardImages(const std::vector<StreamShardImage>& shards, ByteWriter& out);
void EncodeRecordImage(const StreamRecordImage& record, ByteWriter& out);
void EncodeStreamMark(const StreamMark& mark, ByteWriter& out);
// False for bytes the encoders do not produce (cut short, an enum or count out of range, a
// malformed item); the values' meaning is checked where they are restored.
bool DecodeStreamImage(ByteReader& in, StreamImage* image);
bool DecodeShardImages(ByteReader& in, std::vector<StreamShardImage>* shards);
bool DecodeRecordImage(ByteReader& in, StreamRecordImage* record);
bool DecodeStreamMark(ByteReader& in, StreamMark* mark);

}  // namespace partstore::persist
