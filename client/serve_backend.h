// The HTTP API's backend in `arbiter serve`: the coordinator's service over
// an in-process channel (http/grpc_backend.h) for every route but one, and
// POST /v1/verify ruled by the in-process worker directly
// (WorkerService::VerifyHere). Through the two in-process channels each
// game and verdict was serialized and parsed twice; that doubled the CPU of
// a run, and a stream gains nothing from the dispatcher when its one worker
// shares its process (no lease to renew, no other worker to retry on).
// The stream is held to the coordinator's limits (coordinator::CheckOptions)
// and the worker's, and rules through the one loop, so its verdicts are
// those every other way of asking gets.
#pragma once

#include "http/backend.h"
#include "http/grpc_backend.h"
#include "server/arbiter_service.h"
#include "worker/worker_service.h"

namespace arbiter::cli {

class ServeBackend final : public http::Backend {
 public:
  // All three outlive the backend.
  ServeBackend(http::GrpcBackend& coordinator, worker::WorkerService& worker,
               const coordinator::RequestLimits& limits)
      : coordinator_(coordinator), worker_(worker), limits_(limits) {}

  absl::Status Verify(const v1::SearchOptions& options, const std::function<bool(RawGame*)>& next,
                      const http::VerdictSink& deliver) override;

  absl::StatusOr<v1::Assessment> Analyze(const v1::AnalyzeRequest& request) override {
    return coordinator_.Analyze(request);
  }
  absl::StatusOr<v1::Job> SubmitJob(const std::string& name, const v1::SearchOptions& options,
                                    const http::BodyReader& body) override {
    return coordinator_.SubmitJob(name, options, body);
  }
  absl::StatusOr<v1::Job> GetJob(const std::string& id) override { return coordinator_.GetJob(id); }
  absl::StatusOr<std::vector<v1::Job>> ListJobs(int limit) override {
    return coordinator_.ListJobs(limit);
  }
  absl::StatusOr<v1::Job> CancelJob(const std::string& id) override {
    return coordinator_.CancelJob(id);
  }
  absl::Status DeleteJob(const std::string& id) override { return coordinator_.DeleteJob(id); }
  absl::Status JobResults(const std::string& id, int64_t first_game,
                          const http::VerdictSink& deliver) override {
    return coordinator_.JobResults(id, first_game, deliver);
  }
  bool Serving() override { return coordinator_.Serving(); }

 private:
  http::GrpcBackend& coordinator_;
  worker::WorkerService& worker_;
  const coordinator::RequestLimits& limits_;
};

}  // namespace arbiter::cli
