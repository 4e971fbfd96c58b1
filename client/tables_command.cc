// `arbiter tables build DIR [--signatures SIG,...] [--jobs N]`: fills a directory with
// retrograde tables (core/tablebase/retrograde_store.h), so that analyze,
// verify and the workers given that directory (--tables, ARBITER_TABLES)
// load them instead of generating them. Tables already there are loaded,
// which also checks them.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "client/commands.h"
#include "common/command_line.h"
#include "common/tables_option.h"
#include "core/tablebase/retrograde.h"
#include "core/tablebase/retrograde_store.h"

namespace arbiter::cli {
namespace {

constexpr char kProgram[] = "arbiter tables";
constexpr char kUsage[] =
    "usage: arbiter tables build DIR [--signatures KQvK,KRvKP,...] [--jobs N]";

struct TablesOptions {
  std::vector<std::string> dirs;  // build DIR: exactly one
  std::vector<std::string> signatures;
  int64_t jobs = std::max(1u, std::thread::hardware_concurrency());
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
  solver.set_generation_threads(int(o.jobs));
  std::shared_ptr<common::TableProgressLine> progress = common::TableProgressLine::Attach(solver);

  // Which tables each line stands for: a signature's line counts the
  // tables first needed for it (its sub-tables not on an earlier line),
  // and says "done above" when an earlier line made it.
  std::vector<std::vector<std::string>> line_tables(signatures.size());
  {
    std::set<std::string> assigned;
    for (size_t i = 0; i < signatures.size(); ++i) {
      std::vector<std::string> todo = {signatures[i]};
      while (!todo.empty()) {
        const std::string name = todo.back();
        todo.pop_back();
        if (!assigned.insert(name).second) continue;
        line_tables[i].push_back(name);
        for (const std::string& sub : RetrogradeTable::SubtableSignatures(name))
          todo.push_back(sub);
      }
    }
  }
  std::set<std::string> existed;
  for (const std::string& signature : AllRetrogradeSignatures())
    if (std::filesystem::exists(TableFilePath(dir, signature), ec)) existed.insert(signature);

  std::printf("%-8s %12s %12s %9s  %s\n", "table", "positions", "bytes", "seconds", "source");
  std::fflush(stdout);
  const auto start = std::chrono::steady_clock::now();
  // Filled as tables come (from the solver's threads, one call at a time);
  // a line is printed once it and every line above it are complete, so
  // that stdout keeps the order of the signatures.
  std::map<std::string, RetrogradeTableOutcome> outcomes;
  size_t printed = 0;
  absl::Status failure;
  auto print_ready_lines = [&] {
    for (; printed < signatures.size(); ++printed) {
      const std::string& signature = signatures[printed];
      const std::vector<std::string>& mine = line_tables[printed];
      if (!outcomes.count(signature)) return;
      double seconds = 0;
      for (const std::string& name : mine) {
        auto it = outcomes.find(name);
        if (it == outcomes.end()) return;
        seconds += it->second.seconds;
      }
      std::string source;
      if (mine.empty()) {
        source = "done above, as a sub-table";
      } else {
        source = existed.count(signature) ? "loaded" : "generated";
        // Sub-tables made or read on the way are in this line's time.
        if (const size_t subs = mine.size() - 1; subs > 0)
          absl::StrAppend(&source, " (+", subs, subs == 1 ? " sub-table)" : " sub-tables)");
      }
      const std::string path = TableFilePath(dir, signature);
      const uint64_t bytes = std::filesystem::file_size(path, ec);
      if (ec) {
        failure = absl::InternalError(absl::StrCat(path, ": ", ec.message()));
        return;
      }
      absl::StatusOr<std::shared_ptr<const RetrogradeTable>> table = solver.Table(signature);
      if (!table.ok()) {
        failure = table.status();
        return;
      }
      if (progress) progress->Clear();
      std::printf("%-8s %12zu %12llu %9.3f  %s\n", signature.c_str(), (*table)->positions(),
                  (unsigned long long)bytes, seconds, source.c_str());
      std::fflush(stdout);  // a full build takes a while: show progress
    }
  };
  const absl::Status built = solver.Obtain(signatures, [&](const RetrogradeTableOutcome& t) {
    if (!failure.ok()) return false;
    if (!t.status.ok()) {
      failure = t.status;
      return false;
    }
    // The point of this command is the files: a table that stayed in
    // memory is a failure here.
    if (absl::Status s = solver.last_store_error(); !s.ok()) {
      failure = s;
      return false;
    }
    outcomes[t.signature] = t;
    print_ready_lines();
    return failure.ok();
  });
  if (progress) progress->Clear();
  if (failure.ok()) failure = built;
  if (!failure.ok()) return common::Fail(kProgram, failure, common::ExitCode::kFindings);
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
      "per table: positions, bytes, seconds, loaded or generated. Tables that do\n"
      "not depend on each other are generated at once (--jobs); on a terminal,\n"
      "stderr shows which, how many are left and about how long they take.");
  common::AddOperands(*build, "DIR", &o->dirs, "The directory (created if missing)");
  common::AddRepeatable(*build, "--signatures", &o->signatures, "SIG,SIG...",
                        "The tables to build, e.g. KQvK,KRvKP (repeatable)");
  common::AddInteger(*build, "--jobs", &o->jobs, 1, 1024, "--jobs must be 1..1024", "N",
                     "Tables generated at once, each after its sub-tables (default: all\n"
                     "cores); the files are the same whatever N");
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
