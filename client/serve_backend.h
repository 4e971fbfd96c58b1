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
#include "http/backend.h"
#include "http/grpc_backend.h"
#include "server/arbiter_service.h"
#include "worker/worker_service.h"

namespace arbiter::cli {

class ServeBackend final : public http::Backend {
 public:
  // All three outlive the backend.
  // `warmup`: the worker's tables being built (GET /healthz is 503 until
  // it is ready, as rulings are).
  ServeBackend(http::GrpcBackend& coordinator, worker::WorkerService& worker,
               const coordinator::RequestLimits& limits, const common::TableWarmup& warmup)
      : coordinator_(coordinator), worker_(worker), limits_(limits), warmup_(warmup) {}

  absl::Status Verify(const v1::SearchOptions& options, const std::function<bool(RawGame*)>& next,
                      const http::VerdictSink& deliver) override;

  absl::StatusOr<v1::Assessment> Analyze(const v1::AnalyzeRequest& request) override;
  absl::StatusOr<v1::Job> SubmitJob(const std::string& name, const v1::SearchOptions& options,
                                    const http::BodyReader& body,
                                    const std::string& authorization) override {
    return coordinator_.SubmitJob(name, options, body, authorization);
  }
  absl::StatusOr<v1::Job> GetJob(const std::string& id, const std::string& authorization) override {
    return coordinator_.GetJob(id, authorization);
  }
  absl::StatusOr<std::vector<v1::Job>> ListJobs(int limit,
                                                const std::string& authorization) override {
    return coordinator_.ListJobs(limit, authorization);
  }
  absl::StatusOr<v1::Job> CancelJob(const std::string& id,
                                    const std::string& authorization) override {
    return coordinator_.CancelJob(id, authorization);
  }
  absl::Status DeleteJob(const std::string& id, const std::string& authorization) override {
    return coordinator_.DeleteJob(id, authorization);
  }
  absl::Status JobResults(const std::string& id, int64_t first_game,
                          const http::VerdictSink& deliver,
                          const std::string& authorization) override {
    return coordinator_.JobResults(id, first_game, deliver, authorization);
  }
  bool Serving() override { return warmup_.ready() && coordinator_.Serving(); }

 private:
  http::GrpcBackend& coordinator_;
  worker::WorkerService& worker_;
  const coordinator::RequestLimits& limits_;
  const common::TableWarmup& warmup_;
};

}  // namespace arbiter::cli
