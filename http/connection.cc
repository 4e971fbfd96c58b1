#include "http/connection.h"

#include <boost/asio/post.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http.hpp>
#include <optional>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "http/api_json.h"
#include "http/host_check.h"

namespace arbiter::http {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

// Lines of NDJSON a stream holds for a slow reader before its run waits.
constexpr size_t kMaxQueuedLines = 1024;
// One read of a request body: the piece handed to a consumer.
constexpr size_t kBodyPiece = 16 << 10;
// After each write of a stream, the next waits up to kLinger for a batch
// of kBatchBytes (the send buffer's size) rather than going out line by
// line: a verdict a moment (about 80 us each on one thread) woke the io
// thread for every line, and its sleeps and wakes cost a third of a CPU
// per verify run. A line waits at most kLinger.
constexpr size_t kBatchBytes = 64 << 10;
constexpr auto kLinger = std::chrono::milliseconds(2);

Reply Failure(int status, absl::Status error) { return ErrorReply(error, status); }

// Whether Beast's parser gave the error (as opposed to the socket or TLS).
bool ParserError(error_code ec) {
  return ec.category() == bhttp::make_error_code(bhttp::error::end_of_stream).category();
}

// Explicit callbacks rather than C++20 coroutines: GCC 12 miscompiles
// Asio coroutines (docs/http.md). Each step starts one asynchronous
// operation whose handler holds the connection (shared_from_this) and
// calls the next step; only one operation on the socket is outstanding at
// a time, besides the deadline timer.
template <class Stream>
class Connection final : public ConnectionBase,
                         public std::enable_shared_from_this<Connection<Stream>> {
 public:
  Connection(std::shared_ptr<ServerState> state, Stream stream, asio::ip::address address)
      : state_(std::move(state)),
        limits_(state_->options.limits),
        stream_(std::move(stream)),
        timer_(Socket().get_executor()),
        linger_(Socket().get_executor()),
        write_timer_(Socket().get_executor()),
        // Bounds what one connection buffers: a header section at its limit
        // plus one read beyond it.
        buffer_(size_t(limits_.header_bytes) + (64 << 10)),
        address_(address) {}

  ~Connection() override {
    if (queue_) queue_->Cancel();
    if (pipe_) pipe_->End(absl::CancelledError("the connection closed"));
    --state_->connections;
    if (--state_->by_address[address_] <= 0) state_->by_address.erase(address_);
    state_->live.erase(this);
  }

  void Start([[maybe_unused]] bool tls) {
    error_code ec;
    Socket().set_option(tcp::no_delay(true), ec);  // small answers: no delayed-ACK wait
    if (limits_.send_buffer > 0)
      Socket().set_option(asio::socket_base::send_buffer_size(limits_.send_buffer), ec);
    if constexpr (kTls) {
      if (tls) {
        Arm(limits_.handshake_deadline);
        stream_.async_handshake(asio::ssl::stream_base::server, [self = Self()](error_code e) {
          self->Disarm();
          if (e) return self->Close();
          self->ReadHeader();
        });
        return;
      }
    }
    ReadHeader();
  }

  void Close() override {
    // Released when this returns (the caller may hold no other reference).
    const std::shared_ptr<Connection> hold = std::move(hold_);
    if (closed_) return;
    closed_ = true;
    Disarm();
    DisarmWrite();
    linger_.cancel();
    if (queue_) queue_->Cancel();
    if (pipe_) pipe_->End(absl::CancelledError("the connection closed"));
    error_code ec;
    Socket().shutdown(tcp::socket::shutdown_both, ec);
    Socket().close(ec);
  }

 private:
  static constexpr bool kTls = !std::is_same_v<Stream, tcp::socket>;

  std::shared_ptr<Connection> Self() { return this->shared_from_this(); }
  tcp::socket& Socket() { return beast::get_lowest_layer(stream_); }

  // A deadline for the operation about to start: when it passes, the
  // socket's operations are cancelled (not the socket closed, as
  // beast::tcp_stream's expiry does), so that a 408 can still be written.
  void Arm(std::chrono::milliseconds after) {
    expired_ = false;
    const uint64_t generation = ++generation_;
    timer_.expires_after(after);
    timer_.async_wait([self = Self(), generation](error_code ec) {
      if (ec || generation != self->generation_) return;
      self->expired_ = true;
      // A body read beside its answer's writes: cancelling would cut the
      // answer too; the read is abandoned instead.
      if (self->through_ && self->body_reading_) return self->ThroughExpired();
      error_code e;
      self->Socket().cancel(e);
    });
  }
  void Disarm() {
    ++generation_;  // a handler already queued with success sees it is stale
    timer_.cancel();
  }

  // Writes have a deadline of their own, as in a kStreamThrough route they
  // run beside the body's reads. While that body still arrives it is not
  // started: a client may send its whole body before it reads the answer,
  // and its sending is held to the body's idle deadline meanwhile.
  void ArmWrite() {
    write_pending_ = true;
    if (!body_reading_) StartWriteDeadline();
  }
  void StartWriteDeadline() {
    const uint64_t generation = ++write_generation_;
    write_timer_.expires_after(
        std::chrono::duration_cast<std::chrono::milliseconds>(state_->options.write_timeout));
    write_timer_.async_wait([self = Self(), generation](error_code ec) {
      if (ec || generation != self->write_generation_) return;
      self->Close();  // a reader that stopped reading is dropped
    });
  }
  void DisarmWrite() {
    write_pending_ = false;
    ++write_generation_;
    write_timer_.cancel();
  }

  // --- The header ---

  void ReadHeader() {
    if (closed_) return;
    header_.emplace();
    header_->header_limit(limits_.header_bytes);
    // Its default (1 MiB) would refuse a larger Content-Length while the
    // header is read; each route's limit is checked below.
    header_->body_limit(boost::none);
    route_.reset();
    upload_.reset();
    refusing_ = false;
    through_ = stream_done_ = body_abandoned_ = false;
    body_cut_http_ = 0;
    request_ = Request{};
    head_written_ = false;
    Arm(limits_.header_deadline);
    bhttp::async_read_header(stream_, buffer_, *header_,
                             [self = Self()](error_code ec, size_t) { self->OnHeader(ec); });
  }

  void OnHeader(error_code ec) {
    Disarm();
    if (closed_) return;
    if (ec) {
      if (expired_) {
        // An idle keep-alive connection is closed without an answer.
        if (!header_->got_some() && buffer_.size() == 0) return Close();
        return Refuse(Failure(408, absl::DeadlineExceededError(
                                       absl::StrCat("the request header did not arrive within ",
                                                    limits_.header_deadline.count(), " ms"))));
      }
      if (ec == bhttp::error::header_limit || ec == bhttp::error::buffer_overflow)
        return Refuse(Failure(
            431, absl::ResourceExhaustedError(absl::StrCat(
                     "the request line and header fields are larger than this server's limit of ",
                     limits_.header_bytes, " bytes"))));
      if (ec == bhttp::error::end_of_stream || ec == asio::error::eof ||
          !ParserError(ec))  // the socket's or TLS's: the client went away
        return Close();
      return Refuse(Failure(400, absl::InvalidArgumentError(absl::StrCat(
                                     "not a valid HTTP/1.1 request: ", ec.message()))));
    }
    const auto& h = header_->get();
    version_ = h.version();
    keep_alive_ = header_->keep_alive();
    has_body_ = header_->chunked() || header_->content_length().value_or(0) > 0;
    // RFC 9112 6.3: a request Transfer-Encoding that does not end in
    // chunked cannot be framed (Beast alone would read such a request as
    // having no body, and its body as the next request).
    if (h.count(bhttp::field::transfer_encoding) && !header_->chunked())
      return Refuse(Failure(
          400, absl::InvalidArgumentError("Transfer-Encoding must end in chunked (RFC 9112 6.3)")));
    // RFC 9112 3.2: an HTTP/1.1 request has exactly one Host.
    if ((version_ >= 11 && h.count(bhttp::field::host) == 0) || h.count(bhttp::field::host) > 1)
      return Refuse(Failure(
          400, absl::InvalidArgumentError("an HTTP/1.1 request needs exactly one Host field")));
    request_.method = std::string(h.method_string());
    ParseTarget(h.target(), &request_);
    request_.content_type = std::string(h[bhttp::field::content_type]);
    request_.authorization = std::string(h[bhttp::field::authorization]);

    const HttpOptions& o = state_->options;
    if (!o.tokens) {
      const std::string host(h[bhttp::field::host]);
      if ((version_ >= 11 || h.count(bhttp::field::host)) && !HostAllowed(host, o.allowed_hosts))
        return Answer(Failure(403, absl::PermissionDeniedError(absl::StrCat(
                                       "this server has no tokens, so it answers only requests "
                                       "to a loopback host, not to \"",
                                       host, "\"; allow that host with --http-allow-host ",
                                       HostName(host), " (or use --tokens)"))));
      if (h.count(bhttp::field::origin) && !OriginAllowed(h[bhttp::field::origin], o.allowed_hosts))
        return Answer(
            Failure(403, absl::PermissionDeniedError(absl::StrCat(
                             "this server has no tokens, so it answers only pages from a loopback "
                             "host, not from \"",
                             std::string(h[bhttp::field::origin]),
                             "\"; allow that host with --http-allow-host (or use --tokens)"))));
    }
    Reply refusal;
    route_ = state_->routes.Match(request_, &refusal);
    if (!route_) return Answer(std::move(refusal));
    if (std::optional<Reply> bad = state_->routes.CheckQuery(*route_, request_))
      return Answer(*std::move(bad));
    // The body's size before the token, and the token before any body
    // byte: neither costs a client without a token more than its header.
    if (header_->content_length() && int64_t(*header_->content_length()) > route_->body_limit)
      return Answer(TooLarge());
    if (route_->needs_token &&
        !o.tokens->AcceptsAuthorization(std::string_view(h[bhttp::field::authorization]))) {
      Reply r = ErrorReply(absl::UnauthenticatedError(std::string(common::kTokenRequired)));
      r.headers.emplace_back("WWW-Authenticate", "Bearer");
      return Answer(std::move(r));
    }
    if (route_->kind == Kind::kStreamOut || route_->kind == Kind::kStreamThrough ||
        route_->kind == Kind::kStreamIn) {
      if (!state_->TakeStream())
        return Answer(
            Failure(429, absl::ResourceExhaustedError(absl::StrCat(
                             "this server runs ", limits_.max_streams,
                             " streams (verify, job results, uploads) at once; try again later"))));
      holds_stream_ = true;
    }
    // Only now may the client send its body.
    if (has_body_ && beast::iequals(h[bhttp::field::expect], "100-continue")) {
      static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
      ArmWrite();
      asio::async_write(stream_, asio::buffer(kContinue.data(), kContinue.size()),
                        [self = Self()](error_code e, size_t) {
                          self->DisarmWrite();
                          if (e) return self->Close();
                          self->ReadBody();
                        });
      return;
    }
    ReadBody();
  }

  absl::Status TooLargeError() {
    const int64_t limit = route_->body_limit;
    std::string hint;
    if (route_->name == RouteName::kVerify)
      hint = "; submit a larger file as a job (POST /v1/jobs)";
    return absl::ResourceExhaustedError(absl::StrCat(
        "the request body is larger than this route's limit of ",
        limit >= (1 << 20) ? absl::StrCat(limit >> 20, " MB") : absl::StrCat(limit, " bytes"),
        hint));
  }
  Reply TooLarge() { return Failure(413, TooLargeError()); }

  // --- The body ---

  void ReadBody() {
    // Beast reads as much as the buffer has room for; without this the
    // pieces are 512 bytes (measured on uploads: 25 KiB/s instead of 780
    // KiB/s).
    if (has_body_) buffer_.reserve(kBodyPiece);
    if (route_->kind == Kind::kStreamIn) return StartUpload();
    if (route_->kind == Kind::kStreamThrough) return StartThrough();
    if (!has_body_) return Dispatch();
    body_.emplace(std::move(*header_));
    body_->body_limit(uint64_t(route_->body_limit));
    ReadBodyPiece();
  }

  // The body of a route that takes it whole, read piece by piece so that
  // the idle deadline applies to each piece.
  void ReadBodyPiece() {
    Arm(limits_.body_idle);
    bhttp::async_read_some(stream_, buffer_, *body_, [self = Self()](error_code ec, size_t) {
      self->Disarm();
      if (self->closed_) return;
      if (ec) return self->BodyFailed(ec);
      if (!self->body_->is_done()) return self->ReadBodyPiece();
      self->request_.body = std::move(self->body_->get().body());
      self->body_.reset();
      self->has_body_ = false;  // read
      self->Dispatch();
    });
  }

  void BodyFailed(error_code ec) {
    if (ec == bhttp::error::body_limit) return Refuse(TooLarge());
    if (expired_)
      return Refuse(Failure(
          408, absl::DeadlineExceededError(absl::StrCat("no byte of the request body came for ",
                                                        limits_.body_idle.count(), " ms"))));
    if (!ParserError(ec) || ec == bhttp::error::end_of_stream ||
        ec == bhttp::error::partial_message)
      return Close();  // the client went away
    Refuse(Failure(400, absl::InvalidArgumentError(absl::StrCat(
                            "the request body is not valid HTTP/1.1: ", ec.message()))));
  }

  // --- Running the route ---

  void Dispatch() {
    switch (route_->kind) {
      case Kind::kLoop:
        return Answer(state_->routes.Answer(*route_, request_));
      case Kind::kPool:
      case Kind::kAnalyze: {
        // The call runs on a pool; its answer is posted back to this
        // connection's executor (the io thread), which alone touches the
        // socket.
        auto& pool = route_->kind == Kind::kAnalyze ? state_->analyze_pool : state_->pool;
        asio::post(pool, [self = Self()]() mutable {
          Reply reply = self->state_->routes.Answer(*self->route_, self->request_);
          auto executor = self->Socket().get_executor();
          asio::post(executor, [self = std::move(self), reply = std::move(reply)]() mutable {
            self->Answer(std::move(reply));
          });
        });
        return;
      }
      case Kind::kStreamOut:
        return StartStream(nullptr);
      case Kind::kStreamThrough:
        return;  // StartThrough
      case Kind::kStreamIn:
        return;  // StartUpload
    }
  }

  // A function for another thread that wakes this connection on its own
  // executor. It holds the connection weakly: a queue or pipe outliving
  // the connection must not keep it (or make it be destroyed off the io
  // thread).
  std::function<void()> Waker(void (Connection::*step)()) {
    std::weak_ptr<Connection> weak = Self();
    auto executor = Socket().get_executor();
    return [weak, executor, step] {
      asio::post(executor, [weak, step] {
        if (auto self = weak.lock()) ((*self).*step)();
      });
    };
  }

  // --- NDJSON out ---

  // `body`: a kStreamThrough route's, as it arrives.
  void StartStream(std::shared_ptr<BodyPipe> body) {
    hold_ = Self();  // nothing else holds a connection waiting for lines
    queue_ = std::make_shared<LineQueue>(kMaxQueuedLines, Waker(&Connection::Pump));
    auto request = std::make_shared<Request>(std::move(request_));
    holds_stream_ = false;  // the thread ends it
    std::thread([state = state_, route = *route_, request, queue = queue_, body] {
      // Made here: it reads the body's first bytes, which may not be there.
      std::unique_ptr<ByteSource> source = body ? PipeSource(body) : nullptr;
      absl::Status status = state->routes.Stream(route, *request, std::move(source), *queue);
      queue->Finish(std::move(status));
      state->EndStream();
    }).detach();
  }

  void Pump() {
    if (closed_ || !queue_ || writing_) return;
    LineQueue::Taken taken = queue_->Take(lingering_ ? kBatchBytes : 0);
    if (!head_written_) {
      // A run that failed before its first line is answered with its error
      // and status (an unknown job, options refused).
      if (taken.done && !taken.any_line && !taken.status.ok()) {
        const std::shared_ptr<Connection> hold = std::move(hold_);
        queue_.reset();
        if (through_) {
          keep_alive_ = false;  // the body may not be whole
          return Write(ErrorReply(taken.status, CutCode(taken.status)), false);
        }
        return Answer(ErrorReply(taken.status));
      }
      if (taken.text.empty() && !taken.done) return;  // woken again later
      head_written_ = true;
      chunked_ = version_ >= 11;
      if (!chunked_) keep_alive_ = false;  // HTTP/1.0: the end is the close
      stream_head_ = {};
      stream_head_.result(bhttp::status::ok);
      stream_head_.version(version_);
      stream_head_.set(bhttp::field::content_type, kNdjson);
      stream_head_.chunked(chunked_);
      stream_head_.keep_alive(keep_alive_);
      serializer_.emplace(stream_head_);
      state_->Count(route_->label, 200);
      writing_ = true;
      ArmWrite();
      bhttp::async_write_header(
          stream_, *serializer_,
          [self = Self(), taken = std::move(taken)](error_code ec, size_t) mutable {
            self->DisarmWrite();
            self->writing_ = false;
            if (ec) return self->Close();
            self->WritePiece(std::move(taken));
          });
      return;
    }
    if (taken.text.empty() && !taken.done) return;
    WritePiece(std::move(taken));
  }

  // A batch of lines, and after the last the error line of a run that
  // failed (a client must never take a cut stream for a whole one), then
  // the stream's end.
  void WritePiece(LineQueue::Taken taken) {
    if (closed_) return;
    chunk_ = std::move(taken.text);
    if (taken.done && !taken.status.ok())
      chunk_ += ErrorJson(taken.status, CutCode(taken.status)) + "\n";
    const bool done = taken.done;
    auto next = [self = Self(), done](error_code ec, size_t) {
      self->DisarmWrite();
      self->writing_ = false;
      if (ec) return self->Close();
      if (done) return self->EndStream();
      self->Linger();
    };
    if (chunk_.empty()) return EndStream();
    writing_ = true;
    ArmWrite();
    if (chunked_)
      asio::async_write(stream_, bhttp::make_chunk(asio::buffer(chunk_)), std::move(next));
    else
      asio::async_write(stream_, asio::buffer(chunk_), std::move(next));
  }

  // The next batch: written once it is whole (the queue wakes Pump) or
  // kLinger from now, whichever comes first.
  void Linger() {
    lingering_ = true;
    linger_.expires_after(kLinger);
    linger_.async_wait([weak = std::weak_ptr<Connection>(Self())](error_code ec) {
      auto self = weak.lock();
      if (ec || !self) return;
      self->lingering_ = false;
      self->Pump();
    });
    Pump();
  }

  void EndStream() {
    lingering_ = false;
    linger_.cancel();
    hold_.reset();  // the write's handler holds it now
    queue_.reset();
    serializer_.reset();
    if (!chunked_) return Close();
    writing_ = true;
    ArmWrite();
    asio::async_write(stream_, bhttp::make_chunk_last(), [self = Self()](error_code ec, size_t) {
      self->DisarmWrite();
      self->writing_ = false;
      if (ec) return self->Close();
      if (self->through_) return self->ThroughAnswered();
      if (!self->keep_alive_) return self->Close();
      self->ReadHeader();
    });
  }

  // One read of a streamed body (upload_'s parser) into piece_, under the
  // body's idle deadline; then `then(*this, error, what was read)`. A full
  // piece (Beast's need_buffer) is no error.
  template <class Then>
  void ReadPiece(Then then) {
    upload_->get().body().data = piece_;
    upload_->get().body().size = sizeof piece_;
    Arm(limits_.body_idle);
    bhttp::async_read_some(
        stream_, buffer_, *upload_, [self = Self(), then](error_code ec, size_t) {
          self->Disarm();
          if (ec == bhttp::error::need_buffer) ec = {};
          const size_t got = ec ? 0 : sizeof self->piece_ - self->upload_->get().body().size;
          then(*self, ec, std::string_view(self->piece_, got));
        });
  }

  // --- A body read while its answer is written (kStreamThrough) ---
  //
  // The run rules games as they arrive, and every piece is read as soon
  // as it comes, whether or not the run or the client's reading keeps up:
  // what waits is bounded by the route's body limit (as a body read whole
  // was), and a client that sends its whole body before reading never
  // waits on this server. The connection goes on to the next request
  // once both the answer and the body are whole.

  void StartThrough() {
    through_ = true;
    // Never full, so never waiting for room: no wake needed.
    auto pipe = std::make_shared<BodyPipe>(BodyPipe::kUnbounded, [] {});
    pipe_ = pipe;
    if (!has_body_) pipe->End(absl::OkStatus());
    StartStream(pipe);
    if (!has_body_) return;
    upload_.emplace(std::move(*header_));
    upload_->body_limit(uint64_t(route_->body_limit));
    body_reading_ = true;
    ReadThroughPiece();
  }

  void ReadThroughPiece() {
    ReadPiece([](Connection& self, error_code ec, std::string_view piece) {
      if (self.body_abandoned_ || self.closed_) return;
      if (ec) return self.ThroughBodyFailed(ec);
      // Dropped once the run stopped reading (it failed, or ended early).
      if (!piece.empty()) self.pipe_->Put(std::string(piece));
      if (self.upload_->is_done()) return self.ThroughBodyEnded(absl::OkStatus());
      self.ReadThroughPiece();
    });
  }

  void ThroughBodyFailed(error_code ec) {
    if (ec == bhttp::error::body_limit) return ThroughBodyCut(413, TooLargeError());
    if (!ParserError(ec) || ec == bhttp::error::end_of_stream ||
        ec == bhttp::error::partial_message) {
      pipe_->End(absl::CancelledError("the client went away"));
      return Close();
    }
    ThroughBodyCut(400, absl::InvalidArgumentError(absl::StrCat(
                            "the request body is not valid HTTP/1.1: ", ec.message())));
  }

  // The body's idle deadline passed: the read stays pending (its handler
  // then does nothing) until the connection closes.
  void ThroughExpired() {
    body_abandoned_ = true;
    ThroughBodyCut(408,
                   absl::DeadlineExceededError(absl::StrCat("no byte of the request body came for ",
                                                            limits_.body_idle.count(), " ms")));
  }

  // The HTTP code of a failure line: the body's cut's (408, 413) when the
  // run failed of it (its status keeps the cut's code); 0 for the status's
  // own.
  int CutCode(const absl::Status& run) const {
    return body_cut_http_ && run.code() == body_cut_code_ ? body_cut_http_ : 0;
  }

  // The body was cut: the run reads `why` as its input's error (the cut
  // game's error record, then a failure line with `http_status`).
  void ThroughBodyCut(int http_status, absl::Status why) {
    keep_alive_ = false;
    body_cut_http_ = http_status;
    body_cut_code_ = why.code();
    ThroughBodyEnded(std::move(why));
  }

  void ThroughBodyEnded(absl::Status status) {
    body_reading_ = false;
    if (status.ok()) has_body_ = false;  // read: the connection may go on
    pipe_->End(std::move(status));
    if (write_pending_) StartWriteDeadline();
    if (stream_done_) FinishThrough();
  }

  // The answer is written: on to the next request once the body is whole
  // too.
  void ThroughAnswered() {
    stream_done_ = true;
    if (!body_reading_) FinishThrough();
  }

  void FinishThrough() {
    through_ = false;
    pipe_.reset();
    if (closed_) return;
    if (!has_body_ && keep_alive_) return ReadHeader();
    // A client cut off by a limit may still be sending: it should see the
    // answer rather than a reset.
    if (body_cut_http_ && !body_abandoned_) return Drain();
    Close();
  }

  // --- Uploads in ---

  void StartUpload() {
    upload_.emplace(std::move(*header_));
    upload_->body_limit(uint64_t(route_->body_limit));
    hold_ = Self();  // nothing else holds a connection waiting for its consumer
    pipe_ = std::make_shared<BodyPipe>(1, Waker(&Connection::PieceTaken));
    upload_reply_.reset();
    upload_error_.reset();
    auto request = std::make_shared<Request>(request_);
    holds_stream_ = false;  // the thread ends it
    std::weak_ptr<Connection> weak = Self();
    auto executor = Socket().get_executor();
    std::thread([state = state_, route = *route_, request, pipe = pipe_, weak, executor] {
      Reply reply = state->routes.Upload(
          route, *request, [&pipe](const std::function<bool(std::string_view)>& write) {
            while (std::optional<std::string> piece = pipe->Next())
              if (!write(*piece)) {
                pipe->Close();
                return false;
              }
            return pipe->status().ok();
          });
      pipe->Close();  // takes nothing more
      state->EndStream();
      asio::post(executor, [weak, reply = std::move(reply)]() mutable {
        if (auto self = weak.lock()) self->UploadAnswered(std::move(reply));
      });
    }).detach();
    ReadUploadPiece();
  }

  void ReadUploadPiece() {
    if (closed_) return;
    if (upload_reply_) return FinishUpload();
    if (!pipe_ || !pipe_->HasRoom()) return;  // PieceTaken calls again
    if (upload_->is_done()) {
      pipe_->End(absl::OkStatus());
      return;  // UploadAnswered finishes
    }
    reading_ = true;
    ReadPiece([](Connection& self, error_code ec, std::string_view piece) {
      self.reading_ = false;
      if (self.closed_) return;
      if (ec) {
        self.upload_error_ = ec;
        self.upload_expired_ = self.expired_;
        self.pipe_->End(absl::CancelledError("the upload was cut"));
        if (self.upload_reply_) self.FinishUpload();
        return;
      }
      if (!piece.empty() && !self.pipe_->Put(std::string(piece))) {
        if (self.upload_reply_) self.FinishUpload();
        return;  // the consumer stopped: its answer comes
      }
      self.ReadUploadPiece();
    });
  }

  void PieceTaken() {
    if (!reading_ && !upload_error_) ReadUploadPiece();
  }

  void UploadAnswered(Reply reply) {
    upload_reply_ = std::move(reply);
    if (!reading_) FinishUpload();
  }

  void FinishUpload() {
    if (!upload_reply_ || !pipe_) return;
    const std::shared_ptr<Connection> hold = std::move(hold_);
    pipe_.reset();
    const bool complete = upload_->is_done();
    Reply reply = *std::move(upload_reply_);
    upload_reply_.reset();
    has_body_ = !complete;
    if (upload_error_) {
      const error_code ec = *upload_error_;
      upload_error_.reset();
      expired_ = upload_expired_;
      if (ec == bhttp::error::body_limit)
        return Refuse(Failure(413, absl::ResourceExhaustedError(absl::StrCat(
                                       "the upload is larger than this server's limit of ",
                                       route_->body_limit >> 20, " MB"))));
      return BodyFailed(ec);
    }
    Answer(std::move(reply));
  }

  // --- Answers ---

  // Writes `reply`; the connection stays open for the next request unless
  // the client asked to close or a body is left unread.
  void Answer(Reply reply) {
    if (has_body_) return Refuse(std::move(reply));
    Write(std::move(reply), keep_alive_);
  }

  void Write(Reply reply, bool keep) {
    if (closed_) return;
    if (holds_stream_) {
      holds_stream_ = false;
      state_->EndStream();
    }
    state_->Count(route_ ? route_->label : "other", reply.status);
    response_ = {};
    response_.result(unsigned(reply.status));
    response_.version(version_ ? version_ : 11);
    response_.set(bhttp::field::content_type, reply.content_type);
    for (const auto& [name, value] : reply.headers) response_.set(name, value);
    response_.body() = std::move(reply.body);
    response_.keep_alive(keep);
    response_.prepare_payload();
    ArmWrite();
    bhttp::async_write(stream_, response_, [self = Self(), keep](error_code ec, size_t) {
      self->DisarmWrite();
      if (ec || self->closed_) return self->Close();
      if (self->through_) return self->ThroughAnswered();
      if (keep) return self->ReadHeader();
      if (self->refusing_) return self->Drain();
      self->Close();
    });
  }

  // A request refused while it may still be sending (a body unread, a bad
  // frame): the answer with Connection: close, then what the client still
  // sends is read and dropped for a little while, so that it sees the
  // answer rather than a reset.
  void Refuse(Reply reply) {
    refusing_ = true;
    Write(std::move(reply), false);
  }

  void Drain() {
    error_code ec;
    Socket().shutdown(tcp::socket::shutdown_send, ec);
    drained_ = 0;
    DrainSome();
  }
  void DrainSome() {
    Arm(limits_.drain_deadline);  // per read: a client still sending is drained to the limit
    Socket().async_read_some(asio::buffer(piece_), [self = Self()](error_code ec, size_t n) {
      self->Disarm();
      self->drained_ += int64_t(n);
      if (ec || self->drained_ >= self->limits_.drain_bytes) return self->Close();
      self->DrainSome();
    });
  }

  const std::shared_ptr<ServerState> state_;
  const HttpLimits& limits_;
  // Set while the connection waits for another thread (a stream's lines,
  // an upload's consumer) with no operation of its own pending; cleared
  // when that ends or the connection closes.
  std::shared_ptr<Connection> hold_;
  Stream stream_;
  asio::steady_timer timer_;
  asio::steady_timer linger_;  // a stream's wait for a whole batch
  asio::steady_timer write_timer_;
  uint64_t generation_ = 0, write_generation_ = 0;
  bool write_pending_ = false;  // a write waits for its deadline to start
  bool expired_ = false;
  // Kept across requests: bytes of pipelined requests wait here.
  beast::flat_buffer buffer_;
  const asio::ip::address address_;

  std::optional<bhttp::request_parser<bhttp::empty_body>> header_;
  std::optional<bhttp::request_parser<bhttp::string_body>> body_;
  std::optional<bhttp::request_parser<bhttp::buffer_body>> upload_;
  Request request_;
  std::optional<Route> route_;
  unsigned version_ = 11;
  bool keep_alive_ = true, has_body_ = false, closed_ = false, refusing_ = false;
  bool holds_stream_ = false;

  bhttp::response<bhttp::string_body> response_;

  std::shared_ptr<LineQueue> queue_;
  bhttp::response<bhttp::empty_body> stream_head_;
  std::optional<bhttp::response_serializer<bhttp::empty_body>> serializer_;
  std::string chunk_;
  bool head_written_ = false, chunked_ = true, writing_ = false, lingering_ = false;

  std::shared_ptr<BodyPipe> pipe_;
  // A kStreamThrough route: its body still arriving, abandoned to its idle
  // deadline (whole: !has_body_); the answer written; the HTTP and status
  // codes of the body's cut.
  bool through_ = false, body_reading_ = false, body_abandoned_ = false;
  bool stream_done_ = false;
  int body_cut_http_ = 0;
  absl::StatusCode body_cut_code_ = absl::StatusCode::kOk;
  std::optional<Reply> upload_reply_;
  std::optional<error_code> upload_error_;
  bool upload_expired_ = false, reading_ = false;
  char piece_[kBodyPiece];
  int64_t drained_ = 0;
};

template <class Stream>
void Serve(std::shared_ptr<ServerState> state, Stream stream, asio::ip::address address, bool tls) {
  auto c = std::make_shared<Connection<Stream>>(state, std::move(stream), address);
  state->live[c.get()] = c;
  c->Start(tls);
}

}  // namespace

void ServeConnection(std::shared_ptr<ServerState> state, tcp::socket socket,
                     asio::ip::address address, asio::ssl::context* tls) {
  ++state->connections;
  ++state->by_address[address];
  if (tls)
    Serve(state, asio::ssl::stream<tcp::socket>(std::move(socket), *tls), address, true);
  else
    Serve(state, std::move(socket), address, false);
}

}  // namespace arbiter::http
