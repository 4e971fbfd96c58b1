// The --tables option shared by analyze, verify and the worker: the directory the
// retrograde tables (3-4 men, the exact can-mate evidence) are loaded from
// and saved to, with $ARBITER_TABLES as its fallback, and a per-user cache
// ($XDG_CACHE_HOME/arbiter/tables, else ~/.cache/arbiter/tables) by
// default, so that only the first run on a machine pays seconds per table.
// `--tables ""` keeps them in memory only.
//
// While tables are generated, a terminal gets one progress line on stderr
// (TableProgressLine); a log, a pipe or a test gets nothing until the run's
// one line of WarnAboutTables.
#pragma once

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/command_line.h"
#include "core/tablebase/retrograde.h"

namespace arbiter::common {

inline constexpr char kTablesOption[] = "--tables";

// Adds --tables DIR to `command`, its value stored in `dir` (set even when
// empty: `--tables ''` turns a set ARBITER_TABLES off).
inline CLI::Option* AddTablesOption(CLI::App& command, std::optional<std::string>* dir) {
  return AddValue(command, kTablesOption, dir, "DIR",
                  "Load the retrograde tables from DIR; save the ones generated there.\n"
                  "Default $ARBITER_TABLES, else $XDG_CACHE_HOME/arbiter/tables (or\n"
                  "~/.cache/arbiter/tables); '' keeps them in memory");
}

// The progress of a solver's generation on stderr, for a person waiting at
// a terminal: one line, rewritten in place every half second, naming the
// tables being generated, what they are for, how many tables are left
// (sub-tables included) and about how long they take ("retrograde tables:
// generating KQPvK, KRPvK for KPPvK: 7 of 12 done, 5 left, about 25 s"),
// cut to the terminal's width, and erased when the tables are done
// (WarnAboutTables then says what they cost). Bursts that only load files
// show nothing. Written only when stderr is a terminal (Attach): in a log
// every rewrite would be a line of its own, and tests compare stderr.
class TableProgressLine {
 public:
  explicit TableProgressLine(std::string prefix) : prefix_(std::move(prefix)) {}

  // Makes `solver` report to a new TableProgressLine when stderr is a
  // terminal; returns it (so that other output can Clear it first), else
  // nullptr.
  static std::shared_ptr<TableProgressLine> Attach(RetrogradeSolver& solver,
                                                   std::string prefix = "retrograde tables") {
    if (!::isatty(STDERR_FILENO)) return nullptr;
    auto line = std::make_shared<TableProgressLine>(std::move(prefix));
    solver.set_progress([line](const RetrogradeProgress& p) { line->Show(p); });
    return line;
  }

  void Show(const RetrogradeProgress& p) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!p.generates) return;
    if (p.finished) {
      ClearLocked();
      return;
    }
    std::string text = prefix_ + ": " + p.Line();
    winsize size{};
    // A line longer than the terminal wraps, and "\r" would not return to
    // its start.
    if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1 &&
        text.size() >= size.ws_col)
      text.resize(size.ws_col - 1);
    std::fprintf(stderr, "\r\033[K%s", text.c_str());
    std::fflush(stderr);
    shown_ = true;
  }
  // Erases the line (until the next report), before other output.
  void Clear() {
    std::lock_guard<std::mutex> lock(mu_);
    ClearLocked();
  }

 private:
  void ClearLocked() {
    if (shown_) std::fputs("\r\033[K", stderr);
    shown_ = false;
  }

  const std::string prefix_;
  std::mutex mu_;
  bool shown_ = false;  // mu_
};

// The retrograde solver of a run: --tables DIR (`option`), else
// ARBITER_TABLES, else the per-user cache (RetrogradeSolverFor). A path the
// user named that is not a directory is an error that says so (every save
// would fail); the default cache in that state only costs a warning
// (WarnAboutTables) and the tables stay in memory.
// Its generation's progress goes to stderr when that is a terminal
// (TableProgressLine); tables are generated on every core.
inline absl::StatusOr<std::unique_ptr<RetrogradeSolver>> RetrogradeTablesFrom(
    const std::optional<std::string>& option) {
  absl::StatusOr<std::unique_ptr<RetrogradeSolver>> solver =
      RetrogradeSolverFor(option, kTablesOption);
  if (solver.ok()) TableProgressLine::Attach(**solver);
  return solver;
}

// After a command, on stderr so that stdout stays as it was: what the
// retrograde tables cost this run, once, and one line per problem the table
// directory had. A run that generated tables says how many and how long
// they took, so that a slow first run explains itself. A table that could
// not be saved costs only time (it is generated again next run); a cache
// file that could not be used means the positions it covers were analysed
// without it (their can-mate answers fell back to the searches, possibly
// "unknown").
inline void WarnAboutTables(const char* command, const RetrogradeSolver& solver) {
  std::fflush(stdout);  // after the records, when both streams go to one place
  const size_t made = solver.tables_generated();
  const std::string cost = absl::StrFormat("%zu retrograde table%s in %.1f s", made,
                                           made == 1 ? "" : "s", solver.generation_seconds());
  const absl::Status stored = solver.last_store_error();
  if (made > 0 && solver.cache_dir().empty()) {
    std::fprintf(stderr, "arbiter %s: generated %s, kept in memory for this run only\n", command,
                 cost.c_str());
  } else if (made > 0 && stored.ok()) {
    std::fprintf(stderr, "arbiter %s: generated %s, stored in %s for later runs\n", command,
                 cost.c_str(), solver.cache_dir().c_str());
  }
  if (!stored.ok()) {
    std::fprintf(stderr,
                 "arbiter %s: warning: %s (generated %s, kept in memory for this run only)\n",
                 command, std::string(stored.message()).c_str(), cost.c_str());
  }
  if (absl::Status s = solver.last_load_error(); !s.ok()) {
    std::fprintf(stderr, "arbiter %s: warning: %s (positions it covers were analysed without it)\n",
                 command, std::string(s.message()).c_str());
  }
}

}  // namespace arbiter::common
