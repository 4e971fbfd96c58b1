// The arbiter.v1.Arbiter service of the coordinator: client RPCs are turned
// into work for the dispatcher (server/dispatcher.h) and jobs (jobs.h).
#pragma once

#include "arbiter/v1/arbiter.grpc.pb.h"
#include "arbiter/v1/relay.pb.h"
#include "common/tokens.h"
#include "server/blocking_bidi.h"
#include "server/dispatcher.h"
#include "server/jobs.h"
#include "server/stream_guard.h"

namespace arbiter::coordinator {

// What one request may ask for.
struct RequestLimits {
  uint64_t max_budget = 10'000'000;  // positions per side of a mate search
  // Streaming calls open at once (VerifyGames, UploadJob, WatchJob,
  // GetJobResults), and how long one may leave its verdicts unread.
  size_t max_streams = 64;
  std::chrono::seconds stream_stall_timeout{300};
};

// INVALID_ARGUMENT / RESOURCE_EXHAUSTED for options out of `limits`: what
// the coordinator refuses of every request, and `arbiter serve` of the
// runs it rules without the service (client/serve_backend.h).
absl::Status CheckOptions(const RequestLimits& limits, const v1::SearchOptions& options);
// The same for a position, and RESOURCE_EXHAUSTED for too many moves.
absl::Status CheckAnalyzeRequest(const RequestLimits& limits, const v1::AnalyzeRequest& request);

class ArbiterService final
    : public v1::Arbiter::WithRawCallbackMethod_VerifyGames<v1::Arbiter::Service> {
 public:
  // `tokens`: the callers (common/tokens.h) whose roles and names decide
  // what each may do and which jobs it sees; null: no tokens, every caller
  // may do everything (a trusted network, a local server).
  ArbiterService(Dispatcher& dispatcher, Jobs& jobs, RequestLimits limits,
                 std::shared_ptr<common::TokenFile> tokens = nullptr)
      : dispatcher_(dispatcher),
        jobs_(jobs),
        limits_(limits),
        tokens_(std::move(tokens)),
        streams_(limits.max_streams, limits.stream_stall_timeout) {}

  grpc::Status Analyze(grpc::ServerContext* ctx, const v1::AnalyzeRequest* request,
                       v1::Assessment* out) override;
  grpc::Status VerifyGame(grpc::ServerContext* ctx, const v1::VerifyGameRequest* request,
                          v1::GameVerdict* out) override;
  // Served raw, on a thread per stream (server/blocking_bidi.h), so that a
  // message that does not parse fails the call instead of reading as the
  // end of the client's games.
  grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* VerifyGames(
      grpc::CallbackServerContext* ctx) override;
  grpc::Status UploadJob(grpc::ServerContext* ctx, grpc::ServerReader<v1::UploadJobRequest>* reader,
                         v1::Job* out) override;
  grpc::Status SubmitJob(grpc::ServerContext* ctx, const v1::SubmitJobRequest* request,
                         v1::Job* out) override;
  grpc::Status ListJobs(grpc::ServerContext* ctx, const v1::ListJobsRequest* request,
                        v1::ListJobsResponse* out) override;
  grpc::Status CancelJob(grpc::ServerContext* ctx, const v1::CancelJobRequest* request,
                         v1::Job* out) override;
  grpc::Status DeleteJob(grpc::ServerContext* ctx, const v1::DeleteJobRequest* request,
                         v1::DeleteJobResponse* out) override;
  grpc::Status GetJob(grpc::ServerContext* ctx, const v1::GetJobRequest* request,
                      v1::Job* out) override;
  grpc::Status WatchJob(grpc::ServerContext* ctx, const v1::WatchJobRequest* request,
                        grpc::ServerWriter<v1::Job>* writer) override;
  grpc::Status GetJobResults(grpc::ServerContext* ctx, const v1::GetJobResultsRequest* request,
                             grpc::ServerWriter<v1::GameVerdict>* writer) override;

 private:
  // Read and written as their views (relay.proto): games and verdicts are
  // relayed, not decoded.
  using VerifyGamesStream = BlockingBidi<v1::relay::VerifyGamesRequest,
                                         v1::relay::VerifyGamesResponse, v1::VerifyGamesRequest>;
  // The VerifyGames call, in the synchronous style.
  grpc::Status Verify(VerifyGamesStream& stream);
  grpc::Status CheckOptions(const v1::SearchOptions& options) const;  // as the function
  // Who is calling: with tokens, the caller of the call's bearer token
  // (checked by the port's processor already, or passed on by the HTTP API
  // in process), UNAUTHENTICATED without one; without tokens, an unnamed
  // admin.
  absl::StatusOr<common::Caller> CallerOf(const grpc::ServerContextBase& ctx) const;
  // The job `id` when the caller may see it (its own, or any for an admin);
  // NOT_FOUND as for a job that does not exist otherwise, so that no one
  // learns of another's jobs.
  absl::StatusOr<v1::Job> VisibleJob(const grpc::ServerContextBase& ctx,
                                     const std::string& id) const;
  // The caller who will own a new job, or PERMISSION_DENIED for a reader.
  absl::StatusOr<common::Caller> Submitter(const grpc::ServerContextBase& ctx) const;

  Dispatcher& dispatcher_;
  Jobs& jobs_;
  const RequestLimits limits_;
  const std::shared_ptr<common::TokenFile> tokens_;
  StreamGuard streams_;
};

}  // namespace arbiter::coordinator
