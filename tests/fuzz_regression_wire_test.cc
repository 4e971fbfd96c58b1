// The fuzz targets of the API's messages (fuzz/request_fuzzer.cc: arbiter.v1
// requests; fuzz/http_fuzzer.cc: the HTTP API's JSON and queries) as
// fuzz_regression_test.cc runs the core's: every regression input and seed
// through the target function, and one direct test per bug. Apart because
// only the cluster build has the API (-DARBITER_CLUSTER=OFF builds the
// other).
#include <gtest/gtest.h>

#include <vector>

#include "core/io/byte_source.h"
#include "core/pgn/pgn_reader.h"
#include "core/render/game_verdict_json.h"
#include "core/verdict/game_verdict.h"
#include "proto/convert.h"
#include "tests/fuzz_regression.h"

namespace arbiter::fuzz {
namespace {

INSTANTIATE_TEST_SUITE_P(Fuzz, FuzzTarget,
                         ::testing::Values(Target{"request", RequestTarget},
                                           Target{"http", HttpTarget}),
                         TargetName);

// pgn_fuzzer: the FEN past the fullmove limit (fuzz_regression_test.cc,
// FenWrittenAfterTheFullmoveLimitReadsBack) through a game, where it
// mattered: a verdict's end_fen is parsed again when the verdict crosses the
// wire, and the client stops a run at a verdict that does not parse.
TEST(FuzzRegression, VerdictOfAGamePastTheFullmoveLimitCrossesTheWire) {
  std::vector<RawGame> games =
      Games(ByteSource::FromString(ReadFile(kFuzzDir / "regressions/pgn/fullmove_past_limit.pgn")));
  ASSERT_EQ(games.size(), 1u);
  ReplayedGame scratch;
  GameVerdict verdict;
  VerifyGame(games[0], MateSearchOptions{.node_budget = 20000, .retrograde = nullptr}, &scratch,
             &verdict);
  ASSERT_TRUE(verdict.ruling.has_value()) << verdict.error;
  ASSERT_FALSE(verdict.winner_line.empty());  // the line is parsed from end_fen
  v1::GameVerdict message;
  ASSERT_TRUE(message.ParseFromString(wire::ToProto(verdict).SerializeAsString()));
  absl::StatusOr<GameVerdict> back = wire::FromProto(message);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(GameVerdictJson(*back), GameVerdictJson(verdict));
}

}  // namespace
}  // namespace arbiter::fuzz
