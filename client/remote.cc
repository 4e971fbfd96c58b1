#include "client/remote.h"

#include <atomic>
#include <cstdlib>
#include <optional>
#include <thread>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/arbiter.grpc.pb.h"
#include "core/tablebase/syzygy.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "grpcpp/create_channel.h"
#include "proto/convert.h"
#include "server/security.h"

namespace arbiter::cli {

std::string CoordinatorFrom(const Args& args) {
  if (args.Has(kCoordinatorOption)) return args.Get(kCoordinatorOption);
  const char* env = std::getenv("ARBITER_COORDINATOR");
  return env ? env : "";
}

bool TablebaseRequested(const Args& args) {
  return args.Has("syzygy") || !SyzygyDirsFromEnv().empty();
}

struct RemoteArbiter::Impl {
  std::string address;
  std::unique_ptr<v1::Arbiter::Stub> stub;

  absl::Status Error(const grpc::Status& s) const {
    return absl::Status(absl::StatusCode(int(s.error_code())),
                        absl::StrCat("coordinator ", address, ": ", s.error_message()));
  }
};

RemoteArbiter::RemoteArbiter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

absl::StatusOr<std::unique_ptr<RemoteArbiter>> RemoteArbiter::Connect(const Args& args) {
  auto option = [&](const char* name, const char* env) {
    if (args.Has(name)) return args.Get(name);
    const char* value = std::getenv(env);
    return std::string(value ? value : "");
  };
  serving::ChannelSecurity security;
  security.ca_file = option(kTlsCaOption, "ARBITER_TLS_CA");
  security.token_file = option(kTokenFileOption, "ARBITER_TOKEN_FILE");
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials =
      serving::MakeChannelCredentials(security);
  if (!credentials.ok()) return credentials.status();
  auto impl = std::make_unique<Impl>();
  impl->address = CoordinatorFrom(args);
  grpc::ChannelArguments channel_args;
  channel_args.SetMaxReceiveMessageSize(64 << 20);
  impl->stub =
      v1::Arbiter::NewStub(grpc::CreateCustomChannel(impl->address, *credentials, channel_args));
  return std::unique_ptr<RemoteArbiter>(new RemoteArbiter(std::move(impl)));
}

RemoteArbiter::~RemoteArbiter() = default;

absl::StatusOr<v1::Assessment> RemoteArbiter::Ask(v1::AnalyzeRequest& request) {
  grpc::ClientContext ctx;
  v1::Assessment reply;
  grpc::Status s = impl_->stub->Analyze(&ctx, request, &reply);
  if (s.error_code() == grpc::StatusCode::INVALID_ARGUMENT)
    return absl::InvalidArgumentError(s.error_message());  // as the embedded run says it
  if (!s.ok()) return impl_->Error(s);
  return reply;
}

absl::StatusOr<PositionAnalysis> RemoteArbiter::Analyze(const std::string& fen, bool chess960,
                                                        const std::vector<std::string>& moves,
                                                        const MateSearchOptions& options,
                                                        bool tablebase,
                                                        std::optional<Color> only_side) {
  v1::AnalyzeRequest request;
  request.set_fen(fen);
  for (const std::string& m : moves) request.add_moves(m);
  request.set_chess960(chess960);
  request.set_side(wire::SideToProto(only_side));
  *request.mutable_options() = wire::ToProto(options, tablebase);
  absl::StatusOr<v1::Assessment> reply = Ask(request);
  if (!reply.ok()) return reply.status();
  return wire::FromProto(*reply);
}

absl::StatusOr<Chess99Report> RemoteArbiter::AnalyzeChess99(const std::string& fen,
                                                            const std::vector<std::string>& moves,
                                                            const MateSearchOptions& options) {
  v1::AnalyzeRequest request;
  request.set_fen(fen);
  for (const std::string& m : moves) request.add_moves(m);
  *request.mutable_options() = wire::ToProto(options, false);
  request.mutable_options()->set_rules(v1::RULESET_CHESS99);
  absl::StatusOr<v1::Assessment> reply = Ask(request);
  if (!reply.ok()) return reply.status();
  return wire::Chess99FromProto(*reply);
}

absl::Status RemoteArbiter::Verify(const std::function<bool(RawGame*)>& next,
                                   const MateSearchOptions& options, bool tablebase,
                                   int games_per_message,
                                   const std::function<void(GameVerdict&)>& deliver) {
  grpc::ClientContext ctx;
  auto stream = impl_->stub->VerifyGames(&ctx);
  // Sending runs beside receiving; HTTP/2 flow control holds the sender back
  // when the coordinator's in-flight bound is reached.
  // Every game sent is numbered; its verdict must come back with that id,
  // in order, and none may be missing: a silently shortened run would be
  // the worst kind of wrong answer.
  std::atomic<int64_t> sent{0};
  std::atomic<bool> all_sent{false};
  std::thread sender([&] {
    v1::VerifyGamesRequest request;
    *request.mutable_options() = wire::ToProto(options, tablebase);
    RawGame raw;
    int64_t numbered = 0;
    auto send = [&] {
      const int n = request.games_size();
      if (n == 0 || !stream->Write(request)) return n == 0;
      sent += n;
      request.Clear();  // options go with the first message only
      return true;
    };
    while (next(&raw)) {
      v1::GameInput* game = request.add_games();
      game->set_id(absl::StrCat(++numbered));
      *game->mutable_record() = wire::ToProto(raw);
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
    for (v1::IdentifiedVerdict& item : *response.mutable_verdicts()) {
      if (item.id() != absl::StrCat(++received)) {
        failure =
            absl::DataLossError(absl::StrCat("coordinator ", impl_->address, " answered game ",
                                             received, " with id \"", item.id(), "\""));
        break;
      }
      absl::StatusOr<GameVerdict> v = wire::FromProto(item.verdict());
      if (!v.ok()) {
        failure = absl::DataLossError(
            absl::StrCat("coordinator ", impl_->address, " sent a verdict for game ",
                         item.verdict().game(), " that does not parse: ", v.status().message()));
        break;
      }
      deliver(*v);
    }
  }
  // The reads ended: the call is over (the server answers only after our
  // WritesDone) or failed, and then Write fails at once; join, then Finish.
  if (!failure.ok()) ctx.TryCancel();
  sender.join();
  grpc::Status s = stream->Finish();
  if (!failure.ok()) return failure;
  if (!s.ok()) return impl_->Error(s);
  if (!all_sent || received != sent)
    return absl::DataLossError(absl::StrCat("coordinator ", impl_->address, " returned ", received,
                                            " verdicts for ", sent.load(), " games"));
  return absl::OkStatus();
}

namespace {

JobStatus FromJob(const v1::Job& job) {
  JobStatus out;
  out.id = job.id();
  out.state = job.state() == v1::Job::STATE_RUNNING ? "running"
              : job.state() == v1::Job::STATE_DONE  ? "done"
                                                    : "failed";
  out.path = job.path();
  out.games_read = job.games_read();
  out.games_done = job.games_done();
  out.errors = job.errors();
  out.disagreements = job.disagreements();
  out.error = job.error();
  out.tablebase = job.options().tablebase();
  out.seconds = job.seconds();
  return out;
}

}  // namespace

absl::StatusOr<JobStatus> RemoteArbiter::SubmitJob(const std::string& path,
                                                   const MateSearchOptions& options, bool tablebase,
                                                   bool chess99) {
  v1::SubmitJobRequest request;
  request.set_path(path);
  *request.mutable_options() = wire::ToProto(options, tablebase);
  if (chess99) request.mutable_options()->set_rules(v1::RULESET_CHESS99);
  grpc::ClientContext ctx;
  v1::Job job;
  grpc::Status s = impl_->stub->SubmitJob(&ctx, request, &job);
  if (!s.ok()) return impl_->Error(s);
  return FromJob(job);
}

absl::StatusOr<JobStatus> RemoteArbiter::GetJob(const std::string& id) {
  v1::GetJobRequest request;
  request.set_id(id);
  grpc::ClientContext ctx;
  v1::Job job;
  grpc::Status s = impl_->stub->GetJob(&ctx, request, &job);
  if (!s.ok()) return impl_->Error(s);
  return FromJob(job);
}

absl::StatusOr<JobStatus> RemoteArbiter::WatchJob(
    const std::string& id, const std::function<void(const JobStatus&)>& update) {
  v1::WatchJobRequest request;
  request.set_id(id);
  grpc::ClientContext ctx;
  auto reader = impl_->stub->WatchJob(&ctx, request);
  v1::Job job;
  std::optional<JobStatus> last;
  while (reader->Read(&job)) {
    last = FromJob(job);
    update(*last);
  }
  grpc::Status s = reader->Finish();
  if (!s.ok()) return impl_->Error(s);
  if (!last) return absl::UnavailableError("the coordinator sent no job state");
  return *last;
}

absl::Status RemoteArbiter::JobResults(const std::string& id, int64_t first_game,
                                       const std::function<void(GameVerdict&)>& deliver) {
  v1::GetJobResultsRequest request;
  request.set_id(id);
  request.set_first_game(first_game);
  grpc::ClientContext ctx;
  auto reader = impl_->stub->GetJobResults(&ctx, request);
  v1::GameVerdict verdict;
  absl::Status failure;
  while (reader->Read(&verdict)) {
    absl::StatusOr<GameVerdict> v = wire::FromProto(verdict);
    if (!v.ok()) {
      failure = absl::DataLossError(absl::StrCat("verdict for game ", verdict.game(),
                                                 " does not parse: ", v.status().message()));
      ctx.TryCancel();
      break;
    }
    deliver(*v);
  }
  grpc::Status s = reader->Finish();
  if (!failure.ok()) return failure;
  if (!s.ok()) return impl_->Error(s);
  return absl::OkStatus();
}

}  // namespace arbiter::cli
