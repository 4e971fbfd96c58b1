// The --syzygy option shared by analyze, verify, job submit and the worker,
// with $ARBITER_SYZYGY as its fallback. Without either, commands run without tables and print
// exactly what they printed before tablebases existed.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/command_line.h"
#include "core/tablebase/syzygy.h"

namespace arbiter::common {

inline constexpr char kSyzygyOption[] = "--syzygy";

// Adds --syzygy DIR (repeatable) to `command`, its values stored in `dirs`.
inline CLI::Option* AddSyzygyOption(CLI::App& command, std::vector<std::string>* dirs) {
  return AddRepeatable(command, kSyzygyOption, dirs, "DIR",
                       "Syzygy tables (repeatable, or DIR:DIR...); default $ARBITER_SYZYGY");
}

// Directories from the environment variable ARBITER_SYZYGY (':'-separated);
// empty when unset or empty.
inline std::vector<std::string> SyzygyDirsFromEnv() {
  const char* env = std::getenv("ARBITER_SYZYGY");
  if (env == nullptr) return {};
  return absl::StrSplit(env, ':', absl::SkipEmpty());
}

// The tables named by --syzygy (`dirs`, as given: each value may be a
// ':'-joined list), else by ARBITER_SYZYGY; nullptr when neither names any. A named
// directory that is missing, unreadable or holds no table is an error that
// says which path and why: silently analysing without the tables the user
// asked for would hide exactly the evidence they wanted.
inline absl::StatusOr<std::shared_ptr<const SyzygyTablebase>> TablebaseFrom(
    std::vector<std::string> dirs) {
  std::string source = kSyzygyOption;
  if (dirs.empty()) {
    dirs = SyzygyDirsFromEnv();
    source = "ARBITER_SYZYGY";
    if (dirs.empty()) return nullptr;
  }
  absl::StatusOr<std::shared_ptr<const SyzygyTablebase>> tables = SyzygyTablebase::Open(dirs);
  if (!tables.ok())
    return absl::Status(tables.status().code(),
                        absl::StrCat(source, ": ", tables.status().message()));
  // On stderr, so that records on stdout stay as they were: which tables
  // the rulings rest on ("largest" is the largest file found, not a promise
  // that every table of that size is there).
  std::fprintf(stderr, "arbiter: Syzygy tables from %s: %d WDL files, largest %d pieces\n",
               source.c_str(), (*tables)->wdl_files(), (*tables)->largest());
  return tables;
}

}  // namespace arbiter::common
