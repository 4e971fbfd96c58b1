// A raw (ByteBuffer) callback stream served as blocking Read and Write calls
// on a thread of its own, so that a handler written in the synchronous style
// can tell a message that does not parse (an error of the call) from the end
// of the client's messages: gRPC's synchronous API reports both as Read()
// returning false.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/byte_buffer.h"
#include "grpcpp/support/proto_buffer_reader.h"
#include "grpcpp/support/proto_buffer_writer.h"
#include "grpcpp/support/server_callback.h"

namespace arbiter::coordinator {

// `Named`: the message a Request stands for (the public message of a view,
// arbiter/v1/relay.proto), named in errors.
template <typename Request, typename Response, typename Named = Request>
class BlockingBidi final : public grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer> {
 public:
  using Body = std::function<grpc::Status(BlockingBidi&)>;

  // Runs `body` on a new thread; the call ends with the status it returns.
  // The reactor deletes itself when the call is done.
  BlockingBidi(grpc::CallbackServerContext* ctx, Body body) : ctx_(ctx), body_(std::move(body)) {
    thread_ = std::thread([this] { Finish(body_(*this)); });
  }

  grpc::CallbackServerContext* context() const { return ctx_; }

  // The next message: true, false at the end of the client's messages (or a
  // cancelled call), INVALID_ARGUMENT for one that does not parse. One Read
  // at a time.
  absl::StatusOr<bool> Read(Request* message) {
    std::unique_lock<std::mutex> lock(mu_);
    read_done_ = false;
    StartRead(&in_);
    cv_.wait(lock, [&] { return read_done_; });
    if (!read_ok_) return false;
    ++messages_read_;
    grpc::ProtoBufferReader reader(&in_);
    if (!message->ParseFromZeroCopyStream(&reader))
      return absl::InvalidArgumentError(absl::StrCat("message ", messages_read_,
                                                     " of the stream is not a ",
                                                     Named::descriptor()->full_name()));
    return true;
  }

  // Messages read so far (the last one read is this one).
  int64_t messages_read() const { return messages_read_; }

  // False when the client is gone. One Write at a time (a Read may run
  // alongside, on another thread).
  bool Write(const Response& message) {
    grpc::ByteBuffer out;
    bool own = false;
    if (!grpc::SerializationTraits<Response>::Serialize(message, &out, &own).ok()) return false;
    std::unique_lock<std::mutex> lock(mu_);
    write_done_ = false;
    StartWrite(&out);
    cv_.wait(lock, [&] { return write_done_; });
    return write_ok_;
  }

  void OnReadDone(bool ok) override {
    std::lock_guard<std::mutex> lock(mu_);
    read_ok_ = ok;
    read_done_ = true;
    cv_.notify_all();
  }
  void OnWriteDone(bool ok) override {
    std::lock_guard<std::mutex> lock(mu_);
    write_ok_ = ok;
    write_done_ = true;
    cv_.notify_all();
  }
  void OnDone() override {
    thread_.join();
    delete this;
  }

 private:
  grpc::CallbackServerContext* const ctx_;
  const Body body_;
  std::mutex mu_;
  std::condition_variable cv_;
  grpc::ByteBuffer in_;
  int64_t messages_read_ = 0;
  bool read_done_ = false, read_ok_ = false, write_done_ = false, write_ok_ = false;
  std::thread thread_;
};

}  // namespace arbiter::coordinator
