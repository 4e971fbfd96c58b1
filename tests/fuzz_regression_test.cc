// The fuzz targets (fuzz/*_fuzzer.cc) as ordinary tests: every input that
// once made a target crash, hang or fail a check (fuzz/regressions/TARGET/)
// and every seed (fuzz/corpus/TARGET/) goes through the same target
// function, built here without libFuzzer or sanitizers. Plus one direct
// test per bug, saying what was wrong. The targets and bugs of the API's
// messages are in fuzz_regression_wire_test.cc, built with the cluster.
#include "tests/fuzz_regression.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/chess/movegen.h"
#include "core/io/byte_source.h"
#include "core/mate/mate_ability.h"
#include "core/pgn/pgn_reader.h"
#include "core/verdict/game_verdict.h"

namespace arbiter::fuzz {
namespace {

// The targets of core/'s inputs; fuzz_regression_wire_test.cc has those of
// the API's messages.
INSTANTIATE_TEST_SUITE_P(Fuzz, FuzzTarget,
                         ::testing::Values(Target{"fen", FenTarget}, Target{"move", MoveTarget},
                                           Target{"pgn", PgnTarget},
                                           Target{"pgn_zstd", PgnZstdTarget},
                                           Target{"chess99", Chess99Target},
                                           Target{"ending", EndingTarget}),
                         TargetName);

// fen_fuzzer: a FEN at the largest fullmove number read (100000), black to
// move; after one move Fen() wrote 100001, which FromFen rejects.
TEST(FuzzRegression, FenWrittenAfterTheFullmoveLimitReadsBack) {
  absl::StatusOr<Position> pos =
      Position::FromFen(ReadFile(kFuzzDir / "regressions/fen/fullmove_past_limit"));
  ASSERT_TRUE(pos.ok()) << pos.status();
  pos->DoMove(*MoveList(*pos).begin());
  const std::string fen = pos->Fen();
  EXPECT_TRUE(fen.ends_with(" 100000")) << fen;
  absl::StatusOr<Position> again = Position::FromFen(fen);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->key(), pos->key());
}

// pgn_fuzzer: a locked K+P v K+P game verified without retrograde tables
// once built them all the same (the per-move dead-position probe ignored
// the option): 19 s here, minutes under the sanitizers. Now the tables are
// a solver the caller passes, so none can be built; the game must still be
// ruled.
TEST(FuzzRegression, NoRetrogradeTablesWhenSwitchedOff) {
  std::vector<RawGame> games = Games(ByteSource::FromString(
      ReadFile(kFuzzDir / "regressions/pgn/locked_kpkp_retrograde_off.pgn")));
  ASSERT_EQ(games.size(), 1u);
  ReplayedGame scratch;
  GameVerdict verdict;
  VerifyGame(games[0], MateSearchOptions{.node_budget = 200, .retrograde = nullptr}, &scratch,
             &verdict);
  EXPECT_TRUE(verdict.ruling.has_value()) << verdict.error;
}

// pgn_zstd_fuzzer seeds: pzstd writes a skippable frame before every zstd
// frame; only the zstd frame magic was recognised, so pzstd's output was
// read as PGN text ("unexpected token").
TEST(FuzzRegression, PzstdOutputIsDecoded) {
  std::string data = ReadFile(kFuzzDir / "regressions/pgn_zstd/pzstd_skippable_frame");
  ASSERT_GT(data.size(), 1u);
  data.erase(0, 1);  // the fuzzer's mode byte
  std::vector<RawGame> games = Games(ByteSource::FromString(data));
  std::vector<RawGame> plain =
      Games(ByteSource::FromString(ReadFile(kFuzzDir / "corpus/pgn/otb_bdg_2.pgn")));
  ASSERT_EQ(games.size(), 1u);
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_TRUE(games[0].error.ok()) << games[0].error;
  EXPECT_EQ(games[0].tags, plain[0].tags);
  EXPECT_EQ(games[0].moves.size(), plain[0].moves.size());
}

}  // namespace
}  // namespace arbiter::fuzz
