#include "server/job_upload.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"

namespace arbiter::coordinator {
namespace {

// The client is told what failed, not where: the path is the operator's,
// and goes to the log.
absl::Status WriteError(const std::string& path, int error) {
  std::fprintf(stderr, "arbiter-coordinator: storing an upload in %s: %s\n", path.c_str(),
               std::strerror(error));
  const std::string what =
      absl::StrCat("the coordinator could not store the upload: ", std::strerror(error));
  return error == ENOSPC || error == EDQUOT || error == EFBIG ? absl::ResourceExhaustedError(what)
                                                              : absl::InternalError(what);
}

}  // namespace

UploadFile::UploadFile(std::string final_path, int64_t max_bytes)
    : final_path_(std::move(final_path)),
      part_path_(final_path_ + ".part"),
      max_bytes_(max_bytes) {}

UploadFile::~UploadFile() {
  if (fd_ >= 0) close(fd_);
  if (!committed_) unlink(part_path_.c_str());
}

absl::Status UploadFile::Open() {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(part_path_).parent_path(), ec);
  fd_ = open(part_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd_ < 0) return WriteError(part_path_, errno);
  return absl::OkStatus();
}

absl::Status UploadFile::Append(std::string_view data) {
  if (int64_t(data.size()) > max_bytes_ - size_)
    return absl::ResourceExhaustedError(
        absl::StrCat("the upload is larger than this coordinator's limit of ", max_bytes_ >> 20,
                     " MB (--max-upload-mb)"));
  while (!data.empty()) {
    const ssize_t n = write(fd_, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return WriteError(part_path_, n < 0 ? errno : ENOSPC);
    data.remove_prefix(size_t(n));
    size_ += n;
  }
  return absl::OkStatus();
}

absl::Status UploadFile::Commit() {
  if (fsync(fd_) != 0) return WriteError(part_path_, errno);
  close(fd_);
  fd_ = -1;
  if (rename(part_path_.c_str(), final_path_.c_str()) != 0) return WriteError(final_path_, errno);
  committed_ = true;
  // The rename itself survives a crash once its directory is on disk.
  const std::string dir = std::filesystem::path(final_path_).parent_path().string();
  if (const int dir_fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir_fd >= 0) {
    fsync(dir_fd);
    close(dir_fd);
  }
  return absl::OkStatus();
}

}  // namespace arbiter::coordinator
