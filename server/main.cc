// arbiter-coordinator: serves arbiter.v1.Arbiter to clients and dispatches
// the work to arbiter-worker processes.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>
#include <thread>

#include "common/command_line.h"
#include "common/exit_code.h"
#include "common/heap.h"
#include "common/security.h"
#include "common/serving.h"
#include "grpcpp/server.h"
#include "http/grpc_backend.h"
#include "http/http_flags.h"
#include "http/http_server.h"
#include "server/arbiter_service.h"
#include "server/dispatcher.h"
#include "server/job_options.h"
#include "server/jobs.h"

namespace {

namespace common = arbiter::common;
using arbiter::common::AddInteger;
using arbiter::common::AddValue;
using arbiter::common::ExitCode;

constexpr char kProgram[] = "arbiter-coordinator";
constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max();

ExitCode Fail(const absl::Status& s) { return arbiter::common::Fail(kProgram, s); }

// Under systemd (StateDirectory=), for root, else the user's XDG state
// directory: never a temporary directory, which the system may clean.
struct CoordinatorOptions {
  arbiter::coordinator::DispatcherOptions dispatcher;
  arbiter::coordinator::JobsOptions jobs;
  arbiter::coordinator::RequestLimits limits;
  std::optional<std::string> job_dir;  // default: DefaultJobDir()
  std::string listen = "0.0.0.0:50051", metrics, port_file, health, http;
  int64_t max_verify_mb = 256;
  int64_t max_message_mb = 16;
  std::string tls_cert, tls_key, tokens, worker_ca, worker_cert, worker_key;
  std::vector<std::string> http_allowed_hosts;
  arbiter::http::HttpLimits http_limits;
};

void AddOptions(CLI::App& app, CoordinatorOptions* o) {
  AddValue(app, "--workers", &o->dispatcher.workers, "HOST:PORT,...",
           "The workers: a list, or dns:///NAME:PORT, a DNS name resolving to all\n"
           "of them (a Kubernetes headless Service), re-resolved every 5 s");
  AddValue(app, "--listen", &o->listen, "ADDR", "gRPC address (port 0 picks a free one)")
      ->default_str(o->listen);
  AddValue(app, "--metrics", &o->metrics, "ADDR", "Prometheus /metrics endpoint (default: none)");
  arbiter::coordinator::AddJobOptions(app, &o->jobs, &o->job_dir);
  AddValue(app, "--job-input-dir", &o->jobs.input_dir, "DIR",
           "Files under DIR may be named by clients' SubmitJob (`arbiter job\n"
           "submit --server-path`); default: none, jobs read only what their\n"
           "client uploads");
  AddInteger(
      app, "--batch", 1, 4096, "--batch must be 1..4096",
      [o](int64_t n) { o->dispatcher.batch_size = int(n); }, "N", "Games per batch at most")
      ->default_str(std::to_string(o->dispatcher.batch_size));
  AddInteger(
      app, "--max-budget", 1, kNoLimit, "--max-budget must be >= 1",
      [o](int64_t n) { o->limits.max_budget = uint64_t(n); }, "N",
      "Largest mate-search budget a request may ask")
      ->default_str(std::to_string(o->limits.max_budget));
  AddInteger(app, "--max-message-mb", &o->max_message_mb, 1, 1024,
             "--max-message-mb must be 1..1024", "M",
             "Largest request message (more: RESOURCE_EXHAUSTED)")
      ->default_str(std::to_string(o->max_message_mb));
  AddInteger(
      app, "--max-streams", 1, 100000, "--max-streams must be 1..100000",
      [o](int64_t n) { o->limits.max_streams = size_t(n); }, "N",
      "Streaming calls open at once (verify streams, uploads, job watchers\n"
      "and readers; more: RESOURCE_EXHAUSTED)")
      ->default_str(std::to_string(o->limits.max_streams));
  AddInteger(
      app, "--stream-stall-timeout", 0, kNoLimit, "--stream-stall-timeout must be >= 0",
      [o](int64_t s) { o->limits.stream_stall_timeout = std::chrono::seconds(s); }, "S",
      "Cancel a stream whose client leaves its verdicts unread this many\n"
      "seconds (0: never)")
      ->default_str(std::to_string(o->limits.stream_stall_timeout.count()));
  AddInteger(
      app, "--batch-deadline-ms", 1, kNoLimit, "--batch-deadline-ms must be >= 1",
      [o](int64_t ms) { o->dispatcher.batch_deadline = std::chrono::milliseconds(ms); }, "MS",
      "Lease of a batch on a worker")
      ->default_str(std::to_string(o->dispatcher.batch_deadline.count()));
  AddInteger(
      app, "--no-worker-timeout", 1, kNoLimit / 1000, "--no-worker-timeout must be >= 1",
      [o](int64_t s) { o->dispatcher.no_worker_timeout = std::chrono::seconds(s); }, "S",
      "Fail a client's verify with UNAVAILABLE, naming each worker's reason,\n"
      "when no worker has answered for this many seconds (jobs wait)")
      ->default_str(std::to_string(o->dispatcher.no_worker_timeout.count() / 1000));
  AddValue(app, "--http", &o->http, "ADDR",
           "Also serve the HTTP/JSON API and the web page on ADDR (docs/http.md),\n"
           "with the same TLS, tokens and limits as the gRPC port");
  AddInteger(
      app, "--max-verify-mb", 1, 1 << 20, "--max-verify-mb must be >= 1",
      [o](int64_t mb) { o->max_verify_mb = mb; }, "M",
      "Largest HTTP POST /v1/verify body (held in memory while ruled; jobs\n"
      "stream and are bounded by --max-upload-mb)")
      ->default_str(std::to_string(o->max_verify_mb));
  arbiter::http::AddHttpFlags(app, &o->http_allowed_hosts, &o->http_limits);
  AddValue(app, "--port-file", &o->port_file, "FILE",
           "Write the bound gRPC port to FILE (the health port to FILE.health,\n"
           "the HTTP port to FILE.http)");
  AddValue(app, "--health", &o->health, "ADDR",
           "Also serve grpc.health.v1 alone, in plain text, on ADDR");
  AddValue(app, "--tls-cert", &o->tls_cert, "FILE", "Serve TLS to clients (with --tls-key)");
  AddValue(app, "--tls-key", &o->tls_key, "FILE", "The key of --tls-cert");
  AddValue(app, "--tokens", &o->tokens, "FILE",
           "Accept only calls with \"authorization: Bearer <token>\" for a token\n"
           "of FILE (one per line; needs TLS)");
  AddValue(app, "--worker-ca", &o->worker_ca, "FILE", "Reach workers over TLS, trusting this CA");
  AddValue(app, "--worker-cert", &o->worker_cert, "FILE",
           "The client certificate shown to workers (mutual TLS, with\n"
           "--worker-key)");
  AddValue(app, "--worker-key", &o->worker_key, "FILE", "The key of --worker-cert");
}

ExitCode Serve(CoordinatorOptions& o) {
  arbiter::coordinator::DispatcherOptions& options = o.dispatcher;
  arbiter::coordinator::JobsOptions& job_options = o.jobs;
  job_options.dir = o.job_dir.value_or(arbiter::coordinator::DefaultJobDir());
  if (absl::Status s = arbiter::coordinator::CreateJobDir(job_options.dir); !s.ok()) return Fail(s);
  if (!job_options.input_dir.empty() && !std::filesystem::is_directory(job_options.input_dir))
    return Fail(
        absl::NotFoundError("--job-input-dir " + job_options.input_dir + " is not a directory"));

  auto registry = std::make_shared<prometheus::Registry>();
  arbiter::common::RegisterBuildInfo(*registry, kProgram);
  absl::StatusOr<std::unique_ptr<arbiter::common::MetricsEndpoint>> metrics =
      arbiter::common::MetricsEndpoint::Start(o.metrics, registry);
  if (!metrics.ok()) return Fail(metrics.status());

  // To workers: TLS with --worker-ca, mutual with --worker-cert/--worker-key.
  arbiter::common::ChannelSecurity worker_security;
  worker_security.ca_file = o.worker_ca;
  worker_security.cert_file = o.worker_cert;
  worker_security.key_file = o.worker_key;
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> to_workers =
      arbiter::common::MakeChannelCredentials(worker_security);
  if (!to_workers.ok()) return Fail(to_workers.status());
  options.worker_credentials = *to_workers;
  options.worker_tls = !o.worker_ca.empty();
  arbiter::common::ServerSecurity security;
  security.cert_file = o.tls_cert;
  security.key_file = o.tls_key;
  // One token file for the gRPC port, the service (which decides from the
  // caller's name and role what it sees) and the HTTP API.
  std::shared_ptr<arbiter::common::TokenFile> tokens;
  if (!o.tokens.empty()) {
    absl::StatusOr<std::shared_ptr<arbiter::common::TokenFile>> opened =
        arbiter::common::TokenFile::Open(o.tokens);
    if (!opened.ok()) return Fail(opened.status());
    tokens = *opened;
  }
  security.tokens = tokens;
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      arbiter::common::MakeServerCredentials(security);
  if (!credentials.ok()) return Fail(credentials.status());

  arbiter::coordinator::Dispatcher dispatcher(options, *registry);
  if (absl::Status s = dispatcher.Start(); !s.ok()) return Fail(s);
  absl::StatusOr<std::unique_ptr<arbiter::coordinator::Jobs>> jobs =
      arbiter::coordinator::Jobs::Open(dispatcher, job_options);
  if (!jobs.ok()) return Fail(jobs.status());
  arbiter::coordinator::ArbiterService service(dispatcher, **jobs, o.limits, tokens);
  absl::StatusOr<arbiter::common::Listening> listening = arbiter::common::Start(
      o.listen, *credentials, {&service}, o.port_file, o.health, int(o.max_message_mb) << 20);
  if (!listening.ok()) return Fail(listening.status());
  // Serving as soon as it listens: work waits in its queue until workers
  // come, and readiness must not flap whenever one worker restarts.
  arbiter::common::SetServing(*listening, true);

  // The HTTP API calls this server's own service in process: one
  // implementation, the same answers and limits. Tokens are checked by the
  // HTTP side (in-process calls carry no transport credentials), which
  // passes the caller's header on for the service to learn who it is.
  std::unique_ptr<arbiter::http::GrpcBackend> http_backend;
  std::unique_ptr<arbiter::http::HttpServer> http_server;
  if (!o.http.empty()) {
    grpc::ChannelArguments channel_args;
    channel_args.SetMaxReceiveMessageSize(64 << 20);
    channel_args.SetMaxSendMessageSize(int(o.max_message_mb) << 20);
    http_backend = std::make_unique<arbiter::http::GrpcBackend>(
        listening->server->InProcessChannel(channel_args), [] { return true; });
    arbiter::http::HttpOptions http;
    http.address = o.http;
    http.cert_file = o.tls_cert;
    http.key_file = o.tls_key;
    http.tokens = tokens;
    http.max_verify_bytes = o.max_verify_mb << 20;
    http.max_job_bytes = job_options.max_upload_bytes;
    http.metrics = registry;
    http.allowed_hosts = o.http_allowed_hosts;
    http.limits = o.http_limits;
    if (!o.port_file.empty()) http.port_file = o.port_file + ".http";
    absl::StatusOr<std::unique_ptr<arbiter::http::HttpServer>> started =
        arbiter::http::HttpServer::Start(http, *http_backend);
    if (!started.ok()) return Fail(started.status());
    http_server = *std::move(started);
    std::fprintf(stderr, "arbiter-coordinator: HTTP API on port %d\n", http_server->port());
  }
  std::fprintf(stderr, "arbiter-coordinator: serving on port %d, workers %s, jobs in %s\n",
               listening->port, options.workers.c_str(), job_options.dir.c_str());

  std::thread waiter([&] {
    arbiter::common::WaitForShutdownSignal();
    arbiter::common::SetServing(*listening, false);
    // Runs end first (their clients get UNAVAILABLE), and job watchers and
    // readers are told, so that no handler waits for verdicts while the
    // server waits for the handlers.
    (*jobs)->Stop();
    dispatcher.Stop();
    if (http_server) http_server->Stop();
    listening->Shutdown();
  });
  listening->server->Wait();
  waiter.join();
  return ExitCode::kSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  arbiter::common::BlockShutdownSignals();
  arbiter::common::KeepFreedHeap();
  CLI::App app(
      "arbiter-coordinator: serves arbiter.v1.Arbiter to clients and dispatches\n"
      "the work to arbiter-worker processes.",
      kProgram);
  app.get_formatter()->column_width(32);
  arbiter::common::AddVersionFlag(app);
  CoordinatorOptions options;
  AddOptions(app, &options);
  if (std::optional<ExitCode> done = arbiter::common::ParseCommandLine(app, argc, argv))
    return int(*done);
  return int(Serve(options));
}
