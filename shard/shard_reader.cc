// ShardReader: see partstore/shard_reader.h. The store's GetShardIterator / GetRecords; on the
// engine, with the stream itself held to renew an expired iterator at its exact position.
#include "partstore/shard_reader.h"

#include "shard/database_state.h"

namespace partstore {

Result<ShardReader> ShardReader::Open(Store& db, std::string_view stream_arn,
                                      std::string_view shard_id, ShardIteratorType start,
                                      std::optional<std::string> sequence_number) {
  PARTSTORE_ASSIGN_OR_RETURN(GetShardIteratorResult it,
                             db.GetShardIterator({std::string(stream_arn), std::string(shard_id),
                                                  start, sequence_number}));
  std::shared_ptr<Stream> stream;
  if (auto* engine = dynamic_cast<Database*>(&db)) {
    stream = internal::DatabaseState::Of(*engine).streams_->Find(stream_arn);
    if (!stream) return Status::ResourceNotFound();  // (gone since: the records were all trimmed)
  }
  return ShardReader(db, std::move(stream), std::string(stream_arn), std::string(shard_id),
                     std::move(it.shard_iterator), start, std::move(sequence_number));
}

Result<std::string> ShardReader::Renew() {
  if (stream_) return stream_->RenewIterator(*iterator_);
  GetShardIteratorRequest request{.stream_arn = stream_arn_, .shard_id = shard_id_};
  if (last_sequence_) {
    request.shard_iterator_type = ShardIteratorType::kAfterSequenceNumber;
    request.sequence_number = last_sequence_;
  } else {
    request.shard_iterator_type = start_;
    request.sequence_number = start_sequence_;
  }
  PARTSTORE_ASSIGN_OR_RETURN(GetShardIteratorResult it, db_->GetShardIterator(request));
  return std::move(it.shard_iterator);
}

Result<std::vector<StreamRecord>> ShardReader::Next(int32_t limit) {
  if (!iterator_) return std::vector<StreamRecord>{};
  while (true) {
    Result<GetRecordsResult> page = db_->GetRecords({*iterator_, limit});
    if (!page.ok()) {
      if (page.status().code() == Code::kExpiredIterator) {
        PARTSTORE_ASSIGN_OR_RETURN(iterator_, Renew());
        continue;
      }
      if (page.status().code() == Code::kTrimmedDataAccess) {
        // Reported once; the next call reads from the oldest record kept.
        PARTSTORE_ASSIGN_OR_RETURN(GetShardIteratorResult it,
                                   db_->GetShardIterator({stream_arn_, shard_id_}));
        iterator_ = std::move(it.shard_iterator);
      }
      return page.status();
    }
    if (!page->records.empty()) last_sequence_ = page->records.back().sequence_number;
    iterator_ = std::move(page->next_shard_iterator);
    return std::move(page->records);
  }
}

}  // namespace partstore
