#include "common/small_file.h"

#include <fstream>

#include "absl/strings/str_cat.h"

namespace arbiter::common {
namespace {

constexpr size_t kMaxSmallFile = 1 << 20;

}  // namespace

absl::StatusOr<std::string> ReadSmallFile(const std::string& path, const std::string& what) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return absl::NotFoundError(absl::StrCat(what, " ", path, ": cannot read it"));
  std::string data(kMaxSmallFile + 1, '\0');
  f.read(data.data(), std::streamsize(data.size()));
  data.resize(size_t(f.gcount()));
  if (data.size() > kMaxSmallFile)
    return absl::InvalidArgumentError(absl::StrCat(what, " ", path, ": larger than 1 MB"));
  return data;
}

}  // namespace arbiter::common
