#include "server/jobs.h"

#include <fstream>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/io/byte_source.h"
#include "core/pgn/pgn_reader.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "proto/convert.h"

namespace arbiter::coordinator {

struct Jobs::Job {
  v1::Job state;                 // guarded by Jobs::mu_
  std::string results;           // path of the verdict file
  int64_t bytes = 0;             // verdict file bytes written and flushed (whole messages)
  std::vector<int64_t> offsets;  // offset of every 1024th verdict, for seeking
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point end;  // set when the job ended

  // The state with its running time (needs Jobs::mu_).
  v1::Job Snapshot() const {
    v1::Job out = state;
    const auto until =
        state.state() == v1::Job::STATE_RUNNING ? std::chrono::steady_clock::now() : end;
    out.set_seconds(std::chrono::duration<double>(until - start).count());
    return out;
  }
};

Jobs::Jobs(Dispatcher& dispatcher, std::string dir)
    : dispatcher_(dispatcher), dir_(std::move(dir)) {}

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
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(request.path());
  if (!source.ok()) return source.status();
  source->reset();  // opened again by the job's thread

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
  job->results = absl::StrCat(dir_, "/", id, ".verdicts");
  jobs_[id] = job;
  std::shared_ptr<Run> run = dispatcher_.NewRun(request.options());
  threads_.emplace_back([this, job, run] { Execute(job, run); });
  return job->Snapshot();
}

void Jobs::Execute(std::shared_ptr<Job> job, std::shared_ptr<Run> run) {
  auto fail = [&](const absl::Status& s) {
    run->Cancel();
    std::lock_guard<std::mutex> lock(mu_);
    job->state.set_state(v1::Job::STATE_FAILED);
    job->state.set_error(std::string(s.message()));
    job->end = std::chrono::steady_clock::now();
    changed_.notify_all();
  };
  std::ofstream out(job->results, std::ios::binary | std::ios::trunc);
  if (!out) return fail(absl::PermissionDeniedError(absl::StrCat("cannot write ", job->results)));
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(job->state.path());
  if (!source.ok()) return fail(source.status());

  // Reading feeds the run; this thread writes verdicts as they come in order.
  std::thread reader([&, source = std::move(*source)]() mutable {
    PgnReader pgn(std::move(source), PgnReaderOptions{.keep_comments = false});
    RawGame raw;
    while (pgn.Next(&raw)) {
      if (!run->Add(wire::ToProto(raw))) return;
      std::lock_guard<std::mutex> lock(mu_);
      job->state.set_games_read(job->state.games_read() + 1);
    }
    run->Finish();
  });
  v1::GameVerdict verdict;
  std::string buffer;
  int64_t done = 0;
  while (run->Next(&verdict)) {
    buffer.clear();
    {
      google::protobuf::io::StringOutputStream stream(&buffer);
      google::protobuf::io::CodedOutputStream coded(&stream);
      coded.WriteVarint32(uint32_t(verdict.ByteSizeLong()));
      verdict.SerializeWithCachedSizes(&coded);
    }
    out.write(buffer.data(), std::streamsize(buffer.size()));
    out.flush();
    std::lock_guard<std::mutex> lock(mu_);
    if (done % 1024 == 0) job->offsets.push_back(job->bytes);
    job->bytes += int64_t(buffer.size());
    job->state.set_games_done(++done);
    if (!verdict.error().empty()) job->state.set_errors(job->state.errors() + 1);
    if (verdict.has_ruling() && !verdict.ruling().agrees())
      job->state.set_disagreements(job->state.disagreements() + 1);
    changed_.notify_all();
  }
  reader.join();
  std::lock_guard<std::mutex> lock(mu_);
  if (!run->status().ok() || !out) {
    job->state.set_state(v1::Job::STATE_FAILED);
    job->state.set_error(!out ? "cannot write the verdict file"
                              : std::string(run->status().message()));
  } else if (stopping_ && job->state.games_done() < job->state.games_read()) {
    job->state.set_state(v1::Job::STATE_FAILED);
    job->state.set_error("the coordinator stopped");
  } else {
    job->state.set_state(v1::Job::STATE_DONE);
  }
  job->end = std::chrono::steady_clock::now();
  changed_.notify_all();
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
    v1::Job snapshot = job->Snapshot();
    shown = snapshot.games_done();
    lock.unlock();
    if (!send(snapshot) || snapshot.state() != v1::Job::STATE_RUNNING) return absl::OkStatus();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    lock.lock();
    if (stopping_) return absl::UnavailableError("the coordinator is stopping");
  }
}

absl::Status Jobs::Results(const std::string& id, int64_t first_game,
                           const std::function<bool(const v1::GameVerdict&)>& send) {
  std::shared_ptr<Job> job = Find(id);
  if (!job) return absl::NotFoundError(absl::StrCat("no job ", id));
  std::ifstream in(job->results, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", job->results));
  int64_t next_game = 1, offset = 0;
  first_game = std::max<int64_t>(first_game, 1);
  {
    // Seek to the nearest recorded offset at or before first_game.
    std::lock_guard<std::mutex> lock(mu_);
    const size_t k = std::min<size_t>(size_t((first_game - 1) / 1024), job->offsets.size());
    if (k > 0) {
      offset = job->offsets[k - 1];
      next_game = int64_t(k - 1) * 1024 + 1;
    }
  }
  v1::GameVerdict verdict;
  for (;;) {
    int64_t end;
    bool running;
    {
      std::unique_lock<std::mutex> lock(mu_);
      changed_.wait(lock, [&] {
        return stopping_ || job->bytes > offset || job->state.state() != v1::Job::STATE_RUNNING;
      });
      end = job->bytes;
      running = job->state.state() == v1::Job::STATE_RUNNING && !stopping_;
    }
    while (offset < end) {
      // A fresh stream per pass: CodedInputStream counts at most 2 GB.
      in.clear();
      in.seekg(offset);
      google::protobuf::io::IstreamInputStream zin(&in);
      google::protobuf::io::CodedInputStream coded(&zin);
      const int64_t base = offset;
      while (offset < end && coded.CurrentPosition() < (1 << 30)) {
        uint32_t size;
        if (!coded.ReadVarint32(&size))
          return absl::DataLossError(absl::StrCat("cannot read ", job->results));
        auto limit = coded.PushLimit(int(size));
        if (!verdict.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
          return absl::DataLossError(absl::StrCat("corrupt verdict file ", job->results));
        coded.PopLimit(limit);
        offset = base + coded.CurrentPosition();
        if (next_game++ >= first_game && !send(verdict)) return absl::OkStatus();
      }
    }
    if (!running) {
      std::lock_guard<std::mutex> lock(mu_);
      if (job->bytes == offset) return absl::OkStatus();
    }
  }
}

}  // namespace arbiter::coordinator
