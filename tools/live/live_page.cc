// The live page's routes (live_page.h): GET /ui and GET /ui/data, behind Basic authentication
// when the server has access keys.
#include "tools/live/live_page.h"

#include <openssl/crypto.h>

#include <charconv>
#include <string_view>

#include "tools/live/live_view.h"
#include "tools/protocol/base64.h"
#include "tools/protocol/dispatch.h"

namespace partstore::live {
namespace {

namespace http = boost::beast::http;

constexpr std::string_view kNoStore = "Cache-Control: no-store\r\n";

std::string_view Header(const server::HttpRequest& request, http::field field) {
  auto it = request.find(field);
  if (it == request.end()) return {};
  return {it->value().data(), it->value().size()};
}

// Whether `request` carries "Authorization: Basic base64(<key id>:<secret>)" of a known key.
bool Authorized(const server::HttpRequest& request, const server::AccessKeys& keys) {
  std::string_view value = Header(request, http::field::authorization);
  constexpr std::string_view kBasic = "Basic ";
  if (!value.starts_with(kBasic)) return false;
  std::string decoded;
  protocol::base64::DecodeError error;
  if (!protocol::base64::Decode(value.substr(kBasic.size()), &decoded, &error)) return false;
  const size_t colon = decoded.find(':');
  if (colon == std::string::npos) return false;
  const std::string* secret = keys.Find(std::string_view(decoded).substr(0, colon));
  const std::string_view given = std::string_view(decoded).substr(colon + 1);
  // Compared in constant time, as the SigV4 check compares signatures (authenticator.cc).
  return secret != nullptr && secret->size() == given.size() &&
         CRYPTO_memcmp(secret->data(), given.data(), given.size()) == 0;
}

server::Reply Error(const Status& status) {
  protocol::Response r = protocol::ErrorResponse(status);
  server::Reply reply;
  reply.status = static_cast<http::status>(r.http_status);
  reply.body = std::move(r.body);
  reply.extra_headers = kNoStore;
  return reply;
}

// `query` ("a=1&b=x") into the options; a ValidationException for an unknown or bad parameter.
Result<LiveViewOptions> OptionsOf(std::string_view query) {
  LiveViewOptions options;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    const std::string_view name = pair.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? "" : pair.substr(eq + 1);
    auto number = [&](int low, int high) -> Result<int> {
      int n = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || end != value.data() + value.size() || n < low || n > high) {
        return Status::Validation("The parameter " + std::string(name) + " must be a number in " +
                                  std::to_string(low) + ".." + std::to_string(high));
      }
      return n;
    };
    if (name == "table") {
      // Table names are [a-zA-Z0-9_.-]: nothing to percent-decode in a valid one.
      if (value.empty() || value.size() > 255 ||
          value.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                  "_.-") != std::string_view::npos) {
        return Status::Validation("The parameter table must be a table name");
      }
      options.table = std::string(value);
    } else if (name == "window") {
      PARTSTORE_ASSIGN_OR_RETURN(options.window_seconds, number(1, 600));
    } else if (name == "tables") {
      PARTSTORE_ASSIGN_OR_RETURN(int n, number(1, 200));
      options.max_tables = static_cast<size_t>(n);
    } else {
      return Status::Validation("Unknown parameter: " + std::string(name.substr(0, 64)) +
                                " (the parameters are table, window and tables)");
    }
  }
  return options;
}

}  // namespace

namespace {

// The routes and authentication; `data` makes /ui/data's document from its query.
std::optional<server::Reply> AnswerWith(
    const server::HttpRequest& request, const LivePageOptions& options,
    const std::function<Result<std::string>(std::string_view query)>& data) {
  const std::string_view target(request.target().data(), request.target().size());
  const size_t question = target.find('?');
  const std::string_view path = target.substr(0, question);
  if (path != "/ui" && path != "/ui/" && path != "/ui/data") return std::nullopt;
  if (options.access_keys != nullptr && !Authorized(request, *options.access_keys)) {
    server::Reply reply;
    reply.status = http::status::unauthorized;
    reply.content_type = "text/plain";
    reply.body =
        "The live page needs an access key: its id as the user, its secret as the "
        "password.\n";
    reply.extra_headers = "WWW-Authenticate: Basic realm=\"partstore\", charset=\"UTF-8\"\r\n";
    return reply;
  }
  if (path != "/ui/data") {
    server::Reply reply;
    reply.content_type = "text/html; charset=utf-8";
    reply.body = PageHtml(options.title);
    reply.extra_headers = kNoStore;
    return reply;
  }
  Result<std::string> json =
      data(question == std::string_view::npos ? std::string_view() : target.substr(question + 1));
  if (!json.ok()) return Error(json.status());
  server::Reply reply;
  reply.content_type = "application/json";
  reply.body = std::move(*json);
  reply.extra_headers = kNoStore;
  return reply;
}

}  // namespace

std::optional<server::Reply> Answer(Database& db, const server::HttpRequest& request,
                                    const LivePageOptions& options) {
  return AnswerWith(request, options, [&db](std::string_view query) -> Result<std::string> {
    PARTSTORE_ASSIGN_OR_RETURN(LiveViewOptions view, OptionsOf(query));
    return LiveViewJson(db, view);
  });
}

std::optional<server::Reply> Answer(const std::function<CacheStats()>& stats,
                                    const server::HttpRequest& request,
                                    const LivePageOptions& options) {
  return AnswerWith(request, options, [&stats](std::string_view query) -> Result<std::string> {
    if (!query.empty()) {
      return Status::Validation("A cache's live data takes no parameters");
    }
    return CacheViewJson(stats());
  });
}

}  // namespace partstore::live
