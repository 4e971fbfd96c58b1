#include "server/job_input.h"

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_cat.h"

namespace arbiter::coordinator {

namespace fs = std::filesystem;

absl::StatusOr<JobInput> ResolveJobInput(const std::string& input_dir,
                                         const std::string& requested) {
  if (input_dir.empty())
    return absl::PermissionDeniedError(
        "this coordinator reads no files named by clients (its operator may allow a "
        "directory with --job-input-dir); upload the games instead: arbiter job submit FILE");
  if (requested.empty()) return absl::InvalidArgumentError("the job's path is empty");
  std::error_code ec;
  const fs::path root = fs::canonical(input_dir, ec);
  if (ec)
    return absl::FailedPreconditionError(
        absl::StrCat("this coordinator's --job-input-dir cannot be read: ", ec.message()));
  // One message for every path outside: whether it exists is not told.
  const absl::Status outside = absl::PermissionDeniedError(
      absl::StrCat(requested, " is not a file under this coordinator's --job-input-dir"));
  fs::path path(requested);
  if (path.is_relative()) path = root / path;
  const fs::path real = fs::weakly_canonical(path, ec);
  if (ec) return outside;
  const auto [in_root, in_real] = std::mismatch(root.begin(), root.end(), real.begin(), real.end());
  if (in_root != root.end()) return outside;
  // weakly_canonical stops at a link whose target is missing: where it
  // points is not looked at.
  if (fs::is_symlink(fs::symlink_status(real, ec))) return outside;
  const std::string shown = real == root ? "." : real.lexically_relative(root).string();
  const fs::file_status status = fs::status(real, ec);
  if (!fs::exists(status))
    return absl::NotFoundError(absl::StrCat("no file ", shown, " under --job-input-dir"));
  if (!fs::is_regular_file(status) && !fs::is_fifo(status))
    return absl::InvalidArgumentError(
        absl::StrCat(shown, " under --job-input-dir is not a file (a directory or device)"));
  return JobInput{real.string(), shown};
}

}  // namespace arbiter::coordinator
