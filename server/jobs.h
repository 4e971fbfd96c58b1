// Jobs over PGN files on storage the coordinator can read: submitted,
// watched and read back by id. Durable (server/job_store.h): every job's
// spec, progress and verdicts live in `<job dir>/jobs.sqlite`; a coordinator
// restarted after a crash resumes the jobs that were running, from their
// last committed verdict, and clients re-attach by id.
#pragma once

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter.pb.h"
#include "server/dispatcher.h"
#include "server/job_store.h"

namespace arbiter::coordinator {

class Jobs {
 public:
  // Opens the store in `dir` and resumes the jobs that were running.
  static absl::StatusOr<std::unique_ptr<Jobs>> Open(Dispatcher& dispatcher, const std::string& dir);
  ~Jobs();

  // NOT_FOUND / INVALID_ARGUMENT when the file cannot be opened.
  absl::StatusOr<v1::Job> Submit(const v1::SubmitJobRequest& request);
  absl::StatusOr<v1::Job> Get(const std::string& id) const;
  // Calls `send` with the job now and after every change until it ends or
  // `send` returns false.
  absl::Status Watch(const std::string& id, const std::function<bool(const v1::Job&)>& send);
  // Calls `send` with each verdict from the 1-based `first_game` on,
  // following a running job, until the job ends or `send` returns false.
  absl::Status Results(const std::string& id, int64_t first_game,
                       const std::function<bool(const v1::GameVerdict&)>& send);

 private:
  struct Job;
  Jobs(Dispatcher& dispatcher, std::unique_ptr<JobStore> store)
      : dispatcher_(dispatcher), store_(std::move(store)) {}
  void Start(std::shared_ptr<Job> job);  // needs mu_
  void Execute(std::shared_ptr<Job> job, std::shared_ptr<Run> run);
  std::shared_ptr<Job> Find(const std::string& id) const;

  Dispatcher& dispatcher_;
  const std::unique_ptr<JobStore> store_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::map<std::string, std::shared_ptr<Job>> jobs_;
  std::vector<std::thread> threads_;
  bool stopping_ = false;
};

}  // namespace arbiter::coordinator
