#include "core/io/pgn_part.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"

namespace arbiter {
namespace {

uint32_t Le32(const unsigned char* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// Reads exactly `n` bytes at `offset`, or fails naming where.
absl::Status ReadAt(int fd, const std::string& path, uint64_t offset, unsigned char* buf,
                    size_t n) {
  size_t done = 0;
  while (done < n) {
    const ssize_t got = ::pread(fd, buf + done, n - done, off_t(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      return absl::DataLossError(
          absl::StrCat("'", path, "' ends inside a zstd frame at byte ", offset + done));
    done += size_t(got);
  }
  return absl::OkStatus();
}

// Where each zstd frame of the file starts (skippable frames included: pzstd
// writes one before each frame), from the frame and block headers alone
// (RFC 8878), without decompressing.
absl::StatusOr<std::vector<uint64_t>> FrameStarts(int fd, const std::string& path, uint64_t size) {
  std::vector<uint64_t> starts;
  uint64_t offset = 0;
  while (offset < size) {
    starts.push_back(offset);
    unsigned char head[8];
    if (absl::Status s = ReadAt(fd, path, offset, head, 8); !s.ok()) return s;
    const uint32_t magic = Le32(head);
    if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) {  // skippable: magic, size, data
      offset += 8 + uint64_t(Le32(head + 4));
      continue;
    }
    if (magic != 0xFD2FB528u)
      return absl::DataLossError(
          absl::StrCat("'", path, "': no zstd frame starts at byte ", offset));
    const unsigned descriptor = head[4];
    const bool single_segment = descriptor & 0x20;
    static constexpr int kDictIdBytes[4] = {0, 1, 2, 4};
    static constexpr int kContentSizeBytes[4] = {0, 2, 4, 8};
    const int fcs_flag = int(descriptor >> 6);
    offset += 4 + 1 + (single_segment ? 0 : 1) + kDictIdBytes[descriptor & 3] +
              (fcs_flag == 0 ? (single_segment ? 1 : 0) : kContentSizeBytes[fcs_flag]);
    for (bool last = false; !last;) {
      unsigned char block[3];
      if (absl::Status s = ReadAt(fd, path, offset, block, 3); !s.ok()) return s;
      const uint32_t header =
          uint32_t(block[0]) | uint32_t(block[1]) << 8 | uint32_t(block[2]) << 16;
      last = header & 1;
      const unsigned type = (header >> 1) & 3;
      if (type == 3)
        return absl::DataLossError(
            absl::StrCat("'", path, "': a reserved zstd block type at byte ", offset));
      offset += 3 + (type == 1 ? 1 : header >> 3);  // RLE blocks hold one byte
    }
    if (descriptor & 0x04) offset += 4;  // content checksum
  }
  if (offset != size)
    return absl::DataLossError(absl::StrCat("'", path, "' ends inside a zstd frame"));
  return starts;
}

// The part's bytes: a stream from the part's first cut candidate `a`, read
// up to the next part's candidate, then on from there (`b`). Output runs
// from the first cut found searching from the start of `a` (or from the
// very start, for the first part) to the first cut found searching from the
// start of `b` (or the end, for the last part); the next part searches from
// the same place, so the two agree.
class PartSource : public ByteSource {
 public:
  PartSource(std::string path, uint64_t a_begin, uint64_t b_begin, uint64_t end, bool first,
             bool last)
      : path_(std::move(path)),
        a_begin_(a_begin),
        b_begin_(b_begin),
        end_(end),
        last_(last),
        emitting_(first) {}

  absl::StatusOr<size_t> Read(char* buf, size_t n) override {
    for (;;) {
      if (done_) return 0;
      if (!source_) {
        absl::StatusOr<std::unique_ptr<ByteSource>> opened =
            in_b_ ? ByteSource::OpenRange(path_, b_begin_, end_)
                  : ByteSource::OpenRange(path_, a_begin_, b_begin_);
        if (!opened.ok()) return opened.status();
        source_ = *std::move(opened);
      }
      absl::StatusOr<size_t> got = source_->Read(buf, n);
      if (!got.ok()) return got.status();
      if (*got == 0) {
        if (in_b_ || last_) {
          done_ = true;
          return 0;
        }
        in_b_ = true;
        source_.reset();
        continue;
      }
      size_t lo = 0, hi = *got;
      for (size_t i = 0; i < *got; ++i) {
        const char c = buf[i];
        if (c == '[') {
          if (!emitting_ && s1_ == '\n' && s2_ == '\n') {
            emitting_ = true;
            lo = i;
          }
          // A cut in `b` ends the part (it is also a cut of the search from
          // `a`, so emitting_ is set by then).
          if (in_b_ && e1_ == '\n' && e2_ == '\n') {
            hi = i;
            done_ = true;
            break;
          }
        }
        s2_ = s1_;
        s1_ = c;
        if (in_b_) {
          e2_ = e1_;
          e1_ = c;
        }
      }
      if (!emitting_ || hi <= lo) continue;
      if (lo > 0) std::memmove(buf, buf + lo, hi - lo);
      return hi - lo;
    }
  }

 private:
  const std::string path_;
  const uint64_t a_begin_, b_begin_, end_;
  const bool last_;
  std::unique_ptr<ByteSource> source_;
  bool in_b_ = false, emitting_, done_ = false;
  char s1_ = 0, s2_ = 0;  // the last two bytes of the search from `a`
  char e1_ = 0, e2_ = 0;  // the last two bytes of the search from `b`
};

}  // namespace

absl::StatusOr<std::unique_ptr<ByteSource>> OpenPgnPart(const std::string& path, int index,
                                                        int count) {
  if (count < 1 || index < 0 || index >= count)
    return absl::InvalidArgumentError(absl::StrCat("part ", index, "/", count, " does not exist"));
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    return absl::ErrnoToStatus(err, absl::StrCat("cannot open '", path, "'"));
  }
  struct stat st;
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  const uint64_t size = regular ? uint64_t(st.st_size) : 0;
  char head[4] = {0, 0, 0, 0};
  const bool zstd = regular && size >= 4 && ::pread(fd, head, 4, 0) == 4 &&
                    ByteSource::IsZstdStart(std::string_view(head, 4));
  absl::StatusOr<std::vector<uint64_t>> frames =
      zstd ? FrameStarts(fd, path, size) : std::vector<uint64_t>{};
  ::close(fd);
  if (!regular)
    return absl::InvalidArgumentError(
        absl::StrCat("'", path, "' is not a regular file: parts need a file to seek in"));
  if (!frames.ok()) return frames.status();
  // A part's nominal bounds, moved for zstd to the first frame starting at
  // or after them.
  auto candidate = [&](int i) -> uint64_t {
    const uint64_t nominal = i == count
                                 ? size
                                 : size / uint64_t(count) * uint64_t(i) +
                                       size % uint64_t(count) * uint64_t(i) / uint64_t(count);
    if (!zstd || i == 0 || i == count) return nominal;
    for (uint64_t start : *frames)
      if (start >= nominal) return start;
    return size;
  };
  if (zstd && frames->size() == 1 && count > 1)
    return absl::FailedPreconditionError(absl::StrCat(
        "'", path,
        "' is a single zstd frame, which cannot be cut into parts; recompress it in "
        "frames (zstd -dc FILE | pzstd -o OUT.zst) or give parts of it as separate files"));
  const uint64_t a = candidate(index), b = candidate(index + 1);
  // Nothing between the two searches. Not for the first part, which starts
  // at the file's start rather than at a search's cut.
  if (a >= b && index > 0 && index + 1 < count) return ByteSource::FromString("");
  return std::make_unique<PartSource>(path, a, b, size, index == 0, index + 1 == count);
}

}  // namespace arbiter
