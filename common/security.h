// Transport security for both daemons and their clients:
//  - TLS on a server (`--tls-cert`, `--tls-key`), optionally requiring client
//    certificates signed by a given CA (`--client-ca`: mutual TLS; the
//    workers accept only the coordinator this way);
//  - bearer tokens for the coordinator's clients (`--tokens FILE`, one per
//    line), compared in constant time; tokens are read from files, never
//    from the command line, where `ps` would show them;
//  - the matching channel credentials for the coordinator (to workers) and
//    the `arbiter` client (to the coordinator).
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/security/server_credentials.h"

namespace arbiter::common {

// The whole of a small file (certificates, keys, tokens). NOT_FOUND naming
// the file when it cannot be read.
absl::StatusOr<std::string> ReadSmallFile(const std::string& path, const std::string& what);

struct ServerSecurity {
  std::string cert_file, key_file;  // both empty: plaintext
  std::string client_ca_file;       // non-empty: clients must present a cert signed by it
  std::string tokens_file;          // non-empty: calls need "authorization: Bearer <token>"
};

// INVALID_ARGUMENT for inconsistent options (a key without a certificate,
// tokens or client CA without TLS), NOT_FOUND for unreadable files, and
// INVALID_ARGUMENT for a tokens file without tokens.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const ServerSecurity& s);

struct ChannelSecurity {
  std::string ca_file;              // empty: plaintext
  std::string cert_file, key_file;  // a client certificate (mutual TLS)
  std::string token_file;           // bearer token sent with every call (needs TLS)
};

absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> MakeChannelCredentials(
    const ChannelSecurity& s);

// What a caller without an accepted token is told (gRPC and HTTP alike).
inline constexpr std::string_view kTokenRequired =
    "a valid bearer token is required (authorization: Bearer <token>)";

// The bearer tokens of a --tokens file (one per line, '#' comments), as the
// file stands: read again when its modification time changes (looked at
// every few seconds at most), so that rotating tokens needs no restart. A
// file that becomes unreadable or empty keeps the last tokens, and says so
// on stderr. Both the gRPC port and the HTTP API check calls against one.
class TokenFile {
 public:
  // NOT_FOUND for an unreadable file, INVALID_ARGUMENT for one without tokens.
  static absl::StatusOr<std::shared_ptr<TokenFile>> Open(const std::string& path);
  // Whether `authorization` (a header's value) is "Bearer <an accepted token>",
  // the scheme in any case (RFC 9110 11.1: "bearer" and "BEARER" too).
  bool AcceptsAuthorization(std::string_view authorization);

 private:
  TokenFile(std::string path, std::vector<std::string> tokens);
  std::filesystem::file_time_type ModifiedTime() const;
  std::vector<std::string> Current();

  const std::string path_;
  std::mutex mu_;
  std::vector<std::string> tokens_;
  std::filesystem::file_time_type modified_;
  std::chrono::steady_clock::time_point checked_;
};

// Whether `token` equals one of `accepted`, in time independent of where
// the first difference lies (every candidate is compared in full).
bool TokenAccepted(const std::string& token, const std::vector<std::string>& accepted);

}  // namespace arbiter::common
