#include "client/remote.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/arbiter.grpc.pb.h"
#include "common/arbiter_client.h"
#include "common/heap.h"
#include "common/security.h"
#include "google/protobuf/util/time_util.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "grpcpp/create_channel.h"
#include "proto/convert.h"

namespace arbiter::cli {

struct RemoteArbiter::Impl {
  explicit Impl(std::shared_ptr<grpc::Channel> channel, std::string address)
      : client(std::move(channel), std::move(address)) {}
  common::ArbiterClient client;
};

RemoteArbiter::RemoteArbiter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

absl::Status RemoteArbiter::Available(const ConnectionOptions&) { return absl::OkStatus(); }

absl::StatusOr<std::unique_ptr<RemoteArbiter>> RemoteArbiter::Connect(
    const ConnectionOptions& options) {
  common::ChannelSecurity security;
  security.ca_file = TlsCaFrom(options);
  security.token_file = TokenFileFrom(options);
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials =
      common::MakeChannelCredentials(security);
  if (!credentials.ok()) return credentials.status();
  const std::string address = CoordinatorFrom(options);
  common::KeepFreedHeap();  // a verify streams its file through gRPC's buffers
  grpc::ChannelArguments channel_args;
  channel_args.SetMaxReceiveMessageSize(64 << 20);
  return std::unique_ptr<RemoteArbiter>(new RemoteArbiter(std::make_unique<Impl>(
      grpc::CreateCustomChannel(address, *credentials, channel_args), address)));
}

RemoteArbiter::~RemoteArbiter() = default;

absl::StatusOr<PositionAnalysis> RemoteArbiter::Analyze(const std::string& fen, bool chess960,
                                                        const std::vector<std::string>& moves,
                                                        const MateSearchOptions& options,
                                                        bool tablebase,
                                                        std::optional<Color> only_side,
                                                        const std::optional<ClaimQuestion>& claim) {
  v1::AnalyzeRequest request;
  request.set_fen(fen);
  for (const std::string& m : moves) request.add_moves(m);
  request.set_chess960(chess960);
  request.set_side(wire::SideToProto(only_side));
  *request.mutable_options() = wire::ToProto(options, tablebase);
  if (claim) wire::ToProto(*claim, request.mutable_claim());
  absl::StatusOr<v1::Assessment> reply = impl_->client.Analyze(request);
  if (!reply.ok()) return reply.status();
  // A worker built before claims existed drops the field unread.
  if (claim && !reply->has_claim())
    return absl::FailedPreconditionError(
        "the cluster's workers do not judge claims: upgrade them (proto/README.md)");
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
  absl::StatusOr<v1::Assessment> reply = impl_->client.Analyze(request);
  if (!reply.ok()) return reply.status();
  return wire::Chess99FromProto(*reply);
}

absl::Status RemoteArbiter::Verify(const std::function<bool(RawGame*)>& next,
                                   const MateSearchOptions& options, bool tablebase,
                                   int games_per_message,
                                   const std::function<void(GameVerdict&)>& deliver) {
  return impl_->client.Verify(next, wire::ToProto(options, tablebase), games_per_message,
                              [&](GameVerdict& v) {
                                deliver(v);
                                return true;
                              });
}

absl::Status RemoteArbiter::Verify(const std::function<bool(OutgoingGame*)>& next,
                                   const MateSearchOptions& options, bool tablebase,
                                   int games_per_message,
                                   const std::function<void(GameVerdict&)>& deliver) {
  // Each game's line offset (0 for a record), in sending order: verdicts
  // come back in that order, each after its game was sent.
  std::mutex offsets_mu;
  std::deque<int64_t> offsets;
  OutgoingGame game;
  return impl_->client.VerifyInputs(
      [&](v1::GameInput* input) {
        if (!next(&game)) return false;
        int64_t offset = 0;
        if (!game.text.empty()) {
          input->set_pgn(game.text.data(), game.text.size());
          offset = game.first_line - 1;
        } else {
          *input->mutable_record() = wire::ToProto(game.record);
        }
        std::lock_guard<std::mutex> lock(offsets_mu);
        offsets.push_back(offset);
        return true;
      },
      wire::ToProto(options, tablebase), games_per_message,
      [&](GameVerdict& v) {
        int64_t offset;
        {
          std::lock_guard<std::mutex> lock(offsets_mu);
          offset = offsets.front();
          offsets.pop_front();
        }
        if (v.error_line) v.error_line += offset;
        deliver(v);
        return true;
      });
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
  out.paused = job.paused();
  out.owner = job.owner();
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
  std::string buffer(kChunkBytes, '\0');
  absl::StatusOr<v1::Job> job = impl_->client.UploadJob(
      path == "-" ? "stdin" : std::filesystem::path(path).filename().string(),
      JobOptions(options, tablebase, chess99), [&]() -> absl::StatusOr<std::string> {
        const size_t n = std::fread(buffer.data(), 1, buffer.size(), file);
        if (std::ferror(file))
          return absl::DataLossError(absl::StrCat(path, ": ", std::strerror(errno)));
        return buffer.substr(0, n);
      });
  if (!job.ok()) return job.status();
  return FromJob(*job);
}

absl::StatusOr<JobStatus> RemoteArbiter::SubmitServerJob(const std::string& path,
                                                         const MateSearchOptions& options,
                                                         bool tablebase, bool chess99) {
  v1::SubmitJobRequest request;
  request.set_path(path);
  *request.mutable_options() = JobOptions(options, tablebase, chess99);
  absl::StatusOr<v1::Job> job = impl_->client.SubmitJob(request);
  if (!job.ok()) return job.status();
  return FromJob(*job);
}

absl::StatusOr<std::vector<JobStatus>> RemoteArbiter::ListJobs(int limit) {
  absl::StatusOr<std::vector<v1::Job>> jobs = impl_->client.ListJobs(limit);
  if (!jobs.ok()) return jobs.status();
  std::vector<JobStatus> out;
  for (const v1::Job& job : *jobs) out.push_back(FromJob(job));
  return out;
}

absl::StatusOr<JobStatus> RemoteArbiter::CancelJob(const std::string& id) {
  absl::StatusOr<v1::Job> job = impl_->client.CancelJob(id);
  if (!job.ok()) return job.status();
  return FromJob(*job);
}

absl::Status RemoteArbiter::DeleteJob(const std::string& id) { return impl_->client.DeleteJob(id); }

absl::StatusOr<JobStatus> RemoteArbiter::GetJob(const std::string& id) {
  absl::StatusOr<v1::Job> job = impl_->client.GetJob(id);
  if (!job.ok()) return job.status();
  return FromJob(*job);
}

absl::StatusOr<JobStatus> RemoteArbiter::WatchJob(
    const std::string& id, const std::function<void(const JobStatus&)>& update) {
  absl::StatusOr<v1::Job> last =
      impl_->client.WatchJob(id, [&](const v1::Job& job) { update(FromJob(job)); });
  if (!last.ok()) return last.status();
  return FromJob(*last);
}

absl::Status RemoteArbiter::JobResults(const std::string& id, int64_t first_game, bool follow,
                                       const std::function<void(GameVerdict&)>& deliver) {
  return impl_->client.JobResults(id, first_game, follow, [&](GameVerdict& v) {
    deliver(v);
    return true;
  });
}

}  // namespace arbiter::cli
