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

// The --tokens file: TOKEN NAME ROLE, or TOKEN alone for an unnamed admin;
// a malformed line is refused naming its number.
TEST(Security, TokenFileLines) {
  absl::StatusOr<std::vector<common::TokenFile::Entry>> entries = common::ParseTokens(
      "# comment\n\n  t-alice alice submitter \nt-rita   rita reader\nt-ops ops admin\nt-old\n",
      "F");
  ASSERT_TRUE(entries.ok()) << entries.status();
  ASSERT_EQ(entries->size(), 4u);
  EXPECT_EQ((*entries)[0].token, "t-alice");
  EXPECT_EQ((*entries)[0].caller.name, "alice");
  EXPECT_EQ((*entries)[0].caller.role, common::Role::kSubmitter);
  EXPECT_EQ((*entries)[1].caller.role, common::Role::kReader);
  EXPECT_EQ((*entries)[2].caller.role, common::Role::kAdmin);
  EXPECT_EQ((*entries)[3].caller.name, "");
  EXPECT_EQ((*entries)[3].caller.role, common::Role::kAdmin);
  for (const auto& [text, words] : std::vector<std::pair<std::string, std::string>>{
           {"ok\nt-x x\n", "line 2: 2 fields"},
           {"t-x x owner\n", "line 1: no role \"owner\""},
           {"t-x x admin extra\n", "line 1: 4 fields"},
           {"t-x al/ice reader\n", "line 1: the name \"al/ice\""},
           {"# only a comment\n", "F: no token"}}) {
    absl::StatusOr<std::vector<common::TokenFile::Entry>> bad = common::ParseTokens(text, "F");
    ASSERT_FALSE(bad.ok()) << text;
    EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(bad.status().message().find(words), std::string::npos) << bad.status();
  }
}

// The caller of a header: the entry of its token, the scheme in any case.
TEST(Security, CallerOfAToken) {
  const std::string path = ::testing::TempDir() + "/security_test_named_tokens";
  std::ofstream(path) << "t-alice alice submitter\nt-bob bob reader\n";
  absl::StatusOr<std::shared_ptr<common::TokenFile>> tokens = common::TokenFile::Open(path);
  ASSERT_TRUE(tokens.ok()) << tokens.status();
  std::optional<common::Caller> bob = (*tokens)->CallerOf("bearer t-bob");
  ASSERT_TRUE(bob.has_value());
  EXPECT_EQ(bob->name, "bob");
  EXPECT_EQ(bob->role, common::Role::kReader);
  EXPECT_FALSE((*tokens)->CallerOf("Bearer t-carol").has_value());
  EXPECT_FALSE((*tokens)->CallerOf("Bearer alice").has_value());
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
