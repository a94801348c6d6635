// `partstore run [FILE]`: the scripting interface. Each input line is one request,
//   {"op": "PutItem", "request": {"TableName": "T", "Item": {...}}}
// with the request exactly as the DynamoDB JSON protocol carries it; each output line is the
// response body exactly as `partstore serve` would return it (protocol::Dispatch), or the error
// body. One line out per line in, in order, on one in-memory Database that lives for the run
// (with capacity simulation when --capacity on or --clock manual asked for it; the capacity
// extensions are ops too: {"op": "Partstore.AdvanceClock", "request": {"Seconds": 1}}).
//
// A line that is not such an object gets a SerializationException body. A line whose first
// non-blank character is '#' is a comment and answers nothing, so scripts can be annotated; an
// empty line answers nothing either. Exit status: 0 when every request was answered (errors
// included), 1 when FILE cannot be read.
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

// The answer to one input line.
std::string RunLine(Database& db, std::string_view line) {
  rapidjson::Document document;
  Status parsed = protocol::ParseJson(line, &document);
  if (!parsed.ok()) return protocol::ErrorResponse(parsed).body;
  if (!document.IsObject()) {
    return protocol::ErrorResponse(
               Status::Serialization("Each line must be an object {\"op\": ..., \"request\": ...}"))
        .body;
  }
  auto op = document.FindMember("op");
  if (op == document.MemberEnd() || !op->value.IsString()) {
    return protocol::ErrorResponse(
               Status::Serialization("Missing \"op\": the operation name, e.g. \"GetItem\""))
        .body;
  }
  std::string body = "{}";
  if (auto request = document.FindMember("request"); request != document.MemberEnd()) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    request->value.Accept(writer);
    body.assign(buffer.GetString(), buffer.GetSize());
  }
  return protocol::Dispatch(
             db, std::string_view(op->value.GetString(), op->value.GetStringLength()), body)
      .body;
}

bool Skipped(std::string_view line) {
  const size_t first = line.find_first_not_of(" \t\r");
  return first == std::string_view::npos || line[first] == '#';
}

}  // namespace

int RunScript(std::istream& in, std::ostream& out, const DatabaseOptions& options) {
  Database db(options);
  std::string line;
  while (std::getline(in, line)) {
    if (Skipped(line)) continue;
    out << RunLine(db, line) << '\n';
  }
  out.flush();
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
