// arbiter-worker: serves arbiter.v1.Worker to the coordinator. Reports
// SERVING on grpc.health.v1 only once its tables are open.
#include <cstdio>
#include <thread>

#include "common/args.h"
#include "common/security.h"
#include "common/serving.h"
#include "common/tablebase_options.h"
#include "common/tables_option.h"
#include "core/mate/mate_ability.h"
#include "grpcpp/server.h"
#include "worker/worker_service.h"

namespace {

constexpr char kUsage[] =
    "usage: arbiter-worker [--listen ADDR] [--threads N] [--syzygy DIR]... [--tables DIR]\n"
    "                      [--metrics ADDR] [--port-file FILE]\n"
    "  --listen ADDR     gRPC address (default 0.0.0.0:50052; port 0 picks a free one)\n"
    "  --threads N       requests computed at once (default: all cores)\n"
    "  --max-table-mb M  largest search table a request may ask for (default 256)\n"
    "  --syzygy DIR      Syzygy tables (repeatable, or DIR:DIR; default $ARBITER_SYZYGY)\n"
    "  --tables DIR      retrograde tables: loaded from DIR, generated ones saved there\n"
    "                    (default $ARBITER_TABLES; shared safely by many workers)\n"
    "  --metrics ADDR    Prometheus /metrics endpoint (default: none)\n"
    "  --port-file FILE  write the bound gRPC port to FILE (and the health port to\n"
    "                    FILE.health)\n"
    "  --health ADDR     also serve grpc.health.v1 alone, in plain text, on ADDR (for\n"
    "                    Kubernetes probes when the main port needs TLS)\n"
    "  --tls-cert FILE --tls-key FILE   serve TLS\n"
    "  --client-ca FILE  accept only clients with a certificate signed by this CA\n"
    "                    (mutual TLS: give it the coordinator's client CA)\n";

int Fail(const absl::Status& s) {
  std::fprintf(stderr, "arbiter-worker: %s\n", std::string(s.message()).c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  arbiter::serving::BlockShutdownSignals();
  std::vector<std::string> argv_rest(argv + 1, argv + argc);
  if (!argv_rest.empty() && (argv_rest[0] == "--help" || argv_rest[0] == "-h")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  absl::StatusOr<arbiter::cli::Args> args =
      arbiter::cli::Args::Parse(argv_rest,
                                {"listen", "threads", "max-table-mb", "syzygy", "tables", "metrics",
                                 "port-file", "health", "tls-cert", "tls-key", "client-ca"},
                                {});
  if (!args.ok()) return Fail(args.status());
  if (!args->positional().empty())
    return Fail(absl::InvalidArgumentError("unexpected argument " + args->positional()[0]));
  absl::StatusOr<int64_t> threads =
      args->GetInt("threads", std::max(1u, std::thread::hardware_concurrency()));
  if (!threads.ok()) return Fail(threads.status());
  if (*threads < 1 || *threads > 1024)
    return Fail(absl::InvalidArgumentError("--threads must be 1..1024"));

  absl::StatusOr<int64_t> max_table_mb = args->GetInt("max-table-mb", 256);
  if (!max_table_mb.ok()) return Fail(max_table_mb.status());
  if (*max_table_mb < 1 || *max_table_mb > 65536)
    return Fail(absl::InvalidArgumentError("--max-table-mb must be 1..65536"));

  auto registry = std::make_shared<prometheus::Registry>();
  arbiter::serving::RegisterBuildInfo(*registry, "arbiter-worker");
  absl::StatusOr<std::unique_ptr<arbiter::serving::MetricsEndpoint>> metrics =
      arbiter::serving::MetricsEndpoint::Start(args->Get("metrics"), registry);
  if (!metrics.ok()) return Fail(metrics.status());

  // Tables first: a worker that cannot open the tables it was given must not
  // serve rulings without them.
  absl::StatusOr<std::shared_ptr<const arbiter::SyzygyTablebase>> tables =
      arbiter::cli::TablebaseFrom(*args);
  // Retrograde tables (3-4 men) load from --tables on first use; ones
  // generated are saved there for the other workers (atomic renames).
  absl::StatusOr<std::unique_ptr<arbiter::tablebase::RetrogradeSolver>> retrograde =
      arbiter::cli::RetrogradeTablesFrom(*args);
  if (!retrograde.ok()) return Fail(retrograde.status());
  // Tables already in the directory are loaded now, before SERVING, so that
  // no request pays for loading them (0.5 s for all 36); missing ones are
  // generated on first use and saved for the other workers.
  arbiter::tablebase::RetrogradeSolver& solver = **retrograde;
  if (!solver.cache_dir().empty()) {
    absl::StatusOr<size_t> loaded = solver.LoadStoredTables();
    if (!loaded.ok()) return Fail(loaded.status());
    std::fprintf(stderr, "arbiter-worker: %zu retrograde tables loaded from %s\n", *loaded,
                 solver.cache_dir().c_str());
  }
  if (!tables.ok()) return Fail(tables.status());
  arbiter::worker::WorkerService service(int(*threads), int(*max_table_mb), *tables, &solver,
                                         *registry);
  arbiter::serving::ServerSecurity security;
  security.cert_file = args->Get("tls-cert");
  security.key_file = args->Get("tls-key");
  security.client_ca_file = args->Get("client-ca");
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      arbiter::serving::MakeServerCredentials(security);
  if (!credentials.ok()) return Fail(credentials.status());
  absl::StatusOr<arbiter::serving::Listening> listening =
      arbiter::serving::Start(args->Get("listen", "0.0.0.0:50052"), *credentials, {&service},
                              args->Get("port-file"), args->Get("health"));
  if (!listening.ok()) return Fail(listening.status());
  arbiter::serving::SetServing(*listening, true);
  std::fprintf(stderr, "arbiter-worker: serving on port %d with %lld threads\n", listening->port,
               (long long)*threads);

  std::thread waiter([&] {
    arbiter::serving::WaitForShutdownSignal();
    arbiter::serving::SetServing(*listening, false);
    listening->Shutdown();
  });
  listening->server->Wait();
  waiter.join();
  std::fprintf(stderr, "arbiter-worker: stopped after %llu batches, %llu verdicts\n",
               (unsigned long long)service.batches_served(),
               (unsigned long long)service.verdicts_served());
  return 0;
}
