#include "server/jobs.h"

#include <algorithm>
#include <filesystem>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "arbiter/v1/relay.pb.h"
#include "core/io/byte_source.h"
#include "core/pgn/pgn_reader.h"
#include "core/util/text_encoding.h"
#include "google/protobuf/util/time_util.h"
#include "proto/convert.h"
#include "server/job_input.h"
#include "server/job_upload.h"

namespace arbiter::coordinator {
namespace {

using Clock = std::chrono::steady_clock;
using google::protobuf::util::TimeUtil;

// The time of day to the nanosecond. TimeUtil::GetCurrentTime has whole
// seconds only (protobuf 3.21), which left the jobs created in one second
// in no order in List.
google::protobuf::Timestamp Now() {
  return TimeUtil::NanosecondsToTimestamp(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                              std::chrono::system_clock::now().time_since_epoch())
                                              .count());
}

// Verdicts are committed in groups: at most this many, or this often.
constexpr size_t kCommitVerdicts = 256;
constexpr auto kCommitInterval = std::chrono::milliseconds(200);
// A failed commit (a full disk) is tried again after this, doubling up to
// the longest; meanwhile the job waits, and its workers with it.
constexpr auto kFirstCommitRetry = std::chrono::seconds(1);
constexpr auto kLongestCommitRetry = std::chrono::seconds(30);
// How often a waiting Watch or Results call looks whether its client left.
constexpr auto kClientCheck = std::chrono::milliseconds(200);
constexpr auto kSweepInterval = std::chrono::minutes(10);

bool Running(const v1::Job& job) { return job.state() == v1::Job::STATE_RUNNING; }

void Log(const std::string& id, const absl::Status& s) {
  std::fprintf(stderr, "arbiter-coordinator: job %s: %s\n", id.c_str(),
               std::string(s.message()).c_str());
}

}  // namespace

struct Jobs::Job {
  v1::Job state;  // guarded by Jobs::mu_; games_done counts committed verdicts
  // Running time before this process took the job over (resumed jobs).
  double earlier_seconds = 0;
  Clock::time_point start = Clock::now();
  Clock::time_point end;          // set when the job ended
  std::shared_ptr<Run> run;       // while executing
  bool executing = false;         // its thread has not returned yet
  bool cancel_requested = false;  // by CancelJob

  // The state with its running time (needs Jobs::mu_).
  v1::Job Snapshot() const {
    v1::Job out = state;
    const auto until = Running(state) ? Clock::now() : end;
    out.set_seconds(earlier_seconds + std::chrono::duration<double>(until - start).count());
    return out;
  }
};

absl::StatusOr<std::unique_ptr<Jobs>> Jobs::Open(Dispatcher& dispatcher, JobsOptions options) {
  absl::StatusOr<std::unique_ptr<JobStore>> store = JobStore::Open(options.dir + "/jobs.sqlite");
  if (!store.ok()) return store.status();
  absl::StatusOr<std::vector<v1::Job>> saved = (*store)->Jobs();
  if (!saved.ok()) return saved.status();
  // A new database beside uploads: the database that listed their jobs was
  // lost (deleted, or the directory half restored). Starting would delete
  // the uploads as strays and acknowledge jobs that are gone.
  if ((*store)->created()) {
    std::error_code ec;
    // (An unreadable or absent directory counts as empty: the iterator is
    // then the end.)
    const auto uploads =
        std::distance(std::filesystem::directory_iterator(options.dir + "/uploads", ec),
                      std::filesystem::directory_iterator());
    if (uploads > 0) {
      store->reset();  // closed first, then the file it made removed
      for (const char* suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(options.dir + "/jobs.sqlite" + suffix, ec);
      return absl::FailedPreconditionError(absl::StrCat(
          "job directory ", options.dir, ": jobs.sqlite is new but uploads/ holds ", uploads,
          " files: the job database that listed them is missing; restore it, or move ", options.dir,
          "/uploads away to start with no jobs"));
    }
  }
  std::unique_ptr<Jobs> jobs(new Jobs(dispatcher, std::move(options), *std::move(store)));
  {
    std::lock_guard<std::mutex> lock(jobs->mu_);
    for (v1::Job& state : *saved) {
      auto job = std::make_shared<Job>();
      job->earlier_seconds = state.seconds();
      job->state = std::move(state);
      job->end = job->start;
      // Jobs from before finish times were kept: retention counts from now.
      if (!Running(job->state) && !job->state.has_finished()) {
        *job->state.mutable_finished() = Now();
        if (absl::Status s = jobs->store_->Commit(job->state, {}); !s.ok()) Log(job->state.id(), s);
      }
      jobs->jobs_[job->state.id()] = job;
      if (Running(job->state)) {
        std::fprintf(stderr, "arbiter-coordinator: resuming job %s at game %lld\n",
                     job->state.id().c_str(), (long long)job->state.games_done() + 1);
        jobs->Start(job);
      }
    }
  }
  jobs->RemoveStrayUploads();
  jobs->Sweep();
  jobs->sweeper_ = std::thread([j = jobs.get()] { j->Sweeper(); });
  return jobs;
}

Jobs::~Jobs() {
  Stop();
  sweeper_.join();
  for (auto& [job, thread] : threads_) thread.join();
}

void Jobs::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
}

std::shared_ptr<Jobs::Job> Jobs::Find(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = jobs_.find(id);
  return it == jobs_.end() ? nullptr : it->second;
}

std::string Jobs::UploadPath(const std::string& id) const {
  return options_.dir + "/uploads/" + id;
}

std::string Jobs::NewId() const {
  static std::mt19937_64 rng{std::random_device{}()};
  std::string id;
  do id = absl::StrFormat("%016x", rng());
  while (jobs_.count(id));
  return id;
}

absl::StatusOr<std::string> Jobs::InputPath(const v1::Job& job) const {
  if (job.uploaded()) return UploadPath(job.id());
  absl::StatusOr<JobInput> input = ResolveJobInput(options_.input_dir, job.path());
  if (!input.ok()) return input.status();
  return input->real_path;
}

void Jobs::RemoveStrayUploads() {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(options_.dir + "/uploads", ec)) {
    const std::string name = entry.path().filename().string();
    bool referred;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = jobs_.find(name);
      referred = it != jobs_.end() && it->second->state.uploaded();
    }
    // An upload cut off, or stored but never recorded as a job (a crash in
    // between): no client was told of it.
    if (!referred) std::filesystem::remove(entry.path(), ec);
  }
}

absl::StatusOr<v1::Job> Jobs::Create(std::shared_ptr<Job> job) {
  job->state.set_state(v1::Job::STATE_RUNNING);
  *job->state.mutable_created() = Now();
  // Recorded before the client hears of it: an acknowledged job survives.
  if (absl::Status s = store_->Create(job->state); !s.ok()) return s;
  jobs_[job->state.id()] = job;
  Start(job);
  return job->Snapshot();
}

absl::StatusOr<v1::Job> Jobs::Upload(const std::string& name, const v1::SearchOptions& options,
                                     const std::string& owner, const std::string& data,
                                     const NextUploadChunk& next) {
  // Options are checked first so that a bad job fails before its upload.
  if (absl::StatusOr<MateSearchOptions> o = wire::FromProto(options); !o.ok()) return o.status();
  std::string id;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return absl::UnavailableError("the coordinator is stopping");
    id = NewId();
  }
  UploadFile file(UploadPath(id), options_.max_upload_bytes);
  if (absl::Status s = file.Open(); !s.ok()) return s;
  if (absl::Status s = file.Append(data); !s.ok()) return s;
  std::string chunk;
  for (;;) {
    absl::StatusOr<bool> more = next(&chunk);
    if (!more.ok()) return more.status();
    if (!*more) break;
    if (absl::Status s = file.Append(chunk); !s.ok()) return s;
  }
  if (absl::Status s = file.Commit(); !s.ok()) return s;

  auto job = std::make_shared<Job>();
  job->state.set_id(id);
  job->state.set_path(name.empty() ? "upload" : name);
  job->state.set_uploaded(true);
  job->state.set_owner(owner);
  job->state.set_input_bytes(file.size());
  *job->state.mutable_options() = options;
  std::lock_guard<std::mutex> lock(mu_);
  absl::StatusOr<v1::Job> created = Create(job);
  if (!created.ok()) std::filesystem::remove(UploadPath(id));
  return created;
}

absl::StatusOr<v1::Job> Jobs::Submit(const v1::SubmitJobRequest& request,
                                     const std::string& owner) {
  absl::StatusOr<JobInput> input = ResolveJobInput(options_.input_dir, request.path());
  if (!input.ok()) return input.status();
  if (absl::StatusOr<MateSearchOptions> o = wire::FromProto(request.options()); !o.ok())
    return o.status();
  if (absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(input->real_path);
      !source.ok())
    return absl::NotFoundError(absl::StrCat(input->shown, " under --job-input-dir cannot be read"));
  std::error_code ec;
  const auto size = std::filesystem::file_size(input->real_path, ec);
  auto job = std::make_shared<Job>();
  job->state.set_path(input->shown);
  job->state.set_owner(owner);
  if (!ec) job->state.set_input_bytes(int64_t(size));
  *job->state.mutable_options() = request.options();
  std::lock_guard<std::mutex> lock(mu_);
  if (stopping_) return absl::UnavailableError("the coordinator is stopping");
  job->state.set_id(NewId());
  return Create(job);
}

void Jobs::Start(std::shared_ptr<Job> job) {
  // Threads of jobs that have stopped are joined here, so that they do not
  // pile up over a long-lived coordinator.
  for (auto it = threads_.begin(); it != threads_.end();) {
    if (it->first->executing) {
      ++it;
      continue;
    }
    it->second.join();
    it = threads_.erase(it);
  }
  job->executing = true;
  // A job waits for workers: it is durable, and resumes when one comes.
  job->run = dispatcher_.NewRun(job->state.options(), /*wait_for_workers=*/true);
  threads_.emplace_back(job, std::thread([this, job] { Execute(job); }));
}

void Jobs::Execute(std::shared_ptr<Job> job) {
  std::shared_ptr<Run> run;
  // Games already committed (a resumed job) are read again but not sent.
  int64_t skip;
  v1::Job spec;
  {
    std::lock_guard<std::mutex> lock(mu_);
    run = job->run;
    skip = job->state.games_done();
    job->state.set_games_read(skip);
    spec = job->state;
  }
  const std::string id = spec.id();
  auto finish = [&](v1::Job::State state, const std::string& error) {
    std::lock_guard<std::mutex> lock(mu_);
    job->state.set_state(state);
    // Messages may quote file names and input: the field is UTF-8 text.
    job->state.set_error(ReplaceInvalidUtf8(error));
    job->end = Clock::now();
    *job->state.mutable_finished() = Now();
    // A failed final commit leaves the job "running" in the store: the next
    // start resumes it, which is the safe side.
    if (absl::Status s = store_->Commit(job->Snapshot(), {}); !s.ok()) Log(id, s);
    job->executing = false;
    job->run.reset();
    changed_.notify_all();
  };
  auto stop_executing = [&] {
    std::lock_guard<std::mutex> lock(mu_);
    job->executing = false;
    job->run.reset();
    changed_.notify_all();
  };
  absl::StatusOr<std::string> path = InputPath(spec);
  absl::StatusOr<std::unique_ptr<ByteSource>> source =
      path.ok() ? ByteSource::Open(*path) : path.status();
  if (!source.ok()) {
    run->Cancel();
    // The job's error is read by clients: the input as they named it, not
    // the coordinator's path to it (which goes to the log).
    Log(id, source.status());
    std::string why(source.status().message());
    if (path.ok()) {
      const std::string prefix = *path + ": ";
      why = why.starts_with(prefix) ? why.substr(prefix.size())
                                    : absl::StatusCodeToString(source.status().code());
      why = absl::StrCat(spec.path(), " cannot be read: ", why);
    }
    return finish(v1::Job::STATE_FAILED, why);
  }

  // Reading feeds the run; this thread commits verdicts as they come, in order.
  // Only a reader that reached the end of its input may let the job be done.
  bool input_ended = false;
  absl::Status input_error;  // the input ended early: the job fails once its games are in
  std::thread reader([&, source = std::move(*source)]() mutable {
    PgnReader pgn(std::move(source), wire::ReaderOptionsFor(spec.options()));
    RawGame raw;
    for (int64_t n = 0; pgn.Next(&raw); ++n) {
      if (n < skip) continue;
      v1::BatchGame game;
      game.set_index(raw.index);
      game.set_record(wire::ToProto(raw).SerializeAsString());
      if (!run->Add(std::move(game))) return;
      std::lock_guard<std::mutex> lock(mu_);
      job->state.set_games_read(job->state.games_read() + 1);
    }
    input_error = pgn.input_error();
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
  // False when the job must stop with `pending` uncommitted: the coordinator
  // stops or the job was cancelled while the store refused the commit.
  // Nothing is lost: the store still holds the job running from its last
  // committed verdict.
  auto commit = [&]() {
    if (pending.empty()) return true;
    auto retry = kFirstCommitRetry;
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      counted.set_games_read(job->state.games_read());
      counted.set_seconds(job->Snapshot().seconds());
      counted.clear_paused();
      const absl::Status s = store_->Commit(counted, pending);
      if (s.ok()) break;
      // A full disk passes: the job waits for room instead of failing.
      Log(id, s);
      job->state.set_paused(absl::StrCat("the job database refuses writes: ", s.message()));
      changed_.notify_all();
      changed_.wait_for(lock, retry, [&] { return stopping_ || job->cancel_requested; });
      if (stopping_ || job->cancel_requested) return false;
      retry = std::min<std::chrono::seconds>(retry * 2, kLongestCommitRetry);
    }
    job->state.clear_paused();
    job->state.set_games_done(counted.games_done());
    job->state.set_errors(counted.errors());
    job->state.set_disagreements(counted.disagreements());
    changed_.notify_all();
    pending.clear();
    last_commit = Clock::now();
    return true;
  };
  bool committed = true;
  // Verdicts are stored as the workers serialized them; only what the job
  // counts is decoded (a verdict that does not parse counts as an error,
  // and reads back as one: GetJobResults refuses it).
  std::string verdict;
  v1::relay::VerdictFacts facts;
  while (committed && run->Next(&verdict)) {
    const bool parsed = facts.ParseFromString(verdict);
    pending.emplace_back(counted.games_done(), std::move(verdict));
    counted.set_games_done(counted.games_done() + 1);
    if (!parsed || !facts.error().empty()) counted.set_errors(counted.errors() + 1);
    if (parsed && facts.has_ruling() && !facts.ruling().agrees())
      counted.set_disagreements(counted.disagreements() + 1);
    if (pending.size() >= kCommitVerdicts || Clock::now() - last_commit > kCommitInterval)
      committed = commit();
  }
  if (committed) committed = commit();
  if (!committed) run->Cancel();
  reader.join();
  // Stopped: the coordinator is shutting down (its runs end UNAVAILABLE, and
  // that may come before stopping_ is set, with every game read so far
  // ruled), or the input was not read to its end. The job stays running in
  // the store and resumes at the next start; it is never done with games
  // missing.
  bool stopped, cancelled;
  {
    std::lock_guard<std::mutex> lock(mu_);
    cancelled = job->cancel_requested;
    stopped = stopping_ || !committed || !input_ended ||
              job->state.games_done() < job->state.games_read() ||
              run->status().code() == absl::StatusCode::kUnavailable;
  }
  if (cancelled) return finish(v1::Job::STATE_CANCELLED, "cancelled by a client");
  if (!run->status().ok() && run->status().code() != absl::StatusCode::kUnavailable)
    return finish(v1::Job::STATE_FAILED, std::string(run->status().message()));
  if (stopped) return stop_executing();
  if (!input_error.ok())
    return finish(
        v1::Job::STATE_FAILED,
        absl::StrCat("the input ended early, the rest was not read: ", input_error.message()));
  finish(v1::Job::STATE_DONE, "");
}

absl::StatusOr<v1::Job> Jobs::Get(const std::string& id) const {
  std::shared_ptr<Job> job = Find(id);
  if (!job) return absl::NotFoundError(absl::StrCat("no job ", id));
  std::lock_guard<std::mutex> lock(mu_);
  return job->Snapshot();
}

std::vector<v1::Job> Jobs::List(size_t limit, const std::optional<std::string>& owner) const {
  std::vector<v1::Job> out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [id, job] : jobs_)
      if (!owner || job->state.owner() == *owner) out.push_back(job->Snapshot());
  }
  auto created = [](const v1::Job& j) {
    return std::make_pair(j.created().seconds(), j.created().nanos());
  };
  std::sort(out.begin(), out.end(),
            [&](const v1::Job& a, const v1::Job& b) { return created(a) > created(b); });
  if (out.size() > limit) out.resize(limit);
  return out;
}

absl::StatusOr<v1::Job> Jobs::Cancel(const std::string& id) {
  std::shared_ptr<Job> job = Find(id);
  if (!job) return absl::NotFoundError(absl::StrCat("no job ", id));
  std::shared_ptr<Run> run;
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (!Running(job->state)) return job->Snapshot();
    job->cancel_requested = true;
    run = job->run;
    changed_.notify_all();
  }
  if (run) run->Cancel();
  // The answer shows the job ended (its thread commits that at once), unless
  // the coordinator stops first.
  std::unique_lock<std::mutex> lock(mu_);
  changed_.wait_for(lock, std::chrono::seconds(10),
                    [&] { return stopping_ || !Running(job->state); });
  return job->Snapshot();
}

absl::Status Jobs::Delete(const std::string& id) {
  std::shared_ptr<Job> job = Find(id);
  if (!job) return absl::NotFoundError(absl::StrCat("no job ", id));
  std::lock_guard<std::mutex> lock(mu_);
  if (Running(job->state) || job->executing)
    return absl::FailedPreconditionError(absl::StrCat("job ", id, " is running: cancel it first"));
  // The job leaves the list only once the store has let it go: a delete
  // that fails leaves it visible, and says why.
  absl::Status deleted = store_->Delete(id);
  std::error_code ec;
  if (!deleted.ok() && job->state.uploaded() && std::filesystem::remove(UploadPath(id), ec)) {
    // A full disk refuses even a delete (SQLite writes its log first): the
    // upload, which an ended job no longer needs, makes the room.
    Log(id, deleted);
    deleted = store_->Delete(id);
    if (!deleted.ok())
      return absl::Status(
          deleted.code(),
          absl::StrCat("job ", id, " could not be deleted (", deleted.message(),
                       "); its upload was removed to free space, its verdicts are kept"));
  }
  if (!deleted.ok())
    return absl::Status(deleted.code(), absl::StrCat("job ", id, " could not be deleted (",
                                                     deleted.message(), "); it is kept"));
  if (job->state.uploaded()) std::filesystem::remove(UploadPath(id), ec);
  jobs_.erase(id);
  changed_.notify_all();  // Results calls following it end
  return absl::OkStatus();
}

void Jobs::Sweep() {
  if (options_.retention.count() <= 0) return;
  const int64_t cutoff =
      std::chrono::duration_cast<std::chrono::seconds>(
          (std::chrono::system_clock::now() - options_.retention).time_since_epoch())
          .count();
  std::vector<std::string> expired;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [id, job] : jobs_)
      if (!Running(job->state) && !job->executing && job->state.has_finished() &&
          job->state.finished().seconds() < cutoff)
        expired.push_back(id);
  }
  for (const std::string& id : expired) {
    if (absl::Status s = Delete(id); !s.ok())
      Log(id, s);
    else
      std::fprintf(stderr, "arbiter-coordinator: job %s deleted (ended over %lld s ago)\n",
                   id.c_str(), (long long)options_.retention.count());
  }
}

void Jobs::Sweeper() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!changed_.wait_for(lock, kSweepInterval, [&] { return stopping_; })) {
    lock.unlock();
    Sweep();
    lock.lock();
  }
}

absl::Status Jobs::Watch(const std::string& id, const std::function<bool(const v1::Job&)>& send,
                         const std::function<bool()>& client_gone) {
  std::shared_ptr<Job> job = Find(id);
  if (!job) return absl::NotFoundError(absl::StrCat("no job ", id));
  std::unique_lock<std::mutex> lock(mu_);
  int64_t shown = -1;
  std::string shown_error;
  for (;;) {
    // At most a few updates a second: progress, not a verdict stream.
    const bool changed = changed_.wait_for(lock, kClientCheck, [&] {
      return stopping_ || job->state.games_done() != shown || job->state.error() != shown_error ||
             !Running(job->state);
    });
    if (stopping_) return absl::UnavailableError("the coordinator is stopping");
    if (!changed) {
      lock.unlock();
      if (client_gone()) return absl::CancelledError("the client went away");
      lock.lock();
      continue;
    }
    v1::Job snapshot = job->Snapshot();
    shown = snapshot.games_done();
    shown_error = snapshot.error();
    lock.unlock();
    if (client_gone() || !send(snapshot) || !Running(snapshot)) return absl::OkStatus();
    std::this_thread::sleep_for(kClientCheck);
    lock.lock();
  }
}

absl::Status Jobs::Results(const std::string& id, int64_t first_game, bool follow,
                           const std::function<bool(const v1::GameVerdict&)>& send,
                           const std::function<bool()>& client_gone) {
  std::shared_ptr<Job> job = Find(id);
  if (!job) return absl::NotFoundError(absl::StrCat("no job ", id));
  int64_t next = std::max<int64_t>(first_game, 1) - 1;  // 0-based position
  v1::GameVerdict verdict;
  for (;;) {
    int64_t done;
    bool running;
    {
      std::unique_lock<std::mutex> lock(mu_);
      for (;;) {
        const bool ready = changed_.wait_for(lock, kClientCheck, [&] {
          return stopping_ || !follow || job->state.games_done() > next || !Running(job->state) ||
                 !jobs_.count(id);
        });
        if (stopping_) return absl::UnavailableError("the coordinator is stopping");
        if (!jobs_.count(id)) return absl::NotFoundError(absl::StrCat("job ", id, " was deleted"));
        if (ready) break;
        lock.unlock();
        if (client_gone()) return absl::CancelledError("the client went away");
        lock.lock();
      }
      done = job->state.games_done();
      running = Running(job->state);
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
        if (client_gone() || !send(verdict)) return absl::OkStatus();
      }
    }
    if (!running || !follow) return absl::OkStatus();
  }
}

}  // namespace arbiter::coordinator
