// `arbiter serve`: the HTTP/JSON API and the web page on one machine, with
// the engine in this process (no coordinator, no workers): the way to try
// everything at once. A cluster serves the same API from its coordinator
// (`arbiter-coordinator --http`).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>

#include "absl/strings/str_cat.h"
#include "client/commands.h"
#include "client/embedded_backend.h"
#include "common/command_line.h"
#include "common/local_engine.h"
#include "common/security.h"
#include "common/serving.h"
#include "common/tablebase_options.h"
#include "common/tables_option.h"
#include "http/http_server.h"

namespace arbiter::cli {
namespace {

constexpr char kProgram[] = "arbiter serve";

struct ServeOptions {
  http::HttpOptions http;
  EmbeddedLimits limits;
  int64_t max_table_mb = 256;
  std::string tokens;
  std::vector<std::string> syzygy;
  std::optional<std::string> tables;
};

ExitCode RunServe(ServeOptions& o) {
  // Before any thread exists, so that every thread inherits the mask and
  // the signals reach the waiter below.
  serving::BlockShutdownSignals();
  absl::StatusOr<std::shared_ptr<const SyzygyTablebase>> tables = TablebaseFrom(o.syzygy);
  if (!tables.ok()) return Fail(kProgram, tables.status());
  absl::StatusOr<std::unique_ptr<tablebase::RetrogradeSolver>> retrograde =
      RetrogradeTablesFrom(o.tables);
  if (!retrograde.ok()) return Fail(kProgram, retrograde.status());
  // Loaded before serving, as a worker does, so that no request pays for it.
  if (!(*retrograde)->cache_dir().empty()) {
    if (absl::StatusOr<size_t> loaded = (*retrograde)->LoadStoredTables(); !loaded.ok())
      return Fail(kProgram, loaded.status());
  }
  if (!o.tokens.empty()) {
    if (o.http.cert_file.empty())
      return Fail(kProgram, absl::InvalidArgumentError(
                                "--tokens needs HTTPS (--tls-cert, --tls-key): a token sent in "
                                "plain text can be read on the way"));
    absl::StatusOr<std::shared_ptr<serving::TokenFile>> tokens = serving::TokenFile::Open(o.tokens);
    if (!tokens.ok()) return Fail(kProgram, tokens.status());
    o.http.tokens = *tokens;
  }
  const LocalEngine engine(*tables, retrograde->get(), int(o.max_table_mb), "server");
  if (const char* tmp = std::getenv("TMPDIR"); tmp && *tmp) o.limits.spool_dir = tmp;
  EmbeddedBackend backend(engine, o.limits);
  o.http.metrics = std::make_shared<prometheus::Registry>();
  serving::RegisterBuildInfo(*o.http.metrics, "arbiter");
  absl::StatusOr<std::unique_ptr<http::HttpServer>> server =
      http::HttpServer::Start(o.http, backend);
  if (!server.ok()) return Fail(kProgram, server.status());
  std::fprintf(stderr, "arbiter serve: %s://%s:%d/ (Ctrl-C stops)\n",
               (*server)->tls() ? "https" : "http",
               o.http.address.substr(0, o.http.address.rfind(':')).c_str(), (*server)->port());
  serving::WaitForShutdownSignal();
  (*server)->Stop();
  if (*retrograde) WarnAboutTables("serve", **retrograde);
  return ExitCode::kSuccess;
}

}  // namespace

Command AddServe(CLI::App& arbiter) {
  CLI::App* serve =
      arbiter.add_subcommand("serve",
                             "Serve the HTTP/JSON API and the web page with the engine in this\n"
                             "process (docs/http.md). Open the printed address in a browser.");
  auto o = std::make_shared<ServeOptions>();
  o->limits.threads = int(std::max(1u, std::thread::hardware_concurrency()));
  AddValue(*serve, "--http", &o->http.address, "ADDR",
           "Listen on ADDR, HOST:PORT (port 0 picks a free one)")
      ->default_str(o->http.address);
  AddValue(*serve, "--port-file", &o->http.port_file, "FILE", "Write the bound port to FILE");
  AddValue(*serve, "--tls-cert", &o->http.cert_file, "FILE", "Serve HTTPS (with --tls-key)");
  AddValue(*serve, "--tls-key", &o->http.key_file, "FILE", "The key of --tls-cert");
  AddValue(*serve, "--tokens", &o->tokens, "FILE",
           "Accept only API calls with \"Authorization: Bearer <token>\" for a\n"
           "token of FILE (one per line; needs HTTPS)");
  AddInteger(
      *serve, "--jobs", 1, 1024, "--jobs must be 1..1024",
      [o](int64_t n) { o->limits.threads = int(n); }, "N",
      "Games ruled at once per verify request or job (default: all cores)");
  AddInteger(
      *serve, "--max-budget", 1, std::numeric_limits<int64_t>::max(), "--max-budget must be >= 1",
      [o](int64_t n) { o->limits.max_budget = uint64_t(n); }, "N",
      "Largest mate-search budget a request may ask")
      ->default_str(std::to_string(o->limits.max_budget));
  AddInteger(*serve, "--max-table-mb", &o->max_table_mb, 1, 65536,
             "--max-table-mb must be 1..65536", "M", "Largest search table a request may ask")
      ->default_str(std::to_string(o->max_table_mb));
  AddInteger(
      *serve, "--max-verify-mb", 1, 1 << 20, "--max-verify-mb must be >= 1",
      [o](int64_t mb) { o->http.max_verify_bytes = mb << 20; }, "M",
      "Largest POST /v1/verify body (held in memory while ruled)")
      ->default_str(std::to_string(o->http.max_verify_bytes >> 20));
  AddInteger(
      *serve, "--max-upload-mb", 1, int64_t(1) << 30, "--max-upload-mb must be >= 1",
      [o](int64_t mb) { o->http.max_job_bytes = mb << 20; }, "M",
      "Largest job upload (POST /v1/jobs; kept in $TMPDIR while ruled)")
      ->default_str(std::to_string(o->http.max_job_bytes >> 20));
  AddSyzygyOption(*serve, &o->syzygy);
  AddTablesOption(*serve, &o->tables);
  return {serve, [o] { return RunServe(*o); }, /*takes_connection=*/false};
}

}  // namespace arbiter::cli
