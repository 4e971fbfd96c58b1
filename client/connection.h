// How `arbiter` is told where the work runs: --coordinator HOST:PORT (or
// $ARBITER_COORDINATOR) and TLS to it. Apart from remote.h, so that the
// commands read these options in every build, with or without the cluster
// (-DARBITER_CLUSTER=OFF, where a coordinator given is an error, not an
// unknown option).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace arbiter::cli {

// --coordinator HOST:PORT, and TLS to it: --tls-ca (the CA that signed its
// certificate) and --token-file (the file holding the bearer token). Each
// as given; unset: the environment decides ($ARBITER_COORDINATOR,
// $ARBITER_TLS_CA, $ARBITER_TOKEN_FILE). Given empty, they override a set
// variable.
struct ConnectionOptions {
  std::optional<std::string> coordinator, tls_ca, token_file;
};

// Adds the three options to `command`. They may be given before the command
// too (`arbiter --coordinator HOST:PORT verify ...`): each command that
// takes them, and the program, add them with one ConnectionOptions, and the
// last given counts.
void AddConnectionOptions(CLI::App& command, ConnectionOptions* options);

// --coordinator, else $ARBITER_COORDINATOR; empty: run embedded.
std::string CoordinatorFrom(const ConnectionOptions& options);
// --tls-ca, else $ARBITER_TLS_CA; --token-file, else $ARBITER_TOKEN_FILE.
std::string TlsCaFrom(const ConnectionOptions& options);
std::string TokenFileFrom(const ConnectionOptions& options);
// Whether tablebase fields were asked for (--syzygy, as `syzygy`, or
// $ARBITER_SYZYGY): with a coordinator the workers probe their own tables.
bool TablebaseRequested(const std::vector<std::string>& syzygy);

}  // namespace arbiter::cli
