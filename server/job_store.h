// Durable job records for the coordinator, in SQLite (one file in the job
// directory): each job's spec and progress, and its verdicts in input order.
// A coordinator killed at any moment and restarted finds every job where its
// last committed step left it: verdicts are committed together with the
// progress that counts them, so a resumed job neither loses nor repeats one.
#pragma once

#include <sys/types.h>

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter.pb.h"

struct sqlite3;

namespace arbiter::coordinator {

class JobStore {
 public:
  // Opens or creates `path`. INTERNAL with SQLite's message on failure.
  static absl::StatusOr<std::unique_ptr<JobStore>> Open(const std::string& path);
  // Whether Open created the file (there was none at `path`).
  bool created() const { return created_; }
  ~JobStore();
  JobStore(const JobStore&) = delete;
  JobStore& operator=(const JobStore&) = delete;

  absl::Status Create(const v1::Job& job);
  // In one transaction: the verdicts (serialized GameVerdict, keyed by their
  // 0-based position in the job's input) and the job's new state.
  absl::Status Commit(const v1::Job& job,
                      const std::vector<std::pair<int64_t, std::string>>& verdicts);
  // The job and its verdicts, in one transaction.
  absl::Status Delete(const std::string& id);
  absl::StatusOr<std::vector<v1::Job>> Jobs();
  // Serialized verdicts of `id` from position `from` on, at most `limit`.
  absl::StatusOr<std::vector<std::string>> Verdicts(const std::string& id, int64_t from,
                                                    int64_t limit);

 private:
  JobStore(sqlite3* db, std::string path, bool created)
      : db_(db), path_(std::move(path)), created_(created) {}
  // FAILED_PRECONDITION once the file at path_ is no longer the one opened
  // (deleted, or replaced by another): SQLite would go on writing into the
  // open, unlinked file, and every commit would be lost at the next start.
  // Checked before each write (needs mu_). The message names no path (it
  // reaches clients as a job's pause); the log has it, once.
  absl::Status CheckIdentity();
  absl::Status Exec(const char* sql);
  // The first column of the first row `sql` gives, as text.
  absl::StatusOr<std::string> Text(const char* sql);
  absl::Status Error(const char* what);

  std::mutex mu_;  // one connection, used by one thread at a time
  sqlite3* db_;
  const std::string path_;
  const bool created_;
  dev_t device_ = 0;  // of the file opened
  ino_t inode_ = 0;
  bool identity_lost_logged_ = false;
};

}  // namespace arbiter::coordinator
