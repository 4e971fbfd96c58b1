#include "core/tablebase/retrograde_store.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "core/tablebase/retrograde.h"
#include "core/tablebase/table_stamp.h"

namespace arbiter {
namespace {

constexpr unsigned char kMagic[8] = {'A', 'R', 'B', 'T', '\r', '\n', 0x1a, '\n'};
constexpr size_t kSignatureBytes = 16;
constexpr size_t kHeaderBytes = 56;
constexpr size_t kLongEntryBytes = 10;
constexpr size_t kChecksumBytes = 8;

// Explicit little-endian fields, so that files move between hosts.
void PutLe(uint8_t* p, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = uint8_t(v >> (8 * i));
}
uint64_t GetLe(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// Closes a file descriptor (if one was opened) when it goes out of scope.
struct Descriptor {
  explicit Descriptor(int fd) : fd(fd) {}
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  const int fd;
};

// ---- XXH64 constants and steps -------------------------------------------
constexpr uint64_t kP1 = 0x9E3779B185EBCA87ull;
constexpr uint64_t kP2 = 0xC2B2AE3D27D4EB4Full;
constexpr uint64_t kP3 = 0x165667B19E3779F9ull;
constexpr uint64_t kP4 = 0x85EBCA77C2B2AE63ull;
constexpr uint64_t kP5 = 0x27D4EB2F165667C5ull;

uint64_t Read64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}
uint64_t Read32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  return v;
}
uint64_t Round(uint64_t acc, uint64_t input) { return std::rotl(acc + input * kP2, 31) * kP1; }
uint64_t MergeRound(uint64_t acc, uint64_t value) { return (acc ^ Round(0, value)) * kP1 + kP4; }

}  // namespace

void Xxh64::Update(const void* data, size_t size) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  total_ += size;
  if (buffered_ + size < 32) {
    if (size) std::memcpy(buffer_ + buffered_, p, size);
    buffered_ += size;
    return;
  }
  auto stripe = [this](const uint8_t* s) {
    for (int i = 0; i < 4; ++i) acc_[i] = Round(acc_[i], Read64(s + 8 * i));
  };
  if (buffered_) {
    const size_t fill = 32 - buffered_;
    std::memcpy(buffer_ + buffered_, p, fill);
    stripe(buffer_);
    p += fill;
    size -= fill;
    buffered_ = 0;
  }
  // Four independent lanes in locals: the compiler keeps them in registers.
  uint64_t a0 = acc_[0], a1 = acc_[1], a2 = acc_[2], a3 = acc_[3];
  for (; size >= 32; p += 32, size -= 32) {
    a0 = Round(a0, Read64(p));
    a1 = Round(a1, Read64(p + 8));
    a2 = Round(a2, Read64(p + 16));
    a3 = Round(a3, Read64(p + 24));
  }
  acc_[0] = a0, acc_[1] = a1, acc_[2] = a2, acc_[3] = a3;
  if (size) std::memcpy(buffer_, p, size);
  buffered_ = size;
}

uint64_t Xxh64::Digest() const {
  uint64_t h;
  if (total_ >= 32) {
    h = std::rotl(acc_[0], 1) + std::rotl(acc_[1], 7) + std::rotl(acc_[2], 12) +
        std::rotl(acc_[3], 18);
    for (uint64_t a : acc_) h = MergeRound(h, a);
  } else {
    h = acc_[2] + kP5;  // the seed
  }
  h += total_;
  const uint8_t* p = buffer_;
  size_t left = buffered_;
  for (; left >= 8; p += 8, left -= 8) h = std::rotl(h ^ Round(0, Read64(p)), 27) * kP1 + kP4;
  if (left >= 4) {
    h = std::rotl(h ^ (Read32(p) * kP1), 23) * kP2 + kP3;
    p += 4;
    left -= 4;
  }
  for (; left > 0; ++p, --left) h = std::rotl(h ^ (*p * kP5), 11) * kP1;
  h ^= h >> 33;
  h *= kP2;
  h ^= h >> 29;
  h *= kP3;
  h ^= h >> 32;
  return h;
}

std::string TableFilePath(const std::string& dir, const std::string& canonical_signature) {
  const bool slash = !dir.empty() && dir.back() != '/';
  return absl::StrCat(dir, slash ? "/" : "", canonical_signature, kTableFileExtension);
}

namespace retrograde_internal {

// Friend of RetrogradeTable: the only code besides the generator that
// touches its arrays.
class TableStore {
 public:
  static absl::Status Save(const RetrogradeTable& t, const std::string& dir);
  // The header and arrays, in file order, to `write` (the checksum aside).
  static void Serialize(const RetrogradeTable& t,
                        const std::function<void(const void*, size_t)>& write);
  static uint64_t Checksum(const RetrogradeTable& t);
  static absl::StatusOr<std::shared_ptr<const RetrogradeTable>> Load(
      const std::string& dir, const Material& canonical, const SubtableSource& subtables);
};

void TableStore::Serialize(const RetrogradeTable& t,
                           const std::function<void(const void*, size_t)>& write) {
  // Header.
  uint8_t header[kHeaderBytes] = {};
  std::memcpy(header, kMagic, sizeof kMagic);
  PutLe(header + 8, kTableFormatVersion, 4);
  std::memcpy(header + 12, t.signature_.data(), std::min(t.signature_.size(), kSignatureBytes));
  header[28] = t.mate_stride_;
  header[29] = uint8_t(t.mate_offset_[kWhite]);
  header[30] = uint8_t(t.mate_offset_[kBlack]);
  PutLe(header + 32, t.code_.size(), 8);
  PutLe(header + 40, t.positions_, 8);
  PutLe(header + 48, t.long_dtz_.size(), 8);
  // Long-DTZ entries in slot order: the unordered map's order is not
  // reproducible, the file's should be.
  std::vector<std::pair<uint64_t, int16_t>> entries(t.long_dtz_.begin(), t.long_dtz_.end());
  std::sort(entries.begin(), entries.end());
  std::vector<uint8_t> long_bytes(entries.size() * kLongEntryBytes);
  for (size_t i = 0; i < entries.size(); ++i) {
    PutLe(&long_bytes[i * kLongEntryBytes], entries[i].first, 8);
    PutLe(&long_bytes[i * kLongEntryBytes + 8], uint16_t(entries[i].second), 2);
  }

  write(header, sizeof header);
  write(t.code_.data(), t.code_.size());
  write(t.mate_.data(), t.mate_.size());
  write(long_bytes.data(), long_bytes.size());
}

uint64_t TableStore::Checksum(const RetrogradeTable& t) {
  Xxh64 hash;
  Serialize(t, [&](const void* data, size_t size) { hash.Update(data, size); });
  return hash.Digest();
}

absl::Status TableStore::Save(const RetrogradeTable& t, const std::string& dir) {
  auto error = [&](const std::string& what) {
    return absl::UnavailableError(
        absl::StrCat("cannot save retrograde table ", t.signature_, " in ", dir, ": ", what));
  };
  if (t.signature_.size() > kSignatureBytes) return error("signature too long for the format");
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(dir), ec);
  if (ec) return error(ec.message());

  // A unique temporary name in the same directory (rename is atomic only
  // within one file system): process id plus a per-process counter.
  static std::atomic<uint64_t> counter{0};
  const std::string path = TableFilePath(dir, t.signature_);
  const std::string temp = absl::StrCat(path, ".", ::getpid(), "-", counter++, ".tmp");
  File f(std::fopen(temp.c_str(), "wbx"));
  if (!f) return error(absl::StrCat(temp, ": ", std::strerror(errno)));
  Xxh64 hash;
  int write_errno = 0;  // of the first failure
  auto write = [&](const void* data, size_t size) {
    hash.Update(data, size);
    if (!write_errno && std::fwrite(data, 1, size, f.get()) != size)
      write_errno = errno ? errno : EIO;
  };
  Serialize(t, write);
  const uint64_t digest = hash.Digest();
  uint8_t checksum[kChecksumBytes];
  PutLe(checksum, digest, 8);
  write(checksum, sizeof checksum);
  t.checksum_ = digest;
  // fclose flushes: a full disk may only show here.
  if (std::fclose(f.release()) != 0 && !write_errno) write_errno = errno ? errno : EIO;
  if (write_errno) {
    std::remove(temp.c_str());
    return error(absl::StrCat("writing ", temp, ": ", std::strerror(write_errno)));
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(temp.c_str());
    return error(absl::StrCat("renaming ", temp, " to ", path, ": ", std::strerror(e)));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<const RetrogradeTable>> TableStore::Load(
    const std::string& dir, const Material& canonical, const SubtableSource& subtables) {
  const std::string name = canonical.Name();
  const std::string path = TableFilePath(dir, name);
  // Every problem with an existing file says which file and what to do.
  auto bad = [&](absl::StatusCode code, const std::string& what) {
    return absl::Status(
        code, absl::StrCat("retrograde table ", path, ": ", what, "; delete it to regenerate"));
  };
  auto corrupt = [&](const std::string& what) { return bad(absl::StatusCode::kDataLoss, what); };

  const Descriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  const int fd = file.fd;
  if (fd < 0) {
    // No such file, or no such directory (ENOTDIR: a path component is a
    // file): generate, and let the save report what is wrong with the path.
    if (errno == ENOENT || errno == ENOTDIR) return std::shared_ptr<const RetrogradeTable>();
    return absl::PermissionDeniedError(
        absl::StrCat("retrograde table ", path, ": cannot open: ", std::strerror(errno)));
  }
  struct stat st;
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  const uint64_t size = regular ? uint64_t(st.st_size) : 0;
  if (!regular) return corrupt("not a regular file");
  if (size < kHeaderBytes + kChecksumBytes)
    return corrupt(absl::StrCat("truncated: ", size, " bytes, shorter than a header"));
  // Reads exactly `n` bytes at `offset`, or says why not.
  auto read_at = [&](uint8_t* into, size_t n, uint64_t offset) -> absl::Status {
    while (n > 0) {
      const ssize_t got = ::pread(fd, into, n, off_t(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return corrupt(absl::StrCat("read error: ", std::strerror(errno)));
      if (got == 0) return corrupt("truncated while being read");
      into += got, n -= size_t(got), offset += uint64_t(got);
    }
    return absl::OkStatus();
  };

  uint8_t header[kHeaderBytes];
  if (absl::Status s = read_at(header, sizeof header, 0); !s.ok()) return s;
  if (std::memcmp(header, kMagic, sizeof kMagic) != 0)
    return corrupt("bad magic: not a retrograde table file");
  const uint64_t version = GetLe(header + 8, 4);
  if (version != kTableFormatVersion) {
    return bad(absl::StatusCode::kFailedPrecondition,
               absl::StrCat("format version ", version, ", this build reads version ",
                            kTableFormatVersion));
  }
  const std::string stored(reinterpret_cast<const char*>(header + 12),
                           strnlen(reinterpret_cast<const char*>(header + 12), kSignatureBytes));
  if (stored != name) {
    return bad(absl::StatusCode::kFailedPrecondition,
               absl::StrCat("holds the table \"", absl::CHexEscape(stored), "\", not ", name,
                            " (a renamed or misplaced file)"));
  }
  std::shared_ptr<RetrogradeTable> t(new RetrogradeTable(canonical));
  const uint64_t slots = GetLe(header + 32, 8);
  if (slots != t->layout_.size()) {
    return bad(absl::StatusCode::kFailedPrecondition,
               absl::StrCat("has ", slots, " slots, but this build lays ", name, " out in ",
                            t->layout_.size(), " (written by another version)"));
  }
  const uint8_t stride = header[28];
  const uint64_t positions = GetLe(header + 40, 8);
  const uint64_t long_entries = GetLe(header + 48, 8);
  if (stride > 2 || header[31] != 0) return corrupt("bad header");
  // Sizes are checked against the file before anything is read past the
  // header, so a corrupt count cannot send a read astray; entries beyond
  // slots cannot be valid anyway.
  if (long_entries > slots) return corrupt(absl::StrCat(long_entries, " long-DTZ entries"));
  const uint64_t expected =
      kHeaderBytes + slots * (1 + stride) + long_entries * kLongEntryBytes + kChecksumBytes;
  if (size < expected)
    return corrupt(absl::StrCat("truncated: ", size, " bytes, expected ", expected));
  if (size > expected) {
    return corrupt(
        absl::StrCat("size mismatch: ", size, " bytes, expected ", expected, " (trailing data)"));
  }

  uint8_t checksum[kChecksumBytes];
  if (absl::Status s = read_at(checksum, sizeof checksum, size - kChecksumBytes); !s.ok()) return s;
  const uint64_t want = GetLe(checksum, 8);
  t->checksum_ = want;  // checked below unless stamped
  // A file checked in full before, unchanged since (table_stamp.h), is not
  // read through again.
  FileIdentity identity;
  const bool identified = IdentityOf(fd, &identity);
  const bool stamped = identified && StampMatches(path, identity, want);

  // Otherwise one pass over the file through a small buffer checks the
  // checksum and tallies the codes. Reading is faster than touching the
  // same bytes through a mapping (0.1 s against 0.25 s for the whole 3-4-man
  // set on our machine).
  RetrogradeTable::CodeTally tally;
  if (!stamped) {
    Xxh64 hash;
    hash.Update(header, sizeof header);
    const uint64_t codes_end = kHeaderBytes + slots;
    std::vector<uint8_t> buffer(size_t{1} << 20);
    for (uint64_t offset = kHeaderBytes; offset < size - kChecksumBytes;) {
      const size_t n = size_t(std::min<uint64_t>(buffer.size(), size - kChecksumBytes - offset));
      if (absl::Status s = read_at(buffer.data(), n, offset); !s.ok()) return s;
      hash.Update(buffer.data(), n);
      if (offset < codes_end)
        tally.Add(buffer.data(), size_t(std::min<uint64_t>(n, codes_end - offset)));
      offset += n;
    }
    if (const uint64_t got = hash.Digest(); want != got) {
      return corrupt(absl::StrCat("checksum mismatch (stored ", absl::Hex(want, absl::kZeroPad16),
                                  ", computed ", absl::Hex(got, absl::kZeroPad16),
                                  "): the file is corrupt"));
    }
  }

  // The checked file, mapped read-only and populated from the page cache
  // at once (probes faulting pages in one by one cost more). The store
  // never writes a file in place (SaveTable renames a new file over the old
  // one), and the mapping is of the descriptor just read, so its bytes are
  // those checked.
  void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  if (mapped == MAP_FAILED) {
    return absl::ResourceExhaustedError(
        absl::StrCat("retrograde table ", path, ": cannot map: ", std::strerror(errno)));
  }
  const std::shared_ptr<const void> mapping(
      mapped, [size](const void* p) { ::munmap(const_cast<void*>(p), size); });
  const uint8_t* const codes = static_cast<const uint8_t*>(mapped) + kHeaderBytes;
  const uint8_t* const mates = codes + slots;
  const uint8_t* const long_bytes = mates + slots * stride;
  t->code_ = TableArray(mapping, {codes, slots});
  t->mate_ = TableArray(mapping, {mates, slots * stride});

  // A checksum only proves the bytes are those written; check that they
  // also make a table the probes can use without going astray.
  t->mate_stride_ = stride;
  t->mate_offset_ = {int8_t(header[29]), int8_t(header[30])};
  t->positions_ = size_t(positions);
  uint64_t previous = 0;
  for (uint64_t i = 0; i < long_entries; ++i) {
    const uint8_t* e = long_bytes + i * kLongEntryBytes;
    const uint64_t slot = GetLe(e, 8);
    if (i > 0 && slot <= previous) return corrupt("long-DTZ entries out of order");
    previous = slot;
    t->long_dtz_[slot] = int16_t(uint16_t(GetLe(e + 8, 2)));
  }
  if (!stamped) {
    if (std::string why = t->Inconsistency(tally); !why.empty())
      return corrupt(absl::StrCat("inconsistent content: ", why));
    if (identified) WriteStamp(path, identity, want);
  }

  // The same sub-tables, in the same order, as generation gives it.
  for (const Material& m : RetrogradeTable::SubtableMaterials(t->layout_)) {
    absl::StatusOr<std::shared_ptr<const RetrogradeTable>> sub = subtables(m);
    if (!sub.ok()) return sub.status();
    t->subtables_.push_back(*std::move(sub));
  }
  return std::shared_ptr<const RetrogradeTable>(std::move(t));
}

}  // namespace retrograde_internal

uint64_t TableChecksum(const RetrogradeTable& table) {
  return retrograde_internal::TableStore::Checksum(table);
}

absl::Status SaveTable(const RetrogradeTable& table, const std::string& dir) {
  return retrograde_internal::TableStore::Save(table, dir);
}

absl::StatusOr<std::shared_ptr<const RetrogradeTable>> LoadTable(const std::string& dir,
                                                                 const Material& canonical,
                                                                 const SubtableSource& subtables) {
  return retrograde_internal::TableStore::Load(dir, canonical, subtables);
}

std::string DefaultRetrogradeCacheDir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return (std::filesystem::path(xdg) / "arbiter" / "tables").string();
  if (const char* home = std::getenv("HOME"); home && *home)
    return (std::filesystem::path(home) / ".cache" / "arbiter" / "tables").string();
  return "";
}

absl::StatusOr<std::unique_ptr<RetrogradeSolver>> RetrogradeSolverFor(
    const std::optional<std::string>& dir, std::string_view setting) {
  std::string path, source(setting);
  if (dir) {
    path = *dir;
  } else if (const char* env = std::getenv("ARBITER_TABLES"); env && *env) {
    path = env;
    source = "ARBITER_TABLES";
  } else {
    return std::make_unique<RetrogradeSolver>(DefaultRetrogradeCacheDir());
  }
  std::error_code ec;
  if (!path.empty() && std::filesystem::exists(path, ec) &&
      !std::filesystem::is_directory(path, ec))
    return absl::InvalidArgumentError(absl::StrCat(source, ": ", path, " is not a directory"));
  return std::make_unique<RetrogradeSolver>(path);
}

}  // namespace arbiter
