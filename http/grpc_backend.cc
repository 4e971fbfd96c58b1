#include "http/grpc_backend.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace arbiter::http {
namespace {

// Games per VerifyGames message (a body usually arrives faster than its
// games are ruled, so a batch seldom waits for its last game).
constexpr int kGamesPerMessage = 64;

}  // namespace

GrpcBackend::GrpcBackend(std::shared_ptr<grpc::Channel> channel, std::function<bool()> serving)
    : client_(std::move(channel), /*name=*/""), serving_(std::move(serving)) {}

absl::StatusOr<v1::Assessment> GrpcBackend::Analyze(const v1::AnalyzeRequest& request) {
  return client_.Analyze(request);
}

absl::Status GrpcBackend::Verify(const v1::SearchOptions& options,
                                 const std::function<bool(RawGame*)>& next,
                                 const VerdictSink& deliver) {
  return client_.Verify(next, options, kGamesPerMessage, deliver);
}

absl::StatusOr<v1::Job> GrpcBackend::SubmitJob(const std::string& name,
                                               const v1::SearchOptions& options,
                                               const BodyReader& body,
                                               const std::string& authorization) {
  // The HTTP server pushes the body (on this thread, which owns the
  // connection) and the upload pulls it (on its own): a small hand-over
  // queue between the two. An upload that ends early (refused) stops the
  // pushing.
  std::mutex mu;
  std::condition_variable changed;
  std::deque<std::string> pieces;
  bool ended = false, read_ok = true, upload_over = false;
  constexpr size_t kMaxPieces = 16;
  absl::StatusOr<v1::Job> job;
  std::thread uploader([&] {
    job = client_.UploadJob(
        name, options,
        [&]() -> absl::StatusOr<std::string> {
          std::unique_lock<std::mutex> lock(mu);
          changed.wait(lock, [&] { return ended || !pieces.empty(); });
          if (!pieces.empty()) {
            std::string piece = std::move(pieces.front());
            pieces.pop_front();
            changed.notify_all();
            return piece;
          }
          if (!read_ok) return absl::DataLossError("the request body could not be read in full");
          return std::string();
        },
        {authorization});
    std::lock_guard<std::mutex> lock(mu);
    upload_over = true;
    changed.notify_all();
  });
  const bool ok = body([&](std::string_view piece) {
    std::unique_lock<std::mutex> lock(mu);
    changed.wait(lock, [&] { return upload_over || pieces.size() < kMaxPieces; });
    if (upload_over) return false;
    pieces.emplace_back(piece);
    changed.notify_all();
    return true;
  });
  {
    std::lock_guard<std::mutex> lock(mu);
    ended = true;
    read_ok = ok || upload_over;
    changed.notify_all();
  }
  uploader.join();
  return job;
}

absl::StatusOr<v1::Job> GrpcBackend::GetJob(const std::string& id,
                                            const std::string& authorization) {
  return client_.GetJob(id, {authorization});
}

absl::StatusOr<std::vector<v1::Job>> GrpcBackend::ListJobs(int limit,
                                                           const std::string& authorization) {
  return client_.ListJobs(limit, {authorization});
}

absl::StatusOr<v1::Job> GrpcBackend::CancelJob(const std::string& id,
                                               const std::string& authorization) {
  return client_.CancelJob(id, {authorization});
}

absl::Status GrpcBackend::DeleteJob(const std::string& id, const std::string& authorization) {
  return client_.DeleteJob(id, {authorization});
}

absl::Status GrpcBackend::JobResults(const std::string& id, int64_t first_game,
                                     const VerdictSink& deliver, const std::string& authorization) {
  // The HTTP route follows a running job to its end (docs/http.md).
  return client_.JobResults(id, first_game, /*follow=*/true, deliver, {authorization});
}

}  // namespace arbiter::http
