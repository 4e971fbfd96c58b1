#include "core/io/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace arbiter {
namespace {

constexpr char kZstdMagic[4] = {'\x28', '\xB5', '\x2F', '\xFD'};

std::string ErrnoText(int err) { return std::strerror(err); }

class StringSource : public ByteSource {
 public:
  explicit StringSource(std::string data) : data_(std::move(data)) {}

  absl::StatusOr<size_t> Read(char* buf, size_t n) override {
    size_t count = std::min(n, data_.size() - pos_);
    std::memcpy(buf, data_.data() + pos_, count);
    pos_ += count;
    return count;
  }

 private:
  std::string data_;
  size_t pos_ = 0;
};

class FdSource : public ByteSource {
 public:
  FdSource(int fd, std::string name, bool owned) : fd_(fd), name_(std::move(name)), owned_(owned) {}
  ~FdSource() override {
    if (owned_) ::close(fd_);
  }
  FdSource(const FdSource&) = delete;
  FdSource& operator=(const FdSource&) = delete;

  absl::StatusOr<size_t> Read(char* buf, size_t n) override {
    for (;;) {
      ssize_t got = ::read(fd_, buf, n);
      if (got >= 0) return size_t(got);
      if (errno == EINTR) continue;
      int err = errno;
      return absl::ErrnoToStatus(err, absl::StrCat("cannot read '", name_, "'"));
    }
  }

 private:
  int fd_;
  std::string name_;
  bool owned_;
};

// At most `limit` bytes of `inner`.
class LimitedSource : public ByteSource {
 public:
  LimitedSource(std::unique_ptr<ByteSource> inner, uint64_t limit)
      : inner_(std::move(inner)), left_(limit) {}

  absl::StatusOr<size_t> Read(char* buf, size_t n) override {
    if (left_ == 0) return 0;
    absl::StatusOr<size_t> got = inner_->Read(buf, size_t(std::min<uint64_t>(n, left_)));
    if (got.ok()) left_ -= *got;
    return got;
  }

 private:
  std::unique_ptr<ByteSource> inner_;
  uint64_t left_;
};

// Replays the bytes consumed while sniffing the format, then the rest.
class PrefixedSource : public ByteSource {
 public:
  PrefixedSource(std::string prefix, std::unique_ptr<ByteSource> inner)
      : prefix_(std::move(prefix)), inner_(std::move(inner)) {}

  absl::StatusOr<size_t> Read(char* buf, size_t n) override {
    if (pos_ < prefix_.size()) {
      size_t count = std::min(n, prefix_.size() - pos_);
      std::memcpy(buf, prefix_.data() + pos_, count);
      pos_ += count;
      return count;
    }
    return inner_->Read(buf, n);
  }

 private:
  std::string prefix_;
  size_t pos_ = 0;
  std::unique_ptr<ByteSource> inner_;
};

// Streaming zstd decompression; handles concatenated frames (what `cat a.zst
// b.zst` or pzstd produce) because one DCtx decodes frames back to back.
class ZstdSource : public ByteSource {
 public:
  ZstdSource(std::string prefix, std::unique_ptr<ByteSource> inner, std::string name)
      : inner_(std::move(inner)),
        name_(std::move(name)),
        dctx_(ZSTD_createDCtx()),
        in_capacity_(std::max(ZSTD_DStreamInSize(), prefix.size())),
        in_buf_(std::make_unique_for_overwrite<char[]>(in_capacity_)) {
    std::memcpy(in_buf_.get(), prefix.data(), prefix.size());
    in_ = {in_buf_.get(), prefix.size(), 0};
  }
  ~ZstdSource() override { ZSTD_freeDCtx(dctx_); }
  ZstdSource(const ZstdSource&) = delete;
  ZstdSource& operator=(const ZstdSource&) = delete;

  absl::StatusOr<size_t> Read(char* buf, size_t n) override {
    if (dctx_ == nullptr) return absl::ResourceExhaustedError("cannot allocate a zstd context");
    for (;;) {
      ZSTD_outBuffer out = {buf, n, 0};
      size_t in_before = in_.pos;
      size_t ret = ZSTD_decompressStream(dctx_, &out, &in_);
      if (ZSTD_isError(ret)) {
        return absl::DataLossError(absl::StrCat("corrupt zstd data in '", name_,
                                                "' near compressed byte offset ",
                                                consumed_ + in_.pos, ": ", ZSTD_getErrorName(ret)));
      }
      // 0 means a frame was completely decoded and flushed. A call that makes
      // no progress (no input left) says nothing about the last frame.
      if (in_.pos != in_before || out.pos > 0) frame_complete_ = ret == 0;
      if (out.pos > 0) return out.pos;
      if (in_.pos < in_.size) continue;
      if (inner_eof_) {
        if (frame_complete_) return 0;
        return absl::DataLossError(absl::StrCat("truncated zstd data in '", name_,
                                                "': the stream ends at compressed byte offset ",
                                                consumed_ + in_.pos, " inside a frame"));
      }
      consumed_ += in_.size;
      absl::StatusOr<size_t> got = inner_->Read(in_buf_.get(), in_capacity_);
      if (!got.ok()) return got.status();
      in_ = {in_buf_.get(), *got, 0};
      inner_eof_ = *got == 0;
    }
  }

 private:
  std::unique_ptr<ByteSource> inner_;
  std::string name_;
  ZSTD_DCtx* dctx_;
  size_t in_capacity_;
  std::unique_ptr<char[]> in_buf_;  // not zero-filled: only bytes read are decoded
  ZSTD_inBuffer in_;
  uint64_t consumed_ = 0;  // compressed bytes before in_buf_
  bool inner_eof_ = false;
  bool frame_complete_ = false;
};

// Runs the inner source on a worker thread, a few chunks ahead of the
// consumer, so that zstd decompression overlaps with parsing on another core.
class ReadAheadSource : public ByteSource {
 public:
  explicit ReadAheadSource(std::unique_ptr<ByteSource> inner)
      : shared_(std::make_shared<Shared>(std::move(inner))) {
    worker_ = std::thread([shared = shared_] { Produce(*shared); });
  }
  ~ReadAheadSource() override {
    bool reading;
    {
      std::lock_guard<std::mutex> lock(shared_->mu);
      shared_->stop = true;
      reading = shared_->reading;
    }
    shared_->cv.notify_all();
    // A worker blocked in a read (a pipe that stays open) must not hold up
    // the consumer; it owns a reference to the shared state and exits after
    // the read returns.
    if (reading) {
      worker_.detach();
    } else {
      worker_.join();
    }
  }
  ReadAheadSource(const ReadAheadSource&) = delete;
  ReadAheadSource& operator=(const ReadAheadSource&) = delete;

  absl::StatusOr<size_t> Read(char* buf, size_t n) override {
    Shared& s = *shared_;
    for (;;) {
      if (current_ != nullptr) {
        if (current_pos_ < current_->size) {
          size_t count = std::min(n, current_->size - current_pos_);
          std::memcpy(buf, current_->data.get() + current_pos_, count);
          current_pos_ += count;
          return count;
        }
        // The end of the input and errors are sticky: keep the chunk.
        if (!current_->status.ok()) return current_->status;
        if (current_->size == 0) return 0;
        std::lock_guard<std::mutex> lock(s.mu);
        current_->full = false;
        current_ = nullptr;
        consume_index_ = (consume_index_ + 1) % kChunks;
        s.cv.notify_all();
      }
      std::unique_lock<std::mutex> lock(s.mu);
      s.cv.wait(lock, [&] { return s.chunks[consume_index_].full; });
      current_ = &s.chunks[consume_index_];
      current_pos_ = 0;
    }
  }

 private:
  static constexpr int kChunks = 4;
  // Chunks start small and double while the input keeps filling them: a
  // short input (a request's games, a test) then costs two small buffers,
  // not four megabytes, while a database file is read in 1 MiB chunks after
  // the first few.
  static constexpr size_t kFirstChunkBytes = 64 << 10;
  static constexpr size_t kMaxChunkBytes = 1 << 20;
  struct Chunk {
    // Allocated and grown by the producer while the chunk is not full; not
    // zero-filled: only bytes read into it are handed over.
    std::unique_ptr<char[]> data;
    size_t capacity = 0;
    size_t size = 0;  // 0: the end of the input, or `status` is an error
    absl::Status status;
    bool full = false;  // set by the producer, cleared by the consumer
  };
  // Everything the worker touches, kept alive by whichever side ends last.
  struct Shared {
    explicit Shared(std::unique_ptr<ByteSource> source) : inner(std::move(source)) {}
    std::unique_ptr<ByteSource> inner;
    std::mutex mu;
    std::condition_variable cv;
    bool stop = false;
    bool reading = false;  // the worker is inside inner->Read
    Chunk chunks[kChunks];
  };

  // Fills the chunks in turn. The last chunk handed over has size 0: the end
  // of the input, or an error after all data read before it.
  static void Produce(Shared& s) {
    size_t chunk_bytes = kFirstChunkBytes;
    for (int i = 0;; i = (i + 1) % kChunks) {
      Chunk& chunk = s.chunks[i];
      {
        std::unique_lock<std::mutex> lock(s.mu);
        s.cv.wait(lock, [&] { return s.stop || !chunk.full; });
        if (s.stop) return;
        s.reading = true;
      }
      if (chunk.capacity < chunk_bytes) {
        chunk.data = std::make_unique_for_overwrite<char[]>(chunk_bytes);
        chunk.capacity = chunk_bytes;
      }
      // Fill the chunk as far as possible, so that hand-overs stay rare.
      size_t size = 0;
      absl::Status status;
      while (size < chunk.capacity) {
        absl::StatusOr<size_t> got = s.inner->Read(chunk.data.get() + size, chunk.capacity - size);
        if (!got.ok()) {
          status = got.status();
          break;
        }
        if (*got == 0) break;
        size += *got;
      }
      if (size == chunk.capacity) chunk_bytes = std::min(2 * chunk_bytes, kMaxChunkBytes);
      {
        std::lock_guard<std::mutex> lock(s.mu);
        s.reading = false;
        chunk.size = size;
        chunk.status = size == 0 ? status : absl::OkStatus();
        chunk.full = true;
      }
      s.cv.notify_all();
      if (size == 0) return;
      if (!status.ok()) {
        // Data came before the error: hand the error over in the next chunk.
        Chunk& next = s.chunks[(i + 1) % kChunks];
        std::unique_lock<std::mutex> lock(s.mu);
        s.cv.wait(lock, [&] { return s.stop || !next.full; });
        if (s.stop) return;
        next.size = 0;
        next.status = status;
        next.full = true;
        s.cv.notify_all();
        return;
      }
    }
  }

  std::shared_ptr<Shared> shared_;
  int consume_index_ = 0;
  Chunk* current_ = nullptr;
  size_t current_pos_ = 0;
  std::thread worker_;
};

// Sniffs the first bytes of `raw` and returns a source of the (decompressed)
// content.
absl::StatusOr<std::unique_ptr<ByteSource>> Detect(std::unique_ptr<ByteSource> raw,
                                                   std::string name) {
  std::string head(sizeof(kZstdMagic), '\0');
  size_t got = 0;
  while (got < head.size()) {
    absl::StatusOr<size_t> n = raw->Read(head.data() + got, head.size() - got);
    if (!n.ok()) return n.status();
    if (*n == 0) break;
    got += *n;
  }
  head.resize(got);
  if (ByteSource::IsZstdStart(head))
    return std::make_unique<ReadAheadSource>(
        std::make_unique<ZstdSource>(std::move(head), std::move(raw), std::move(name)));
  return std::make_unique<PrefixedSource>(std::move(head), std::move(raw));
}

// Defers an error to the first Read, for FromString which cannot fail.
class FailedSource : public ByteSource {
 public:
  explicit FailedSource(absl::Status status) : status_(std::move(status)) {}
  absl::StatusOr<size_t> Read(char*, size_t) override { return status_; }

 private:
  absl::Status status_;
};

}  // namespace

// Zstd data: a frame's magic bytes, or those of a skippable frame
// (0x184D2A50..5F, little-endian), which pzstd writes before every frame.
// Testing the first only read pzstd's output as PGN text ("unexpected token").
bool ByteSource::IsZstdStart(std::string_view head) {
  if (head == std::string_view(kZstdMagic, sizeof(kZstdMagic))) return true;
  return head.size() == 4 && (uint8_t(head[0]) & 0xF0) == 0x50 && head.substr(1) == "\x2A\x4D\x18";
}

absl::StatusOr<std::unique_ptr<ByteSource>> ByteSource::Open(const std::string& path) {
  if (path == "-")
    return Detect(std::make_unique<FdSource>(STDIN_FILENO, "<stdin>", false), "<stdin>");
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    return absl::ErrnoToStatus(err, absl::StrCat("cannot open '", path, "'"));
  }
  auto source = std::make_unique<FdSource>(fd, path, true);
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
    return absl::FailedPreconditionError(
        absl::StrCat("cannot read '", path, "': ", ErrnoText(EISDIR)));
  // Large files are read once, front to back.
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  return Detect(std::move(source), path);
}

absl::StatusOr<std::unique_ptr<ByteSource>> ByteSource::OpenRange(const std::string& path,
                                                                  uint64_t begin, uint64_t end) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    return absl::ErrnoToStatus(err, absl::StrCat("cannot open '", path, "'"));
  }
  auto source = std::make_unique<FdSource>(fd, path, true);
  if (::lseek(fd, off_t(begin), SEEK_SET) < 0) {
    int err = errno;
    return absl::ErrnoToStatus(err, absl::StrCat("cannot seek in '", path, "'"));
  }
  ::posix_fadvise(fd, off_t(begin), 0, POSIX_FADV_SEQUENTIAL);
  return Detect(std::make_unique<LimitedSource>(std::move(source), end > begin ? end - begin : 0),
                path);
}

std::unique_ptr<ByteSource> ByteSource::FromString(std::string data) {
  return Decoding(std::make_unique<StringSource>(std::move(data)), "<string>");
}

std::unique_ptr<ByteSource> ByteSource::Decoding(std::unique_ptr<ByteSource> raw,
                                                 std::string name) {
  absl::StatusOr<std::unique_ptr<ByteSource>> source = Detect(std::move(raw), std::move(name));
  if (!source.ok()) return std::make_unique<FailedSource>(source.status());
  return std::move(*source);
}

}  // namespace arbiter
