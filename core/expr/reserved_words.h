// DynamoDB's reserved words: an attribute name written bare in an expression may not be one of
// them ("Attribute name is a reserved keyword; reserved keyword: <name as written>"); the
// request must use an ExpressionAttributeNames placeholder instead.
//
// The list is the 573 words of the Developer Guide page "Reserved words in DynamoDB"
// (awsdocs/amazon-dynamodb-developer-guide, doc_source/ReservedWords.md). Lookup is
// case-insensitive (ASCII), allocation-free: a binary search over the sorted upper-case list.
// Nine of the words (AND, OR, NOT, BETWEEN, IN, SET, ADD, DELETE, REMOVE) are keywords of the
// expression grammar, so the lexer turns them into keyword tokens before this check is reached.
//
// Thread safety: immutable data; thread-safe.
#pragma once

#include <span>
#include <string_view>

namespace partstore::expr {

inline constexpr size_t kReservedWordCount = 573;

// Whether `name` (any case) is a reserved word.
bool IsReservedWord(std::string_view name);

// The list, upper case, sorted by byte order.
std::span<const std::string_view> ReservedWords();

}  // namespace partstore::expr
