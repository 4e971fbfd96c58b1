// `verify --coordinator` sends each game's PGN text (client/game_feed.h),
// which the workers read: the records must still be the embedded run's byte
// for byte, error records, game numbers, lines and columns included, where
// the file has the strict shape and where it does not (the real reader takes
// over there).
#include <fstream>
#include <regex>

#include "tests/cluster_support.h"

namespace arbiter {
namespace {

// Strict games with errors of every kind a worker finds: a token the reader
// refuses (line and column), a move that is not legal (the move's line and
// column), a variant, clocks, comments over lines, CRLF.
const char kStrict[] =
    "[Event \"Rated\"]\n[Site \"https://lichess.org/aaaa\"]\n[Result \"1-0\"]\n"
    "[Termination \"Time forfeit\"]\n\n"
    "1. e4 { [%clk 0:03:00] } e5 { [%clk 0:03:00] } 2. Qh5 { [%clk 0:02:58] } Nc6\n"
    "{ [%clk 0:02:57] } 3. Bc4 { [%clk 0:02:55] } Nf6 { [%clk 0:00:00] } 1-0\n\n"
    "[Event \"Rated\"]\n[Site \"https://lichess.org/bbbb\"]\n[Result \"0-1\"]\n\n"
    "1. e4 e5 2. Nf3 xx9 3. Bc4 0-1\n\n"
    "[Event \"Rated\"]\n[Site \"https://lichess.org/cccc\"]\n[Result \"1-0\"]\n\n"
    "1. e4 e5 2. Ke3 Nc6\n3. Qxf7 1-0\n\n"
    "[Event \"Rated\"]\n[Site \"https://lichess.org/dddd\"]\n[Variant \"Crazyhouse\"]\n"
    "[Result \"1-0\"]\n\n1. e4 e5 2. N@f3 1-0\n\n"
    "[Event \"Casual\"]\r\n[Site \"https://lichess.org/eeee\"]\r\n[Result \"1/2-1/2\"]\r\n\r\n"
    "1. e4 {a comment\r\nover two lines} e5 (1... c5 2. Nf3) 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7\r\n"
    "5. Ke1 Ke8 1/2-1/2\r\n\r\n"
    "[Event \"Rated\"]\n[Site \"https://lichess.org/ffff\"]\n[Result \"0-1\"]\n\n"
    "1. f3 e5 2. g4 Qh4# 0-1\n\n";

// Garbage between games, then games the real reader reads: errors with
// lines of the whole file, a game without its result before the next.
const char kAfterGarbage[] =
    "this is not a game\n\n"
    "[Event \"Rated\"]\n[Site \"https://lichess.org/gggg\"]\n[Result \"1-0\"]\n\n"
    "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
    "[Event \"Rated\"]\n[Site \"https://lichess.org/hhhh\"]\n[Result \"1-0\"]\n\n"
    "1. e4 e5 2. Kd3 1-0\n\n"
    "[Event \"Rated\"]\n[Site \"https://lichess.org/iiii\"]\n[Result \"1-0\"]\n\n"
    "1. d4 d5\n\n"
    "[Event \"Rated\"]\n[Site \"https://lichess.org/jjjj\"]\n[Result \"0-1\"]\n\n"
    "1. e4 e5 2. Nf3 $ 0-1\n";

std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST_F(Cluster, GameTextsThroughTheCoordinatorEqualEmbedded) {
  std::string remote, embedded;
  ASSERT_TRUE(StartSmallCluster(&remote, &embedded));
  const std::string strict = WriteFile("texts_strict.pgn", kStrict);
  const std::string mixed = WriteFile("texts_mixed.pgn", std::string(kStrict) + kAfterGarbage);
  // Every line but the summary's timing ("seconds" in JSON, "Time:" in
  // text; csv writes no summary to stdout).
  auto records = [](std::string out) {
    return std::regex_replace(WithoutTiming(std::move(out)), std::regex("\nTime: [^\n]*"), "");
  };
  for (const std::string& file : {strict, mixed}) {
    for (const char* format : {"jsonl", "text", "csv"}) {
      const std::string args = absl::StrCat("verify --format ", format, " ", file);
      testing::CommandResult local = testing::RunCommand(embedded + args);
      testing::CommandResult far = testing::RunCommand(remote + args);
      EXPECT_EQ(local.exit_code, 0) << args;
      EXPECT_EQ(far.exit_code, local.exit_code) << args;
      EXPECT_EQ(records(far.out), records(local.out)) << args;
    }
  }
  // The records hold what the cases are about.
  testing::CommandResult out = testing::RunCommand(remote + "verify --format jsonl " + mixed);
  EXPECT_PRED_FORMAT2(testing::Contains, out.out, "\"line\": 13, \"column\": 17}");  // xx9
  // The garbage, read by the real reader: its lines are the file's.
  EXPECT_PRED_FORMAT2(testing::Contains, out.out, "\"game\": 7, \"line\": 43, \"column\": 1}");
}

// A truncated .zst: the same records, then the same early end (exit 3).
TEST_F(Cluster, ATruncatedFileEndsAsEmbeddedThroughTheCoordinator) {
  std::string remote, embedded;
  ASSERT_TRUE(StartSmallCluster(&remote, &embedded));
  const std::string plain = WriteFile("texts_truncated.pgn", kStrict);
  const std::string zst = plain + ".zst";
  ASSERT_EQ(testing::RunCommand("zstd -q -f " + plain + " -o " + zst).exit_code, 0);
  const std::string cut = zst + ".cut";
  ASSERT_EQ(testing::RunCommand("head -c 200 " + zst + " > " + cut).exit_code, 0);
  testing::CommandResult local = testing::RunCommand(embedded + "verify --format jsonl " + cut);
  testing::CommandResult far = testing::RunCommand(remote + "verify --format jsonl " + cut);
  EXPECT_EQ(local.exit_code, 3);
  EXPECT_EQ(far.exit_code, local.exit_code);
  EXPECT_EQ(WithoutTiming(far.out), WithoutTiming(local.out));
}

}  // namespace
}  // namespace arbiter
