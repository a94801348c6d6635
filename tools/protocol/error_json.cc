#include "tools/protocol/error_json.h"

#include <memory>
#include <string>

#include "partstore/error_detail.h"
#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/errors.h"

namespace partstore::protocol {
namespace {

std::string_view StringMember(const rapidjson::Value& object, const char* name) {
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) return {};
  return {it->value.GetString(), it->value.GetStringLength()};
}

std::optional<Item> ItemMember(const rapidjson::Value& object, const char* name) {
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsObject()) return std::nullopt;
  Result<Item> item = DecodeItem(it->value);
  if (!item.ok()) return std::nullopt;
  return std::move(*item);
}

std::optional<ThrottleReason> ParseThrottleReason(std::string_view name) {
  for (int i = 0; i < 16; ++i) {
    const ThrottleReason reason = ThrottleReason::FromIndex(i);
    if (reason.name() == name) return reason;
  }
  return std::nullopt;
}

void ReadThrottlingReasons(const rapidjson::Value& body, ErrorDetail& detail) {
  for (const char* key : {"ThrottlingReasons", "throttlingReasons"}) {
    auto it = body.FindMember(key);
    if (it == body.MemberEnd() || !it->value.IsArray()) continue;
    for (const rapidjson::Value& entry : it->value.GetArray()) {
      if (!entry.IsObject()) continue;
      std::optional<ThrottleReason> reason = ParseThrottleReason(StringMember(entry, "reason"));
      if (!reason) continue;
      detail.throttling_reasons.push_back({*reason, std::string(StringMember(entry, "resource"))});
    }
  }
}

void ReadCancellationReasons(const rapidjson::Value& body, ErrorDetail& detail) {
  auto it = body.FindMember("CancellationReasons");
  if (it == body.MemberEnd() || !it->value.IsArray()) return;
  for (const rapidjson::Value& entry : it->value.GetArray()) {
    CancellationReason reason;
    if (entry.IsObject()) {
      if (std::string_view code = StringMember(entry, "Code"); !code.empty()) {
        reason.code = std::string(code);
      }
      auto message = entry.FindMember("Message");
      if (message != entry.MemberEnd() && message->value.IsString()) {
        reason.message = std::string(message->value.GetString(), message->value.GetStringLength());
      }
      reason.item = ItemMember(entry, "Item");
    }
    detail.cancellation_reasons.push_back(std::move(reason));
  }
}

Status NotAnErrorBody(int http_status, std::string_view body, std::string_view origin) {
  std::string text = "HTTP " + std::to_string(http_status) + " from " + std::string(origin);
  if (!body.empty()) {
    text += ": ";
    // The first 200 bytes, control bytes shown as '?', so that a binary body stays readable.
    for (char c : body.substr(0, 200)) {
      text += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
    }
  }
  // A 4xx was refused before anything was applied (a proxy's page, a body limit); a 5xx is the
  // server's trouble.
  return Status(http_status >= 500 || http_status < 400 ? Code::kInternal : Code::kValidation,
                std::move(text));
}

}  // namespace

Status DecodeErrorResponse(int http_status, std::string_view body, std::string_view origin) {
  if (body.size() > kMaxErrorBodyBytes) return NotAnErrorBody(http_status, body, origin);
  rapidjson::Document document;
  if (!ParseJson(body, &document).ok() || !document.IsObject()) {
    return NotAnErrorBody(http_status, body, origin);
  }
  const std::string_view type = StringMember(document, "__type");
  if (type.empty()) return NotAnErrorBody(http_status, body, origin);
  const size_t hash = type.rfind('#');
  const std::string_view name = hash == std::string_view::npos ? type : type.substr(hash + 1);
  std::string_view message = StringMember(document, "message");
  if (message.empty()) message = StringMember(document, "Message");

  Code code = Code::kOk;
  for (int c = 1; c <= static_cast<int>(Code::kOutcomeUnknown); ++c) {
    if (ExceptionName(static_cast<Code>(c)) == name) code = static_cast<Code>(c);
  }
  // DynamoDB names its 500 "InternalServerError"; some servers say InternalFailure or
  // ServiceUnavailable: all are the server's trouble.
  if (code == Code::kOk && (name == "InternalFailure" || name == "ServiceUnavailable" ||
                            name == "ServiceUnavailableException")) {
    code = Code::kInternal;
  }
  if (code == Code::kOk || code == Code::kOutcomeUnknown) {
    return Status(http_status >= 500 ? Code::kInternal : Code::kValidation,
                  std::string(name) + (message.empty() ? "" : ": " + std::string(message)));
  }
  Status status(code, std::string(message));
  auto detail = std::make_shared<ErrorDetail>();
  detail->item = ItemMember(document, "Item");
  ReadThrottlingReasons(document, *detail);
  ReadCancellationReasons(document, *detail);
  if (detail->item || !detail->throttling_reasons.empty() ||
      !detail->cancellation_reasons.empty()) {
    status = std::move(status).WithDetail(std::move(detail));
  }
  return status;
}

}  // namespace partstore::protocol
