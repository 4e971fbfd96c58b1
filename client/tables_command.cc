// `arbiter tables build DIR [--signatures SIG,...]`: fills a directory with
// retrograde tables (core/tablebase/retrograde_store.h), so that analyze,
// verify and the workers given that directory (--tables, ARBITER_TABLES)
// load them instead of generating them. Tables already there are loaded,
// which also checks them.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "client/commands.h"
#include "common/command_line.h"
#include "core/tablebase/retrograde.h"
#include "core/tablebase/retrograde_store.h"

namespace arbiter::cli {
namespace {

constexpr char kProgram[] = "arbiter tables";
constexpr char kUsage[] = "usage: arbiter tables build DIR [--signatures KQvK,KRvKP,...]";

struct TablesOptions {
  std::vector<std::string> dirs;  // build DIR: exactly one
  std::vector<std::string> signatures;
};

// A table that cannot be built or saved fails the command with kFindings,
// as it always has: the directory is what this command is for.
common::ExitCode Build(const TablesOptions& o) {
  if (o.dirs.size() != 1)
    return common::Fail(kProgram, absl::InvalidArgumentError("tables build takes one directory"));
  const std::string dir = o.dirs[0];

  // Every name is checked before any work: a typo should not cost the
  // minutes spent on the tables before it.
  std::vector<std::string> signatures;
  if (!o.signatures.empty()) {
    for (const std::string& value : o.signatures) {
      for (absl::string_view word : absl::StrSplit(value, ',', absl::SkipWhitespace())) {
        absl::StatusOr<std::string> canonical =
            CanonicalSignature(std::string(absl::StripAsciiWhitespace(word)));
        if (!canonical.ok()) return common::Fail(kProgram, canonical.status());
        signatures.push_back(*canonical);
      }
    }
    if (signatures.empty())
      return common::Fail(
          kProgram, absl::InvalidArgumentError("--signatures names no table (e.g. KQvK,KRvKP)"));
  } else {
    signatures = AllRetrogradeSignatures();
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir, ec)) {
    return common::Fail(kProgram, absl::InvalidArgumentError(absl::StrCat(
                                      "cannot use ", dir, " as a directory: ",
                                      ec ? ec.message() : std::string("not a directory"))));
  }

  RetrogradeSolver solver(dir);
  std::printf("%-8s %12s %12s %9s  %s\n", "table", "positions", "bytes", "seconds", "source");
  const auto start = std::chrono::steady_clock::now();
  for (const std::string& signature : signatures) {
    const std::string path = TableFilePath(dir, signature);
    const bool existed = std::filesystem::exists(path, ec);
    const size_t before = solver.tables();
    const auto table_start = std::chrono::steady_clock::now();
    absl::StatusOr<std::shared_ptr<const RetrogradeTable>> table = solver.Table(signature);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - table_start).count();
    if (!table.ok()) return common::Fail(kProgram, table.status(), common::ExitCode::kFindings);
    // The point of this command is the files: a table that stayed in
    // memory is a failure here.
    if (absl::Status s = solver.last_store_error(); !s.ok())
      return common::Fail(kProgram, s, common::ExitCode::kFindings);
    const uint64_t bytes = std::filesystem::file_size(path, ec);
    if (ec)
      return common::Fail(kProgram, absl::InternalError(absl::StrCat(path, ": ", ec.message())),
                          common::ExitCode::kFindings);
    std::string source = existed ? "loaded" : "generated";
    if (solver.tables() == before) {
      source = "done above, as a sub-table";
    } else if (const size_t subs = solver.tables() - before - 1; subs > 0) {
      // Sub-tables made or read on the way are in this line's time.
      absl::StrAppend(&source, " (+", subs, subs == 1 ? " sub-table)" : " sub-tables)");
    }
    std::printf("%-8s %12zu %12llu %9.3f  %s\n", signature.c_str(), (*table)->positions(),
                (unsigned long long)bytes, seconds, source.c_str());
    std::fflush(stdout);  // a full build takes a while: show progress
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // What the directory now holds (this run's tables, and any others).
  size_t files = 0;
  uint64_t total_bytes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() != kTableFileExtension) continue;
    ++files;
    total_bytes += entry.file_size(ec);
  }
  std::printf(
      "%zu tables (%zu loaded, %zu generated) in %.3f s; %s holds %zu table files, %llu bytes\n",
      solver.tables(), solver.tables_loaded(), solver.tables_generated(), seconds, dir.c_str(),
      files, (unsigned long long)total_bytes);
  return common::ExitCode::kSuccess;
}

}  // namespace

Command AddTables(CLI::App& arbiter) {
  CLI::App* tables = arbiter.add_subcommand("tables", "Retrograde tables (3-4 men): build");
  auto o = std::make_shared<TablesOptions>();
  CLI::App* build = tables->add_subcommand(
      "build",
      "Write the exact retrograde tables (3-4 men; default all 36, else the\n"
      "signatures given, with their sub-tables) into DIR, one DIR/SIG.arbt file\n"
      "each, for --tables. Tables already there are loaded and checked. One line\n"
      "per table: positions, bytes, seconds, loaded or generated.");
  common::AddOperands(*build, "DIR", &o->dirs, "The directory (created if missing)");
  common::AddRepeatable(*build, "--signatures", &o->signatures, "SIG,SIG...",
                        "The tables to build, e.g. KQvK,KRvKP (repeatable)");
  // Words that name no subcommand (`tables list`) are kept, to answer with
  // the usage rather than that a word was unexpected. (After `build`, which
  // would inherit it.)
  tables->allow_extras();
  return {tables,
          [o, tables, build] {
            if (!build->parsed() || !tables->remaining().empty())
              return common::Fail(kProgram, absl::InvalidArgumentError(kUsage));
            return Build(*o);
          },
          /*takes_connection=*/false};
}

}  // namespace arbiter::cli
