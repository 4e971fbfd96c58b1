// The whole of a small file: certificates, keys, CA bundles and token
// files, which are read at start and when they change, and must never make
// a server read gigabytes because a path was mistyped.
#pragma once

#include <string>

#include "absl/status/statusor.h"

namespace arbiter::common {

// The file's bytes, at most 1 MB. NOT_FOUND naming the file (and `what`
// it is, "--tokens") when it cannot be read; INVALID_ARGUMENT when larger.
absl::StatusOr<std::string> ReadSmallFile(const std::string& path, const std::string& what);

}  // namespace arbiter::common
