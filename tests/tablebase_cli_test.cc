// End-to-end tests of `arbiter analyze` and `arbiter verify` with Syzygy
// tables (--syzygy, ARBITER_SYZYGY): the real binary on the shared tables.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/test_support.h"

namespace arbiter {
namespace {

using testing::Lines;

using ::arbiter::testing::Contains;

// Runs the arbiter binary with `args` (shell words). ARBITER_SYZYGY is
// cleared unless `env` sets it, so that the caller's environment cannot
// change what is tested.
testing::CommandResult Arbiter(const std::string& args, bool with_stderr = false,
                               const std::string& env = "") {
  std::string cmd = "env -u ARBITER_SYZYGY " + env + " " + std::string(ARBITER_BINARY_DIR) +
                    "/arbiter " + args + (with_stderr ? " 2>&1" : " 2>/dev/null");
  return testing::RunCommand(cmd);
}

// The shared tables, or "" (the test then skips, saying why).
std::string Tables() {
  const std::string shared = arbiter::testing::SharedDir();
  if (shared.empty()) return "";
  const std::string dir = shared + "/syzygy";
  return std::filesystem::exists(dir + "/KQvK.rtbw") ? dir : "";
}

#define REQUIRE_TABLES(var)                                                                \
  const std::string var = Tables();                                                        \
  if (var.empty())                                                                         \
  GTEST_SKIP() << "Syzygy tables not found (../shared/syzygy or $ARBITER_SHARED/syzygy); " \
                  "tablebase CLI tests need them"

std::string AnalyzeJson(const std::string& tables, const std::string& fen) {
  testing::CommandResult r = Arbiter("analyze --json --syzygy " + tables + " --fen '" + fen + "'");
  EXPECT_EQ(r.exit_code, 0) << fen;
  return r.out;
}

TEST(TablebaseCli, AnalyzeKQvKWin) {
  REQUIRE_TABLES(tables);
  const std::string fen = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1";
  std::string json = AnalyzeJson(tables, fen);
  EXPECT_PRED_FORMAT2(Contains, json,
                      "\"tablebase\": {\"category\": \"win\", \"dtz\": 11, \"precise_dtz\": 11, "
                      "\"win_within_50\": true, \"halfmove_clock\": 0");
  // Best first: Qe4 leaves Black lost with DTZ 10, the shortest way.
  EXPECT_PRED_FORMAT2(Contains, json,
                      "\"moves\": [{\"uci\": \"b1e4\", \"san\": \"Qe4\", \"category\": \"loss\", "
                      "\"dtz\": -10, \"precise_dtz\": -10, \"zeroing\": false");
  // Tables fill the tablebase keys; every key before them is unchanged.
  testing::CommandResult plain = Arbiter("analyze --json --fen '" + fen + "'");
  ASSERT_EQ(plain.exit_code, 0);
  const size_t keys = plain.out.find(", \"tablebase\": null, \"tablebase_source\": null, ");
  ASSERT_NE(keys, std::string::npos) << plain.out;
  EXPECT_EQ(json.rfind(plain.out.substr(0, keys) + ", \"tablebase\": {", 0), 0u) << json;

  testing::CommandResult text = Arbiter("analyze --syzygy " + tables + " --fen '" + fen + "'");
  EXPECT_PRED_FORMAT2(Contains, text.out,
                      "Tablebase: win for White to move, DTZ 11 (exact); win within the 50-move "
                      "rule: yes (halfmove clock 0)\nTablebase outcome: win with the 50-move rule "
                      "(FIDE), win without it (ICCF); Qe4 keeps the win inside fifty moves\n"
                      "Tablebase moves: Qe4 (win, DTZ 10), ");
}

TEST(TablebaseCli, ReportsWhichTablesWereOpened) {
  REQUIRE_TABLES(tables);
  // On stderr: the shared set holds 45 WDL files, the largest of 5 pieces.
  testing::CommandResult r =
      testing::RunCommand(std::string(ARBITER_BINARY_DIR) + "/arbiter analyze --syzygy " + tables +
                          " --fen '8/8/8/8/8/2k5/8/KQ6 w - - 0 1' 2>&1 >/dev/null");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_PRED_FORMAT2(Contains, r.out, "45 WDL files, largest 5 pieces");
}

TEST(TablebaseCli, AnalyzeHalfmoveClockDecidesWinWithin50) {
  REQUIRE_TABLES(tables);
  // KRvK, DTZ 27: 27 + 73 = 100 still wins, 27 + 80 does not.
  EXPECT_PRED_FORMAT2(Contains, AnalyzeJson(tables, "8/8/8/8/8/2k5/8/KR6 w - - 73 1"),
                      "\"tablebase\": {\"category\": \"win\", \"dtz\": 27, \"precise_dtz\": 27, "
                      "\"win_within_50\": true, \"halfmove_clock\": 73");
  EXPECT_PRED_FORMAT2(Contains, AnalyzeJson(tables, "8/8/8/8/8/2k5/8/KR6 w - - 80 1"),
                      "\"tablebase\": {\"category\": \"cursed-win\", \"dtz\": 27, \"precise_dtz\": "
                      "27, \"win_within_50\": false, \"halfmove_clock\": 80");
}

TEST(TablebaseCli, AnalyzeCursedWins) {
  REQUIRE_TABLES(tables);
  // KBNvK needs 58-59 plies to mate from here: 50 plies already played
  // leave too few before a fifty-move claim.
  std::string late = AnalyzeJson(tables, "8/8/8/4k3/8/8/8/KBN5 w - - 50 1");
  EXPECT_PRED_FORMAT2(Contains, late, "\"tablebase\": {\"category\": \"cursed-win\"");
  EXPECT_PRED_FORMAT2(Contains, late, "\"win_within_50\": false, \"halfmove_clock\": 50");
  std::string early = AnalyzeJson(tables, "8/8/8/4k3/8/8/8/KBN5 w - - 0 1");
  EXPECT_PRED_FORMAT2(Contains, early, "\"tablebase\": {\"category\": \"win\", \"dtz\": 58");
  // A cursed win by the table itself (KRBvKR), at clock 0.
  std::string cursed = AnalyzeJson(tables, "8/5B2/8/2R5/8/4K3/8/3r3k w - - 0 1");
  EXPECT_PRED_FORMAT2(Contains, cursed, "\"tablebase\": {\"category\": \"cursed-win\", \"dtz\": 1");
  EXPECT_PRED_FORMAT2(Contains, cursed, "\"win_within_50\": false");
  EXPECT_PRED_FORMAT2(Contains, cursed,
                      "\"moves\": [{\"uci\": \"f7h5\", \"san\": \"Bh5\", \"category\": "
                      "\"blessed-loss\"");
}

TEST(TablebaseCli, AnalyzeNotCovered) {
  REQUIRE_TABLES(tables);
  // Castling rights: Syzygy tables have none, even for four men.
  const std::string castling = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1";
  EXPECT_PRED_FORMAT2(Contains, AnalyzeJson(tables, castling),
                      "\"tablebase\": null, \"tablebase_source\": \"syzygy\", "
                      "\"tablebase_not_covered\": \"position has castling rights");
  testing::CommandResult text = Arbiter("analyze --syzygy " + tables + " --fen '" + castling + "'");
  EXPECT_PRED_FORMAT2(Contains, text.out, "Tablebase: not covered (position has castling rights");
  // Six men: more than the largest table.
  const std::string six = "4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1";
  EXPECT_PRED_FORMAT2(Contains, AnalyzeJson(tables, six),
                      "\"tablebase\": null, \"tablebase_source\": \"syzygy\", "
                      "\"tablebase_not_covered\": \"position has 6 pieces");
  text = Arbiter("analyze --syzygy " + tables + " --fen '" + six + "'");
  EXPECT_PRED_FORMAT2(
      Contains, text.out,
      "Tablebase: not covered (position has 6 pieces; the tables found go up to 5)");
}

TEST(TablebaseCli, AnalyzeBatchAndDirectoryLists) {
  REQUIRE_TABLES(tables);
  const std::string input = ::testing::TempDir() + "/tablebase_cli_batch.txt";
  std::ofstream(input) << "8/8/8/8/8/2k5/8/KQ6 b - - 0 1\nnot a fen\n"
                       << "4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1\n";
  // A ':'-joined list, a repeated option and the environment all name tables.
  for (const std::string& how :
       {"--syzygy " + tables + ":" + tables, "--syzygy " + tables + " --syzygy=" + tables}) {
    testing::CommandResult r = Arbiter("analyze " + input + " " + how);
    std::vector<std::string> lines = Lines(r.out);
    ASSERT_EQ(lines.size(), 3u) << how << "\n" << r.out;
    EXPECT_PRED_FORMAT2(Contains, lines[0], "\"tablebase\": {\"category\": \"loss\", \"dtz\": -14");
    EXPECT_PRED_FORMAT2(Contains, lines[1], "\"error\"");
    EXPECT_PRED_FORMAT2(Contains, lines[2],
                        "\"tablebase\": null, \"tablebase_source\": \"syzygy\"");
    EXPECT_EQ(r.exit_code, 1);  // the bad line
  }
  testing::CommandResult env = Arbiter("analyze " + input, false, "ARBITER_SYZYGY=" + tables);
  EXPECT_PRED_FORMAT2(Contains, env.out, "\"tablebase\": {\"category\": \"loss\"");
  // No tables: the keys are null.
  testing::CommandResult none = Arbiter("analyze " + input);
  EXPECT_PRED_FORMAT2(Contains, none.out,
                      "\"tablebase\": null, \"tablebase_source\": null, "
                      "\"tablebase_not_covered\": null");
  EXPECT_EQ(none.out.find("\"tablebase\": {"), std::string::npos) << none.out;
}

TEST(TablebaseCli, MissingOrBadPathsAreUsageErrors) {
  // No tables needed: every path here is wrong.
  testing::CommandResult r =
      Arbiter("analyze --fen '8/8/8/8/8/2k5/8/KQ6 w - - 0 1' --syzygy /no/such/dir", true);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_PRED_FORMAT2(Contains, r.out,
                      "arbiter analyze: --syzygy: Syzygy directory '/no/such/dir' does not exist");
  EXPECT_TRUE(r.out.find("Position:") == std::string::npos) << r.out;

  const std::string example = std::string(ARBITER_SOURCE_DIR) + "/examples/lichess_sample.pgn";
  r = Arbiter("verify " + example + " --syzygy " + example, true);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_PRED_FORMAT2(Contains, r.out, "is not a directory");
  EXPECT_PRED_FORMAT2(Contains, r.out, example);

  const std::string empty_dir = ::testing::TempDir() + "/tablebase_cli_empty";
  std::filesystem::create_directories(empty_dir);
  r = Arbiter("verify " + example + " --syzygy " + empty_dir, true);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_PRED_FORMAT2(Contains, r.out, "no Syzygy tables (readable *.rtbw files) in '" + empty_dir);

  // One bad entry in a list spoils the list: the user asked for it.
  r = Arbiter("verify " + example + " --syzygy '" + empty_dir + ":/no/such/dir'", true);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_PRED_FORMAT2(Contains, r.out, "'/no/such/dir' does not exist");

  r = Arbiter("verify " + example, true, "ARBITER_SYZYGY=/no/env/dir");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_PRED_FORMAT2(Contains, r.out,
                      "arbiter verify: ARBITER_SYZYGY: Syzygy directory '/no/env/dir' does not "
                      "exist");
  r = Arbiter("verify " + example + " --syzygy", true);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_PRED_FORMAT2(Contains, r.out, "--syzygy needs a value");
}

// Games set up in small endgames, each ending as its Event says.
constexpr char kGames[] = R"([Event "KRvKR, drawn, resigned"]
[Site "g1"]
[Result "1-0"]
[SetUp "1"]
[FEN "4k3/r7/8/8/8/8/8/4K2R w - - 0 1"]
[Termination "Normal"]

1. Kd2 Kd8 1-0

[Event "KQvK, won, resigned"]
[Site "g2"]
[Result "1-0"]
[SetUp "1"]
[FEN "8/8/8/8/8/2k5/8/KQ6 w - - 0 1"]

1. Qe4 Kd2 1-0

[Event "KQvK, won, agreed drawn"]
[Site "g3"]
[Result "1/2-1/2"]
[SetUp "1"]
[FEN "8/8/8/8/8/2k5/8/KQ6 w - - 0 1"]

1. Qe4 Kd2 1/2-1/2

[Event "KBNvK, too late to win, resigned"]
[Site "g4"]
[Result "1-0"]
[SetUp "1"]
[FEN "8/8/8/4k3/8/8/8/KBN5 w - - 90 46"]

1. Kb2 Kd5 1-0

[Event "KRvKR, drawn, flag fall"]
[Site "g5"]
[Result "0-1"]
[SetUp "1"]
[FEN "4k3/r7/8/8/8/8/8/4K2R w - - 0 1"]
[Termination "Time forfeit"]

1. Kd2 Kd8 0-1

[Event "six men, resigned"]
[Site "g6"]
[Result "1-0"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1"]

1. a4 Kd7 1-0

[Event "KQvK, won, adjudicated drawn"]
[Site "g7"]
[Result "1/2-1/2"]
[SetUp "1"]
[FEN "8/8/8/8/8/2k5/8/KQ6 w - - 0 1"]
[Termination "adjudication"]

1. Qe4 Kd2 1/2-1/2

[Event "checkmate"]
[Site "g8"]
[Result "1-0"]
[SetUp "1"]
[FEN "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"]

1. Qb8# 1-0

[Event "KRvKR, drawn, abandoned"]
[Site "g9"]
[Result "1-0"]
[SetUp "1"]
[FEN "4k3/r7/8/8/8/8/8/4K2R w - - 0 1"]
[Termination "Abandoned"]

1. Kd2 Kd8 1-0
)";

std::string WriteGames() {
  const std::string path = ::testing::TempDir() + "/tablebase_cli_games.pgn";
  std::ofstream(path) << kGames;
  return path;
}

TEST(TablebaseCli, VerifyReportsContradictionsAndNotes) {
  REQUIRE_TABLES(tables);
  const std::string pgn = WriteGames();
  testing::CommandResult r =
      Arbiter("verify --format jsonl --jobs 2 --syzygy " + tables + " " + pgn);
  ASSERT_EQ(r.exit_code, 0);
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 10u) << r.out;
  // Resigned in a drawn KRvKR position: the declared result is not best play's.
  EXPECT_PRED_FORMAT2(Contains, lines[0],
                      "\"tablebase\": {\"category\": \"draw\", \"dtz\": 0, \"precise_dtz\": 0, "
                      "\"win_within_50\": false, \"halfmove_clock\": 2, "
                      "\"fifty_move_outcome\": \"draw\", \"unlimited_outcome\": \"draw\", "
                      "\"move_within_50\": null, \"side_to_move\": \"white\", \"source\": "
                      "\"syzygy\"}, \"tablebase_contradiction\": true, \"tablebase_note\": "
                      "\"declared 1-0 by resignation, but the position is a draw with best play\"");
  EXPECT_PRED_FORMAT2(Contains, lines[0], "\"ruling\": \"1-0\", \"agrees\": true");  // unchanged
  // Won within the rule: both readings agree, and a move keeps the win.
  EXPECT_PRED_FORMAT2(Contains, lines[1],
                      "\"win_within_50\": true, \"halfmove_clock\": 2, \"fifty_move_outcome\": "
                      "\"win\", \"unlimited_outcome\": \"win\", \"move_within_50\": \"");
  EXPECT_PRED_FORMAT2(Contains, lines[1],
                      "\"side_to_move\": \"white\", \"source\": \"syzygy\"}, "
                      "\"tablebase_contradiction\": false, \"tablebase_note\": null");
  // A draw may be agreed in a won position: a note, not a contradiction.
  EXPECT_PRED_FORMAT2(Contains, lines[2],
                      "\"tablebase_contradiction\": false, \"tablebase_note\": \"drawn by "
                      "agreement or claim, but White to move wins within the 50-move rule");
  EXPECT_PRED_FORMAT2(Contains, lines[3],
                      "\"tablebase_contradiction\": true, \"tablebase_note\": \"declared 1-0 by "
                      "resignation, but the position is a cursed win for White: drawn under the "
                      "50-move rule");
  // A flag fall is ruled on mating possibility (6.9), not on best play.
  EXPECT_PRED_FORMAT2(Contains, lines[4], "\"rule\": \"flag_fall\"");
  EXPECT_PRED_FORMAT2(Contains, lines[4],
                      "\"tablebase_contradiction\": false, \"tablebase_note\": null");
  EXPECT_PRED_FORMAT2(Contains, lines[5],
                      "\"tablebase\": null, \"tablebase_contradiction\": null, "
                      "\"tablebase_note\": null, \"skipped_variant\": null, \"error\": null}");
  EXPECT_PRED_FORMAT2(Contains, lines[6],
                      "\"tablebase_contradiction\": true, \"tablebase_note\": \"declared 1/2-1/2 "
                      "by adjudication, but White to move wins within the 50-move rule");
  EXPECT_PRED_FORMAT2(Contains, lines[7],
                      "\"tablebase\": {\"category\": \"loss\", \"dtz\": -1, \"precise_dtz\": -1, "
                      "\"win_within_50\": false, \"halfmove_clock\": 1, \"fifty_move_outcome\": "
                      "\"loss\", \"unlimited_outcome\": \"loss\", \"move_within_50\": null, "
                      "\"side_to_move\": \"black\", \"source\": \"syzygy\"}, "
                      "\"tablebase_contradiction\": false");
  // A forfeit is decided off the board: the tables do not bear on it.
  EXPECT_PRED_FORMAT2(
      Contains, lines[8],
      "\"category\": \"draw\", \"dtz\": 0, \"precise_dtz\": 0, \"win_within_50\": false, "
      "\"halfmove_clock\": 2, \"fifty_move_outcome\": \"draw\", \"unlimited_outcome\": "
      "\"draw\", \"move_within_50\": null, \"side_to_move\": \"white\", \"source\": "
      "\"syzygy\"}, \"tablebase_contradiction\": false, \"tablebase_note\": null");
  EXPECT_PRED_FORMAT2(Contains, lines[9],
                      "\"tablebase_covered\": 8, \"tablebase_contradictions\": 3, \"seconds\"");

  testing::CommandResult text = Arbiter("verify --syzygy " + tables + " " + pgn);
  EXPECT_PRED_FORMAT2(Contains, text.out,
                      "#1 g1: 1-0 -> 1-0 by resignation (5.1.2) after ply 2  TABLEBASE "
                      "CONTRADICTION: declared 1-0 by resignation, but the position is a draw");
  EXPECT_PRED_FORMAT2(Contains, text.out,
                      "Tablebase: 8 final positions covered, 3 contradictions\n");

  testing::CommandResult csv = Arbiter("verify --format csv --syzygy " + tables + " " + pgn);
  std::vector<std::string> rows = Lines(csv.out);
  ASSERT_EQ(rows.size(), 10u) << csv.out;
  EXPECT_PRED_FORMAT2(Contains, rows[0],
                      ",end_fen,error,error_line,error_column,skipped_variant,tablebase_category,"
                      "tablebase_contradiction");
  EXPECT_PRED_FORMAT2(Contains, rows[1], ",draw,true");
  EXPECT_PRED_FORMAT2(Contains, rows[4], ",cursed-win,true");
  EXPECT_EQ(rows[6].substr(rows[6].size() - 2), ",,");  // six men: not covered
}

TEST(TablebaseCli, VerifyWithoutTablesIsUnchanged) {
  const std::string pgn = WriteGames();
  testing::CommandResult r = Arbiter("verify --format jsonl " + pgn);
  ASSERT_EQ(r.exit_code, 0);
  // The tablebase keys are there, all null.
  EXPECT_EQ(r.out.find("\"tablebase\": {"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"tablebase_contradiction\": true"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"tablebase_contradiction\": false"), std::string::npos) << r.out;
  testing::CommandResult csv = Arbiter("verify --format csv " + pgn);
  EXPECT_EQ(Lines(csv.out)[0],
            "game,site,declared,termination,ruling,agrees,certain,rule,article,ended_at_ply,"
            "moves_after_end,winner_can_mate,termination_read_as,flag_fallen_by,"
            "declared_grounds_hold,end_fen,error,error_line,error_column,skipped_variant");
  testing::CommandResult text = Arbiter("verify " + pgn);
  EXPECT_EQ(text.out.find("ablebase"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace arbiter
