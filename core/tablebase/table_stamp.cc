#include "core/tablebase/table_stamp.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>
#include <fstream>

#include "absl/strings/str_cat.h"

namespace arbiter {
namespace {

// Times closer to now than this are not trusted to reveal a later change.
constexpr int64_t kSettledNs = 3'000'000'000;

// One line: "arbiter-table-verified 1 <device> <inode> <size> <mtime ns>
// <ctime ns> <checksum hex>".
constexpr char kStampTag[] = "arbiter-table-verified";
constexpr int kStampVersion = 1;

std::string StampText(const FileIdentity& id, uint64_t checksum) {
  return absl::StrCat(kStampTag, " ", kStampVersion, " ", id.device, " ", id.inode, " ", id.size,
                      " ", id.modified_ns, " ", id.changed_ns, " ",
                      absl::Hex(checksum, absl::kZeroPad16), "\n");
}

int64_t Nanoseconds(const timespec& t) { return int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec; }

}  // namespace

bool IdentityOf(int fd, FileIdentity* identity) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return false;
  *identity = FileIdentity{.device = uint64_t(st.st_dev),
                           .inode = uint64_t(st.st_ino),
                           .size = uint64_t(st.st_size),
                           .modified_ns = Nanoseconds(st.st_mtim),
                           .changed_ns = Nanoseconds(st.st_ctim)};
  return true;
}

std::string StampPath(const std::string& table_path) {
  return absl::StrCat(table_path, ".verified");
}

bool StampMatches(const std::string& table_path, const FileIdentity& identity, uint64_t checksum) {
  std::ifstream in(StampPath(table_path));
  std::string line;
  if (!in || !std::getline(in, line)) return false;
  return line + "\n" == StampText(identity, checksum);
}

void WriteStamp(const std::string& table_path, const FileIdentity& identity, uint64_t checksum) {
  timespec now;
  if (::clock_gettime(CLOCK_REALTIME, &now) != 0) return;
  const int64_t newest = std::max(identity.modified_ns, identity.changed_ns);
  if (Nanoseconds(now) - newest < kSettledNs) return;
  // Written aside and renamed into place: a reader sees no stamp or a
  // whole one.
  static std::atomic<uint64_t> counter{0};
  const std::string path = StampPath(table_path);
  const std::string temp = absl::StrCat(path, ".", ::getpid(), "-", counter++, ".tmp");
  std::FILE* f = std::fopen(temp.c_str(), "wx");
  if (f == nullptr) return;
  const std::string text = StampText(identity, checksum);
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !written || std::rename(temp.c_str(), path.c_str()) != 0)
    std::remove(temp.c_str());
}

}  // namespace arbiter
