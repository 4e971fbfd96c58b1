// The --tables option shared by analyze and verify: the directory the
// retrograde tables (3-4 men, the exact can-mate evidence) are loaded from
// and saved to, with $ARBITER_TABLES as its fallback. Without either, the
// tables a run needs are generated in memory (seconds each), as before.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "client/args.h"
#include "core/rules/mate_ability.h"

namespace arbiter::cli {

inline constexpr char kTablesOption[] = "tables";

// Points the shared retrograde solver at --tables DIR, else at
// ARBITER_TABLES; call before any analysis. The directory may not exist yet
// (the first table saved creates it), but a path naming something other
// than a directory is an error that says so: every save would fail.
inline absl::Status ConfigureTablesFrom(const Args& args) {
  std::string dir, source = absl::StrCat("--", kTablesOption);
  if (args.Has(kTablesOption)) {
    dir = args.Get(kTablesOption);  // "" turns a set ARBITER_TABLES off
  } else if (const char* env = std::getenv("ARBITER_TABLES"); env && *env) {
    dir = env;
    source = "ARBITER_TABLES";
  } else {
    return absl::OkStatus();
  }
  std::error_code ec;
  if (!dir.empty() && std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
    return absl::InvalidArgumentError(absl::StrCat(source, ": ", dir, " is not a directory"));
  return ConfigureSharedRetrogradeTables(dir);
}

// After a command: one stderr line per problem the table directory had,
// so that stdout stays as it was. A table that could not be saved costs
// only time (it is generated again next run); a cache file that could not
// be used means the positions it covers were analysed without it (their
// can-mate answers fell back to the searches, possibly "unknown").
inline void WarnAboutTables(const char* command) {
  const tablebase::RetrogradeSolver& solver = SharedRetrogradeSolver();
  if (solver.cache_dir().empty()) return;
  std::fflush(stdout);  // after the records, when both streams go to one place
  if (absl::Status s = solver.last_load_error(); !s.ok()) {
    std::fprintf(stderr, "arbiter %s: warning: %s (positions it covers were analysed without it)\n",
                 command, std::string(s.message()).c_str());
  }
  if (absl::Status s = solver.last_store_error(); !s.ok()) {
    std::fprintf(stderr, "arbiter %s: warning: %s (the tables stay in memory for this run only)\n",
                 command, std::string(s.message()).c_str());
  }
}

}  // namespace arbiter::cli
