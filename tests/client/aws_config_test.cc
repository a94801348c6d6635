// Where a RemoteStore's region, credentials and endpoint come from: the AWS SDKs' chain of
// explicit options, environment variables, and the shared credentials and config files.
#include "tools/client/aws_config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace partstore::client {
namespace {

constexpr const char* kVariables[] = {"AWS_PROFILE",
                                      "AWS_REGION",
                                      "AWS_DEFAULT_REGION",
                                      "AWS_ACCESS_KEY_ID",
                                      "AWS_SECRET_ACCESS_KEY",
                                      "AWS_SESSION_TOKEN",
                                      "AWS_ENDPOINT_URL",
                                      "AWS_ENDPOINT_URL_DYNAMODB",
                                      "AWS_ENDPOINT_URL_DYNAMODB_STREAMS",
                                      "AWS_MAX_ATTEMPTS",
                                      "AWS_CA_BUNDLE",
                                      "AWS_CONFIG_FILE",
                                      "AWS_SHARED_CREDENTIALS_FILE"};

// Each test starts with no AWS_* variable and two empty shared files of its own.
class AwsConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : kVariables) {
      if (const char* v = std::getenv(name)) saved_.emplace_back(name, v);
      unsetenv(name);
    }
    dir_ = std::filesystem::temp_directory_path() /
           ("partstore_aws_config_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
    credentials_ = (dir_ / "credentials").string();
    config_ = (dir_ / "config").string();
    Write(credentials_, "");
    Write(config_, "");
    setenv("AWS_SHARED_CREDENTIALS_FILE", credentials_.c_str(), 1);
    setenv("AWS_CONFIG_FILE", config_.c_str(), 1);
  }
  void TearDown() override {
    for (const char* name : kVariables) unsetenv(name);
    for (const auto& [name, value] : saved_) setenv(name.c_str(), value.c_str(), 1);
    std::filesystem::remove_all(dir_);
  }
  static void Write(const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
  }
  static std::string Error(const Result<ResolvedConfig>& r) {
    return r.ok() ? "OK" : std::string(r.status().message());
  }

  std::filesystem::path dir_;
  std::string credentials_, config_;
  std::vector<std::pair<std::string, std::string>> saved_;
};

TEST_F(AwsConfigTest, ExplicitOptionsWinOverEverything) {
  setenv("AWS_REGION", "eu-west-1", 1);
  setenv("AWS_ACCESS_KEY_ID", "ENVKEY", 1);
  setenv("AWS_SECRET_ACCESS_KEY", "envsecret", 1);
  setenv("AWS_ENDPOINT_URL", "http://env:1", 1);
  RemoteOptions options{.endpoint = "http://given:2",
                        .region = "ap-south-1",
                        .credentials = AwsCredentials{"GIVEN", "secret", "token"}};
  Result<ResolvedConfig> c = ResolveConfig(options);
  ASSERT_TRUE(c.ok()) << Error(c);
  EXPECT_EQ(c->region, "ap-south-1");
  EXPECT_EQ(c->credentials.access_key_id, "GIVEN");
  EXPECT_EQ(c->credentials.session_token, "token");
  EXPECT_EQ(c->endpoint, "http://given:2");
  EXPECT_EQ(c->streams_endpoint, "http://given:2");  // a given endpoint serves Streams too
  EXPECT_EQ(c->max_attempts, 3);
}

TEST_F(AwsConfigTest, EnvironmentThenDefaults) {
  setenv("AWS_DEFAULT_REGION", "us-west-2", 1);
  setenv("AWS_ACCESS_KEY_ID", "ENVKEY", 1);
  setenv("AWS_SECRET_ACCESS_KEY", "envsecret", 1);
  setenv("AWS_SESSION_TOKEN", "envtoken", 1);
  Result<ResolvedConfig> c = ResolveConfig({});
  ASSERT_TRUE(c.ok()) << Error(c);
  EXPECT_EQ(c->region, "us-west-2");
  EXPECT_EQ(c->credentials.access_key_id, "ENVKEY");
  EXPECT_EQ(c->credentials.secret_access_key, "envsecret");
  EXPECT_EQ(c->credentials.session_token, "envtoken");
  EXPECT_EQ(c->endpoint, "https://dynamodb.us-west-2.amazonaws.com");
  EXPECT_EQ(c->streams_endpoint, "https://streams.dynamodb.us-west-2.amazonaws.com");
  setenv("AWS_REGION", "eu-north-1", 1);  // AWS_REGION before AWS_DEFAULT_REGION
  setenv("AWS_ENDPOINT_URL", "http://generic:1", 1);
  setenv("AWS_ENDPOINT_URL_DYNAMODB", "http://dynamodb:2", 1);  // the service's own first
  setenv("AWS_ENDPOINT_URL_DYNAMODB_STREAMS", "http://streams:3", 1);
  setenv("AWS_MAX_ATTEMPTS", "7", 1);
  c = ResolveConfig({});
  ASSERT_TRUE(c.ok()) << Error(c);
  EXPECT_EQ(c->region, "eu-north-1");
  EXPECT_EQ(c->endpoint, "http://dynamodb:2");
  EXPECT_EQ(c->streams_endpoint, "http://streams:3");
  EXPECT_EQ(c->max_attempts, 7);
}

TEST_F(AwsConfigTest, ProfilesFromTheSharedFiles) {
  Write(credentials_,
        "# a comment\n[default]\naws_access_key_id = DEFKEY\naws_secret_access_key = defsecret\n"
        "\n[work]\nAWS_ACCESS_KEY_ID=WORKKEY\naws_secret_access_key= worksecret \n"
        "aws_session_token = worktoken\n");
  Write(config_,
        "[default]\nregion = us-east-2\n; another comment\n[profile work]\nregion = sa-east-1\n"
        "endpoint_url = http://work-endpoint:9\ns3 =\n  max_concurrent_requests = 10\n"
        "[profile configonly]\nregion = ca-central-1\naws_access_key_id = CFGKEY\n"
        "aws_secret_access_key = cfgsecret\n");
  Result<ResolvedConfig> c = ResolveConfig({});
  ASSERT_TRUE(c.ok()) << Error(c);
  EXPECT_EQ(c->profile, "default");
  EXPECT_EQ(c->region, "us-east-2");
  EXPECT_EQ(c->credentials.access_key_id, "DEFKEY");
  EXPECT_EQ(c->credentials.session_token, "");

  setenv("AWS_PROFILE", "work", 1);
  c = ResolveConfig({});
  ASSERT_TRUE(c.ok()) << Error(c);
  EXPECT_EQ(c->region, "sa-east-1");
  EXPECT_EQ(c->credentials.access_key_id, "WORKKEY");
  EXPECT_EQ(c->credentials.secret_access_key, "worksecret");
  EXPECT_EQ(c->credentials.session_token, "worktoken");
  EXPECT_EQ(c->endpoint, "http://work-endpoint:9");

  c = ResolveConfig({.profile = "configonly"});  // the option before AWS_PROFILE
  ASSERT_TRUE(c.ok()) << Error(c);
  EXPECT_EQ(c->region, "ca-central-1");
  EXPECT_EQ(c->credentials.access_key_id, "CFGKEY");

  // The environment's keys before the profile's.
  setenv("AWS_ACCESS_KEY_ID", "ENVKEY", 1);
  setenv("AWS_SECRET_ACCESS_KEY", "envsecret", 1);
  c = ResolveConfig({});
  ASSERT_TRUE(c.ok()) << Error(c);
  EXPECT_EQ(c->credentials.access_key_id, "ENVKEY");
  EXPECT_EQ(c->region, "sa-east-1");
}

TEST_F(AwsConfigTest, WhatIsMissingIsNamed) {
  setenv("AWS_ACCESS_KEY_ID", "K", 1);
  setenv("AWS_SECRET_ACCESS_KEY", "S", 1);
  Result<ResolvedConfig> c = ResolveConfig({});
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), Code::kValidation);
  EXPECT_NE(Error(c).find("no AWS region"), std::string::npos) << Error(c);
  EXPECT_NE(Error(c).find(config_), std::string::npos) << Error(c);

  unsetenv("AWS_ACCESS_KEY_ID");
  unsetenv("AWS_SECRET_ACCESS_KEY");
  c = ResolveConfig({.region = "us-east-1"});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(Error(c).find("no AWS credentials"), std::string::npos) << Error(c);

  setenv("AWS_ACCESS_KEY_ID", "K", 1);  // half a key pair
  c = ResolveConfig({.region = "us-east-1"});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(Error(c).find("AWS_SECRET_ACCESS_KEY"), std::string::npos) << Error(c);
  setenv("AWS_SECRET_ACCESS_KEY", "S", 1);

  c = ResolveConfig({.region = "us-east-1", .profile = "nope"});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(Error(c).find("profile \"nope\" not found"), std::string::npos) << Error(c);

  setenv("AWS_MAX_ATTEMPTS", "three", 1);
  c = ResolveConfig({.region = "us-east-1"});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(Error(c).find("AWS_MAX_ATTEMPTS"), std::string::npos) << Error(c);
  unsetenv("AWS_MAX_ATTEMPTS");

  RemoteOptions zero{.region = "us-east-1"};
  zero.retry.max_attempts = 0;
  c = ResolveConfig(zero);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(Error(c).find("max_attempts"), std::string::npos) << Error(c);
}

// The chain's parts answer "none" where the whole chain answers an error: what `partstore bench`
// falls back from.
TEST_F(AwsConfigTest, FindRegionAndCredentialsSayNone) {
  Result<std::optional<std::string>> region = FindRegion({});
  ASSERT_TRUE(region.ok());
  EXPECT_FALSE(region->has_value());
  Result<std::optional<AwsCredentials>> credentials = FindCredentials({});
  ASSERT_TRUE(credentials.ok());
  EXPECT_FALSE(credentials->has_value());
  Write(config_, "[default]\nregion = eu-south-1\n");
  Write(credentials_, "[default]\naws_access_key_id = K\naws_secret_access_key = S\n");
  region = FindRegion({});
  ASSERT_TRUE(region.ok() && region->has_value());
  EXPECT_EQ(**region, "eu-south-1");
  credentials = FindCredentials({});
  ASSERT_TRUE(credentials.ok() && credentials->has_value());
  EXPECT_EQ((*credentials)->access_key_id, "K");
  // Malformed is an error, not "none".
  Write(credentials_, "[default]\naws_access_key_id = K\n");
  EXPECT_FALSE(FindCredentials({}).ok());
  EXPECT_FALSE(FindRegion({.profile = "missing"}).ok());
}

TEST_F(AwsConfigTest, MalformedFilesAreRefusedWithTheLine) {
  Write(credentials_, "[default]\naws_access_key_id = K\nthis line has no equals sign\n");
  Result<ResolvedConfig> c = ResolveConfig({.region = "us-east-1"});
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(Error(c), credentials_ + ":3: expected 'key = value' or '[section]'");

  Result<IniFile> ini = ParseIni("key = value\n", "f");
  ASSERT_FALSE(ini.ok());
  EXPECT_EQ(ini.status().message(), "f:1: a setting before any [section]");
  ini = ParseIni("[open\n", "f");
  ASSERT_FALSE(ini.ok());
  EXPECT_EQ(ini.status().message(), "f:1: a section header must end with ']'");
  ini = ParseIni("[a]\r\nk = v\r\n", "f");  // Windows line ends
  ASSERT_TRUE(ini.ok());
  EXPECT_EQ((*ini)["a"]["k"], "v");
}

}  // namespace
}  // namespace partstore::client
