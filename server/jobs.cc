#include "server/jobs.h"

#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/io/byte_source.h"
#include "core/pgn/pgn_reader.h"
#include "proto/convert.h"

namespace arbiter::coordinator {
namespace {

using Clock = std::chrono::steady_clock;

// Verdicts are committed in groups: at most this many, or this often.
constexpr size_t kCommitVerdicts = 256;
constexpr auto kCommitInterval = std::chrono::milliseconds(200);

}  // namespace

struct Jobs::Job {
  v1::Job state;  // guarded by Jobs::mu_; games_done counts committed verdicts
  // Running time before this process took the job over (resumed jobs).
  double earlier_seconds = 0;
  Clock::time_point start = Clock::now();
  Clock::time_point end;  // set when the job ended

  // The state with its running time (needs Jobs::mu_).
  v1::Job Snapshot() const {
    v1::Job out = state;
    const auto until = state.state() == v1::Job::STATE_RUNNING ? Clock::now() : end;
    out.set_seconds(earlier_seconds + std::chrono::duration<double>(until - start).count());
    return out;
  }
};

absl::StatusOr<std::unique_ptr<Jobs>> Jobs::Open(Dispatcher& dispatcher, const std::string& dir) {
  absl::StatusOr<std::unique_ptr<JobStore>> store = JobStore::Open(dir + "/jobs.sqlite");
  if (!store.ok()) return store.status();
  absl::StatusOr<std::vector<v1::Job>> saved = (*store)->Jobs();
  if (!saved.ok()) return saved.status();
  std::unique_ptr<Jobs> jobs(new Jobs(dispatcher, *std::move(store)));
  std::lock_guard<std::mutex> lock(jobs->mu_);
  for (v1::Job& state : *saved) {
    auto job = std::make_shared<Job>();
    job->earlier_seconds = state.seconds();
    job->state = std::move(state);
    job->end = job->start;
    jobs->jobs_[job->state.id()] = job;
    if (job->state.state() == v1::Job::STATE_RUNNING) {
      std::fprintf(stderr, "arbiter-coordinator: resuming job %s at game %lld\n",
                   job->state.id().c_str(), (long long)job->state.games_done() + 1);
      jobs->Start(job);
    }
  }
  return jobs;
}

Jobs::~Jobs() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (std::thread& t : threads_) t.join();
}

std::shared_ptr<Jobs::Job> Jobs::Find(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = jobs_.find(id);
  return it == jobs_.end() ? nullptr : it->second;
}

absl::StatusOr<v1::Job> Jobs::Submit(const v1::SubmitJobRequest& request) {
  if (request.path().empty()) return absl::InvalidArgumentError("path is empty");
  // Options are checked here so that a bad job fails at submission.
  if (absl::StatusOr<MateSearchOptions> o = wire::FromProto(request.options()); !o.ok())
    return o.status();
  if (absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(request.path());
      !source.ok())
    return source.status();

  static std::mt19937_64 rng{std::random_device{}()};
  auto job = std::make_shared<Job>();
  std::lock_guard<std::mutex> lock(mu_);
  std::string id;
  do id = absl::StrFormat("%016x", rng());
  while (jobs_.count(id));
  job->state.set_id(id);
  job->state.set_path(request.path());
  job->state.set_state(v1::Job::STATE_RUNNING);
  *job->state.mutable_options() = request.options();
  // Recorded before the client hears of it: an acknowledged job survives.
  if (absl::Status s = store_->Create(job->state); !s.ok()) return s;
  jobs_[id] = job;
  Start(job);
  return job->Snapshot();
}

void Jobs::Start(std::shared_ptr<Job> job) {
  std::shared_ptr<Run> run = dispatcher_.NewRun(job->state.options());
  threads_.emplace_back([this, job, run] { Execute(job, run); });
}

void Jobs::Execute(std::shared_ptr<Job> job, std::shared_ptr<Run> run) {
  // Games already committed (a resumed job) are read again but not sent.
  int64_t skip;
  std::string path;
  {
    std::lock_guard<std::mutex> lock(mu_);
    skip = job->state.games_done();
    path = job->state.path();
    job->state.set_games_read(skip);
  }
  auto finish = [&](v1::Job::State state, const std::string& error) {
    std::lock_guard<std::mutex> lock(mu_);
    job->state.set_state(state);
    job->state.set_error(error);
    job->end = Clock::now();
    // A failed final commit leaves the job "running" in the store: the next
    // start resumes it, which is the safe side.
    if (absl::Status s = store_->Commit(job->Snapshot(), {}); !s.ok())
      std::fprintf(stderr, "arbiter-coordinator: job %s: %s\n", job->state.id().c_str(),
                   std::string(s.message()).c_str());
    changed_.notify_all();
  };
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
  if (!source.ok()) {
    run->Cancel();
    return finish(v1::Job::STATE_FAILED, std::string(source.status().message()));
  }

  // Reading feeds the run; this thread commits verdicts as they come, in order.
  // Only a reader that reached the end of its input may let the job be done.
  bool input_ended = false;
  std::thread reader([&, source = std::move(*source)]() mutable {
    PgnReader pgn(std::move(source), wire::ReaderOptionsFor(job->state.options()));
    RawGame raw;
    for (int64_t n = 0; pgn.Next(&raw); ++n) {
      if (n < skip) continue;
      if (!run->Add(wire::ToProto(raw))) return;
      std::lock_guard<std::mutex> lock(mu_);
      job->state.set_games_read(job->state.games_read() + 1);
    }
    input_ended = true;
    run->Finish();
  });
  std::vector<std::pair<int64_t, std::string>> pending;
  v1::Job counted;  // the job as it will stand once `pending` is committed
  {
    std::lock_guard<std::mutex> lock(mu_);
    counted = job->state;
  }
  auto last_commit = Clock::now();
  absl::Status store_error;
  auto commit = [&]() {
    if (pending.empty() || !store_error.ok()) return;
    std::lock_guard<std::mutex> lock(mu_);
    counted.set_games_read(job->state.games_read());
    counted.set_seconds(job->Snapshot().seconds());
    store_error = store_->Commit(counted, pending);
    if (store_error.ok()) {
      job->state.set_games_done(counted.games_done());
      job->state.set_errors(counted.errors());
      job->state.set_disagreements(counted.disagreements());
      changed_.notify_all();
    }
    pending.clear();
    last_commit = Clock::now();
  };
  v1::GameVerdict verdict;
  while (store_error.ok() && run->Next(&verdict)) {
    pending.emplace_back(counted.games_done(), verdict.SerializeAsString());
    counted.set_games_done(counted.games_done() + 1);
    if (!verdict.error().empty()) counted.set_errors(counted.errors() + 1);
    if (verdict.has_ruling() && !verdict.ruling().agrees())
      counted.set_disagreements(counted.disagreements() + 1);
    if (pending.size() >= kCommitVerdicts || Clock::now() - last_commit > kCommitInterval) commit();
  }
  commit();
  if (!store_error.ok()) run->Cancel();
  reader.join();
  // Stopped: the coordinator is shutting down (its runs end UNAVAILABLE, and
  // that may come before stopping_ is set, with every game read so far
  // ruled), or the input was not read to its end. The job stays running in
  // the store and resumes at the next start; it is never done with games
  // missing.
  bool stopped;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopped = stopping_ || !input_ended || job->state.games_done() < job->state.games_read() ||
              run->status().code() == absl::StatusCode::kUnavailable;
  }
  if (!store_error.ok()) return finish(v1::Job::STATE_FAILED, std::string(store_error.message()));
  if (!run->status().ok() && run->status().code() != absl::StatusCode::kUnavailable)
    return finish(v1::Job::STATE_FAILED, std::string(run->status().message()));
  if (stopped) return;
  finish(v1::Job::STATE_DONE, "");
}

absl::StatusOr<v1::Job> Jobs::Get(const std::string& id) const {
  std::shared_ptr<Job> job = Find(id);
  if (!job) return absl::NotFoundError(absl::StrCat("no job ", id));
  std::lock_guard<std::mutex> lock(mu_);
  return job->Snapshot();
}

absl::Status Jobs::Watch(const std::string& id, const std::function<bool(const v1::Job&)>& send) {
  std::shared_ptr<Job> job = Find(id);
  if (!job) return absl::NotFoundError(absl::StrCat("no job ", id));
  std::unique_lock<std::mutex> lock(mu_);
  int64_t shown = -1;
  for (;;) {
    // At most a few updates a second: progress, not a verdict stream.
    changed_.wait_for(lock, std::chrono::milliseconds(200), [&] {
      return stopping_ || job->state.games_done() != shown ||
             job->state.state() != v1::Job::STATE_RUNNING;
    });
    if (stopping_) return absl::UnavailableError("the coordinator is stopping");
    v1::Job snapshot = job->Snapshot();
    shown = snapshot.games_done();
    lock.unlock();
    if (!send(snapshot) || snapshot.state() != v1::Job::STATE_RUNNING) return absl::OkStatus();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    lock.lock();
  }
}

absl::Status Jobs::Results(const std::string& id, int64_t first_game,
                           const std::function<bool(const v1::GameVerdict&)>& send) {
  std::shared_ptr<Job> job = Find(id);
  if (!job) return absl::NotFoundError(absl::StrCat("no job ", id));
  int64_t next = std::max<int64_t>(first_game, 1) - 1;  // 0-based position
  v1::GameVerdict verdict;
  for (;;) {
    int64_t done;
    bool running;
    {
      std::unique_lock<std::mutex> lock(mu_);
      changed_.wait(lock, [&] {
        return stopping_ || job->state.games_done() > next ||
               job->state.state() != v1::Job::STATE_RUNNING;
      });
      if (stopping_) return absl::UnavailableError("the coordinator is stopping");
      done = job->state.games_done();
      running = job->state.state() == v1::Job::STATE_RUNNING;
    }
    while (next < done) {
      absl::StatusOr<std::vector<std::string>> rows =
          store_->Verdicts(id, next, std::min<int64_t>(done - next, 1024));
      if (!rows.ok()) return rows.status();
      if (rows->empty()) return absl::DataLossError(absl::StrCat("job ", id, ": verdicts missing"));
      for (const std::string& row : *rows) {
        if (!verdict.ParseFromString(row))
          return absl::DataLossError(absl::StrCat("job ", id, ": a verdict does not parse"));
        ++next;
        if (!send(verdict)) return absl::OkStatus();
      }
    }
    if (!running) return absl::OkStatus();
  }
}

}  // namespace arbiter::coordinator
