// How the three programs end: one set of exit codes for all of them
// (docs/commands.md, "Exit codes"; `arbiter --help`), and Fail, which
// reports an error the way every program always has.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace arbiter::common {

enum class ExitCode : int {
  kSuccess = 0,
  // The run completed and found what the caller asked to fail on
  // (`verify --fail-on`). Also, as before these codes had names: a line
  // `analyze FILE` could not analyse, a table `tables build` could not
  // build or save, a job `job watch` saw end other than done.
  kFindings = 1,
  // A bad option or value, or a command line that names no command.
  kUsage = 2,
  // The input cannot be opened or read, or it ended early (a truncated or
  // corrupt .zst, an I/O error): a retry may succeed where a usage error
  // cannot.
  kInputUnreadable = 3,
};

// Prints "<program>: <message>" on stderr and returns `code`.
inline ExitCode Fail(std::string_view program, const absl::Status& s,
                     ExitCode code = ExitCode::kUsage) {
  std::fprintf(stderr, "%.*s: %.*s\n", int(program.size()), program.data(), int(s.message().size()),
               s.message().data());
  return code;
}

}  // namespace arbiter::common
