// Where a RemoteStore's endpoint, region and credentials come from when the caller does not give
// them: the AWS SDKs' chain of explicit options, environment variables and the shared config and
// credentials files (partstore/remote_store.h lists the order).
//
// The shared files are INI (the AWS CLI's format): "[name]" sections ("[profile name]" in the
// config file, "[default]" in both), "key = value" lines, '#' and ';' comment lines. Keys are
// matched case-insensitively, values trimmed; a line that is none of these, or a file that cannot
// be read when it exists, is an error naming the file and line. A missing file is no error: it
// just gives nothing.
//
// Thread safety: pure functions (they read the environment and files).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "partstore/remote_store.h"
#include "partstore/status.h"

namespace partstore::client {

// section name -> (lower-cased key -> value).
using IniFile = std::map<std::string, std::map<std::string, std::string>>;

// Parses `text`; `file` names it in errors (ValidationException "<file>:<line>: ...").
Result<IniFile> ParseIni(std::string_view text, std::string_view file);

struct ResolvedConfig {
  std::string endpoint;
  std::string streams_endpoint;
  std::string region;
  AwsCredentials credentials;
  int max_attempts = 3;
  std::string ca_file;
  std::string profile;
};

// The region, and the credentials, as the chain finds them: nullopt when no source gives one; an
// error only for a source that is malformed (a file that does not parse, half a key pair, a
// profile named but in neither file). For callers with a fallback of their own (`partstore
// bench` signs for local servers with a dummy key).
Result<std::optional<std::string>> FindRegion(const RemoteOptions& options);
Result<std::optional<AwsCredentials>> FindCredentials(const RemoteOptions& options);

// The whole chain, with ValidationExceptions naming what is missing: "no region: set
// RemoteOptions::region, AWS_REGION, or region in profile P of FILE", "no AWS credentials: ...",
// "profile P not found in FILE or FILE", a malformed AWS_MAX_ATTEMPTS.
Result<ResolvedConfig> ResolveConfig(const RemoteOptions& options);

}  // namespace partstore::client
