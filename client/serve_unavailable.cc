// `arbiter serve` in the build without the cluster (-DARBITER_CLUSTER=OFF),
// instead of serve_command.cc: the HTTP API is a coordinator and a worker
// in this process (gRPC, the job store), none of which this build has. The
// command stays, taking any options, so that it says why it cannot run
// instead of being an unknown command.
#include <CLI/CLI.hpp>

#include "absl/status/status.h"
#include "client/commands.h"

namespace arbiter::cli {

namespace {

constexpr char kNotBuilt[] =
    "needs the cluster build (this arbiter was built with -DARBITER_CLUSTER=OFF)";

}  // namespace

Command AddServe(CLI::App& arbiter) {
  CLI::App* serve = arbiter.add_subcommand(
      "serve",
      std::string("Serve the HTTP/JSON API and the web page (docs/http.md): ") + kNotBuilt);
  serve->allow_extras();
  return {serve, [] { return common::Fail("arbiter serve", absl::UnimplementedError(kNotBuilt)); },
          /*takes_connection=*/false};
}

}  // namespace arbiter::cli
