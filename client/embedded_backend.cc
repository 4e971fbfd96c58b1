#include "client/embedded_backend.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/io/byte_source.h"
#include "core/util/ordered_parallel.h"
#include "core/util/text_encoding.h"
#include "core/verdict/game_verdict.h"
#include "google/protobuf/util/time_util.h"
#include "proto/convert.h"

namespace arbiter::cli {
namespace {

using Clock = std::chrono::steady_clock;

google::protobuf::Timestamp Now() {
  return google::protobuf::util::TimeUtil::NanosecondsToTimestamp(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count());
}

}  // namespace

struct EmbeddedBackend::Job {
  std::mutex mu;
  std::condition_variable changed;  // a verdict, or the end
  v1::Job state;
  std::vector<v1::GameVerdict> verdicts;
  std::atomic<bool> cancel{false};
  Clock::time_point start = Clock::now(), end;
  std::thread thread;

  bool running() const { return state.state() == v1::Job::STATE_RUNNING; }
  v1::Job Snapshot() {  // needs mu
    v1::Job out = state;
    out.set_seconds(
        std::chrono::duration<double>((running() ? Clock::now() : end) - start).count());
    return out;
  }
};

EmbeddedBackend::EmbeddedBackend(const LocalEngine& engine, EmbeddedLimits limits)
    : engine_(engine), limits_(std::move(limits)) {}

EmbeddedBackend::~EmbeddedBackend() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [id, job] : jobs_) job->cancel = true;
  for (auto& [id, job] : jobs_)
    if (job->thread.joinable()) job->thread.join();
}

absl::StatusOr<MateSearchOptions> EmbeddedBackend::Prepare(const v1::SearchOptions& options) const {
  if (options.budget() > limits_.max_budget)
    return absl::ResourceExhaustedError(absl::StrCat("budget ", options.budget(),
                                                     " exceeds this server's ", limits_.max_budget,
                                                     " (--max-budget)"));
  return engine_.Prepare(options);
}

absl::StatusOr<v1::Assessment> EmbeddedBackend::Analyze(const v1::AnalyzeRequest& request) {
  absl::StatusOr<MateSearchOptions> options = Prepare(request.options());
  if (!options.ok()) return options.status();
  return engine_.Analyze(request, *options);
}

void EmbeddedBackend::Rule(const MateSearchOptions& options,
                           const std::function<bool(RawGame*)>& next,
                           const http::VerdictSink& deliver) const {
  std::atomic<bool> stop{false};
  thread_local ReplayedGame scratch;
  const int threads = std::max(1, limits_.threads);
  OrderedParallelMap<RawGame, v1::GameVerdict>::Run(
      {.threads = threads, .batch_size = 16, .max_batches = size_t(4 * threads)},
      [&](RawGame* game) { return !stop && next(game); },
      [&](RawGame& game, v1::GameVerdict* out) {
        GameVerdict verdict;
        VerifyGame(game, options, &scratch, &verdict, options.syzygy);
        *out = wire::ToProto(verdict);
      },
      [&](v1::GameVerdict& verdict) {
        if (!stop && !deliver(verdict)) stop = true;
      });
}

absl::Status EmbeddedBackend::Verify(const v1::SearchOptions& options,
                                     const std::function<bool(RawGame*)>& next,
                                     const http::VerdictSink& deliver) {
  absl::StatusOr<MateSearchOptions> o = Prepare(options);
  if (!o.ok()) return o.status();
  Rule(*o, next, deliver);
  return absl::OkStatus();
}

absl::StatusOr<v1::Job> EmbeddedBackend::SubmitJob(const std::string& name,
                                                   const v1::SearchOptions& options,
                                                   const http::BodyReader& body) {
  absl::StatusOr<MateSearchOptions> o = Prepare(options);
  if (!o.ok()) return o.status();
  // The upload is kept in a file while it is ruled, not in memory.
  std::string path = limits_.spool_dir + "/arbiter-serve-job.XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0)
    return absl::InternalError(absl::StrCat("cannot create a file in ", limits_.spool_dir,
                                            " for the upload: ", std::strerror(errno)));
  FILE* file = ::fdopen(fd, "w");
  int64_t bytes = 0;
  const bool read = body([&](std::string_view piece) {
    bytes += int64_t(piece.size());
    return std::fwrite(piece.data(), 1, piece.size(), file) == piece.size();
  });
  const bool written = std::fclose(file) == 0;
  if (!read || !written) {
    ::unlink(path.c_str());
    return absl::DataLossError("the upload could not be read or stored in full");
  }
  auto job = std::make_shared<Job>();
  job->state.set_state(v1::Job::STATE_RUNNING);
  job->state.set_path(ReplaceInvalidUtf8(name));
  job->state.set_uploaded(true);
  job->state.set_input_bytes(bytes);
  *job->state.mutable_options() = options;
  *job->state.mutable_created() = Now();
  {
    std::lock_guard<std::mutex> lock(mu_);
    static std::mt19937_64 rng{std::random_device{}()};
    std::string id;
    do id = absl::StrFormat("%016x", rng());
    while (jobs_.count(id));
    job->state.set_id(id);
    jobs_[id] = job;
  }
  v1::Job snapshot;
  {
    std::lock_guard<std::mutex> lock(job->mu);
    snapshot = job->Snapshot();
  }
  job->thread = std::thread(&EmbeddedBackend::RunJob, this, job, std::move(path), *o);
  return snapshot;
}

void EmbeddedBackend::RunJob(std::shared_ptr<Job> job, std::string path,
                             MateSearchOptions options) {
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
  ::unlink(path.c_str());  // open, the file stays readable; nothing is left behind
  std::string error;
  if (source.ok()) {
    PgnReader reader(*std::move(source), wire::ReaderOptionsFor(job->state.options()));
    Rule(
        options,
        [&](RawGame* game) {
          if (job->cancel || !reader.Next(game)) return false;
          std::lock_guard<std::mutex> lock(job->mu);
          job->state.set_games_read(job->state.games_read() + 1);
          return true;
        },
        [&](const v1::GameVerdict& verdict) {
          std::lock_guard<std::mutex> lock(job->mu);
          job->state.set_games_done(job->state.games_done() + 1);
          if (!verdict.error().empty()) {
            job->state.set_errors(job->state.errors() + 1);
          } else if (!verdict.ruling().agrees()) {
            job->state.set_disagreements(job->state.disagreements() + 1);
          }
          job->verdicts.push_back(verdict);
          job->changed.notify_all();
          return !job->cancel;
        });
    if (!reader.input_error().ok())
      error = absl::StrCat("the input ended early: ", reader.input_error().message());
  } else {
    error = std::string(source.status().message());
  }
  std::lock_guard<std::mutex> lock(job->mu);
  job->state.set_state(job->cancel     ? v1::Job::STATE_CANCELLED
                       : error.empty() ? v1::Job::STATE_DONE
                                       : v1::Job::STATE_FAILED);
  job->state.set_error(ReplaceInvalidUtf8(error));
  *job->state.mutable_finished() = Now();
  job->end = Clock::now();
  job->changed.notify_all();
}

absl::StatusOr<std::shared_ptr<EmbeddedBackend::Job>> EmbeddedBackend::Find(const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return absl::NotFoundError(absl::StrCat("no job ", id));
  return it->second;
}

absl::StatusOr<v1::Job> EmbeddedBackend::GetJob(const std::string& id) {
  absl::StatusOr<std::shared_ptr<Job>> job = Find(id);
  if (!job.ok()) return job.status();
  std::lock_guard<std::mutex> lock((*job)->mu);
  return (*job)->Snapshot();
}

absl::StatusOr<std::vector<v1::Job>> EmbeddedBackend::ListJobs(int limit) {
  std::vector<std::shared_ptr<Job>> all;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [id, job] : jobs_) all.push_back(job);
  }
  std::vector<v1::Job> out;
  for (const std::shared_ptr<Job>& job : all) {
    std::lock_guard<std::mutex> lock(job->mu);
    out.push_back(job->Snapshot());
  }
  std::sort(out.begin(), out.end(), [](const v1::Job& a, const v1::Job& b) {
    return std::make_pair(a.created().seconds(), a.created().nanos()) >
           std::make_pair(b.created().seconds(), b.created().nanos());
  });
  out.resize(std::min(out.size(), size_t(limit > 0 ? limit : 100)));
  return out;
}

absl::StatusOr<v1::Job> EmbeddedBackend::CancelJob(const std::string& id) {
  absl::StatusOr<std::shared_ptr<Job>> job = Find(id);
  if (!job.ok()) return job.status();
  (*job)->cancel = true;
  std::unique_lock<std::mutex> lock((*job)->mu);
  (*job)->changed.wait(lock, [&] { return !(*job)->running(); });
  return (*job)->Snapshot();
}

absl::Status EmbeddedBackend::DeleteJob(const std::string& id) {
  std::shared_ptr<Job> job;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return absl::NotFoundError(absl::StrCat("no job ", id));
    {
      std::lock_guard<std::mutex> job_lock(it->second->mu);
      if (it->second->running())
        return absl::FailedPreconditionError(
            absl::StrCat("job ", id, " is running: cancel it first"));
    }
    job = it->second;
    jobs_.erase(it);
  }
  if (job->thread.joinable()) job->thread.join();
  return absl::OkStatus();
}

absl::Status EmbeddedBackend::JobResults(const std::string& id, int64_t first_game,
                                         const http::VerdictSink& deliver) {
  absl::StatusOr<std::shared_ptr<Job>> found = Find(id);
  if (!found.ok()) return found.status();
  Job& job = **found;
  size_t next = size_t(std::max<int64_t>(first_game, 1) - 1);
  for (;;) {
    std::vector<v1::GameVerdict> batch;
    bool ended;
    {
      std::unique_lock<std::mutex> lock(job.mu);
      job.changed.wait(lock, [&] { return job.verdicts.size() > next || !job.running(); });
      for (; next < job.verdicts.size(); ++next) batch.push_back(job.verdicts[next]);
      ended = !job.running();
    }
    for (const v1::GameVerdict& v : batch)
      if (!deliver(v)) return absl::CancelledError("the verdicts' reader stopped");
    if (ended) return absl::OkStatus();
  }
}

}  // namespace arbiter::cli
