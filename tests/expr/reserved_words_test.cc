// The reserved-word list: DynamoDB's 573 words, case-insensitive lookup, and the parser's use
// of it (a keyword of the grammar is a syntax error instead).
#include "core/expr/reserved_words.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "core/expr/parser.h"

namespace partstore::expr {
namespace {

TEST(ReservedWordsTest, DynamoDBsListOf573) {
  const auto words = ReservedWords();
  EXPECT_EQ(words.size(), 573u);
  EXPECT_EQ(kReservedWordCount, 573u);
  EXPECT_TRUE(std::is_sorted(words.begin(), words.end()));
  EXPECT_EQ(std::adjacent_find(words.begin(), words.end()), words.end());
  // Spot checks against the documentation page.
  for (std::string_view w : {"ABORT", "NAME", "STATUS", "SIZE", "CONVERT", "FLATTERN", "INNTER",
                             "LOGED", "TTL", "ZONE", "VALUE", "KEY", "DATA", "COUNT"}) {
    EXPECT_TRUE(std::binary_search(words.begin(), words.end(), w)) << w;
  }
}

TEST(ReservedWordsTest, CaseInsensitiveLookup) {
  for (std::string_view word : ReservedWords()) {
    std::string lower(word);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::string mixed = lower;
    mixed[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(mixed[0])));
    EXPECT_TRUE(IsReservedWord(word)) << word;
    EXPECT_TRUE(IsReservedWord(lower)) << lower;
    EXPECT_TRUE(IsReservedWord(mixed)) << mixed;
    EXPECT_FALSE(IsReservedWord(lower + "x")) << lower;
    EXPECT_FALSE(IsReservedWord(lower + "_")) << lower;
  }
  for (std::string_view name : {"", "a", "naming", "statuses", "attribute_exists", "list_append",
                                "PK", "SK", "GSI1PK", "tags", "LOCALTIMESTAMPS", "zone1"}) {
    EXPECT_FALSE(IsReservedWord(name)) << name;
  }
}

TEST(ReservedWordsTest, EveryWordIsRejectedBareAndAcceptedAsPlaceholder) {
  const std::vector<std::string_view> keywords = {"ADD", "AND", "BETWEEN", "DELETE", "IN",
                                                  "NOT", "OR",  "REMOVE",  "SET"};
  for (std::string_view word : ReservedWords()) {
    SCOPED_TRACE(word);
    std::string lower(word);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    Result<ProjectionExpression> parsed = ParseProjection("a, x." + lower);
    ASSERT_FALSE(parsed.ok());
    const bool keyword = std::find(keywords.begin(), keywords.end(), word) != keywords.end();
    if (keyword) {
      EXPECT_EQ(parsed.error().message(), "Invalid ProjectionExpression: Syntax error; token: \"" +
                                              lower + "\", near: \"." + lower + "\"");
    } else {
      EXPECT_EQ(parsed.error().message(),
                "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved "
                "keyword: " +
                    lower);
    }
    EXPECT_TRUE(ParseProjection("a, x.#" + lower).ok());
  }
}

}  // namespace
}  // namespace partstore::expr
