// Where a job's games may come from on the coordinator's machine: a file its
// client uploaded (kept in the job directory, see job_upload.h) or a file
// under the operator's --job-input-dir. Nothing else: a caller never makes
// the coordinator open a path of the caller's choosing, and a refusal says
// nothing of the file (neither its bytes nor whether it exists).
#pragma once

#include <string>

#include "absl/status/statusor.h"

namespace arbiter::coordinator {

struct JobInput {
  std::string real_path;  // every symbolic link resolved
  std::string shown;      // relative to the input directory, for the job's record
};

// `requested`, relative to `input_dir` or absolute, if it resolves (links
// followed) to a regular file or FIFO under the real `input_dir`.
// PERMISSION_DENIED when `input_dir` is empty or the path leads outside it,
// NOT_FOUND for a missing file inside it, INVALID_ARGUMENT for a directory
// or device inside it.
absl::StatusOr<JobInput> ResolveJobInput(const std::string& input_dir,
                                         const std::string& requested);

}  // namespace arbiter::coordinator
