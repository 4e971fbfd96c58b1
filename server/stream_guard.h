// Bounds what long-lived client streams may hold on the coordinator: how
// many run at once (each holds threads and up to a run's in-flight games),
// and how long one may stall with verdicts its client does not read (a
// write blocked by flow control holds the run's games and verdicts). A
// stream merely idle, its client sending nothing for a while (a live feed),
// is not stalled. Without these bounds, a few hundred streams that never
// read took the coordinator past its memory limit.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/statusor.h"

namespace grpc {
class ServerContextBase;
}

namespace arbiter::coordinator {

class StreamGuard {
 public:
  // `stall_timeout` zero: streams are never reaped.
  StreamGuard(size_t max_streams, std::chrono::seconds stall_timeout);
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

  class Slot;
  // A slot for the stream of `ctx`, held until the returned Slot is
  // destroyed; RESOURCE_EXHAUSTED when `max_streams` are open.
  absl::StatusOr<std::unique_ptr<Slot>> Open(grpc::ServerContextBase* ctx);

 private:
  struct Entry {
    grpc::ServerContextBase* ctx;
    std::string peer;  // taken at the start: a cancelled call no longer knows it
    bool writing = false;
    std::chrono::steady_clock::time_point write_start;
    bool reaped = false;
  };
  void Reaper();

  const size_t max_streams_;
  const std::chrono::seconds stall_timeout_;
  std::mutex mu_;
  std::condition_variable stop_;
  std::list<Entry> open_;  // guarded by mu_
  bool stopping_ = false;
  std::thread reaper_;
};

class StreamGuard::Slot {
 public:
  ~Slot();
  // Around each write to the client: one that does not return within the
  // stall timeout gets the stream cancelled.
  void BeginWrite();
  void EndWrite();
  // Whether the guard cancelled the stream for stalling.
  bool reaped();

 private:
  friend class StreamGuard;
  Slot(StreamGuard& guard, std::list<Entry>::iterator entry) : guard_(guard), entry_(entry) {}
  StreamGuard& guard_;
  std::list<Entry>::iterator entry_;
};

}  // namespace arbiter::coordinator
