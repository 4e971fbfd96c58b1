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
    if (waiting_ && (bytes_ >= wake_bytes_ || lines_.size() >= max_lines_)) {
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
  const size_t batch = std::max<size_t>(at_least, 1);
  if (!done_ && bytes_ < batch && lines_.size() < max_lines_) {
    waiting_ = true;
    wake_bytes_ = batch;
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
  pieces_.push_back(std::move(piece));
  changed_.notify_all();
  return true;
}

bool BodyPipe::HasRoom() {
  std::lock_guard<std::mutex> lock(mu_);
  return closed_ || pieces_.size() < max_pieces_;
}

void BodyPipe::End(absl::Status status) {
  std::lock_guard<std::mutex> lock(mu_);
  if (ended_) return;
  ended_ = true;
  status_ = std::move(status);
  changed_.notify_all();
}

std::optional<std::string> BodyPipe::Next() {
  std::optional<std::string> piece;
  bool was_full;
  {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [&] { return !pieces_.empty() || ended_ || closed_; });
    if (pieces_.empty()) return std::nullopt;
    was_full = pieces_.size() >= max_pieces_;
    piece = std::move(pieces_.front());
    pieces_.pop_front();
  }
  if (was_full) wake_();
  return piece;
}

absl::Status BodyPipe::status() {
  std::lock_guard<std::mutex> lock(mu_);
  return status_;
}

void BodyPipe::Close() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    pieces_.clear();
  }
  wake_();
}

namespace {

class RawPipeSource final : public ByteSource {
 public:
  explicit RawPipeSource(std::shared_ptr<BodyPipe> pipe) : pipe_(std::move(pipe)) {}
  ~RawPipeSource() override { pipe_->Close(); }

  absl::StatusOr<size_t> Read(char* buf, size_t n) override {
    while (at_ == piece_.size()) {
      std::optional<std::string> next = pipe_->Next();
      if (!next) {
        if (absl::Status s = pipe_->status(); !s.ok()) return s;
        return 0;
      }
      piece_ = *std::move(next);
      at_ = 0;
    }
    const size_t k = std::min(n, piece_.size() - at_);
    piece_.copy(buf, k, at_);
    at_ += k;
    return k;
  }

 private:
  const std::shared_ptr<BodyPipe> pipe_;
  std::string piece_;
  size_t at_ = 0;
};

}  // namespace

std::unique_ptr<ByteSource> PipeSource(std::shared_ptr<BodyPipe> pipe) {
  return ByteSource::Decoding(std::make_unique<RawPipeSource>(std::move(pipe)), "<request body>");
}

}  // namespace arbiter::http
