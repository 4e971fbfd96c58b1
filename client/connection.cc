#include "client/connection.h"

#include <cstdlib>

#include "common/command_line.h"
#include "common/tablebase_options.h"

namespace arbiter::cli {

namespace {

// The option's value as given, else the environment variable's.
std::string OptionOrEnv(const std::optional<std::string>& option, const char* variable) {
  if (option) return *option;
  const char* value = std::getenv(variable);
  return value ? value : "";
}

}  // namespace

void AddConnectionOptions(CLI::App& command, ConnectionOptions* options) {
  common::AddValue(command, "--coordinator", &options->coordinator, "HOST:PORT",
                   "Send the work to an arbiter-coordinator instead of running the engine\n"
                   "in this process; the output is the same. Default $ARBITER_COORDINATOR");
  common::AddValue(command, "--tls-ca", &options->tls_ca, "FILE",
                   "(with --coordinator) TLS, trusting the CA in FILE; default $ARBITER_TLS_CA.\n"
                   "Without it the connection is plain text");
  common::AddValue(command, "--token-file", &options->token_file, "FILE",
                   "(with --coordinator) send the bearer token in FILE with every call\n"
                   "(needs TLS); default $ARBITER_TOKEN_FILE");
}

std::string CoordinatorFrom(const ConnectionOptions& options) {
  return OptionOrEnv(options.coordinator, "ARBITER_COORDINATOR");
}

std::string TlsCaFrom(const ConnectionOptions& options) {
  return OptionOrEnv(options.tls_ca, "ARBITER_TLS_CA");
}

std::string TokenFileFrom(const ConnectionOptions& options) {
  return OptionOrEnv(options.token_file, "ARBITER_TOKEN_FILE");
}

bool TablebaseRequested(const std::vector<std::string>& syzygy) {
  return !syzygy.empty() || !common::SyzygyDirsFromEnv().empty();
}

}  // namespace arbiter::cli
