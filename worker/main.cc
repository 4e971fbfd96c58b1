// arbiter-worker: serves arbiter.v1.Worker to the coordinator. Reports
// SERVING on grpc.health.v1 only once its tables are open.
#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <optional>
#include <thread>

#include "common/command_line.h"
#include "common/exit_code.h"
#include "common/heap.h"
#include "common/security.h"
#include "common/serving.h"
#include "common/table_warmup.h"
#include "common/tablebase_options.h"
#include "common/tables_option.h"
#include "core/mate/mate_ability.h"
#include "grpcpp/server.h"
#include "worker/worker_service.h"

namespace {

namespace common = arbiter::common;
using arbiter::common::AddValue;
using arbiter::common::ExitCode;

constexpr char kProgram[] = "arbiter-worker";

ExitCode Fail(const absl::Status& s) { return arbiter::common::Fail(kProgram, s); }

struct WorkerOptions {
  std::string listen = "0.0.0.0:50052", metrics, port_file, health;
  int64_t threads = std::max(1u, std::thread::hardware_concurrency());
  int64_t max_table_mb = 256;
  std::vector<std::string> syzygy;
  std::optional<std::string> tables;
  std::string tls_cert, tls_key, client_ca;
};

void AddOptions(CLI::App& app, WorkerOptions* o) {
  AddValue(app, "--listen", &o->listen, "ADDR", "gRPC address (port 0 picks a free one)")
      ->default_str(o->listen);
  arbiter::common::AddInteger(app, "--threads", &o->threads, 1, 1024, "--threads must be 1..1024",
                              "N", "Requests computed at once (default: all cores)");
  arbiter::common::AddInteger(app, "--max-table-mb", &o->max_table_mb, 1, 65536,
                              "--max-table-mb must be 1..65536", "M",
                              "Largest search table a request may ask for")
      ->default_str(std::to_string(o->max_table_mb));
  arbiter::common::AddSyzygyOption(app, &o->syzygy);
  arbiter::common::AddTablesOption(app, &o->tables)
      ->description(
          "Retrograde tables: loaded from DIR, generated ones saved there\n"
          "(default $ARBITER_TABLES, else the per-user cache; shared safely by\n"
          "many workers)");
  AddValue(app, "--metrics", &o->metrics, "ADDR", "Prometheus /metrics endpoint (default: none)");
  AddValue(app, "--port-file", &o->port_file, "FILE",
           "Write the bound gRPC port to FILE (and the health port to FILE.health)");
  AddValue(app, "--health", &o->health, "ADDR",
           "Also serve grpc.health.v1 alone, in plain text, on ADDR (for\n"
           "Kubernetes probes when the main port needs TLS)");
  AddValue(app, "--tls-cert", &o->tls_cert, "FILE", "Serve TLS (with --tls-key)");
  AddValue(app, "--tls-key", &o->tls_key, "FILE", "The key of --tls-cert");
  AddValue(app, "--client-ca", &o->client_ca, "FILE",
           "Accept only clients with a certificate signed by this CA (mutual TLS:\n"
           "give it the coordinator's client CA)");
}

ExitCode Serve(const WorkerOptions& o) {
  auto registry = std::make_shared<prometheus::Registry>();
  arbiter::common::RegisterBuildInfo(*registry, kProgram);
  absl::StatusOr<std::unique_ptr<arbiter::common::MetricsEndpoint>> metrics =
      arbiter::common::MetricsEndpoint::Start(o.metrics, registry);
  if (!metrics.ok()) return Fail(metrics.status());

  // Tables first: a worker that cannot open the tables it was given must not
  // serve rulings without them.
  absl::StatusOr<std::shared_ptr<const arbiter::SyzygyTablebase>> tables =
      arbiter::common::TablebaseFrom(o.syzygy);
  // Retrograde tables (3-4 men) load from --tables on first use; ones
  // generated are saved there for the other workers (atomic renames).
  absl::StatusOr<std::unique_ptr<arbiter::RetrogradeSolver>> retrograde =
      arbiter::common::RetrogradeTablesFrom(o.tables);
  if (!retrograde.ok()) return Fail(retrograde.status());
  // Tables already in the directory are loaded now, before SERVING, so that
  // no request pays for loading them (0.5 s for all 36); missing ones are
  // generated on first use and saved for the other workers.
  arbiter::RetrogradeSolver& solver = **retrograde;
  if (!solver.cache_dir().empty()) {
    absl::StatusOr<size_t> loaded = solver.LoadStoredTables();
    if (!loaded.ok()) return Fail(loaded.status());
    std::fprintf(stderr, "arbiter-worker: %zu retrograde tables loaded from %s\n", *loaded,
                 solver.cache_dir().c_str());
  }
  if (!tables.ok()) return Fail(tables.status());
  // The tables not stored yet are built now, in the background: the worker
  // answers Info meanwhile (saying what it builds) and refuses rulings.
  arbiter::common::TableWarmup warmup(&solver, kProgram);
  arbiter::worker::WorkerService service(int(o.threads), int(o.max_table_mb), *tables, &solver,
                                         *registry, &warmup);
  arbiter::common::ServerSecurity security;
  security.cert_file = o.tls_cert;
  security.key_file = o.tls_key;
  security.client_ca_file = o.client_ca;
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      arbiter::common::MakeServerCredentials(security);
  if (!credentials.ok()) return Fail(credentials.status());
  absl::StatusOr<arbiter::common::Listening> listening =
      arbiter::common::Start(o.listen, *credentials, {&service}, o.port_file, o.health);
  if (!listening.ok()) return Fail(listening.status());
  std::fprintf(stderr, "arbiter-worker: serving on port %d with %lld threads%s%s\n",
               listening->port, (long long)o.threads, warmup.ready() ? ", retrograde tables: " : "",
               warmup.ready() ? warmup.digest().c_str() : "");
  // SERVING (grpc.health.v1) once it rules: a probe, or a headless
  // Service's DNS, then leaves a worker out while it builds its tables.
  std::atomic<bool> stopping{false};
  std::thread ready([&] {
    while (!warmup.ready() && !stopping)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!stopping) arbiter::common::SetServing(*listening, true);
  });

  std::thread waiter([&] {
    arbiter::common::WaitForShutdownSignal();
    stopping = true;
    arbiter::common::SetServing(*listening, false);
    listening->Shutdown();
  });
  listening->server->Wait();
  waiter.join();
  ready.join();
  std::fprintf(stderr, "arbiter-worker: stopped after %llu batches, %llu verdicts\n",
               (unsigned long long)service.batches_served(),
               (unsigned long long)service.verdicts_served());
  return ExitCode::kSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  arbiter::common::BlockShutdownSignals();
  arbiter::common::KeepFreedHeap();
  CLI::App app(
      "arbiter-worker: serves arbiter.v1.Worker to the coordinator; reports SERVING on\n"
      "grpc.health.v1 only once its tables are open.",
      kProgram);
  app.get_formatter()->column_width(32);
  arbiter::common::AddVersionFlag(app);
  WorkerOptions options;
  AddOptions(app, &options);
  if (std::optional<ExitCode> done = arbiter::common::ParseCommandLine(app, argc, argv))
    return int(*done);
  return int(Serve(options));
}
