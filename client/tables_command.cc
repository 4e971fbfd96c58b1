// `arbiter tables build DIR [--signatures SIG,...]`: fills a directory with
// retrograde tables (core/tablebase/retrograde_store.h), so that analyze,
// verify and the workers given that directory (--tables, ARBITER_TABLES)
// load them instead of generating them. Tables already there are loaded,
// which also checks them.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "client/commands.h"
#include "common/args.h"
#include "core/tablebase/retrograde.h"
#include "core/tablebase/retrograde_store.h"

namespace arbiter::cli {
namespace {

int Fail(const absl::Status& s, int code = 2) {
  std::fprintf(stderr, "arbiter tables: %s\n", std::string(s.message()).c_str());
  return code;
}

int Build(const std::vector<std::string>& argv) {
  absl::StatusOr<Args> args = Args::Parse(argv, {"signatures"}, {});
  if (!args.ok()) return Fail(args.status());
  if (args->positional().size() != 1)
    return Fail(absl::InvalidArgumentError("tables build takes one directory"));
  const std::string dir = args->positional()[0];

  // Every name is checked before any work: a typo should not cost the
  // minutes spent on the tables before it.
  std::vector<std::string> signatures;
  if (args->Has("signatures")) {
    for (const std::string& value : args->GetAll("signatures")) {
      for (absl::string_view word : absl::StrSplit(value, ',', absl::SkipWhitespace())) {
        absl::StatusOr<std::string> canonical =
            tablebase::CanonicalSignature(std::string(absl::StripAsciiWhitespace(word)));
        if (!canonical.ok()) return Fail(canonical.status());
        signatures.push_back(*canonical);
      }
    }
    if (signatures.empty())
      return Fail(absl::InvalidArgumentError("--signatures names no table (e.g. KQvK,KRvKP)"));
  } else {
    signatures = tablebase::AllRetrogradeSignatures();
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir, ec)) {
    return Fail(absl::InvalidArgumentError(
        absl::StrCat("cannot use ", dir,
                     " as a directory: ", ec ? ec.message() : std::string("not a directory"))));
  }

  tablebase::RetrogradeSolver solver(dir);
  std::printf("%-8s %12s %12s %9s  %s\n", "table", "positions", "bytes", "seconds", "source");
  const auto start = std::chrono::steady_clock::now();
  for (const std::string& signature : signatures) {
    const std::string path = tablebase::TableFilePath(dir, signature);
    const bool existed = std::filesystem::exists(path, ec);
    const size_t before = solver.tables();
    const auto table_start = std::chrono::steady_clock::now();
    absl::StatusOr<std::shared_ptr<const tablebase::RetrogradeTable>> table =
        solver.Table(signature);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - table_start).count();
    if (!table.ok()) return Fail(table.status(), 1);
    // The point of this command is the files: a table that stayed in
    // memory is a failure here.
    if (absl::Status s = solver.last_store_error(); !s.ok()) return Fail(s, 1);
    const uint64_t bytes = std::filesystem::file_size(path, ec);
    if (ec) return Fail(absl::InternalError(absl::StrCat(path, ": ", ec.message())), 1);
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
    if (entry.path().extension() != tablebase::kTableFileExtension) continue;
    ++files;
    total_bytes += entry.file_size(ec);
  }
  std::printf(
      "%zu tables (%zu loaded, %zu generated) in %.3f s; %s holds %zu table files, %llu bytes\n",
      solver.tables(), solver.tables_loaded(), solver.tables_generated(), seconds, dir.c_str(),
      files, (unsigned long long)total_bytes);
  return 0;
}

}  // namespace

int RunTables(const std::vector<std::string>& argv) {
  if (argv.empty() || argv[0] != "build") {
    return Fail(absl::InvalidArgumentError(
        "usage: arbiter tables build DIR [--signatures KQvK,KRvKP,...]"));
  }
  return Build(std::vector<std::string>(argv.begin() + 1, argv.end()));
}

}  // namespace arbiter::cli
