// A ByteSource for tests of readers: serves its data in pieces of `piece`
// bytes, as a pipe does, to exercise every buffer boundary, then optionally
// fails with `final_status`.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/io/byte_source.h"

namespace arbiter::testing {

class TrickleSource : public ByteSource {
 public:
  TrickleSource(std::string data, size_t piece, absl::Status final_status = absl::OkStatus())
      : data_(std::move(data)), piece_(piece), final_status_(std::move(final_status)) {}
  absl::StatusOr<size_t> Read(char* buf, size_t n) override {
    if (pos_ == data_.size() && !final_status_.ok()) return final_status_;
    size_t count = std::min({n, piece_, data_.size() - pos_});
    std::memcpy(buf, data_.data() + pos_, count);
    pos_ += count;
    return count;
  }

 private:
  std::string data_;
  size_t piece_;
  size_t pos_ = 0;
  absl::Status final_status_;
};

}  // namespace arbiter::testing
