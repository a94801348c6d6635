// The stream images' encoding: see stream_image.h.
#include "shard/persist/stream_image.h"

#include "shard/persist/byte_codec.h"

namespace partstore::persist {

namespace {

bool ValidTime(uint64_t micros) { return micros <= static_cast<uint64_t>(kMaxEpochMicros); }
bool ValidSequence(uint64_t n) { return n <= kMaxSequence; }

void EncodeKeyAttribute(const KeyAttribute& key, ByteWriter& out) {
  out.String(key.name);
  out.Byte(static_cast<uint8_t>(key.type));
}

bool DecodeKeyAttribute(ByteReader& in, KeyAttribute* key) {
  uint8_t type = 0;
  if (!in.String(&key->name) || !in.Enum(static_cast<uint8_t>(KeyType::kBinary), &type)) {
    return false;
  }
  key->type = static_cast<KeyType>(type);
  return true;
}

void EncodeImageItem(const StoredItem& item, ByteWriter& out) {
  out.Bool(static_cast<bool>(item));
  if (item) out.String(item.PortableEncoding());
}

bool DecodeImageItem(ByteReader& in, StoredItem* item) {
  bool present = false;
  if (!in.Bool(&present)) return false;
  if (!present) {
    *item = StoredItem();
    return true;
  }
  std::string_view bytes;
  if (!in.Bytes(&bytes)) return false;
  Result<StoredItem> decoded = StoredItem::Decode(bytes);
  if (!decoded.ok()) return false;
  *item = std::move(*decoded);
  return true;
}

}  // namespace

void EncodeShardImages(const std::vector<StreamShardImage>& shards, ByteWriter& out) {
  out.Varint(shards.size());
  for (const StreamShardImage& s : shards) {
    out.Varint(s.starting);
    out.Varint(s.parent_starting);
    out.Fixed64(s.begin);
    out.Fixed64(s.end);
    out.Varint(s.last);
    out.Bool(s.ending.has_value());
    if (s.ending) out.Varint(*s.ending);
    out.Fixed64(static_cast<uint64_t>(s.closed_epoch_micros));
    out.Varint(s.trimmed_through);
  }
}

bool DecodeShardImages(ByteReader& in, std::vector<StreamShardImage>* shards) {
  uint64_t count = 0;
  // (A count beyond what the input holds fails when the input runs out.)
  if (!in.Count(1u << 24, &count)) return false;
  shards->clear();
  for (uint64_t i = 0; i < count; ++i) {
    StreamShardImage& s = shards->emplace_back();
    bool closed = false;
    uint64_t closed_micros = 0;
    if (!in.Varint(&s.starting) || !in.Varint(&s.parent_starting) || !in.Fixed64(&s.begin) ||
        !in.Fixed64(&s.end) || !in.Varint(&s.last) || !in.Bool(&closed) ||
        (closed && !in.Varint(&s.ending.emplace())) || !in.Fixed64(&closed_micros) ||
        !in.Varint(&s.trimmed_through) || !ValidTime(closed_micros) || !ValidSequence(s.starting) ||
        !ValidSequence(s.parent_starting) || !ValidSequence(s.last) ||
        !ValidSequence(s.ending.value_or(0)) || !ValidSequence(s.trimmed_through)) {
      return false;
    }
    s.closed_epoch_micros = static_cast<int64_t>(closed_micros);
  }
  return true;
}

void EncodeStreamImage(const StreamImage& image, ByteWriter& out) {
  out.Varint(image.number);
  out.String(image.table_name);
  out.String(image.table_arn);
  EncodeKeyAttribute(image.key_schema.partition, out);
  out.Bool(image.key_schema.sort.has_value());
  if (image.key_schema.sort) EncodeKeyAttribute(*image.key_schema.sort, out);
  out.Byte(static_cast<uint8_t>(image.view_type));
  out.String(image.label);
  out.Fixed64(static_cast<uint64_t>(image.created_epoch_micros));
  out.Bool(image.enabled);
  out.Varint(image.next_sequence);
  EncodeShardImages(image.shards, out);
}

bool DecodeStreamImage(ByteReader& in, StreamImage* image) {
  bool sorted = false;
  uint8_t view = 0;
  uint64_t created = 0;
  if (!in.Varint(&image->number) || !in.String(&image->table_name) ||
      !in.String(&image->table_arn) || !DecodeKeyAttribute(in, &image->key_schema.partition) ||
      !in.Bool(&sorted) || (sorted && !DecodeKeyAttribute(in, &image->key_schema.sort.emplace())) ||
      !in.Enum(static_cast<uint8_t>(StreamViewType::kNewAndOldImages), &view) ||
      !in.String(&image->label) || !in.Fixed64(&created) || !in.Bool(&image->enabled) ||
      !in.Varint(&image->next_sequence) || !DecodeShardImages(in, &image->shards) ||
      !ValidTime(created) || !ValidSequence(image->next_sequence)) {
    return false;
  }
  if (!sorted) image->key_schema.sort.reset();
  image->view_type = static_cast<StreamViewType>(view);
  image->created_epoch_micros = static_cast<int64_t>(created);
  return true;
}

void EncodeRecordImage(const StreamRecordImage& record, ByteWriter& out) {
  out.Varint(record.sequence);
  out.Fixed64(static_cast<uint64_t>(record.epoch_micros));
  out.Byte(static_cast<uint8_t>(record.event));
  out.Byte(static_cast<uint8_t>(record.remover));
  out.Varint(record.size_bytes);
  EncodeImageItem(record.old_item, out);
  EncodeImageItem(record.new_item, out);
}

bool DecodeRecordImage(ByteReader& in, StreamRecordImage* record) {
  uint64_t micros = 0, size = 0;
  uint8_t event = 0, remover = 0;
  if (!in.Varint(&record->sequence) || !in.Fixed64(&micros) ||
      !in.Enum(static_cast<uint8_t>(StreamEventName::kRemove), &event) ||
      !in.Enum(static_cast<uint8_t>(StreamRemover::kEviction), &remover) ||
      !in.Count(UINT32_MAX, &size) || !DecodeImageItem(in, &record->old_item) ||
      !DecodeImageItem(in, &record->new_item) || !ValidTime(micros) ||
      !ValidSequence(record->sequence)) {
    return false;
  }
  record->epoch_micros = static_cast<int64_t>(micros);
  record->event = static_cast<StreamEventName>(event);
  record->remover = static_cast<StreamRemover>(remover);
  record->size_bytes = static_cast<uint32_t>(size);
  return true;
}

void EncodeStreamMark(const StreamMark& mark, ByteWriter& out) {
  out.Varint(mark.stream);
  out.Varint(mark.sequence);
  out.Varint(mark.shard);
  out.Fixed64(static_cast<uint64_t>(mark.epoch_micros));
  out.Byte(static_cast<uint8_t>(mark.remover));
}

bool DecodeStreamMark(ByteReader& in, StreamMark* mark) {
  uint64_t micros = 0;
  uint8_t remover = 0;
  if (!in.Varint(&mark->stream) || !in.Varint(&mark->sequence) || !in.Varint(&mark->shard) ||
      !in.Fixed64(&micros) || !in.Enum(static_cast<uint8_t>(StreamRemover::kEviction), &remover) ||
      !ValidTime(micros) || !ValidSequence(mark->sequence) || !ValidSequence(mark->shard)) {
    return false;
  }
  mark->epoch_micros = static_cast<int64_t>(micros);
  mark->remover = static_cast<StreamRemover>(remover);
  return true;
}

}  // namespace partstore::persist
