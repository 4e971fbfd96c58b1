#include "server/stream_guard.h"

#include <malloc.h>

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "grpcpp/server_context.h"

namespace arbiter::coordinator {
namespace {

constexpr auto kReapInterval = std::chrono::seconds(1);

}  // namespace

StreamGuard::StreamGuard(size_t max_streams, std::chrono::seconds stall_timeout)
    : max_streams_(max_streams), stall_timeout_(stall_timeout) {
  if (stall_timeout_.count() > 0) reaper_ = std::thread([this] { Reaper(); });
}

StreamGuard::~StreamGuard() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  stop_.notify_all();
  if (reaper_.joinable()) reaper_.join();
}

absl::StatusOr<std::unique_ptr<StreamGuard::Slot>> StreamGuard::Open(grpc::ServerContextBase* ctx) {
  std::lock_guard<std::mutex> lock(mu_);
  if (open_.size() >= max_streams_)
    return absl::ResourceExhaustedError(
        absl::StrCat(max_streams_,
                     " streams are open, this coordinator's limit (--max-streams); "
                     "try again later"));
  open_.push_back(
      Entry{.ctx = ctx, .peer = ctx->peer(), .writing = false, .write_start = {}, .reaped = false});
  return std::unique_ptr<Slot>(new Slot(*this, std::prev(open_.end())));
}

void StreamGuard::Reaper() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_.wait_for(lock, kReapInterval, [&] { return stopping_; })) {
    const auto now = std::chrono::steady_clock::now();
    for (Entry& e : open_) {
      if (e.reaped || !e.writing || now - e.write_start < stall_timeout_) continue;
      // The handler's blocked Write returns false, and it ends the stream's
      // run.
      e.reaped = true;
      e.ctx->TryCancel();
      std::fprintf(stderr,
                   "arbiter-coordinator: a stream from %s did not read its verdicts for %lld s "
                   "(--stream-stall-timeout): cancelled\n",
                   e.peer.c_str(), (long long)stall_timeout_.count());
    }
  }
}

StreamGuard::Slot::~Slot() {
  bool last;
  {
    std::lock_guard<std::mutex> lock(guard_.mu_);
    guard_.open_.erase(entry_);
    last = guard_.open_.empty();
  }
  // The last stream gone: glibc keeps what the streams' threads freed in
  // their arenas (hundreds of MB after a burst of runs, each holding up to
  // --max-outstanding games); hand it back to the system.
  if (last) malloc_trim(0);
}

void StreamGuard::Slot::BeginWrite() {
  std::lock_guard<std::mutex> lock(guard_.mu_);
  entry_->writing = true;
  entry_->write_start = std::chrono::steady_clock::now();
}

void StreamGuard::Slot::EndWrite() {
  std::lock_guard<std::mutex> lock(guard_.mu_);
  entry_->writing = false;
}

bool StreamGuard::Slot::reaped() {
  std::lock_guard<std::mutex> lock(guard_.mu_);
  return entry_->reaped;
}

}  // namespace arbiter::coordinator
