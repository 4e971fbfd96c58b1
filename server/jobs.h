// Jobs over PGN files on storage the coordinator can read: submitted,
// watched and read back by id. Each job's verdicts are appended, in input
// order, to `<job dir>/<id>.verdicts` (length-delimited GameVerdict
// messages), so memory stays bounded however large the file; readers follow
// the file while the job runs.
//
// Jobs do not survive a coordinator restart (durable jobs are a later
// step); their result files do.
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

namespace arbiter::coordinator {

class Jobs {
 public:
  Jobs(Dispatcher& dispatcher, std::string dir);
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
  void Execute(std::shared_ptr<Job> job, std::shared_ptr<Run> run);
  std::shared_ptr<Job> Find(const std::string& id) const;

  Dispatcher& dispatcher_;
  const std::string dir_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::map<std::string, std::shared_ptr<Job>> jobs_;
  std::vector<std::thread> threads_;
  bool stopping_ = false;
};

}  // namespace arbiter::coordinator
