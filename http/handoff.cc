#include "http/handoff.h"

#include <algorithm>

namespace arbiter::http {

bool LineQueue::Push(std::string line) {
  bool wake = false;
  {
    std::unique_lock<std::mutex> lock(mu_);
    space_.wait(lock, [&] { return cancelled_ || lines_.size() < max_lines_; });
    if (cancelled_) return false;
    bytes_ += line.size();
    lines_.push_back(std::move(line));
    any_line_ = true;
    // One post per batch, not per line: only once the waiting io thread's
    // batch is there (or the queue is full).
    if (waiting_ && (bytes_ > wake_bytes_ || lines_.size() >= max_lines_)) {
      waiting_ = false;
      wake = true;
    }
  }
  if (wake) wake_();
  return true;
}

void LineQueue::Finish(absl::Status status) {
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
    status_ = std::move(status);
    wake = std::exchange(waiting_, false);
  }
  if (wake) wake_();
}

LineQueue::Taken LineQueue::Take(size_t at_least) {
  std::lock_guard<std::mutex> lock(mu_);
  Taken taken;
  taken.done = done_;
  taken.any_line = any_line_;
  taken.status = status_;
  if (!done_ && bytes_ < std::max<size_t>(at_least, 1) && lines_.size() < max_lines_) {
    waiting_ = true;
    wake_bytes_ = at_least == 0 ? 0 : at_least - 1;
    return taken;
  }
  taken.text.reserve(bytes_);
  for (const std::string& line : lines_) taken.text += line;
  lines_.clear();
  bytes_ = 0;
  space_.notify_all();
  return taken;
}

void LineQueue::Cancel() {
  std::lock_guard<std::mutex> lock(mu_);
  cancelled_ = true;
  waiting_ = false;
  space_.notify_all();
}

bool BodyPipe::Put(std::string piece) {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_) return false;
  piece_ = std::move(piece);
  changed_.notify_all();
  return true;
}

bool BodyPipe::Taken() {
  std::lock_guard<std::mutex> lock(mu_);
  return closed_ || !piece_;
}

void BodyPipe::End(bool complete) {
  std::lock_guard<std::mutex> lock(mu_);
  ended_ = true;
  complete_ = complete;
  changed_.notify_all();
}

std::optional<std::string> BodyPipe::Next() {
  std::optional<std::string> piece;
  {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [&] { return piece_ || ended_; });
    if (!piece_) return std::nullopt;
    piece.swap(piece_);
  }
  wake_();
  return piece;
}

bool BodyPipe::complete() {
  std::lock_guard<std::mutex> lock(mu_);
  return complete_;
}

void BodyPipe::Close() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    piece_.reset();
  }
  wake_();
}

}  // namespace arbiter::http
