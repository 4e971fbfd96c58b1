// A file a client sends over UploadJob, written to the job directory as it
// arrives: bounded in size, removed unless the upload completes, and made
// durable (fsync, then rename into place) before the job that reads it is
// acknowledged, so that a restarted coordinator finds every byte.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace arbiter::coordinator {

class UploadFile {
 public:
  // Starts `final_path` + ".part"; Commit renames it to `final_path`.
  UploadFile(std::string final_path, int64_t max_bytes);
  ~UploadFile();  // removes the partial file unless committed
  UploadFile(const UploadFile&) = delete;
  UploadFile& operator=(const UploadFile&) = delete;

  // INTERNAL when the file cannot be created (Open), RESOURCE_EXHAUSTED past
  // `max_bytes` or when the disk is full.
  absl::Status Open();
  absl::Status Append(std::string_view data);
  absl::Status Commit();
  int64_t size() const { return size_; }

 private:
  const std::string final_path_, part_path_;
  const int64_t max_bytes_;
  int fd_ = -1;
  int64_t size_ = 0;
  bool committed_ = false;
};

}  // namespace arbiter::coordinator
