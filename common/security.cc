#include "common/security.h"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <initializer_list>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "grpcpp/security/auth_metadata_processor.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/security/server_credentials.h"
#include "grpcpp/security/tls_certificate_provider.h"
#include "grpcpp/security/tls_certificate_verifier.h"
#include "grpcpp/security/tls_credentials_options.h"

namespace arbiter::common {
namespace {

// Certificates and keys are read again when their files change,
// checked this often: rotation needs no restart.
constexpr unsigned kReloadSeconds = 5;

// Each file can be read (and is at most 1 MB), or the error names it: the
// files gRPC watches are checked once at start, so that a bad one stops the
// start rather than every handshake.
absl::Status CheckReadable(std::initializer_list<std::pair<std::string, const char*>> files) {
  for (const auto& [path, what] : files) {
    if (absl::StatusOr<std::string> data = ReadSmallFile(path, what); !data.ok())
      return data.status();
  }
  return absl::OkStatus();
}

// Checks "authorization: Bearer <token>" on every call against a TokenFile.
// The header is not consumed: the service reads it again to learn the
// caller (ArbiterService::CallerOf), as it does for calls the HTTP API makes
// in process, which pass no port and no processor.
class BearerTokenProcessor final : public grpc::AuthMetadataProcessor {
 public:
  explicit BearerTokenProcessor(std::shared_ptr<TokenFile> tokens) : tokens_(std::move(tokens)) {}
  bool IsBlocking() const override { return false; }
  grpc::Status Process(const InputMetadata& auth_metadata, grpc::AuthContext*, OutputMetadata*,
                       OutputMetadata*) override {
    auto it = auth_metadata.find("authorization");
    if (it != auth_metadata.end()) {
      const std::string value(it->second.data(), it->second.size());
      if (tokens_->AcceptsAuthorization(value)) return grpc::Status::OK;
    }
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, std::string(kTokenRequired));
  }

 private:
  const std::shared_ptr<TokenFile> tokens_;
};

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const ServerSecurity& s) {
  if (s.cert_file.empty() != s.key_file.empty())
    return absl::InvalidArgumentError("--tls-cert and --tls-key go together");
  if (s.cert_file.empty()) {
    if (!s.client_ca_file.empty() || s.tokens)
      return absl::InvalidArgumentError(
          "--client-ca and --tokens need TLS (--tls-cert, --tls-key): tokens and client "
          "checks over plain text protect nothing");
    return grpc::InsecureServerCredentials();
  }
  // Watched by gRPC, which swaps in new certificates and keys (and client
  // CA) when the files change.
  if (absl::Status st = CheckReadable({{s.cert_file, "--tls-cert"}, {s.key_file, "--tls-key"}});
      !st.ok())
    return st;
  if (!s.client_ca_file.empty()) {
    if (absl::Status st = CheckReadable({{s.client_ca_file, "--client-ca"}}); !st.ok()) return st;
  }
  auto provider = std::make_shared<grpc::experimental::FileWatcherCertificateProvider>(
      s.key_file, s.cert_file, s.client_ca_file, kReloadSeconds);
  grpc::experimental::TlsServerCredentialsOptions options(provider);
  options.watch_identity_key_cert_pairs();
  if (!s.client_ca_file.empty()) {
    options.watch_root_certs();
    options.set_cert_request_type(GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  } else {
    options.set_cert_request_type(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  }
  std::shared_ptr<grpc::ServerCredentials> creds =
      grpc::experimental::TlsServerCredentials(options);
  if (!creds) return absl::InvalidArgumentError("--tls-cert/--tls-key: TLS credentials refused");
  if (s.tokens) creds->SetAuthMetadataProcessor(std::make_shared<BearerTokenProcessor>(s.tokens));
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
  std::shared_ptr<grpc::ChannelCredentials> creds;
  if (!s.cert_file.empty()) {
    // Mutual TLS (the coordinator to its workers): CA, certificate and key
    // are watched like a server's, so that they rotate without a restart.
    // New connections use the new files; open ones keep their session.
    if (absl::Status st = CheckReadable(
            {{s.ca_file, "CA file"}, {s.cert_file, "certificate"}, {s.key_file, "key"}});
        !st.ok())
      return st;
    grpc::experimental::TlsChannelCredentialsOptions options;
    options.set_certificate_provider(
        std::make_shared<grpc::experimental::FileWatcherCertificateProvider>(
            s.key_file, s.cert_file, s.ca_file, kReloadSeconds));
    options.watch_root_certs();
    options.watch_identity_key_cert_pairs();
    options.set_verify_server_certs(true);
    options.set_certificate_verifier(
        std::make_shared<grpc::experimental::HostNameCertificateVerifier>());
    creds = grpc::experimental::TlsCredentials(options);
    if (!creds) return absl::InvalidArgumentError("TLS client credentials refused");
  } else {
    grpc::SslCredentialsOptions options;
    absl::StatusOr<std::string> ca = ReadSmallFile(s.ca_file, "CA file");
    if (!ca.ok()) return ca.status();
    options.pem_root_certs = *ca;
    creds = grpc::SslCredentials(options);
  }
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

}  // namespace arbiter::common
