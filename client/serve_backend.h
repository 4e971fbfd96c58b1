// The HTTP API's backend in `arbiter serve`: the coordinator's service over
// an in-process channel (http/grpc_backend.h) for jobs, and positions and
// game streams (GET/POST /v1/analyze, /v1/tablebase, POST /v1/verify)
// answered by the in-process worker directly (WorkerService::AnalyzeHere,
// VerifyHere). Through the two in-process channels each request, game and
// verdict was serialized and parsed twice: that doubled the CPU of a verify
// run and cost three quarters of the analyze throughput, and these calls
// gain nothing from the dispatcher when its one worker shares its process
// (no lease to renew, no other worker to retry on). They are held to the
// coordinator's limits (coordinator::CheckOptions) and the worker's, and
// answered by the same engine and loop, so their answers are those every
// other way of asking gets.
#pragma once

#include "common/table_warmup.h"
#include "http/grpc_backend.h"
#include "server/arbiter_service.h"
#include "worker/worker_service.h"

namespace arbiter::cli {

class ServeBackend final : public http::GrpcBackend {
 public:
  // `coordinator`: the in-process channel to the coordinator's service.
  // `worker`, `limits` and `warmup` (the worker's tables being built: GET
  // /healthz is 503 until it is ready, as rulings are) outlive the backend.
  ServeBackend(std::shared_ptr<grpc::Channel> coordinator, worker::WorkerService& worker,
               const coordinator::RequestLimits& limits, const common::TableWarmup& warmup)
      : GrpcBackend(std::move(coordinator), [&warmup] { return warmup.ready(); }),
        worker_(worker),
        limits_(limits) {}

  absl::StatusOr<v1::Assessment> Analyze(const v1::AnalyzeRequest& request) override;
  absl::Status Verify(const v1::SearchOptions& options, const std::function<bool(RawGame*)>& next,
                      const http::VerdictSink& deliver) override;

 private:
  worker::WorkerService& worker_;
  const coordinator::RequestLimits& limits_;
};

}  // namespace arbiter::cli
