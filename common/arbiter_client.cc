#include "common/arbiter_client.h"

#include <atomic>
#include <thread>

#include "absl/strings/str_cat.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "proto/convert.h"

namespace arbiter::common {

ArbiterClient::ArbiterClient(std::shared_ptr<grpc::Channel> channel, std::string name)
    : stub_(v1::Arbiter::NewStub(std::move(channel))), name_(std::move(name)) {}

void ArbiterClient::Prepare(grpc::ClientContext& ctx, const Call& call) const {
  if (!call.authorization.empty()) ctx.AddMetadata("authorization", call.authorization);
}

std::string ArbiterClient::Subject() const {
  return name_.empty() ? "the coordinator" : absl::StrCat("coordinator ", name_);
}

absl::Status ArbiterClient::Error(const grpc::Status& s) const {
  const absl::StatusCode code = absl::StatusCode(int(s.error_code()));
  if (name_.empty()) return absl::Status(code, s.error_message());
  return absl::Status(code, absl::StrCat(Subject(), ": ", s.error_message()));
}

absl::StatusOr<GameVerdict> ArbiterClient::Converted(const v1::GameVerdict& verdict) const {
  absl::StatusOr<GameVerdict> v = wire::FromProto(verdict);
  if (!v.ok())
    return absl::DataLossError(absl::StrCat(Subject(), " sent a verdict for game ", verdict.game(),
                                            " that does not parse: ", v.status().message()));
  return v;
}

absl::StatusOr<v1::Assessment> ArbiterClient::Analyze(const v1::AnalyzeRequest& request,
                                                      const Call& call) {
  grpc::ClientContext ctx;
  Prepare(ctx, call);
  v1::Assessment reply;
  grpc::Status s = stub_->Analyze(&ctx, request, &reply);
  if (s.error_code() == grpc::StatusCode::INVALID_ARGUMENT)
    return absl::InvalidArgumentError(s.error_message());  // as the embedded run says it
  if (!s.ok()) return Error(s);
  return reply;
}

absl::Status ArbiterClient::Verify(const std::function<bool(RawGame*)>& next,
                                   const v1::SearchOptions& options, int games_per_message,
                                   const std::function<bool(GameVerdict&)>& deliver,
                                   const Call& call) {
  RawGame raw;
  return VerifyInputs(
      [&](v1::GameInput* game) {
        if (!next(&raw)) return false;
        *game->mutable_record() = wire::ToProto(raw);
        return true;
      },
      options, games_per_message, deliver, call);
}

absl::Status ArbiterClient::VerifyInputs(const std::function<bool(v1::GameInput*)>& next,
                                         const v1::SearchOptions& options, int games_per_message,
                                         const std::function<bool(GameVerdict&)>& deliver,
                                         const Call& call) {
  grpc::ClientContext ctx;
  Prepare(ctx, call);
  auto stream = stub_->VerifyGames(&ctx);
  // Sending runs beside receiving; HTTP/2 flow control holds the sender back
  // when the coordinator's in-flight bound is reached.
  // Every game sent is numbered; its verdict must come back with that id,
  // in order, and none may be missing: a silently shortened run would be
  // the worst kind of wrong answer.
  std::atomic<int64_t> sent{0};
  std::atomic<bool> all_sent{false};
  std::thread sender([&] {
    v1::VerifyGamesRequest request;
    *request.mutable_options() = options;
    int64_t numbered = 0;
    auto send = [&] {
      const int n = request.games_size();
      if (n == 0 || !stream->Write(request)) return n == 0;
      sent += n;
      request.Clear();  // options go with the first message only
      return true;
    };
    for (;;) {
      v1::GameInput* game = request.add_games();
      if (!next(game)) {
        request.mutable_games()->RemoveLast();
        break;
      }
      game->set_id(absl::StrCat(++numbered));
      if (request.games_size() >= games_per_message && !send()) return;
    }
    if (!send()) return;
    all_sent = true;
    stream->WritesDone();
  });
  v1::VerifyGamesResponse response;
  absl::Status failure;
  int64_t received = 0;
  while (failure.ok() && stream->Read(&response)) {
    for (const v1::IdentifiedVerdict& item : response.verdicts()) {
      if (item.id() != absl::StrCat(++received)) {
        failure = absl::DataLossError(
            absl::StrCat(Subject(), " answered game ", received, " with id \"", item.id(), "\""));
        break;
      }
      absl::StatusOr<GameVerdict> verdict = Converted(item.verdict());
      if (!verdict.ok()) {
        failure = verdict.status();
        break;
      }
      if (!deliver(*verdict)) {
        failure = absl::CancelledError("the verdicts' reader stopped");
        break;
      }
    }
  }
  // The reads ended: the call is over (the server answers only after our
  // WritesDone) or failed, and then Write fails at once; join, then Finish.
  if (!failure.ok()) ctx.TryCancel();
  sender.join();
  grpc::Status s = stream->Finish();
  if (!failure.ok()) return failure;
  if (!s.ok()) return Error(s);
  if (!all_sent || received != sent)
    return absl::DataLossError(
        absl::StrCat(Subject(), " returned ", received, " verdicts for ", sent.load(), " games"));
  return absl::OkStatus();
}

absl::StatusOr<v1::Job> ArbiterClient::UploadJob(
    const std::string& name, const v1::SearchOptions& options,
    const std::function<absl::StatusOr<std::string>()>& read, const Call& call) {
  v1::UploadJobRequest request;
  request.set_name(name);
  *request.mutable_options() = options;
  grpc::ClientContext ctx;
  Prepare(ctx, call);
  v1::Job job;
  std::unique_ptr<grpc::ClientWriter<v1::UploadJobRequest>> writer = stub_->UploadJob(&ctx, &job);
  absl::Status failure;
  for (bool first = true;; first = false) {
    absl::StatusOr<std::string> data = read();
    if (!data.ok()) {
      failure = data.status();
      ctx.TryCancel();  // the coordinator must not take a part for the whole
      break;
    }
    if (data->empty() && !first) break;
    request.set_data(*std::move(data));
    if (!writer->Write(request)) break;  // refused: Finish says why
    request.clear_name();
    request.clear_options();
    if (request.data().empty()) break;
  }
  writer->WritesDone();
  grpc::Status s = writer->Finish();
  if (!failure.ok()) return failure;
  if (!s.ok()) return Error(s);
  return job;
}

absl::StatusOr<v1::Job> ArbiterClient::SubmitJob(const v1::SubmitJobRequest& request,
                                                 const Call& call) {
  grpc::ClientContext ctx;
  Prepare(ctx, call);
  v1::Job job;
  grpc::Status s = stub_->SubmitJob(&ctx, request, &job);
  if (!s.ok()) return Error(s);
  return job;
}

absl::StatusOr<std::vector<v1::Job>> ArbiterClient::ListJobs(int limit, const Call& call) {
  v1::ListJobsRequest request;
  request.set_limit(limit);
  grpc::ClientContext ctx;
  Prepare(ctx, call);
  v1::ListJobsResponse response;
  grpc::Status s = stub_->ListJobs(&ctx, request, &response);
  if (!s.ok()) return Error(s);
  return std::vector<v1::Job>(response.jobs().begin(), response.jobs().end());
}

absl::StatusOr<v1::Job> ArbiterClient::CancelJob(const std::string& id, const Call& call) {
  v1::CancelJobRequest request;
  request.set_id(id);
  grpc::ClientContext ctx;
  Prepare(ctx, call);
  v1::Job job;
  grpc::Status s = stub_->CancelJob(&ctx, request, &job);
  if (!s.ok()) return Error(s);
  return job;
}

absl::Status ArbiterClient::DeleteJob(const std::string& id, const Call& call) {
  v1::DeleteJobRequest request;
  request.set_id(id);
  grpc::ClientContext ctx;
  Prepare(ctx, call);
  v1::DeleteJobResponse response;
  grpc::Status s = stub_->DeleteJob(&ctx, request, &response);
  if (!s.ok()) return Error(s);
  return absl::OkStatus();
}

absl::StatusOr<v1::Job> ArbiterClient::GetJob(const std::string& id, const Call& call) {
  v1::GetJobRequest request;
  request.set_id(id);
  grpc::ClientContext ctx;
  Prepare(ctx, call);
  v1::Job job;
  grpc::Status s = stub_->GetJob(&ctx, request, &job);
  if (!s.ok()) return Error(s);
  return job;
}

absl::StatusOr<v1::Job> ArbiterClient::WatchJob(const std::string& id,
                                                const std::function<void(const v1::Job&)>& update,
                                                const Call& call) {
  v1::WatchJobRequest request;
  request.set_id(id);
  grpc::ClientContext ctx;
  Prepare(ctx, call);
  auto reader = stub_->WatchJob(&ctx, request);
  v1::Job job;
  std::optional<v1::Job> last;
  while (reader->Read(&job)) {
    last = job;
    update(job);
  }
  grpc::Status s = reader->Finish();
  if (!s.ok()) return Error(s);
  if (!last) return absl::UnavailableError("the coordinator sent no job state");
  return *last;
}

absl::Status ArbiterClient::JobResults(const std::string& id, int64_t first_game, bool follow,
                                       const std::function<bool(GameVerdict&)>& deliver,
                                       const Call& call) {
  v1::GetJobResultsRequest request;
  request.set_id(id);
  request.set_first_game(first_game);
  request.set_follow(follow);
  grpc::ClientContext ctx;
  Prepare(ctx, call);
  auto reader = stub_->GetJobResults(&ctx, request);
  v1::GameVerdict verdict;
  absl::Status failure;
  while (reader->Read(&verdict)) {
    absl::StatusOr<GameVerdict> converted = Converted(verdict);
    if (!converted.ok())
      failure = converted.status();
    else if (!deliver(*converted))
      failure = absl::CancelledError("the verdicts' reader stopped");
    if (!failure.ok()) {
      ctx.TryCancel();
      break;
    }
  }
  grpc::Status s = reader->Finish();
  if (!failure.ok()) return failure;
  if (!s.ok()) return Error(s);
  return absl::OkStatus();
}

}  // namespace arbiter::common
