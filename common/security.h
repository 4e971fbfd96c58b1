// Transport security for both daemons and their clients:
//  - TLS on a server (`--tls-cert`, `--tls-key`), optionally requiring client
//    certificates signed by a given CA (`--client-ca`: mutual TLS; the
//    workers accept only the coordinator this way);
//  - bearer tokens for the coordinator's clients (`--tokens FILE`,
//    common/tokens.h), checked on every call;
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
#include "common/small_file.h"
#include "common/tokens.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/security/server_credentials.h"

namespace arbiter::common {

struct ServerSecurity {
  std::string cert_file, key_file;  // both empty: plaintext
  std::string client_ca_file;       // non-empty: clients must present a cert signed by it
  // Non-null: calls need "authorization: Bearer <token>" (common/tokens.h).
  std::shared_ptr<TokenFile> tokens;
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

}  // namespace arbiter::common
