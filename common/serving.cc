#include "common/serving.h"

#include <signal.h>

#include <cstdio>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "common/build_info.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/impl/server_builder_option.h"
#include "grpcpp/impl/server_builder_plugin.h"
#include "grpcpp/security/server_credentials.h"
#include "grpcpp/server.h"
#include "grpcpp/server_builder.h"
#include "prometheus/exposer.h"
#include "prometheus/gauge.h"

namespace arbiter::common {

namespace {

constexpr int kMaxIdlePollers = 64;

// The plain-text health port serves health alone. Reflection registers its
// plugin with every builder when its library is linked, so the health
// server's plugins are replaced by one that only says the server has
// synchronous methods (the default health service is one; without a plugin
// or service saying so, the builder makes no polled queue and refuses to
// start).
class SyncMethodsOnly : public grpc::ServerBuilderPlugin {
 public:
  std::string name() override { return "arbiter_sync_methods_only"; }
  void InitServer(grpc::ServerInitializer*) override {}
  void Finish(grpc::ServerInitializer*) override {}
  void ChangeArguments(const std::string&, void*) override {}
  bool has_sync_methods() const override { return true; }
};

class HealthOnly : public grpc::ServerBuilderOption {
 public:
  void UpdateArguments(grpc::ChannelArguments*) override {}
  void UpdatePlugins(std::vector<std::unique_ptr<grpc::ServerBuilderPlugin>>* plugins) override {
    plugins->clear();
    plugins->push_back(std::make_unique<SyncMethodsOnly>());
  }
};

void SetHealth(grpc::Server* server, bool serving) {
  if (!server) return;
  if (grpc::HealthCheckServiceInterface* health = server->GetHealthCheckService())
    health->SetServingStatus(serving);
}

}  // namespace

absl::Status WritePortFile(const std::string& port_file, int port) {
  const std::string tmp = port_file + ".tmp";
  {
    std::ofstream f(tmp);
    f << port << "\n";
    if (!f) return absl::PermissionDeniedError(absl::StrCat("cannot write ", tmp));
  }
  if (std::rename(tmp.c_str(), port_file.c_str()) != 0)
    return absl::PermissionDeniedError(absl::StrCat("cannot write ", port_file));
  return absl::OkStatus();
}

absl::StatusOr<Listening> Start(const std::string& address,
                                std::shared_ptr<grpc::ServerCredentials> credentials,
                                const std::vector<grpc::Service*>& services,
                                const std::string& port_file, const std::string& health_address,
                                int max_message_bytes) {
  grpc::EnableDefaultHealthCheckService(true);
  Listening out;
  if (!health_address.empty()) {
    grpc::ServerBuilder builder;
    builder.SetOption(std::make_unique<HealthOnly>());
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    builder.AddListeningPort(health_address, grpc::InsecureServerCredentials(), &out.health_port);
    out.health = builder.BuildAndStart();
    if (!out.health || out.health_port == 0)
      return absl::UnavailableError(
          absl::StrCat("cannot listen on ", health_address, " (--health)"));
  }
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  {
    grpc::ServerBuilder builder;
    // No SO_REUSEPORT: a second process on a taken port must fail to start,
    // not silently share the port's connections with the first.
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    builder.AddListeningPort(address, credentials, &out.port);
    builder.SetMaxReceiveMessageSize(max_message_bytes);
    // Clients ping while their calls are open to notice a stalled server
    // (the Python client every stall_timeout / 2, 1 s at the least): accept
    // pings that often, even while no data flows (a results stream of a
    // slow job), instead of answering them with GOAWAY "too many pings".
    builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 1000);
    // The sync server runs each call on a pool thread. By default the pool
    // lets a thread exit as soon as more than 2 are idle and starts a new one
    // when none polls: with a few long calls at a time (a worker's batches)
    // that is a thread created and destroyed per call, each with a fresh
    // stack, malloc arena and thread_local scratch. Idle threads are cheap;
    // keeping up to kMaxIdlePollers of them removes the churn.
    builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS,
                                kMaxIdlePollers);
    for (grpc::Service* s : services) builder.RegisterService(s);
    out.server = builder.BuildAndStart();
    if (!out.server || out.port == 0)
      return absl::UnavailableError(absl::StrCat("cannot listen on ", address));
  }
  SetServing(out, false);
  if (!port_file.empty()) {
    if (absl::Status s = WritePortFile(port_file, out.port); !s.ok()) return s;
    if (out.health) {
      if (absl::Status s = WritePortFile(port_file + ".health", out.health_port); !s.ok()) return s;
    }
  }
  return out;
}

void SetServing(Listening& listening, bool serving) {
  SetHealth(listening.server.get(), serving);
  SetHealth(listening.health.get(), serving);
}

void Listening::Shutdown() {
  const auto deadline = std::chrono::system_clock::now() + std::chrono::seconds(5);
  if (health) health->Shutdown(deadline);
  server->Shutdown(deadline);
}

void RegisterBuildInfo(prometheus::Registry& registry, const std::string& program) {
  prometheus::BuildGauge()
      .Name("arbiter_build_info")
      .Help("The running build: always 1, labelled with program, version and commit")
      .Register(registry)
      .Add({{"program", program}, {"version", BuildVersion()}, {"commit", BuildCommit()}})
      .Set(1);
}

struct MetricsEndpoint::Impl {
  std::shared_ptr<prometheus::Registry> registry;
  std::unique_ptr<prometheus::Exposer> exposer;
};

absl::StatusOr<std::unique_ptr<MetricsEndpoint>> MetricsEndpoint::Start(
    const std::string& address, std::shared_ptr<prometheus::Registry> registry) {
  auto out = std::unique_ptr<MetricsEndpoint>(new MetricsEndpoint);
  out->impl_ = std::make_unique<Impl>();
  out->impl_->registry = registry;
  if (address.empty()) return out;
  try {
    out->impl_->exposer = std::make_unique<prometheus::Exposer>(address);
  } catch (const std::exception& e) {
    return absl::UnavailableError(absl::StrCat("metrics on ", address, ": ", e.what()));
  }
  out->impl_->exposer->RegisterCollectable(registry);
  return out;
}

MetricsEndpoint::~MetricsEndpoint() = default;

void BlockShutdownSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

int WaitForShutdownSignal() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  int sig = 0;
  sigwait(&set, &sig);
  return sig;
}

std::vector<double> LatencyBuckets() {
  return {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};
}

}  // namespace arbiter::common
