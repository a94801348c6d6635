// `partstore run [FILE]`: the scripting interface. Each input line is one request,
//   {"op": "PutItem", "request": {"TableName": "T", "Item": {...}}}
// with the request exactly as the DynamoDB JSON protocol carries it; each output line is the
// response body exactly as `partstore serve` would return it (protocol::Dispatch), or the error
// body. One line out per line in, in order, on one in-memory Database that lives for the run
// (with capacity simulation when --capacity on or --clock manual asked for it; the capacity
// extensions are ops too: {"op": "Partstore.AdvanceClock", "request": {"Seconds": 1}}).
//
// A line that is not such an object gets a SerializationException body whose message names the
// line (its number among the input's lines, comments included) and what is wrong; an unknown
// "op" gets UnknownOperationException naming it. A line whose first non-blank character is '#'
// is a comment and answers nothing, so scripts can be annotated; an empty line answers nothing
// either. Each answer is flushed as it is written, so that a program can drive `partstore run` as
// a co-process (write a request, read its answer). Exit status: 0 when every request was
// answered (errors included), 1 when FILE cannot be read.
#include <fmt/format.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <fstream>
#include <iostream>
#include <istream>
#include <string>

#include "partstore/database.h"
#include "tools/cli/commands.h"
#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/dispatch.h"

namespace partstore::cli {

namespace {

// The answer to input line `number`.
std::string RunLine(Database& db, std::string_view line, int64_t number) {
  auto refuse = [&](Code code, std::string_view message) {
    return protocol::ErrorResponse(Status(code, fmt::format("line {}: {}", number, message))).body;
  };
  rapidjson::Document document;
  if (!protocol::ParseJson(line, &document).ok()) {
    return refuse(Code::kSerialization,
                  "not JSON: each line must be an object {\"op\": ..., \"request\": ...}");
  }
  if (!document.IsObject()) {
    return refuse(Code::kSerialization,
                  "each line must be an object {\"op\": ..., \"request\": ...}");
  }
  // Through a const view: C++20 finds RapidJSON's mutable member iterators' == ambiguous.
  const rapidjson::Document& object = document;
  auto op = object.FindMember("op");
  if (op == object.MemberEnd() || !op->value.IsString()) {
    return refuse(Code::kSerialization, "missing \"op\": the operation name, e.g. \"GetItem\"");
  }
  const std::string_view name(op->value.GetString(), op->value.GetStringLength());
  if (!protocol::IsOperation(name)) {
    return refuse(Code::kUnknownOperation, fmt::format("unknown operation \"{}\"", name));
  }
  std::string body = "{}";
  if (auto request = object.FindMember("request"); request != object.MemberEnd()) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    request->value.Accept(writer);
    body.assign(buffer.GetString(), buffer.GetSize());
  }
  return protocol::Dispatch(db, name, body).body;
}

bool Skipped(std::string_view line) {
  const size_t first = line.find_first_not_of(" \t\r");
  return first == std::string_view::npos || line[first] == '#';
}

}  // namespace

int RunScript(std::istream& in, std::ostream& out, const DatabaseOptions& options) {
  Database db(options);
  std::string line;
  for (int64_t number = 1; std::getline(in, line); ++number) {
    if (Skipped(line)) continue;
    out << RunLine(db, line, number) << '\n';
    out.flush();  // (a co-process waits for each answer)
  }
  return 0;
}

int RunFile(const std::string& path, std::ostream& out, std::ostream& err,
            const DatabaseOptions& options) {
  if (path.empty() || path == "-") return RunScript(std::cin, out, options);
  std::ifstream file(path);
  if (!file) {
    err << "partstore run: cannot read " << path << '\n';
    return 1;
  }
  return RunScript(file, out, options);
}

}  // namespace partstore::cli
