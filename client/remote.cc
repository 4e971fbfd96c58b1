#include "client/remote.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <thread>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/arbiter.grpc.pb.h"
#include "common/command_line.h"
#include "common/security.h"
#include "common/tablebase_options.h"
#include "google/protobuf/util/time_util.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "grpcpp/create_channel.h"
#include "proto/convert.h"

namespace arbiter::cli {

namespace {

// The option's value as given, else the environment variable's.
std::string OptionOrEnv(const std::optional<std::string>& option, const char* variable) {
  if (option) return *option;
  const char* value = std::getenv(variable);
  return value ? value : "";
}

}  // namespace

void AddConnectionOptions(CLI::App& command, ConnectionOptions* options) {
  AddValue(command, "--coordinator", &options->coordinator, "HOST:PORT",
           "Send the work to an arbiter-coordinator instead of running the engine\n"
           "in this process; the output is the same. Default $ARBITER_COORDINATOR");
  AddValue(command, "--tls-ca", &options->tls_ca, "FILE",
           "(with --coordinator) TLS, trusting the CA in FILE; default $ARBITER_TLS_CA.\n"
           "Without it the connection is plain text");
  AddValue(command, "--token-file", &options->token_file, "FILE",
           "(with --coordinator) send the bearer token in FILE with every call\n"
           "(needs TLS); default $ARBITER_TOKEN_FILE");
}

std::string CoordinatorFrom(const ConnectionOptions& options) {
  return OptionOrEnv(options.coordinator, "ARBITER_COORDINATOR");
}

bool TablebaseRequested(const std::vector<std::string>& syzygy) {
  return !syzygy.empty() || !SyzygyDirsFromEnv().empty();
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

absl::StatusOr<std::unique_ptr<RemoteArbiter>> RemoteArbiter::Connect(
    const ConnectionOptions& options) {
  serving::ChannelSecurity security;
  security.ca_file = OptionOrEnv(options.tls_ca, "ARBITER_TLS_CA");
  security.token_file = OptionOrEnv(options.token_file, "ARBITER_TOKEN_FILE");
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials =
      serving::MakeChannelCredentials(security);
  if (!credentials.ok()) return credentials.status();
  auto impl = std::make_unique<Impl>();
  impl->address = CoordinatorFrom(options);
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

const char* JobStateName(JobState state) {
  switch (state) {
    case JobState::kRunning:
      return "running";
    case JobState::kDone:
      return "done";
    case JobState::kFailed:
      return "failed";
    case JobState::kCancelled:
      return "cancelled";
  }
  return "unknown";
}

namespace {

// In whole seconds: the coordinator keeps nanoseconds to order jobs, which
// `job list` need not show.
std::string TimeText(google::protobuf::Timestamp t) {
  if (t.seconds() == 0 && t.nanos() == 0) return "";
  t.set_nanos(0);
  return google::protobuf::util::TimeUtil::ToString(t);
}

JobStatus FromJob(const v1::Job& job) {
  JobStatus out;
  out.id = job.id();
  switch (job.state()) {
    case v1::Job::STATE_DONE:
      out.state = JobState::kDone;
      break;
    case v1::Job::STATE_CANCELLED:
      out.state = JobState::kCancelled;
      break;
    case v1::Job::STATE_RUNNING:
      out.state = JobState::kRunning;
      break;
    default:
      out.state = JobState::kFailed;
  }
  out.path = job.path();
  out.uploaded = job.uploaded();
  out.input_bytes = job.input_bytes();
  out.games_read = job.games_read();
  out.games_done = job.games_done();
  out.errors = job.errors();
  out.disagreements = job.disagreements();
  out.error = job.error();
  out.tablebase = job.options().tablebase();
  out.seconds = job.seconds();
  out.created = TimeText(job.created());
  out.finished = TimeText(job.finished());
  return out;
}

v1::SearchOptions JobOptions(const MateSearchOptions& options, bool tablebase, bool chess99) {
  v1::SearchOptions out = wire::ToProto(options, tablebase);
  if (chess99) out.set_rules(v1::RULESET_CHESS99);
  return out;
}

}  // namespace

absl::StatusOr<JobStatus> RemoteArbiter::UploadJob(std::FILE* file, const std::string& path,
                                                   const MateSearchOptions& options, bool tablebase,
                                                   bool chess99) {
  // Well under the coordinator's default 16 MB message limit.
  constexpr size_t kChunkBytes = 1 << 20;
  v1::UploadJobRequest request;
  request.set_name(path == "-" ? "stdin" : std::filesystem::path(path).filename().string());
  *request.mutable_options() = JobOptions(options, tablebase, chess99);
  grpc::ClientContext ctx;
  v1::Job job;
  std::unique_ptr<grpc::ClientWriter<v1::UploadJobRequest>> writer =
      impl_->stub->UploadJob(&ctx, &job);
  std::string buffer(kChunkBytes, '\0');
  absl::Status failure;
  for (bool first = true;; first = false) {
    const size_t n = std::fread(buffer.data(), 1, buffer.size(), file);
    if (std::ferror(file)) {
      failure = absl::DataLossError(absl::StrCat(path, ": ", std::strerror(errno)));
      ctx.TryCancel();  // the coordinator must not take a part for the whole
      break;
    }
    if (n == 0 && !first) break;
    request.set_data(buffer.data(), n);
    if (!writer->Write(request)) break;  // refused: Finish says why
    request.clear_name();
    request.clear_options();
    if (n == 0) break;
  }
  writer->WritesDone();
  grpc::Status s = writer->Finish();
  if (!failure.ok()) return failure;
  if (!s.ok()) return impl_->Error(s);
  return FromJob(job);
}

absl::StatusOr<JobStatus> RemoteArbiter::SubmitServerJob(const std::string& path,
                                                         const MateSearchOptions& options,
                                                         bool tablebase, bool chess99) {
  v1::SubmitJobRequest request;
  request.set_path(path);
  *request.mutable_options() = JobOptions(options, tablebase, chess99);
  grpc::ClientContext ctx;
  v1::Job job;
  grpc::Status s = impl_->stub->SubmitJob(&ctx, request, &job);
  if (!s.ok()) return impl_->Error(s);
  return FromJob(job);
}

absl::StatusOr<std::vector<JobStatus>> RemoteArbiter::ListJobs(int limit) {
  v1::ListJobsRequest request;
  request.set_limit(limit);
  grpc::ClientContext ctx;
  v1::ListJobsResponse response;
  grpc::Status s = impl_->stub->ListJobs(&ctx, request, &response);
  if (!s.ok()) return impl_->Error(s);
  std::vector<JobStatus> out;
  for (const v1::Job& job : response.jobs()) out.push_back(FromJob(job));
  return out;
}

absl::StatusOr<JobStatus> RemoteArbiter::CancelJob(const std::string& id) {
  v1::CancelJobRequest request;
  request.set_id(id);
  grpc::ClientContext ctx;
  v1::Job job;
  grpc::Status s = impl_->stub->CancelJob(&ctx, request, &job);
  if (!s.ok()) return impl_->Error(s);
  return FromJob(job);
}

absl::Status RemoteArbiter::DeleteJob(const std::string& id) {
  v1::DeleteJobRequest request;
  request.set_id(id);
  grpc::ClientContext ctx;
  v1::DeleteJobResponse response;
  grpc::Status s = impl_->stub->DeleteJob(&ctx, request, &response);
  if (!s.ok()) return impl_->Error(s);
  return absl::OkStatus();
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
