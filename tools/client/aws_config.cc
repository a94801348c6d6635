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

namespace {

// The sources after the explicit options: the environment, then the profile's sections of the
// shared files, read at the first question the options and the environment leave open.
class Chain {
 public:
  explicit Chain(const RemoteOptions& options)
      : options_(options),
        profile_(!options.profile.empty()      ? options.profile
                 : !Env("AWS_PROFILE").empty() ? Env("AWS_PROFILE")
                                               : "default"),
        credentials_path_(!Env("AWS_SHARED_CREDENTIALS_FILE").empty()
                              ? Env("AWS_SHARED_CREDENTIALS_FILE")
                              : HomePath(".aws/credentials")),
        config_path_(!Env("AWS_CONFIG_FILE").empty() ? Env("AWS_CONFIG_FILE")
                                                     : HomePath(".aws/config")),
        config_section_(profile_ == "default" ? "default" : "profile " + profile_) {}

  const std::string& profile() const { return profile_; }
  const std::string& credentials_path() const { return credentials_path_; }
  const std::string& config_path() const { return config_path_; }

  // Reads the files (once); a profile named by the options or AWS_PROFILE must be in one.
  Status Load() {
    if (config_file_) return Status::Ok();
    PARTSTORE_ASSIGN_OR_RETURN(IniFile c, ReadIni(credentials_path_));
    PARTSTORE_ASSIGN_OR_RETURN(IniFile f, ReadIni(config_path_));
    credentials_file_ = std::move(c);
    config_file_ = std::move(f);
    if (profile_ != "default" && credentials_file_->count(profile_) == 0 &&
        config_file_->count(config_section_) == 0 && config_file_->count(profile_) == 0) {
      return Status::Validation("AWS profile \"" + profile_ + "\" not found in " +
                                credentials_path_ + " or " + config_path_);
    }
    return Status::Ok();
  }
  bool ProfileNamed() const { return !options_.profile.empty() || !Env("AWS_PROFILE").empty(); }

  Result<std::optional<std::string>> Region() {
    if (!options_.region.empty()) return std::optional<std::string>(options_.region);
    if (!Env("AWS_REGION").empty()) return std::optional<std::string>(Env("AWS_REGION"));
    if (!Env("AWS_DEFAULT_REGION").empty()) {
      return std::optional<std::string>(Env("AWS_DEFAULT_REGION"));
    }
    PARTSTORE_RETURN_IF_ERROR(Load());
    if (const std::string* r = FromConfig("region")) return std::optional<std::string>(*r);
    return std::optional<std::string>();
  }

  Result<std::optional<AwsCredentials>> Credentials() {
    if (options_.credentials) return std::optional<AwsCredentials>(*options_.credentials);
    if (!Env("AWS_ACCESS_KEY_ID").empty() || !Env("AWS_SECRET_ACCESS_KEY").empty()) {
      AwsCredentials c{Env("AWS_ACCESS_KEY_ID"), Env("AWS_SECRET_ACCESS_KEY"),
                       Env("AWS_SESSION_TOKEN")};
      if (c.access_key_id.empty() || c.secret_access_key.empty()) {
        return Status::Validation(
            "incomplete AWS credentials in the environment: AWS_ACCESS_KEY_ID and "
            "AWS_SECRET_ACCESS_KEY must both be set");
      }
      return std::optional<AwsCredentials>(std::move(c));
    }
    PARTSTORE_RETURN_IF_ERROR(Load());
    const std::string* id = Find(*credentials_file_, profile_, "aws_access_key_id");
    const std::string* secret = Find(*credentials_file_, profile_, "aws_secret_access_key");
    const std::string* token = Find(*credentials_file_, profile_, "aws_session_token");
    if (id == nullptr && secret == nullptr) {
      id = FromConfig("aws_access_key_id");
      secret = FromConfig("aws_secret_access_key");
      token = FromConfig("aws_session_token");
    }
    if (id == nullptr && secret == nullptr) return std::optional<AwsCredentials>();
    if (id == nullptr || secret == nullptr) {
      return Status::Validation("incomplete AWS credentials for profile \"" + profile_ +
                                "\": aws_access_key_id and aws_secret_access_key must both "
                                "be set");
    }
    return std::optional<AwsCredentials>(
        AwsCredentials{*id, *secret, token != nullptr ? *token : ""});
  }

  // The profile's endpoint_url (the files are read only if nothing else gave an endpoint).
  Result<std::optional<std::string>> ProfileEndpoint() {
    PARTSTORE_RETURN_IF_ERROR(Load());
    if (const std::string* e = FromConfig("endpoint_url")) return std::optional<std::string>(*e);
    return std::optional<std::string>();
  }

 private:
  const std::string* FromConfig(const std::string& key) const {
    if (const std::string* v = Find(*config_file_, config_section_, key)) return v;
    return profile_ == "default" ? nullptr : Find(*config_file_, profile_, key);
  }

  const RemoteOptions& options_;
  const std::string profile_;
  const std::string credentials_path_;
  const std::string config_path_;
  const std::string config_section_;
  std::optional<IniFile> credentials_file_, config_file_;
};

}  // namespace

Result<std::optional<std::string>> FindRegion(const RemoteOptions& options) {
  Chain chain(options);
  if (chain.ProfileNamed()) PARTSTORE_RETURN_IF_ERROR(chain.Load());
  return chain.Region();
}

Result<std::optional<AwsCredentials>> FindCredentials(const RemoteOptions& options) {
  Chain chain(options);
  if (chain.ProfileNamed()) PARTSTORE_RETURN_IF_ERROR(chain.Load());
  return chain.Credentials();
}

Result<ResolvedConfig> ResolveConfig(const RemoteOptions& options) {
  Chain chain(options);
  ResolvedConfig config;
  config.profile = chain.profile();
  if (chain.ProfileNamed()) PARTSTORE_RETURN_IF_ERROR(chain.Load());

  PARTSTORE_ASSIGN_OR_RETURN(std::optional<std::string> region, chain.Region());
  if (!region) {
    return Status::Validation(
        "no AWS region: set RemoteOptions::region, AWS_REGION or "
        "AWS_DEFAULT_REGION, or region in profile \"" +
        config.profile + "\" of " + chain.config_path());
  }
  config.region = std::move(*region);
  PARTSTORE_ASSIGN_OR_RETURN(std::optional<AwsCredentials> credentials, chain.Credentials());
  if (!credentials) {
    return Status::Validation(
        "no AWS credentials: set RemoteOptions::credentials, AWS_ACCESS_KEY_ID and "
        "AWS_SECRET_ACCESS_KEY, or aws_access_key_id and aws_secret_access_key in profile \"" +
        config.profile + "\" of " + chain.credentials_path());
  }
  config.credentials = std::move(*credentials);

  // Endpoints.
  bool endpoint_given = true;
  config.endpoint = options.endpoint;
  if (config.endpoint.empty()) config.endpoint = Env("AWS_ENDPOINT_URL_DYNAMODB");
  if (config.endpoint.empty()) config.endpoint = Env("AWS_ENDPOINT_URL");
  if (config.endpoint.empty()) {
    PARTSTORE_ASSIGN_OR_RETURN(std::optional<std::string> e, chain.ProfileEndpoint());
    if (e) config.endpoint = std::move(*e);
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
