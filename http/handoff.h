// Hand-offs between the io thread, which owns every socket and must never
// block, and the threads that run blocking backend calls. Each side waits
// in its own way: a blocking thread on a condition variable, the io thread
// by being called back (the `wake` function, which posts to the
// connection's executor) once there is something for it.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "core/io/byte_source.h"

namespace arbiter::http {

// NDJSON lines from a producer thread (a verify run, a job's results) to
// the io thread that writes them: bounded, so that a slow reader slows the
// run instead of filling memory.
class LineQueue {
 public:
  LineQueue(size_t max_lines, std::function<void()> wake)
      : max_lines_(max_lines), wake_(std::move(wake)) {}

  // Producer: queues a line (ending in '\n'), waiting while the queue is
  // full. False once the reader went away: the run should stop.
  bool Push(std::string line);
  // Producer: the run ended, with this status.
  void Finish(absl::Status status);

  // io thread: what is queued, and whether the run ended (with its
  // status), once at least `at_least` bytes are queued, the queue is full
  // or the run ended. Empty text and not done: not yet; the io thread is
  // woken when that changes (a batch at a time: http/connection.cc,
  // kBatchBytes, says why).
  struct Taken {
    std::string text;
    bool done = false;
    bool any_line = false;  // some line was ever queued
    absl::Status status;
  };
  Taken Take(size_t at_least = 0);
  // io thread: the reader went away (or the server stops).
  void Cancel();

 private:
  const size_t max_lines_;
  const std::function<void()> wake_;
  std::mutex mu_;
  std::condition_variable space_;
  std::deque<std::string> lines_;
  size_t bytes_ = 0;       // in lines_
  size_t wake_bytes_ = 1;  // a waiting io thread is woken once bytes_ reach this
  bool done_ = false, cancelled_ = false, any_line_ = false, waiting_ = true;
  absl::Status status_;
};

// A request body from the io thread to a blocking consumer, piece by
// piece. `max_pieces` bounds what waits for the consumer: 1 for a job
// upload, whose next piece is read from the socket only once the consumer
// took the last, so that a slow consumer slows the client (TCP
// backpressure) instead of filling memory; unbounded for /v1/verify,
// whose body is bounded by its size limit instead, so that a client that
// sends its whole body before it reads the answer is never left waiting
// on the server (docs/http.md).
class BodyPipe {
 public:
  static constexpr size_t kUnbounded = SIZE_MAX;
  BodyPipe(size_t max_pieces, std::function<void()> wake)
      : max_pieces_(max_pieces), wake_(std::move(wake)) {}

  // io thread: hands over a piece; `wake` is called once there is room
  // again (or the consumer stopped). False when the consumer stopped
  // already (the piece is dropped).
  bool Put(std::string piece);
  // io thread: whether another piece may be put now (or the consumer
  // stopped, and takes nothing more).
  bool HasRoom();
  // io thread: no more pieces; OK when the body was whole, otherwise why
  // it was cut (a limit, a framing error, the client went away).
  void End(absl::Status status);

  // Consumer: the next piece, nullopt at the end; status() says how it
  // ended.
  std::optional<std::string> Next();
  absl::Status status();
  // Consumer: stops taking (the io thread stops handing over).
  void Close();

 private:
  const size_t max_pieces_;
  const std::function<void()> wake_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<std::string> pieces_;
  bool ended_ = false, closed_ = false;
  absl::Status status_;
};

// The consumer's end of a BodyPipe as a ByteSource (zstd recognised as in
// a file: ByteSource::Decoding), for a PgnReader that rules games as the
// body arrives. A cut body is a read error, with the pipe's reason.
std::unique_ptr<ByteSource> PipeSource(std::shared_ptr<BodyPipe> pipe);

}  // namespace arbiter::http
