// gRPC serving plumbing shared by both daemons (arbiter-coordinator and
// arbiter-worker): listen (an ephemeral port with ":0"), grpc.health.v1 and
// server reflection, the bound port written to a file for scripts and
// tests, a Prometheus endpoint, and a clean shutdown on SIGINT/SIGTERM.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "prometheus/registry.h"

namespace grpc {
class Server;
class ServerCredentials;
class Service;
}  // namespace grpc

namespace arbiter::common {

struct Listening {
  std::unique_ptr<grpc::Server> server;
  int port = 0;
  // A plain-text server with only grpc.health.v1, when asked for: the main
  // port may need TLS and tokens, which Kubernetes' gRPC probes cannot give.
  std::unique_ptr<grpc::Server> health;
  int health_port = 0;

  void Shutdown();  // both servers, with a few seconds of grace
};

// Starts a server on `address` ("host:port"; port 0 picks a free one) with
// `services`, the health service (every service NOT_SERVING until
// SetServing) and reflection. Writes the port to `port_file` if not empty
// (via a temporary file and a rename, so a reader never sees half a number).
// Larger requests than `max_message_bytes` fail with RESOURCE_EXHAUSTED.
absl::StatusOr<Listening> Start(const std::string& address,
                                std::shared_ptr<grpc::ServerCredentials> credentials,
                                const std::vector<grpc::Service*>& services,
                                const std::string& port_file,
                                const std::string& health_address = "",
                                int max_message_bytes = 64 << 20);

// Writes `port` and a newline to `port_file` via a temporary file and a
// rename, so that a reader never sees half a number.
absl::Status WritePortFile(const std::string& port_file, int port);

// Health status of the whole server ("" service) and of every service, on
// both servers.
void SetServing(Listening& listening, bool serving);

// A Prometheus /metrics endpoint on `address` (e.g. "0.0.0.0:9101"), or
// nothing when `address` is empty. The registry lives as long as the
// returned handle.
class MetricsEndpoint {
 public:
  static absl::StatusOr<std::unique_ptr<MetricsEndpoint>> Start(
      const std::string& address, std::shared_ptr<prometheus::Registry> registry);
  ~MetricsEndpoint();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// arbiter_build_info{program, version, commit} = 1, so that dashboards and
// alerts can tell which build runs where. The commit is the one CMake was
// configured at ("unknown" outside a git checkout, as in container builds).
void RegisterBuildInfo(prometheus::Registry& registry, const std::string& program);

// Blocks SIGINT and SIGTERM in the calling thread (call it first in main,
// before any thread exists, so that every thread inherits the mask), and
// returns when one arrives.
void BlockShutdownSignals();
int WaitForShutdownSignal();

// Buckets for latencies in seconds, 1 ms to about 1 min.
std::vector<double> LatencyBuckets();

}  // namespace arbiter::common
