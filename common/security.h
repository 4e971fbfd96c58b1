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

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/security/server_credentials.h"

namespace arbiter::serving {

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

// Whether `token` equals one of `accepted`, in time independent of where
// the first difference lies (every candidate is compared in full).
bool TokenAccepted(const std::string& token, const std::vector<std::string>& accepted);

}  // namespace arbiter::serving
