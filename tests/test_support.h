// Helpers shared by tests: locating ../shared material and external peers.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "core/chess/position.h"
#include "core/chess/random_placement.h"
#include "core/mate/mate_ability.h"
#include "core/tablebase/retrograde.h"
#include "tools/wall_positions.h"

namespace arbiter::testing {

// A JSON line of `verify --format jsonl` (docs/schema/): the game number of
// a game's record ("type" "verdict" or "error"), or -1 for another line.
inline int64_t GameOfRecord(const std::string& line) {
  for (const std::string prefix :
       {"{\"type\": \"verdict\", \"game\": ", "{\"type\": \"error\", \"game\": ",
        "{\"type\": \"skipped\", \"game\": "})
    if (line.starts_with(prefix)) return std::stoll(line.substr(prefix.size()));
  return -1;
}
inline bool IsSummaryRecord(const std::string& line) {
  return line.starts_with("{\"type\": \"summary\", ");
}

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

// The seed of a randomised differential test: `fixed` unless
// $ARBITER_DIFF_SEED is set, so that CI always compares the same sample
// while a developer can sweep others by hand, e.g.
//   for s in $(seq 1 100); do ARBITER_DIFF_SEED=$s build/tests/stockfish_diff_test; done
// The seed in use is printed, so that a failure names its sample.
inline uint64_t DiffSeed(uint64_t fixed) {
  const char* env = std::getenv("ARBITER_DIFF_SEED");
  const uint64_t seed = env && *env ? std::strtoull(env, nullptr, 10) : fixed;
  std::printf("random sample seed %llu%s\n", (unsigned long long)seed,
              env && *env ? " (ARBITER_DIFF_SEED)" : "");
  return seed;
}

// The test tiers (docs/testing.md): false in the default tier, true in the
// long one, i.e. when $ARBITER_LONG_CHECKS is set to anything but "" or "0"
// (scripts/long-checks.sh runs `ctest -L long`, whose CASE/long tests set
// it). Tests that compare against a reference on a sample take its size
// from SampleSize below, so that the default tier runs every check on a
// sample and the long tier on the full one.
inline bool LongChecks() {
  const char* env = std::getenv("ARBITER_LONG_CHECKS");
  return env && *env && std::string(env) != "0";
}

// The size of a sample: `quick` in the default tier, `full` in the long
// one. Printed, so that a log says which size ran.
inline int SampleSize(int quick, int full, const char* what) {
  const int n = LongChecks() ? full : quick;
  std::printf("sample: %d %s (%s)\n", n, what,
              LongChecks() ? "full size: ARBITER_LONG_CHECKS is set"
                           : ("the full " + std::to_string(full) +
                              " run with ARBITER_LONG_CHECKS=1 in the long tier")
                                 .c_str());
  return n;
}

// The retrograde tables every test of a process shares, loaded from and
// saved to $ARBITER_TABLES (scripts/test.sh points all tests at one
// directory in the build tree, so each table is generated once per build),
// else generated in memory.
inline RetrogradeSolver& TestTables() {
  static RetrogradeSolver* solver = [] {
    const char* env = std::getenv("ARBITER_TABLES");
    return new RetrogradeSolver(env ? env : "");
  }();
  return *solver;
}

// Search options with the test tables, as the programs run them.
inline MateSearchOptions WithTables(MateSearchOptions options = {}) {
  options.retrograde = &TestTables();
  return options;
}

// Parses a FEN the test knows to be valid; a bad one fails the test and
// yields the start position so that the test can go on.
inline Position FromFen(const std::string& fen) {
  absl::StatusOr<Position> pos = Position::FromFen(fen);
  EXPECT_TRUE(pos.ok()) << fen << ": " << pos.status();
  return pos.ok() ? *pos : Position::Start();
}

// Substring check without gmock (tests link GTest::gtest only); use with
// EXPECT_PRED_FORMAT2(Contains, text, part).
inline ::testing::AssertionResult Contains(const char* text_expr, const char*,
                                           const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << text_expr << " is \"" << text.substr(0, 300) << "\", without \"" << part << "\"";
}

// Runs a shell command line and captures its standard output.
struct CommandResult {
  int exit_code;  // -1 when the command did not exit normally
  std::string out;
};
inline CommandResult RunCommand(const std::string& command_line) {
  FILE* p = popen(command_line.c_str(), "r");
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// Text with its lines joined (PGN's movetext: where a line breaks is the
// wrapper's business).
inline std::string Flat(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

// How often `part` occurs in `text` (overlapping occurrences count).
inline size_t Count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

inline std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> lines;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Replays `line` from `start`: every move legal, and at the end the side
// other than `side` is checkmated.
inline void ExpectMatingLine(const Position& start, Color side, const std::vector<Move>& line) {
  Position pos = start;
  for (Move m : line) {
    ASSERT_TRUE(IsLegalMove(pos, m)) << ToUci(pos, m) << " in " << pos.Fen();
    pos.DoMove(m);
  }
  EXPECT_TRUE(pos.in_check() && MoveList(pos).empty()) << "not mate: " << pos.Fen();
  EXPECT_NE(pos.side_to_move(), side);
}

// Shortest helpmate by breadth-first search over every reachable position,
// a method independent of the analysis: positions are told apart by the
// first four FEN fields (placement, side, castling, e.p.), so no key
// collision can hide one. nullopt when none exists or more than max_states
// positions are reachable (the caller asserts which).
struct Exhaustive {
  std::optional<int> plies;
  size_t states = 0;
  bool complete = false;
};
inline Exhaustive ShortestHelpmateByFen(const Position& start, Color winner, size_t max_states) {
  auto key = [](const Position& pos) {
    const std::string fen = pos.Fen();
    size_t fields = 0, i = 0;
    while (i < fen.size() && !(fen[i] == ' ' && ++fields == 4)) ++i;
    return fen.substr(0, i);
  };
  // The frontier is kept as FEN text too and each position rebuilt from it:
  // a Position with its undo stack is too large to hold millions of.
  std::unordered_set<std::string> seen{key(start)};
  std::vector<std::string> frontier{key(start)}, next;
  for (int depth = 0; !frontier.empty(); ++depth) {
    next.clear();
    for (const std::string& fen : frontier) {
      absl::StatusOr<Position> pos = Position::FromFen(fen + " 0 1");
      if (!pos.ok()) {
        ADD_FAILURE() << "FEN the search wrote cannot be read back: " << fen << ": "
                      << pos.status();
        return {};
      }
      MoveList moves(*pos);
      if (moves.empty() && pos->in_check() && pos->side_to_move() != winner) {
        return {depth, seen.size(), true};
      }
      for (Move m : moves) {
        pos->DoMove(m);
        std::string child = key(*pos);
        if (seen.insert(child).second) next.push_back(std::move(child));
        pos->UndoMove(m);
      }
      if (seen.size() > max_states) return {std::nullopt, seen.size(), false};
    }
    frontier.swap(next);
  }
  return {std::nullopt, seen.size(), true};
}

// A composed position whose only mate is far away
// (docs/research/only-mates.md): the FEN-keyed search above proves that
// White's shortest mate is `plies` away, and the analysis must answer "yes"
// with a line that mates: of exactly that length where it finds the
// shortest (`analysis_finds_shortest`), else at least as long.
inline void ExpectOnlyMateFound(const Position& pos, int plies, size_t max_states = 100000,
                                MateSearchOptions options = WithTables(),
                                bool analysis_finds_shortest = true) {
  Exhaustive proof = ShortestHelpmateByFen(pos, kWhite, max_states);
  ASSERT_TRUE(proof.complete) << proof.states << " positions";
  ASSERT_EQ(proof.plies.value_or(-1), plies);
  MateAbility m = AnalyzeMateAbility(pos, kWhite, options);
  ASSERT_EQ(ToString(m.answer), std::string("yes"));
  if (analysis_finds_shortest) {
    EXPECT_EQ(m.line.size(), size_t(plies));
  } else {
    EXPECT_GE(m.line.size(), size_t(plies));
  }
  ExpectMatingLine(pos, kWhite, m.line);
}

// The sweeps' wall positions (tools/wall_positions.h), under the names the
// tests have always used.
using ::arbiter::tools::AdversarialWallFen;
using ::arbiter::tools::kAllWallFamilies;
using ::arbiter::tools::RandomWallFen;
using ::arbiter::tools::WallFamily;

}  // namespace arbiter::testing
