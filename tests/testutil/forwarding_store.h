// ForwardingStore: a Store that passes every call to another one, for tests that override a few
// calls (to block one, fail one, or count them) and leave the rest alone.
#pragma once

#include "partstore/store.h"

namespace partstore::testing {

class ForwardingStore : public Store {
 public:
  explicit ForwardingStore(Store& inner) : inner_(inner) {}

  Result<CreateTableResult> CreateTable(const CreateTableRequest& r) override {
    return inner_.CreateTable(r);
  }
  Result<DeleteTableResult> DeleteTable(const DeleteTableRequest& r) override {
    return inner_.DeleteTable(r);
  }
  Result<DescribeTableResult> DescribeTable(const DescribeTableRequest& r) override {
    return inner_.DescribeTable(r);
  }
  Result<ListTablesResult> ListTables(const ListTablesRequest& r) override {
    return inner_.ListTables(r);
  }
  Result<UpdateTableResult> UpdateTable(const UpdateTableRequest& r) override {
    return inner_.UpdateTable(r);
  }
  Result<TagResourceResult> TagResource(const TagResourceRequest& r) override {
    return inner_.TagResource(r);
  }
  Result<TagResourceResult> UntagResource(const UntagResourceRequest& r) override {
    return inner_.UntagResource(r);
  }
  Result<ListTagsOfResourceResult> ListTagsOfResource(const ListTagsOfResourceRequest& r) override {
    return inner_.ListTagsOfResource(r);
  }
  Result<UpdateTimeToLiveResult> UpdateTimeToLive(const UpdateTimeToLiveRequest& r) override {
    return inner_.UpdateTimeToLive(r);
  }
  Result<DescribeTimeToLiveResult> DescribeTimeToLive(const DescribeTimeToLiveRequest& r) override {
    return inner_.DescribeTimeToLive(r);
  }
  Result<CreateBackupResult> CreateBackup(const CreateBackupRequest& r) override {
    return inner_.CreateBackup(r);
  }
  Result<DescribeBackupResult> DescribeBackup(const DescribeBackupRequest& r) override {
    return inner_.DescribeBackup(r);
  }
  Result<ListBackupsResult> ListBackups(const ListBackupsRequest& r) override {
    return inner_.ListBackups(r);
  }
  Result<DeleteBackupResult> DeleteBackup(const DeleteBackupRequest& r) override {
    return inner_.DeleteBackup(r);
  }
  Result<RestoreTableFromBackupResult> RestoreTableFromBackup(
      const RestoreTableFromBackupRequest& r) override {
    return inner_.RestoreTableFromBackup(r);
  }
  Result<ContinuousBackupsResult> UpdateContinuousBackups(
      const UpdateContinuousBackupsRequest& r) override {
    return inner_.UpdateContinuousBackups(r);
  }
  Result<ContinuousBackupsResult> DescribeContinuousBackups(
      const DescribeContinuousBackupsRequest& r) override {
    return inner_.DescribeContinuousBackups(r);
  }
  Result<RestoreTableToPointInTimeResult> RestoreTableToPointInTime(
      const RestoreTableToPointInTimeRequest& r) override {
    return inner_.RestoreTableToPointInTime(r);
  }
  Result<ListStreamsResult> ListStreams(const ListStreamsRequest& r) override {
    return inner_.ListStreams(r);
  }
  Result<DescribeStreamResult> DescribeStream(const DescribeStreamRequest& r) override {
    return inner_.DescribeStream(r);
  }
  Result<GetShardIteratorResult> GetShardIterator(const GetShardIteratorRequest& r) override {
    return inner_.GetShardIterator(r);
  }
  Result<GetRecordsResult> GetRecords(const GetRecordsRequest& r) override {
    return inner_.GetRecords(r);
  }
  Result<UpdateContributorInsightsResult> UpdateContributorInsights(
      const UpdateContributorInsightsRequest& r) override {
    return inner_.UpdateContributorInsights(r);
  }
  Result<ListContributorInsightsResult> ListContributorInsights(
      const ListContributorInsightsRequest& r) override {
    return inner_.ListContributorInsights(r);
  }
  Result<DescribeContributorInsightsResult> DescribeContributorInsights(
      const DescribeContributorInsightsRequest& r) override {
    return inner_.DescribeContributorInsights(r);
  }
  Result<PutItemResult> PutItem(const PutItemRequest& r) override { return inner_.PutItem(r); }
  Result<GetItemResult> GetItem(const GetItemRequest& r) override { return inner_.GetItem(r); }
  Result<UpdateItemResult> UpdateItem(const UpdateItemRequest& r) override {
    return inner_.UpdateItem(r);
  }
  Result<DeleteItemResult> DeleteItem(const DeleteItemRequest& r) override {
    return inner_.DeleteItem(r);
  }
  Result<QueryResult> Query(const QueryRequest& r) override { return inner_.Query(r); }
  Result<ScanResult> Scan(const ScanRequest& r) override { return inner_.Scan(r); }
  Result<GetItemViewResult> GetItemView(const GetItemRequest& r) override {
    return inner_.GetItemView(r);
  }
  Result<QueryViewResult> QueryView(const QueryRequest& r) override { return inner_.QueryView(r); }
  Result<ScanViewResult> ScanView(const ScanRequest& r) override { return inner_.ScanView(r); }
  Result<BatchGetItemResult> BatchGetItem(const BatchGetItemRequest& r) override {
    return inner_.BatchGetItem(r);
  }
  Result<BatchWriteItemResult> BatchWriteItem(const BatchWriteItemRequest& r) override {
    return inner_.BatchWriteItem(r);
  }
  Result<TransactWriteItemsResult> TransactWriteItems(const TransactWriteItemsRequest& r) override {
    return inner_.TransactWriteItems(r);
  }
  Result<TransactGetItemsResult> TransactGetItems(const TransactGetItemsRequest& r) override {
    return inner_.TransactGetItems(r);
  }
  Result<ExecuteStatementResult> ExecuteStatement(const ExecuteStatementRequest& r) override {
    return inner_.ExecuteStatement(r);
  }
  Result<BatchExecuteStatementResult> BatchExecuteStatement(
      const BatchExecuteStatementRequest& r) override {
    return inner_.BatchExecuteStatement(r);
  }
  Result<ExecuteTransactionResult> ExecuteTransaction(const ExecuteTransactionRequest& r) override {
    return inner_.ExecuteTransaction(r);
  }
  double EpochSeconds() const override { return inner_.EpochSeconds(); }

 protected:
  Store& inner_;
};

}  // namespace partstore::testing
