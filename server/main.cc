// arbiter-coordinator: serves arbiter.v1.Arbiter to clients and dispatches
// the work to arbiter-worker processes.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <thread>

#include "absl/strings/numbers.h"
#include "common/args.h"
#include "common/security.h"
#include "common/serving.h"
#include "grpcpp/server.h"
#include "server/arbiter_service.h"
#include "server/dispatcher.h"
#include "server/jobs.h"

namespace {

constexpr char kUsage[] =
    "usage: arbiter-coordinator --workers HOST:PORT,... | --workers dns:///NAME:PORT\n"
    "                           [--listen ADDR] [--metrics ADDR] [--job-dir DIR]\n"
    "                           [--batch N] [--batch-deadline-ms MS] [--port-file FILE]\n"
    "  --workers         the workers: a list, or a DNS name resolving to all of them\n"
    "                    (a Kubernetes headless Service), re-resolved every 5 s\n"
    "  --listen ADDR     gRPC address (default 0.0.0.0:50051; port 0 picks a free one)\n"
    "  --metrics ADDR    Prometheus /metrics endpoint (default: none)\n"
    "  --job-dir DIR     the job database (jobs.sqlite) and uploaded job inputs;\n"
    "                    jobs running when the coordinator stopped resume at start\n"
    "                    (default: $STATE_DIRECTORY/jobs under systemd, else\n"
    "                    /var/lib/arbiter/jobs for root, else\n"
    "                    ${XDG_STATE_HOME:-~/.local/state}/arbiter/jobs)\n"
    "  --job-input-dir DIR  files under DIR may be named by clients' SubmitJob\n"
    "                    (`arbiter job submit --server-path`); default: none, jobs\n"
    "                    read only what their client uploads\n"
    "  --max-upload-mb M largest job upload (default 65536)\n"
    "  --job-retention T delete jobs that ended longer ago than T: 30d, 12h, 90m,\n"
    "                    45s (default 30d; 0 keeps them)\n"
    "  --batch N         games per batch at most (default 64)\n"
    "  --max-budget N    largest mate-search budget a request may ask (default 10^7)\n"
    "  --max-message-mb M  largest request message (default 16; more: RESOURCE_EXHAUSTED)\n"
    "  --max-streams N   streaming calls open at once (verify streams, uploads,\n"
    "                    job watchers and readers; default 64; more: RESOURCE_EXHAUSTED)\n"
    "  --stream-stall-timeout S  cancel a stream whose client leaves its verdicts\n"
    "                    unread this many seconds (default 300; 0: never)\n"
    "  --batch-deadline-ms MS  lease of a batch on a worker (default 120000)\n"
    "  --port-file FILE  write the bound gRPC port to FILE (and the health port to\n"
    "                    FILE.health)\n"
    "  --health ADDR     also serve grpc.health.v1 alone, in plain text, on ADDR\n"
    "  --tls-cert FILE --tls-key FILE   serve TLS to clients\n"
    "  --tokens FILE     accept only calls with \"authorization: Bearer <token>\" for\n"
    "                    a token of FILE (one per line; needs TLS)\n"
    "  --worker-ca FILE  reach workers over TLS, trusting this CA\n"
    "  --worker-cert FILE --worker-key FILE   the client certificate shown to\n"
    "                    workers (mutual TLS)\n";

int Fail(const absl::Status& s) {
  std::fprintf(stderr, "arbiter-coordinator: %s\n", std::string(s.message()).c_str());
  return 2;
}

// Under systemd (StateDirectory=), for root, else the user's XDG state
// directory: never a temporary directory, which the system may clean.
std::string DefaultJobDir() {
  if (const char* state = std::getenv("STATE_DIRECTORY"); state && *state)
    return std::string(state) + "/jobs";
  if (geteuid() == 0) return "/var/lib/arbiter/jobs";
  if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/arbiter/jobs";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.local/state/arbiter/jobs";
}

// "30d", "12h", "90m", "45s" or "0".
absl::StatusOr<std::chrono::seconds> ParseRetention(const std::string& text) {
  static const std::map<char, int64_t> kUnitSeconds = {
      {'d', 86400}, {'h', 3600}, {'m', 60}, {'s', 1}};
  const absl::Status bad = absl::InvalidArgumentError(
      "--job-retention " + text + ": give a number and a unit, as 30d, 12h, 90m or 45s (0 keeps)");
  if (text == "0") return std::chrono::seconds(0);
  if (text.size() < 2 || !kUnitSeconds.count(text.back())) return bad;
  int64_t n = 0;
  if (!absl::SimpleAtoi(text.substr(0, text.size() - 1), &n) || n < 0 || n > 100000) return bad;
  return std::chrono::seconds(n * kUnitSeconds.at(text.back()));
}

}  // namespace

int main(int argc, char** argv) {
  arbiter::serving::BlockShutdownSignals();
  std::vector<std::string> rest(argv + 1, argv + argc);
  if (!rest.empty() && (rest[0] == "--help" || rest[0] == "-h")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  absl::StatusOr<arbiter::cli::Args> args =
      arbiter::cli::Args::Parse(rest, {"workers",        "listen",        "metrics",
                                       "job-dir",        "batch",         "batch-deadline-ms",
                                       "port-file",      "health",        "tls-cert",
                                       "tls-key",        "tokens",        "worker-ca",
                                       "worker-cert",    "worker-key",    "max-budget",
                                       "max-message-mb", "job-input-dir", "max-upload-mb",
                                       "job-retention",  "max-streams",   "stream-stall-timeout"},
                                {});
  if (!args.ok()) return Fail(args.status());
  if (!args->positional().empty())
    return Fail(absl::InvalidArgumentError("unexpected argument " + args->positional()[0]));

  arbiter::coordinator::DispatcherOptions options;
  options.workers = args->Get("workers");
  absl::StatusOr<int64_t> batch = args->GetInt("batch", options.batch_size);
  if (!batch.ok()) return Fail(batch.status());
  if (*batch < 1 || *batch > 4096)
    return Fail(absl::InvalidArgumentError("--batch must be 1..4096"));
  options.batch_size = int(*batch);
  absl::StatusOr<int64_t> deadline =
      args->GetInt("batch-deadline-ms", options.batch_deadline.count());
  if (!deadline.ok()) return Fail(deadline.status());
  if (*deadline < 1) return Fail(absl::InvalidArgumentError("--batch-deadline-ms must be >= 1"));
  options.batch_deadline = std::chrono::milliseconds(*deadline);

  arbiter::coordinator::JobsOptions job_options;
  job_options.dir = args->Get("job-dir", DefaultJobDir());
  std::error_code ec;
  std::filesystem::create_directories(job_options.dir, ec);
  if (ec)
    return Fail(absl::PermissionDeniedError("--job-dir " + job_options.dir + ": " + ec.message()));
  job_options.input_dir = args->Get("job-input-dir");
  if (!job_options.input_dir.empty() && !std::filesystem::is_directory(job_options.input_dir))
    return Fail(
        absl::NotFoundError("--job-input-dir " + job_options.input_dir + " is not a directory"));
  absl::StatusOr<int64_t> max_upload_mb = args->GetInt("max-upload-mb", 65536);
  if (!max_upload_mb.ok()) return Fail(max_upload_mb.status());
  if (*max_upload_mb < 1) return Fail(absl::InvalidArgumentError("--max-upload-mb must be >= 1"));
  job_options.max_upload_bytes = *max_upload_mb << 20;
  absl::StatusOr<std::chrono::seconds> retention =
      ParseRetention(args->Get("job-retention", "30d"));
  if (!retention.ok()) return Fail(retention.status());
  job_options.retention = *retention;

  auto registry = std::make_shared<prometheus::Registry>();
  arbiter::serving::RegisterBuildInfo(*registry, "arbiter-coordinator");
  absl::StatusOr<std::unique_ptr<arbiter::serving::MetricsEndpoint>> metrics =
      arbiter::serving::MetricsEndpoint::Start(args->Get("metrics"), registry);
  if (!metrics.ok()) return Fail(metrics.status());

  // To workers: TLS with --worker-ca, mutual with --worker-cert/--worker-key.
  arbiter::serving::ChannelSecurity worker_security;
  worker_security.ca_file = args->Get("worker-ca");
  worker_security.cert_file = args->Get("worker-cert");
  worker_security.key_file = args->Get("worker-key");
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> to_workers =
      arbiter::serving::MakeChannelCredentials(worker_security);
  if (!to_workers.ok()) return Fail(to_workers.status());
  options.worker_credentials = *to_workers;
  arbiter::serving::ServerSecurity security;
  security.cert_file = args->Get("tls-cert");
  security.key_file = args->Get("tls-key");
  security.tokens_file = args->Get("tokens");
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      arbiter::serving::MakeServerCredentials(security);
  if (!credentials.ok()) return Fail(credentials.status());

  arbiter::coordinator::Dispatcher dispatcher(options, *registry);
  if (absl::Status s = dispatcher.Start(); !s.ok()) return Fail(s);
  absl::StatusOr<std::unique_ptr<arbiter::coordinator::Jobs>> jobs =
      arbiter::coordinator::Jobs::Open(dispatcher, job_options);
  if (!jobs.ok()) return Fail(jobs.status());
  arbiter::coordinator::RequestLimits limits;
  absl::StatusOr<int64_t> max_budget = args->GetInt("max-budget", int64_t(limits.max_budget));
  if (!max_budget.ok()) return Fail(max_budget.status());
  if (*max_budget < 1) return Fail(absl::InvalidArgumentError("--max-budget must be >= 1"));
  limits.max_budget = uint64_t(*max_budget);
  absl::StatusOr<int64_t> max_message_mb = args->GetInt("max-message-mb", 16);
  if (!max_message_mb.ok()) return Fail(max_message_mb.status());
  if (*max_message_mb < 1 || *max_message_mb > 1024)
    return Fail(absl::InvalidArgumentError("--max-message-mb must be 1..1024"));
  absl::StatusOr<int64_t> max_streams = args->GetInt("max-streams", int64_t(limits.max_streams));
  if (!max_streams.ok()) return Fail(max_streams.status());
  if (*max_streams < 1 || *max_streams > 100000)
    return Fail(absl::InvalidArgumentError("--max-streams must be 1..100000"));
  limits.max_streams = size_t(*max_streams);
  absl::StatusOr<int64_t> stall =
      args->GetInt("stream-stall-timeout", limits.stream_stall_timeout.count());
  if (!stall.ok()) return Fail(stall.status());
  if (*stall < 0) return Fail(absl::InvalidArgumentError("--stream-stall-timeout must be >= 0"));
  limits.stream_stall_timeout = std::chrono::seconds(*stall);
  arbiter::coordinator::ArbiterService service(dispatcher, **jobs, limits);
  absl::StatusOr<arbiter::serving::Listening> listening = arbiter::serving::Start(
      args->Get("listen", "0.0.0.0:50051"), *credentials, {&service}, args->Get("port-file"),
      args->Get("health"), int(*max_message_mb) << 20);
  if (!listening.ok()) return Fail(listening.status());
  // Serving as soon as it listens: work waits in its queue until workers
  // come, and readiness must not flap whenever one worker restarts.
  arbiter::serving::SetServing(*listening, true);
  std::fprintf(stderr, "arbiter-coordinator: serving on port %d, workers %s, jobs in %s\n",
               listening->port, options.workers.c_str(), job_options.dir.c_str());

  std::thread waiter([&] {
    arbiter::serving::WaitForShutdownSignal();
    arbiter::serving::SetServing(*listening, false);
    // Runs end first (their clients get UNAVAILABLE), and job watchers and
    // readers are told, so that no handler waits for verdicts while the
    // server waits for the handlers.
    (*jobs)->Stop();
    dispatcher.Stop();
    listening->Shutdown();
  });
  listening->server->Wait();
  waiter.join();
  return 0;
}
