#include "common/build_info.h"

namespace arbiter::common {

const char* BuildVersion() { return ARBITER_VERSION; }

const char* BuildCommit() { return ARBITER_COMMIT; }

std::string VersionLine(std::string_view program) {
  return std::string(program) + " " + BuildVersion() + " (commit " + BuildCommit() + ")";
}

}  // namespace arbiter::common
