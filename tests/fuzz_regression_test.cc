// The fuzz targets (fuzz/*_fuzzer.cc) as ordinary tests: every input that
// once made a target crash, hang or fail a check (fuzz/regressions/TARGET/)
// and every seed (fuzz/corpus/TARGET/) goes through the same target
// function, built here without libFuzzer or sanitizers. Plus one direct
// test per bug, saying what was wrong.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/chess/movegen.h"
#include "core/io/byte_source.h"
#include "core/mate/mate_ability.h"
#include "core/pgn/pgn_reader.h"
#include "core/render/game_verdict_json.h"
#include "core/verdict/game_verdict.h"
#include "fuzz/fuzz_support.h"
#include "proto/convert.h"

namespace arbiter::fuzz {
namespace {

namespace fs = std::filesystem;

const fs::path kFuzzDir = fs::path(ARBITER_SOURCE_DIR) / "fuzz";

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The files of a directory, in name order (none when it does not exist).
std::vector<fs::path> Files(const fs::path& dir) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) return files;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

struct Target {
  const char* name;  // the directory under fuzz/corpus and fuzz/regressions
  void (*run)(std::string_view input);
};

class FuzzTarget : public ::testing::TestWithParam<Target> {};

TEST_P(FuzzTarget, RegressionInputs) {
  for (const fs::path& file : Files(kFuzzDir / "regressions" / GetParam().name)) {
    SCOPED_TRACE(file.string());
    GetParam().run(ReadFile(file));
  }
}

TEST_P(FuzzTarget, SeedCorpus) {
  const std::vector<fs::path> seeds = Files(kFuzzDir / "corpus" / GetParam().name);
  EXPECT_FALSE(seeds.empty());
  for (const fs::path& file : seeds) {
    SCOPED_TRACE(file.string());
    GetParam().run(ReadFile(file));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Fuzz, FuzzTarget,
    ::testing::Values(Target{"fen", FenTarget}, Target{"move", MoveTarget},
                      Target{"pgn", PgnTarget}, Target{"pgn_zstd", PgnZstdTarget},
                      Target{"request", RequestTarget}, Target{"chess99", Chess99Target},
                      Target{"ending", EndingTarget}, Target{"http", HttpTarget}),
    [](const ::testing::TestParamInfo<Target>& info) { return std::string(info.param.name); });

std::vector<RawGame> Games(std::unique_ptr<ByteSource> source) {
  PgnReader reader(std::move(source));
  std::vector<RawGame> games;
  for (RawGame g; reader.Next(&g);) games.push_back(g);
  return games;
}

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

// pgn_fuzzer: the same through a game, where it mattered: a verdict's
// end_fen is parsed again when the verdict crosses the wire, and the client
// stops a run at a verdict that does not parse.
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
