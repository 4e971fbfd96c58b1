// `arbiter serve`: the HTTP/JSON API and the web page on one machine. It is
// a coordinator (server/: the arbiter.v1 service, the dispatcher, the
// durable job store) whose one worker (worker/) runs in this process,
// reached over an in-process channel, with no gRPC port: the same code, the
// same limits, the same jobs (kept in --job-dir, resumed after a restart)
// as `arbiter-coordinator --http` in front of a cluster. One exception, for
// speed: positions and POST /v1/verify streams are answered by the worker
// directly (serve_backend.h).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <thread>

#include "absl/strings/str_cat.h"
#include "client/commands.h"
#include "client/serve_backend.h"
#include "common/command_line.h"
#include "common/security.h"
#include "common/serving.h"
#include "common/table_warmup.h"
#include "common/tablebase_options.h"
#include "common/tables_option.h"
#include "grpcpp/server.h"
#include "grpcpp/server_builder.h"
#include "http/http_flags.h"
#include "http/http_server.h"
#include "server/arbiter_service.h"
#include "server/dispatcher.h"
#include "server/job_options.h"
#include "server/jobs.h"
#include "worker/worker_service.h"

namespace arbiter::cli {
namespace {

constexpr char kProgram[] = "arbiter serve";
// As the coordinator's --max-message-mb default: what one call may carry.
constexpr int kMaxMessageBytes = 16 << 20;

struct ServeOptions {
  http::HttpOptions http;
  coordinator::JobsOptions jobs;
  std::optional<std::string> job_dir;
  coordinator::RequestLimits limits;
  int64_t threads = 1;
  int64_t max_table_mb = 256;
  std::string tokens;
  std::vector<std::string> syzygy;
  std::optional<std::string> tables;
};

// A gRPC server with no port: its services are reached over its
// InProcessChannel only.
std::unique_ptr<grpc::Server> InProcessServer(grpc::Service* service) {
  grpc::ServerBuilder builder;
  builder.SetMaxReceiveMessageSize(kMaxMessageBytes);
  builder.SetMaxSendMessageSize(64 << 20);
  builder.RegisterService(service);
  return builder.BuildAndStart();
}

std::shared_ptr<grpc::Channel> ChannelTo(grpc::Server& server) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);
  args.SetMaxSendMessageSize(kMaxMessageBytes);
  return server.InProcessChannel(args);
}

common::ExitCode RunServe(ServeOptions& o) {
  // Before any thread exists, so that every thread inherits the mask and
  // the signals reach the waiter below.
  common::BlockShutdownSignals();
  o.jobs.dir = o.job_dir.value_or(coordinator::DefaultJobDir());
  if (absl::Status s = coordinator::CreateJobDir(o.jobs.dir); !s.ok())
    return common::Fail(kProgram, s);
  absl::StatusOr<std::shared_ptr<const SyzygyTablebase>> tables = common::TablebaseFrom(o.syzygy);
  if (!tables.ok()) return common::Fail(kProgram, tables.status());
  absl::StatusOr<std::unique_ptr<RetrogradeSolver>> retrograde =
      common::RetrogradeTablesFrom(o.tables);
  if (!retrograde.ok()) return common::Fail(kProgram, retrograde.status());
  // Loaded before serving, as a worker does, so that no request pays for it.
  if (!(*retrograde)->cache_dir().empty()) {
    if (absl::StatusOr<size_t> loaded = (*retrograde)->LoadStoredTables(); !loaded.ok())
      return common::Fail(kProgram, loaded.status());
  }
  if (!o.tokens.empty()) {
    if (o.http.cert_file.empty())
      return common::Fail(kProgram,
                          absl::InvalidArgumentError(
                              "--tokens needs HTTPS (--tls-cert, --tls-key): a token sent in "
                              "plain text can be read on the way"));
    absl::StatusOr<std::shared_ptr<common::TokenFile>> tokens = common::TokenFile::Open(o.tokens);
    if (!tokens.ok()) return common::Fail(kProgram, tokens.status());
    o.http.tokens = *tokens;
  }
  o.http.metrics = std::make_shared<prometheus::Registry>();
  common::RegisterBuildInfo(*o.http.metrics, "arbiter");

  // Tables not stored yet are built in the background; until they are,
  // rulings get 503 with what is being built (common/table_warmup.h).
  common::TableWarmup warmup(retrograde->get(), "arbiter serve");
  worker::WorkerService worker(int(o.threads), int(o.max_table_mb), *tables, retrograde->get(),
                               *o.http.metrics, &warmup);
  std::unique_ptr<grpc::Server> worker_server = InProcessServer(&worker);
  coordinator::DispatcherOptions dispatch;
  dispatch.channels = {ChannelTo(*worker_server)};
  coordinator::Dispatcher dispatcher(dispatch, *o.http.metrics);
  if (absl::Status s = dispatcher.Start(); !s.ok()) return common::Fail(kProgram, s);
  absl::StatusOr<std::unique_ptr<coordinator::Jobs>> jobs =
      coordinator::Jobs::Open(dispatcher, o.jobs);
  if (!jobs.ok()) return common::Fail(kProgram, jobs.status());
  coordinator::ArbiterService service(dispatcher, **jobs, o.limits, o.http.tokens);
  std::unique_ptr<grpc::Server> coordinator_server = InProcessServer(&service);
  ServeBackend backend(ChannelTo(*coordinator_server), worker, o.limits, warmup);
  o.http.max_job_bytes = o.jobs.max_upload_bytes;
  o.http.analyze_threads = int(o.threads);  // the worker's slots (HttpOptions says why)
  absl::StatusOr<std::unique_ptr<http::HttpServer>> server =
      http::HttpServer::Start(o.http, backend);
  if (!server.ok()) return common::Fail(kProgram, server.status());
  std::fprintf(stderr, "arbiter serve: %s://%s:%d/ (Ctrl-C stops), jobs in %s\n",
               (*server)->tls() ? "https" : "http",
               o.http.address.substr(0, o.http.address.rfind(':')).c_str(), (*server)->port(),
               o.jobs.dir.c_str());
  common::WaitForShutdownSignal();
  // As the coordinator stops: running jobs stop where they are (to resume
  // at the next start), runs end, then the servers.
  (*jobs)->Stop();
  dispatcher.Stop();
  (*server)->Stop();
  coordinator_server->Shutdown();
  worker_server->Shutdown();
  if (*retrograde) common::WarnAboutTables("serve", **retrograde);
  return common::ExitCode::kSuccess;
}

}  // namespace

Command AddServe(CLI::App& arbiter) {
  CLI::App* serve = arbiter.add_subcommand(
      "serve",
      "Serve the HTTP/JSON API and the web page (docs/http.md): a coordinator\n"
      "with its worker in this process, jobs kept in --job-dir. Open the\n"
      "printed address in a browser.");
  auto o = std::make_shared<ServeOptions>();
  o->threads = int64_t(std::max(1u, std::thread::hardware_concurrency()));
  common::AddValue(*serve, "--http", &o->http.address, "ADDR",
                   "Listen on ADDR, HOST:PORT (port 0 picks a free one)")
      ->default_str(o->http.address);
  common::AddValue(*serve, "--port-file", &o->http.port_file, "FILE",
                   "Write the bound port to FILE");
  common::AddValue(*serve, "--tls-cert", &o->http.cert_file, "FILE",
                   "Serve HTTPS (with --tls-key)");
  common::AddValue(*serve, "--tls-key", &o->http.key_file, "FILE", "The key of --tls-cert");
  common::AddValue(*serve, "--tokens", &o->tokens, "FILE",
                   "Accept only API calls with \"Authorization: Bearer <token>\" for a\n"
                   "token of FILE (one per line; needs HTTPS)");
  common::AddInteger(*serve, "--jobs", &o->threads, 1, 1024, "--jobs must be 1..1024", "N",
                     "Games ruled at once (default: all cores)");
  common::AddInteger(
      *serve, "--max-budget", 1, std::numeric_limits<int64_t>::max(), "--max-budget must be >= 1",
      [o](int64_t n) { o->limits.max_budget = uint64_t(n); }, "N",
      "Largest mate-search budget a request may ask")
      ->default_str(std::to_string(o->limits.max_budget));
  common::AddInteger(*serve, "--max-table-mb", &o->max_table_mb, 1, 65536,
                     "--max-table-mb must be 1..65536", "M",
                     "Largest search table a request may ask")
      ->default_str(std::to_string(o->max_table_mb));
  common::AddInteger(
      *serve, "--max-verify-mb", 1, 1 << 20, "--max-verify-mb must be >= 1",
      [o](int64_t mb) { o->http.max_verify_bytes = mb << 20; }, "M",
      "Largest POST /v1/verify body (held in memory while ruled; jobs stream\n"
      "and are bounded by --max-upload-mb)")
      ->default_str(std::to_string(o->http.max_verify_bytes >> 20));
  http::AddHttpFlags(*serve, &o->http.allowed_hosts, &o->http.limits);
  coordinator::AddJobOptions(*serve, &o->jobs, &o->job_dir);
  common::AddSyzygyOption(*serve, &o->syzygy);
  common::AddTablesOption(*serve, &o->tables);
  return {serve, [o] { return RunServe(*o); }, /*takes_connection=*/false};
}

}  // namespace arbiter::cli
