// Subcommands of the `arbiter` binary. Each Add* adds its subcommand, with
// its options, to the program's CLI11 App, and returns what runs it once the
// command line has been parsed.
#pragma once

#include <functional>

#include "common/exit_code.h"

namespace CLI {
class App;
}  // namespace CLI

namespace arbiter::cli {

struct ConnectionOptions;

struct Command {
  CLI::App* app;                          // chosen when app->parsed()
  std::function<common::ExitCode()> run;  // valid once the command line is parsed
  bool takes_connection;                  // --coordinator, --tls-ca, --token-file
};

Command AddPerft(CLI::App& arbiter);
// `connection`: shared with the program's own connection options, which may
// come before the command.
Command AddAnalyze(CLI::App& arbiter, ConnectionOptions* connection);
Command AddVerify(CLI::App& arbiter, ConnectionOptions* connection);
Command AddTables(CLI::App& arbiter);
Command AddJob(CLI::App& arbiter, ConnectionOptions* connection);
Command AddServe(CLI::App& arbiter);

}  // namespace arbiter::cli
