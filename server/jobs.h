// Jobs: games ruled in the background, submitted, watched, listed, cancelled
// and read back by id. A job reads only what its client uploaded (kept in
// `<job dir>/uploads/`) or a file under the operator's --job-input-dir
// (job_input.h). Durable (job_store.h): every job's spec, progress and
// verdicts live in `<job dir>/jobs.sqlite`; a coordinator restarted after a
// crash resumes the jobs that were running, from their last committed
// verdict, and clients re-attach by id.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter.pb.h"
#include "server/dispatcher.h"
#include "server/job_store.h"

namespace arbiter::coordinator {

struct JobsOptions {
  std::string dir;        // jobs.sqlite and uploads/
  std::string input_dir;  // files clients may name; empty: none
  int64_t max_upload_bytes = int64_t(64) << 30;
  // Jobs that ended longer ago than this are deleted; zero keeps them.
  std::chrono::seconds retention = std::chrono::hours(24 * 30);
};

class Jobs {
 public:
  // Opens the store in `options.dir` and resumes the jobs that were running.
  static absl::StatusOr<std::unique_ptr<Jobs>> Open(Dispatcher& dispatcher, JobsOptions options);
  ~Jobs();

  // Ends every Watch and Results call (UNAVAILABLE) and lets the running
  // jobs stop where they are, to resume at the next start. Call before
  // shutting the server down, so that no handler outlives it.
  void Stop();

  // The next bytes of an upload: true with `data` set, false at the end of
  // the upload, an error when the client went away.
  using NextUploadChunk = std::function<absl::StatusOr<bool>(std::string* data)>;
  // Stores the upload (`data` first, then every chunk `next` yields) and
  // starts a job over it once it is complete, owned by `owner` (a caller's
  // name, common/tokens.h; "" for none).
  absl::StatusOr<v1::Job> Upload(const std::string& name, const v1::SearchOptions& options,
                                 const std::string& owner, const std::string& data,
                                 const NextUploadChunk& next);
  // A job over a file under --job-input-dir (see ResolveJobInput).
  absl::StatusOr<v1::Job> Submit(const v1::SubmitJobRequest& request, const std::string& owner);
  absl::StatusOr<v1::Job> Get(const std::string& id) const;
  // Newest first, at most `limit`; with `owner`, only that owner's.
  std::vector<v1::Job> List(size_t limit, const std::optional<std::string>& owner = {}) const;
  absl::StatusOr<v1::Job> Cancel(const std::string& id);
  absl::Status Delete(const std::string& id);

  // Calls `send` with the job now and after every change until it ends,
  // `send` returns false or `client_gone` returns true.
  absl::Status Watch(const std::string& id, const std::function<bool(const v1::Job&)>& send,
                     const std::function<bool()>& client_gone);
  // Calls `send` with each verdict from the 1-based `first_game` on: those
  // committed now, or with `follow` those a running job commits later too,
  // until the job ends; until `send` returns false or `client_gone` true.
  absl::Status Results(const std::string& id, int64_t first_game, bool follow,
                       const std::function<bool(const v1::GameVerdict&)>& send,
                       const std::function<bool()>& client_gone);

 private:
  struct Job;
  Jobs(Dispatcher& dispatcher, JobsOptions options, std::unique_ptr<JobStore> store)
      : dispatcher_(dispatcher), options_(std::move(options)), store_(std::move(store)) {}
  // Records a new job and starts it (needs mu_).
  absl::StatusOr<v1::Job> Create(std::shared_ptr<Job> job);
  void Start(std::shared_ptr<Job> job);  // needs mu_
  void Execute(std::shared_ptr<Job> job);
  // Where the job's input is read from now; checked again at every start.
  absl::StatusOr<std::string> InputPath(const v1::Job& job) const;
  std::string UploadPath(const std::string& id) const;
  std::string NewId() const;  // needs mu_
  std::shared_ptr<Job> Find(const std::string& id) const;
  void RemoveStrayUploads();  // at Open: uploads no job refers to
  void Sweep();               // deletes jobs past the retention time
  void Sweeper();

  Dispatcher& dispatcher_;
  const JobsOptions options_;
  const std::unique_ptr<JobStore> store_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::map<std::string, std::shared_ptr<Job>> jobs_;
  // Each job's thread, joined once the job has stopped executing.
  std::vector<std::pair<std::shared_ptr<Job>, std::thread>> threads_;
  std::thread sweeper_;
  bool stopping_ = false;
};

}  // namespace arbiter::coordinator
