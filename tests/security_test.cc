// Option checks and the token comparison of common/security.h (the TLS
// handshakes themselves are tested with real processes in cluster_test).
#include "common/security.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace arbiter::serving {
namespace {

TEST(Security, TokenComparison) {
  const std::vector<std::string> accepted = {"alpha-token", "beta-token"};
  EXPECT_TRUE(common::TokenAccepted("alpha-token", accepted));
  EXPECT_TRUE(common::TokenAccepted("beta-token", accepted));
  EXPECT_FALSE(common::TokenAccepted("alpha-tokeN", accepted));
  EXPECT_FALSE(common::TokenAccepted("alpha-token ", accepted));
  EXPECT_FALSE(common::TokenAccepted("alpha", accepted));
  EXPECT_FALSE(common::TokenAccepted("", accepted));
  EXPECT_FALSE(common::TokenAccepted("alpha-token", {}));
}

// The scheme is case-insensitive (RFC 9110 11.1); the token is not.
TEST(Security, BearerSchemeInAnyCase) {
  const std::string path = ::testing::TempDir() + "/security_test_tokens";
  {
    std::ofstream out(path);
    out << "alpha-token\n";
  }
  absl::StatusOr<std::shared_ptr<common::TokenFile>> tokens = common::TokenFile::Open(path);
  ASSERT_TRUE(tokens.ok()) << tokens.status();
  for (const char* good :
       {"Bearer alpha-token", "bearer alpha-token", "BEARER alpha-token", "bEaReR  alpha-token"})
    EXPECT_TRUE((*tokens)->AcceptsAuthorization(good)) << good;
  for (const char* bad : {"Bearer alpha-tokeN", "Bearer", "Bearer ", "Beareralpha-token",
                          "Basic alpha-token", "", "Bearer-alpha-token"})
    EXPECT_FALSE((*tokens)->AcceptsAuthorization(bad)) << bad;
  std::remove(path.c_str());
}

TEST(Security, InconsistentServerOptionsAreRefused) {
  common::ServerSecurity s;
  s.cert_file = "/nonexistent/cert.pem";
  EXPECT_EQ(common::MakeServerCredentials(s).status().code(), absl::StatusCode::kInvalidArgument);
  common::ServerSecurity tokens_without_tls;
  const std::string path = ::testing::TempDir() + "/security_test_plain_tokens";
  {
    std::ofstream out(path);
    out << "a-token\n";
  }
  tokens_without_tls.tokens = *common::TokenFile::Open(path);
  absl::Status st = common::MakeServerCredentials(tokens_without_tls).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("need TLS"), std::string::npos) << st;
  common::ServerSecurity missing;
  missing.cert_file = "/nonexistent/cert.pem";
  missing.key_file = "/nonexistent/key.pem";
  st = common::MakeServerCredentials(missing).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(st.message().find("/nonexistent/cert.pem"), std::string::npos) << st;
  EXPECT_TRUE(common::MakeServerCredentials(common::ServerSecurity{}).ok());  // plain text
}

TEST(Security, ClientOptionsNeedTlsForTokens) {
  common::ChannelSecurity token_only;
  token_only.token_file = "/tmp/token";
  EXPECT_EQ(common::MakeChannelCredentials(token_only).status().code(),
            absl::StatusCode::kInvalidArgument);
  const std::string empty_ca = ::testing::TempDir() + "/empty-ca.pem";
  std::ofstream(empty_ca) << "";
  const std::string bad_token = ::testing::TempDir() + "/two-line-token";
  std::ofstream(bad_token) << "one\ntwo\n";
  common::ChannelSecurity two_lines;
  two_lines.ca_file = empty_ca;
  two_lines.token_file = bad_token;
  absl::Status st = common::MakeChannelCredentials(two_lines).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("one token on one line"), std::string::npos) << st;
}

}  // namespace
}  // namespace arbiter::serving
