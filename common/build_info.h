// Which build is running: the project's version and the git commit it was
// configured at. Both are compile definitions of build_info.cc alone
// (common/CMakeLists.txt), so that a new commit recompiles one file.
#pragma once

#include <string>
#include <string_view>

namespace arbiter::common {

// CMake's PROJECT_VERSION, e.g. "0.1.0".
const char* BuildVersion();
// The commit's short hash, or "unknown" when built outside a git checkout.
const char* BuildCommit();
// What --version prints: "arbiter 0.1.0 (commit abc123)".
std::string VersionLine(std::string_view program);

}  // namespace arbiter::common
