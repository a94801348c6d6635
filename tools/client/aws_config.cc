#include "tools/client/aws_config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace partstore::client {
namespace {

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// "~/x" under $HOME.
std::string HomePath(std::string_view relative) {
  const std::string home = Env("HOME");
  return (home.empty() ? std::string(".") : home) + "/" + std::string(relative);
}

// A shared file read and parsed; an empty IniFile when it does not exist.
Result<IniFile> ReadIni(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return IniFile{};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Status::Validation("cannot read " + path);
  return ParseIni(text.str(), path);
}

const std::string* Find(const IniFile& file, const std::string& section, const std::string& key) {
  auto s = file.find(section);
  if (s == file.end()) return nullptr;
  auto v = s->second.find(key);
  return v == s->second.end() || v->second.empty() ? nullptr : &v->second;
}

}  // namespace

Result<IniFile> ParseIni(std::string_view text, std::string_view file) {
  IniFile ini;
  std::string section;
  bool in_section = false;
  int line_number = 0;
  std::string last_key;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view raw = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_number;
    const bool indented = !raw.empty() && (raw.front() == ' ' || raw.front() == '\t');
    const std::string_view line = Trim(raw);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    auto error = [&](std::string_view why) {
      return Status::Validation(std::string(file) + ":" + std::to_string(line_number) + ": " +
                                std::string(why));
    };
    if (line.front() == '[') {
      if (line.back() != ']') return error("a section header must end with ']'");
      section = std::string(Trim(line.substr(1, line.size() - 2)));
      if (section.empty()) return error("an empty section name");
      ini[section];
      in_section = true;
      last_key.clear();
      continue;
    }
    // An indented line continues the previous key's value (the CLI's nested settings, e.g.
    // "s3 =\n  max_concurrent_requests = 10"): kept as part of that value, never read here.
    if (indented && !last_key.empty()) continue;
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos) return error("expected 'key = value' or '[section]'");
    if (!in_section) return error("a setting before any [section]");
    const std::string key = Lower(Trim(line.substr(0, eq)));
    if (key.empty()) return error("a setting without a name");
    ini[section][key] = std::string(Trim(line.substr(eq + 1)));
    last_key = key;
  }
  return ini;
}

Result<ResolvedConfig> ResolveConfig(const RemoteOptions& options) {
  ResolvedConfig config;
  config.profile = !options.profile.empty() ? options.profile : Env("AWS_PROFILE");
  if (config.profile.empty()) config.profile = "default";
  const std::string credentials_path = !Env("AWS_SHARED_CREDENTIALS_FILE").empty()
                                           ? Env("AWS_SHARED_CREDENTIALS_FILE")
                                           : HomePath(".aws/credentials");
  const std::string config_path =
      !Env("AWS_CONFIG_FILE").empty() ? Env("AWS_CONFIG_FILE") : HomePath(".aws/config");
  // The files are read only when the explicit options and the environment leave a gap.
  std::optional<IniFile> credentials_file, config_file;
  auto load = [&]() -> Status {
    if (config_file) return Status::Ok();
    PARTSTORE_ASSIGN_OR_RETURN(IniFile c, ReadIni(credentials_path));
    PARTSTORE_ASSIGN_OR_RETURN(IniFile f, ReadIni(config_path));
    credentials_file = std::move(c);
    config_file = std::move(f);
    return Status::Ok();
  };
  const std::string config_section =
      config.profile == "default" ? "default" : "profile " + config.profile;
  // A profile named outside "default" must exist in one of the files.
  auto profile_known = [&] {
    return credentials_file->count(config.profile) != 0 ||
           config_file->count(config_section) != 0 || config_file->count(config.profile) != 0;
  };
  auto from_config = [&](const std::string& key) -> const std::string* {
    if (const std::string* v = Find(*config_file, config_section, key)) return v;
    return config.profile == "default" ? nullptr : Find(*config_file, config.profile, key);
  };
  auto check_profile = [&]() -> Status {
    PARTSTORE_RETURN_IF_ERROR(load());
    if (config.profile != "default" && !profile_known()) {
      return Status::Validation("AWS profile \"" + config.profile + "\" not found in " +
                                credentials_path + " or " + config_path);
    }
    return Status::Ok();
  };
  if (!options.profile.empty() || !Env("AWS_PROFILE").empty()) {
    PARTSTORE_RETURN_IF_ERROR(check_profile());
  }

  // Region.
  config.region = options.region;
  if (config.region.empty()) config.region = Env("AWS_REGION");
  if (config.region.empty()) config.region = Env("AWS_DEFAULT_REGION");
  if (config.region.empty()) {
    PARTSTORE_RETURN_IF_ERROR(check_profile());
    if (const std::string* r = from_config("region")) config.region = *r;
  }
  if (config.region.empty()) {
    return Status::Validation("no AWS region: set RemoteOptions::region, AWS_REGION or "
                              "AWS_DEFAULT_REGION, or region in profile \"" +
                              config.profile + "\" of " + config_path);
  }

  // Credentials.
  if (options.credentials) {
    config.credentials = *options.credentials;
  } else if (!Env("AWS_ACCESS_KEY_ID").empty() || !Env("AWS_SECRET_ACCESS_KEY").empty()) {
    config.credentials = {Env("AWS_ACCESS_KEY_ID"), Env("AWS_SECRET_ACCESS_KEY"),
                          Env("AWS_SESSION_TOKEN")};
    if (config.credentials.access_key_id.empty() ||
        config.credentials.secret_access_key.empty()) {
      return Status::Validation(
          "incomplete AWS credentials in the environment: AWS_ACCESS_KEY_ID and "
          "AWS_SECRET_ACCESS_KEY must both be set");
    }
  } else {
    PARTSTORE_RETURN_IF_ERROR(check_profile());
    const std::string* id = Find(*credentials_file, config.profile, "aws_access_key_id");
    const std::string* secret = Find(*credentials_file, config.profile, "aws_secret_access_key");
    const std::string* token = Find(*credentials_file, config.profile, "aws_session_token");
    if (id == nullptr && secret == nullptr) {
      id = from_config("aws_access_key_id");
      secret = from_config("aws_secret_access_key");
      token = from_config("aws_session_token");
    }
    if (id != nullptr && secret != nullptr) {
      config.credentials = {*id, *secret, token != nullptr ? *token : ""};
    } else if (id != nullptr || secret != nullptr) {
      return Status::Validation("incomplete AWS credentials for profile \"" + config.profile +
                                "\": aws_access_key_id and aws_secret_access_key must both "
                                "be set");
    }
  }
  if (config.credentials.access_key_id.empty()) {
    return Status::Validation(
        "no AWS credentials: set RemoteOptions::credentials, AWS_ACCESS_KEY_ID and "
        "AWS_SECRET_ACCESS_KEY, or aws_access_key_id and aws_secret_access_key in profile \"" +
        config.profile + "\" of " + credentials_path);
  }

  // Endpoints.
  bool endpoint_given = true;
  config.endpoint = options.endpoint;
  if (config.endpoint.empty()) config.endpoint = Env("AWS_ENDPOINT_URL_DYNAMODB");
  if (config.endpoint.empty()) config.endpoint = Env("AWS_ENDPOINT_URL");
  if (config.endpoint.empty() && load().ok()) {
    if (const std::string* e = from_config("endpoint_url")) config.endpoint = *e;
  }
  if (config.endpoint.empty()) {
    endpoint_given = false;
    config.endpoint = "https://dynamodb." + config.region + ".amazonaws.com";
  }
  config.streams_endpoint = options.streams_endpoint;
  if (config.streams_endpoint.empty()) {
    config.streams_endpoint = Env("AWS_ENDPOINT_URL_DYNAMODB_STREAMS");
  }
  if (config.streams_endpoint.empty()) {
    config.streams_endpoint = endpoint_given
                                  ? config.endpoint
                                  : "https://streams.dynamodb." + config.region + ".amazonaws.com";
  }

  // Retries and TLS.
  if (options.retry.max_attempts) {
    config.max_attempts = *options.retry.max_attempts;
  } else if (const std::string text = Env("AWS_MAX_ATTEMPTS"); !text.empty()) {
    int value = 0;
    auto [end, err] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (err != std::errc() || end != text.data() + text.size() || value < 1) {
      return Status::Validation("AWS_MAX_ATTEMPTS must be a whole number of at least 1, not \"" +
                                text + "\"");
    }
    config.max_attempts = value;
  }
  if (config.max_attempts < 1 || config.max_attempts > 100) {
    return Status::Validation("RemoteOptions::retry.max_attempts must be 1..100, not " +
                              std::to_string(config.max_attempts));
  }
  config.ca_file = !options.ca_file.empty() ? options.ca_file : Env("AWS_CA_BUNDLE");
  return config;
}

}  // namespace partstore::client
