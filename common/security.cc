#include "common/security.h"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <mutex>
#include <sstream>

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

constexpr size_t kMaxSmallFile = 1 << 20;

// Certificates, keys and tokens are read again when their files change,
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
class BearerTokenProcessor final : public grpc::AuthMetadataProcessor {
 public:
  explicit BearerTokenProcessor(std::shared_ptr<TokenFile> tokens) : tokens_(std::move(tokens)) {}
  bool IsBlocking() const override { return false; }
  grpc::Status Process(const InputMetadata& auth_metadata, grpc::AuthContext*,
                       OutputMetadata* consumed, OutputMetadata*) override {
    auto it = auth_metadata.find("authorization");
    if (it != auth_metadata.end()) {
      const std::string value(it->second.data(), it->second.size());
      if (tokens_->AcceptsAuthorization(value)) {
        consumed->insert(std::make_pair(std::string(it->first.data(), it->first.size()), value));
        return grpc::Status::OK;
      }
    }
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, std::string(kTokenRequired));
  }

 private:
  const std::shared_ptr<TokenFile> tokens_;
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

namespace {

// The tokens of a --tokens file: one per line, '#' comments.
absl::StatusOr<std::vector<std::string>> ReadTokens(const std::string& path) {
  absl::StatusOr<std::string> text = ReadSmallFile(path, "--tokens");
  if (!text.ok()) return text.status();
  std::vector<std::string> tokens;
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);) {
    absl::string_view t = absl::StripAsciiWhitespace(line);
    if (!t.empty() && t[0] != '#') tokens.emplace_back(t);
  }
  if (tokens.empty())
    return absl::InvalidArgumentError(absl::StrCat("--tokens ", path, ": no token"));
  return tokens;
}

}  // namespace

absl::StatusOr<std::shared_ptr<TokenFile>> TokenFile::Open(const std::string& path) {
  absl::StatusOr<std::vector<std::string>> tokens = ReadTokens(path);
  if (!tokens.ok()) return tokens.status();
  return std::shared_ptr<TokenFile>(new TokenFile(path, *std::move(tokens)));
}

TokenFile::TokenFile(std::string path, std::vector<std::string> tokens)
    : path_(std::move(path)),
      tokens_(std::move(tokens)),
      modified_(ModifiedTime()),
      checked_(std::chrono::steady_clock::now()) {}

bool TokenFile::AcceptsAuthorization(std::string_view value) {
  // RFC 9110 11.1: the scheme is case-insensitive ("bearer", "BEARER"),
  // followed by one or more spaces.
  constexpr std::string_view kScheme = "bearer";
  if (value.size() <= kScheme.size() || value[kScheme.size()] != ' ') return false;
  for (size_t i = 0; i < kScheme.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(value[i])) != kScheme[i]) return false;
  value.remove_prefix(kScheme.size());
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  return TokenAccepted(std::string(value), Current());
}

std::filesystem::file_time_type TokenFile::ModifiedTime() const {
  std::error_code ec;
  return std::filesystem::last_write_time(path_, ec);
}

std::vector<std::string> TokenFile::Current() {
  std::lock_guard<std::mutex> lock(mu_);
  const auto now = std::chrono::steady_clock::now();
  if (now - checked_ < std::chrono::seconds(kReloadSeconds)) return tokens_;
  checked_ = now;
  const auto modified = ModifiedTime();
  if (modified == modified_) return tokens_;
  modified_ = modified;
  absl::StatusOr<std::vector<std::string>> tokens = ReadTokens(path_);
  if (tokens.ok()) {
    tokens_ = *std::move(tokens);
    std::fprintf(stderr, "arbiter: --tokens %s read again: %zu tokens\n", path_.c_str(),
                 tokens_.size());
  } else {
    std::fprintf(stderr, "arbiter: --tokens %s: %s; the previous tokens stay\n", path_.c_str(),
                 std::string(tokens.status().message()).c_str());
  }
  return tokens_;
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
  if (!s.tokens_file.empty()) {
    absl::StatusOr<std::shared_ptr<TokenFile>> tokens = TokenFile::Open(s.tokens_file);
    if (!tokens.ok()) return tokens.status();
    creds->SetAuthMetadataProcessor(std::make_shared<BearerTokenProcessor>(*std::move(tokens)));
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
