#include "core/io/line_reader.h"

#include <cstring>
#include <utility>

namespace arbiter {

namespace {
constexpr size_t kChunk = 64 << 10;
}  // namespace

LineReader::LineReader(std::unique_ptr<ByteSource> source, std::function<void()> before_wait)
    : source_(std::move(source)), before_wait_(std::move(before_wait)) {}

// Moves the unread bytes to the front and appends what one read gives.
bool LineReader::Fill() {
  if (at_end_) return false;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (buffer_.size() < end_ + kChunk) buffer_.resize(end_ + kChunk);
  if (before_wait_) before_wait_();
  absl::StatusOr<size_t> got = source_->Read(buffer_.data() + end_, kChunk);
  if (!got.ok()) {
    status_ = got.status();
    at_end_ = true;
    return false;
  }
  if (*got == 0) {
    at_end_ = true;
    return false;
  }
  end_ += *got;
  return true;
}

bool LineReader::Next(std::string* line) {
  size_t searched = begin_;
  for (;;) {
    const void* newline = std::memchr(buffer_.data() + searched, '\n', end_ - searched);
    if (newline != nullptr) {
      const size_t at = static_cast<const char*>(newline) - buffer_.data();
      size_t length = at - begin_;
      if (length > 0 && buffer_[at - 1] == '\r') --length;
      line->assign(buffer_.data() + begin_, length);
      begin_ = at + 1;
      ++line_number_;
      return true;
    }
    searched = end_ - begin_;  // offset after Fill moves the bytes down
    if (!Fill()) break;
  }
  if (begin_ == end_) return false;
  // The last line, without a newline.
  size_t length = end_ - begin_;
  if (buffer_[end_ - 1] == '\r') --length;
  line->assign(buffer_.data() + begin_, length);
  begin_ = end_;
  ++line_number_;
  return true;
}

}  // namespace arbiter
