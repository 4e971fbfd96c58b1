#include "server/security.h"

#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "grpcpp/security/auth_metadata_processor.h"

namespace arbiter::serving {
namespace {

constexpr size_t kMaxSmallFile = 1 << 20;

// Checks "authorization: Bearer <token>" on every call.
class BearerTokenProcessor final : public grpc::AuthMetadataProcessor {
 public:
  explicit BearerTokenProcessor(std::vector<std::string> tokens) : tokens_(std::move(tokens)) {}

  bool IsBlocking() const override { return false; }

  grpc::Status Process(const InputMetadata& auth_metadata, grpc::AuthContext*,
                       OutputMetadata* consumed, OutputMetadata*) override {
    auto it = auth_metadata.find("authorization");
    if (it != auth_metadata.end()) {
      const std::string value(it->second.data(), it->second.size());
      constexpr char kPrefix[] = "Bearer ";
      if (value.rfind(kPrefix, 0) == 0 && TokenAccepted(value.substr(7), tokens_)) {
        consumed->insert(std::make_pair(std::string(it->first.data(), it->first.size()), value));
        return grpc::Status::OK;
      }
    }
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                        "a valid bearer token is required (authorization: Bearer <token>)");
  }

 private:
  const std::vector<std::string> tokens_;
};

}  // namespace

absl::StatusOr<std::string> ReadSmallFile(const std::string& path, const std::string& what) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return absl::NotFoundError(absl::StrCat(what, " ", path, ": cannot read it"));
  std::string data(kMaxSmallFile + 1, '\0');
  f.read(data.data(), std::streamsize(data.size()));
  data.resize(size_t(f.gcount()));
  if (data.size() > kMaxSmallFile)
    return absl::InvalidArgumentError(absl::StrCat(what, " ", path, ": larger than 1 MB"));
  return data;
}

bool TokenAccepted(const std::string& token, const std::vector<std::string>& accepted) {
  bool match = false;
  for (const std::string& t : accepted) {
    // Length differences are not secret; contents are compared in full.
    unsigned diff = unsigned(t.size() != token.size());
    for (size_t i = 0; i < t.size(); ++i)
      diff |= unsigned(uint8_t(t[i]) ^ uint8_t(i < token.size() ? token[i] : 0));
    match |= diff == 0;
  }
  return match;
}

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const ServerSecurity& s) {
  if (s.cert_file.empty() != s.key_file.empty())
    return absl::InvalidArgumentError("--tls-cert and --tls-key go together");
  if (s.cert_file.empty()) {
    if (!s.client_ca_file.empty() || !s.tokens_file.empty())
      return absl::InvalidArgumentError(
          "--client-ca and --tokens need TLS (--tls-cert, --tls-key): tokens and client "
          "checks over plain text protect nothing");
    return grpc::InsecureServerCredentials();
  }
  grpc::SslServerCredentialsOptions options(
      s.client_ca_file.empty() ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                               : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  absl::StatusOr<std::string> cert = ReadSmallFile(s.cert_file, "--tls-cert");
  if (!cert.ok()) return cert.status();
  absl::StatusOr<std::string> key = ReadSmallFile(s.key_file, "--tls-key");
  if (!key.ok()) return key.status();
  options.pem_key_cert_pairs.push_back({*key, *cert});
  if (!s.client_ca_file.empty()) {
    absl::StatusOr<std::string> ca = ReadSmallFile(s.client_ca_file, "--client-ca");
    if (!ca.ok()) return ca.status();
    options.pem_root_certs = *ca;
  }
  std::shared_ptr<grpc::ServerCredentials> creds = grpc::SslServerCredentials(options);
  if (!s.tokens_file.empty()) {
    absl::StatusOr<std::string> text = ReadSmallFile(s.tokens_file, "--tokens");
    if (!text.ok()) return text.status();
    std::vector<std::string> tokens;
    std::istringstream lines(*text);
    for (std::string line; std::getline(lines, line);) {
      absl::string_view t = absl::StripAsciiWhitespace(line);
      if (!t.empty() && t[0] != '#') tokens.emplace_back(t);
    }
    if (tokens.empty())
      return absl::InvalidArgumentError(absl::StrCat("--tokens ", s.tokens_file, ": no token"));
    creds->SetAuthMetadataProcessor(std::make_shared<BearerTokenProcessor>(std::move(tokens)));
  }
  return creds;
}

absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> MakeChannelCredentials(
    const ChannelSecurity& s) {
  if (s.ca_file.empty()) {
    if (!s.cert_file.empty() || !s.token_file.empty())
      return absl::InvalidArgumentError(
          "a client certificate or token needs TLS: give the CA that signed the server's "
          "certificate");
    return grpc::InsecureChannelCredentials();
  }
  if (s.cert_file.empty() != s.key_file.empty())
    return absl::InvalidArgumentError("a client certificate and its key go together");
  grpc::SslCredentialsOptions options;
  absl::StatusOr<std::string> ca = ReadSmallFile(s.ca_file, "CA file");
  if (!ca.ok()) return ca.status();
  options.pem_root_certs = *ca;
  if (!s.cert_file.empty()) {
    absl::StatusOr<std::string> cert = ReadSmallFile(s.cert_file, "certificate");
    if (!cert.ok()) return cert.status();
    absl::StatusOr<std::string> key = ReadSmallFile(s.key_file, "key");
    if (!key.ok()) return key.status();
    options.pem_cert_chain = *cert;
    options.pem_private_key = *key;
  }
  std::shared_ptr<grpc::ChannelCredentials> creds = grpc::SslCredentials(options);
  if (!s.token_file.empty()) {
    absl::StatusOr<std::string> text = ReadSmallFile(s.token_file, "token file");
    if (!text.ok()) return text.status();
    std::string token(absl::StripAsciiWhitespace(*text));
    if (token.empty() || token.find_first_of("\r\n") != std::string::npos)
      return absl::InvalidArgumentError(
          absl::StrCat("token file ", s.token_file, ": expected one token on one line"));
    creds = grpc::CompositeChannelCredentials(creds, grpc::AccessTokenCredentials(token));
  }
  return creds;
}

}  // namespace arbiter::serving
