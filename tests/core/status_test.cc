#include "partstore/status.h"

#include <gtest/gtest.h>

#include <string>

namespace partstore {
namespace {

TEST(StatusTest, DefaultIsOk) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), Code::kOk);
  EXPECT_EQ(s.message(), "");
  EXPECT_EQ(s.ToString(), "OK");
}

TEST(StatusTest, ErrorCarriesCodeAndMessage) {
  Status s = Status::Validation("bad thing");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Code::kValidation);
  EXPECT_EQ(s.message(), "bad thing");
  EXPECT_EQ(s.ToString(), "Validation: bad thing");
  EXPECT_FALSE(s.retryable());
}

TEST(StatusTest, CopyAndMoveKeepContents) {
  Status a(Code::kResourceNotFound, "Requested resource not found");
  Status b = a;
  EXPECT_EQ(a, b);
  Status c = std::move(b);
  EXPECT_EQ(c.code(), Code::kResourceNotFound);
  EXPECT_EQ(c.message(), "Requested resource not found");
  c = Status();
  EXPECT_TRUE(c.ok());
  EXPECT_NE(a, c);
}

TEST(StatusTest, RetryableCodes) {
  EXPECT_TRUE(IsRetryable(Code::kProvisionedThroughputExceeded));
  EXPECT_TRUE(IsRetryable(Code::kThrottling));
  EXPECT_TRUE(IsRetryable(Code::kRequestLimitExceeded));
  EXPECT_TRUE(IsRetryable(Code::kTransactionInProgress));
  EXPECT_TRUE(IsRetryable(Code::kInternal));
  EXPECT_FALSE(IsRetryable(Code::kConditionalCheckFailed));
  EXPECT_FALSE(IsRetryable(Code::kTransactionCanceled));
  EXPECT_FALSE(IsRetryable(Code::kResourceNotFound));
  EXPECT_FALSE(IsRetryable(Code::kOk));
}

Result<int> Half(int x) {
  if (x % 2 != 0) return Status::Validation("odd");
  return x / 2;
}

Result<int> Quarter(int x) {
  PARTSTORE_ASSIGN_OR_RETURN(int half, Half(x));
  PARTSTORE_ASSIGN_OR_RETURN(int quarter, Half(half));
  return quarter;
}

Status CheckEven(int x) {
  PARTSTORE_RETURN_IF_ERROR(Half(x).status());
  return Status::Ok();
}

TEST(ResultTest, ValueOrError) {
  Result<int> ok = Half(8);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 4);
  EXPECT_TRUE(ok.status().ok());

  Result<int> bad = Half(3);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Code::kValidation);
  EXPECT_EQ(bad.error().message(), "odd");
}

TEST(ResultTest, MacrosPropagate) {
  EXPECT_EQ(*Quarter(8), 2);
  EXPECT_EQ(Quarter(6).status().message(), "odd");
  EXPECT_TRUE(CheckEven(2).ok());
  EXPECT_EQ(CheckEven(1).code(), Code::kValidation);
}

TEST(ResultTest, MoveOnlyAndConvertibleValues) {
  Result<std::unique_ptr<int>> p = std::make_unique<int>(7);
  ASSERT_TRUE(p.ok());
  std::unique_ptr<int> owned = std::move(p).value();
  EXPECT_EQ(*owned, 7);

  Result<std::string> s = "converted";  // const char* -> std::string
  EXPECT_EQ(*s, "converted");
  EXPECT_EQ(s->size(), 9u);
}

TEST(ResultTest, BuiltFromOkStatusIsAnError) {
#ifdef NDEBUG
  Result<int> r = Status::Ok();
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kInternal);
#else
  GTEST_SKIP() << "asserts in debug builds";
#endif
}

}  // namespace
}  // namespace partstore
