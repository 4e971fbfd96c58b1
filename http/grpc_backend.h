// The HTTP API's backend in a coordinator: every route becomes a call of
// the coordinator's own arbiter.v1.Arbiter service over an in-process
// channel, so that HTTP and gRPC clients get the same answers, limits and
// errors from one implementation.
#pragma once

#include <functional>
#include <memory>

#include "common/arbiter_client.h"
#include "http/backend.h"

namespace arbiter::http {

// Not final: `arbiter serve` answers some routes another way
// (client/serve_backend.h).
class GrpcBackend : public Backend {
 public:
  // `serving` answers /healthz.
  GrpcBackend(std::shared_ptr<grpc::Channel> channel, std::function<bool()> serving);

  absl::StatusOr<v1::Assessment> Analyze(const v1::AnalyzeRequest& request) override;
  absl::Status Verify(const v1::SearchOptions& options, const std::function<bool(RawGame*)>& next,
                      const VerdictSink& deliver) override;
  absl::StatusOr<v1::Job> SubmitJob(const std::string& name, const v1::SearchOptions& options,
                                    const BodyReader& body,
                                    const std::string& authorization) override;
  absl::StatusOr<v1::Job> GetJob(const std::string& id, const std::string& authorization) override;
  absl::StatusOr<std::vector<v1::Job>> ListJobs(int limit,
                                                const std::string& authorization) override;
  absl::StatusOr<v1::Job> CancelJob(const std::string& id,
                                    const std::string& authorization) override;
  absl::Status DeleteJob(const std::string& id, const std::string& authorization) override;
  absl::Status JobResults(const std::string& id, int64_t first_game, const VerdictSink& deliver,
                          const std::string& authorization) override;
  bool Serving() override { return serving_(); }

 private:
  common::ArbiterClient client_;
  const std::function<bool()> serving_;
};

}  // namespace arbiter::http
