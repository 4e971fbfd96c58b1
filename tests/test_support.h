// Helpers shared by tests: locating ../shared material and external peers.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace arbiter::testing {

// Directory of the shared test material (Syzygy tables, game records):
// $ARBITER_SHARED, else ../shared beside the source tree. Empty if absent.
inline std::string SharedDir() {
  if (const char* env = std::getenv("ARBITER_SHARED"); env && *env) return env;
  std::filesystem::path p = std::filesystem::path(ARBITER_SOURCE_DIR).parent_path() / "shared";
  return std::filesystem::is_directory(p) ? p.string() : std::string();
}

// Finds an executable on PATH or in /usr/games (Debian puts chess tools
// there). Empty if absent.
inline std::string FindProgram(const std::string& name) {
  std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  path += ":/usr/games";
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::filesystem::path candidate = std::filesystem::path(path.substr(start, end - start)) / name;
    if (end > start && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return {};
}

}  // namespace arbiter::testing
