// Helpers shared by tests: locating ../shared material and external peers.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "core/chess/position.h"

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

}  // namespace arbiter::testing
