// End-to-end tests of the `arbiter` binary as users run it.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/test_support.h"

namespace arbiter {
namespace {

using testing::Lines;

// Runs the arbiter binary with `args` (shell words) and captures stdout.
testing::CommandResult Arbiter(const std::string& args, const std::string& stdin_text = "") {
  std::string cmd = std::string(ARBITER_BINARY_DIR) + "/arbiter " + args + " 2>/dev/null";
  if (!stdin_text.empty()) {
    std::string input = ::testing::TempDir() + "/cli_stdin.txt";
    std::ofstream(input) << stdin_text;
    cmd += " < " + input;
  }
  return testing::RunCommand(cmd);
}

TEST(Cli, PerftJsonAndDivide) {
  testing::CommandResult r = Arbiter("perft --depth 3 --json");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("{\"nodes\": 8902, \"seconds\": ", 0), 0u) << r.out;
  r = Arbiter("perft --fen '8/8/8/8/8/8/8/K6k w - - 0 1' --depth 2 --divide");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("a1a2: 3\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Nodes: 9\n"), std::string::npos) << r.out;
}

TEST(Cli, BadInputGivesClearErrorsAndExitCodes) {
  EXPECT_EQ(Arbiter("perft --fen 'bad' --depth 1").exit_code, 2);
  EXPECT_EQ(Arbiter("perft --depth x").exit_code, 2);
  EXPECT_EQ(Arbiter("nosuchcommand").exit_code, 2);
  EXPECT_EQ(Arbiter("verify /no/such/file.pgn").exit_code, 2);
  EXPECT_EQ(Arbiter("verify x.pgn --format xml").exit_code, 2);
  EXPECT_EQ(Arbiter("analyze --fen '8/8/8/8/8/8/8/K6k w - - 0 1' --moves a1a3").exit_code, 2);
  EXPECT_EQ(Arbiter("--help").exit_code, 0);
}

TEST(Cli, AnalyzeBatchKeepsOrderAndReportsBadLines) {
  testing::CommandResult r = Arbiter("analyze -",
                                     "8/8/8/8/8/8/8/K6k w - - 0 1\n"
                                     "not a fen\n"
                                     "\n"
                                     "6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1\n");
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_NE(lines[0].find("\"status\": \"dead\""), std::string::npos);
  EXPECT_NE(lines[1].find("\"line\": 2"), std::string::npos);
  EXPECT_NE(lines[1].find("\"error\""), std::string::npos);
  EXPECT_NE(lines[2].find("\"status\": \"ongoing\""), std::string::npos);
  EXPECT_EQ(r.exit_code, 1);  // some lines were bad
}

// CHA's input: "FEN white|black" asks about that side only (the other is
// null, not "unknown"), and FENs of 2 or 4 fields are read with no castling
// rights, no e.p. square and fresh clocks. --timing adds each record's time.
TEST(Cli, AnalyzeBatchTakesChaLines) {
  testing::CommandResult r = Arbiter("analyze --timing -",
                                     "7k/8/8/8/8/8/8/KR6 w white\n"
                                     "7k/8/8/8/8/8/8/KR6 w - - black\n"
                                     "7k/8/8/8/8/8/8/KR6 w\n"
                                     "7k/8/8/8/8/8/8/KR6 w - - 0 1 purple\n");
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 4u) << r.out;
  EXPECT_PRED_FORMAT2(testing::Contains, lines[0], "\"fen\": \"7k/8/8/8/8/8/8/KR6 w - - 0 1\"");
  EXPECT_PRED_FORMAT2(testing::Contains, lines[0],
                      "\"white_can_mate\": \"yes\", \"black_can_mate\": null");
  EXPECT_PRED_FORMAT2(testing::Contains, lines[0], "\"black\": null");
  EXPECT_PRED_FORMAT2(testing::Contains, lines[0], "\"microseconds\": ");
  EXPECT_PRED_FORMAT2(testing::Contains, lines[1],
                      "\"white_can_mate\": null, \"black_can_mate\": \"no\"");
  EXPECT_PRED_FORMAT2(testing::Contains, lines[2],
                      "\"white_can_mate\": \"yes\", \"black_can_mate\": \"no\"");
  EXPECT_PRED_FORMAT2(testing::Contains, lines[3], "\"error\"");  // not a side: a bad FEN
  EXPECT_EQ(r.exit_code, 1);
}

TEST(Cli, VerifyBundledExampleInAllFormats) {
  std::string example = std::string(ARBITER_SOURCE_DIR) + "/examples/lichess_sample.pgn";
  ASSERT_TRUE(std::filesystem::exists(example));
  testing::CommandResult jsonl = Arbiter("verify --format jsonl " + example);
  ASSERT_EQ(jsonl.exit_code, 0);
  std::vector<std::string> lines = Lines(jsonl.out);
  ASSERT_GE(lines.size(), 2u);
  for (size_t i = 0; i + 1 < lines.size(); ++i)
    EXPECT_EQ(lines[i].rfind("{\"game\": " + std::to_string(i + 1) + ",", 0), 0u) << lines[i];
  EXPECT_EQ(lines.back().rfind("{\"summary\": ", 0), 0u);
  testing::CommandResult csv = Arbiter("verify --format csv " + example);
  EXPECT_EQ(Lines(csv.out).size(), lines.size());  // header + one row per game
  testing::CommandResult text = Arbiter("verify " + example);
  EXPECT_NE(text.out.find("By rule:"), std::string::npos);
  // Reading stdin gives the same records.
  std::ifstream in(example);
  std::stringstream content;
  content << in.rdbuf();
  testing::CommandResult piped = Arbiter("verify --format jsonl -", content.str());
  auto strip_time = [](std::string s) { return s.substr(0, s.find("\"seconds\"")); };
  EXPECT_EQ(strip_time(piped.out), strip_time(jsonl.out));
}

TEST(Cli, VerifyIsDeterministicAcrossJobCounts) {
  std::string dir = arbiter::testing::SharedDir();
  if (dir.empty()) GTEST_SKIP() << "shared game records not found (set ARBITER_SHARED)";
  std::string file = dir + "/games/otb_kasparov_2128.pgn.zst";
  testing::CommandResult one = Arbiter("verify --format jsonl --jobs 1 " + file);
  testing::CommandResult many = Arbiter("verify --format jsonl --jobs 3 " + file);
  auto strip_time = [](std::string s) { return s.substr(0, s.find("\"seconds\"")); };
  ASSERT_EQ(one.exit_code, 0);
  EXPECT_EQ(Lines(one.out).size(), 2128u + 1);
  EXPECT_EQ(strip_time(one.out), strip_time(many.out));
}

// Every real game file: no crash, every error located with a line number.
TEST(Cli, VerifyAllSharedGameFiles) {
  std::string dir = arbiter::testing::SharedDir();
  if (dir.empty()) GTEST_SKIP() << "shared game records not found (set ARBITER_SHARED)";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/games")) {
    if (entry.path().extension() != ".zst") continue;
    ++files;
    testing::CommandResult r = Arbiter("verify --format jsonl " + entry.path().string());
    ASSERT_EQ(r.exit_code, 0) << entry.path();
    std::vector<std::string> lines = Lines(r.out);
    ASSERT_FALSE(lines.empty());
    for (size_t i = 0; i + 1 < lines.size(); ++i) {
      const std::string& l = lines[i];
      if (l.find("\"error\": null") != std::string::npos) continue;
      EXPECT_EQ(l.find("\"line\": 0}"), std::string::npos) << "error without a line: " << l;
    }
    std::cout << entry.path().filename().string() << ": " << lines.back() << "\n";
  }
  EXPECT_EQ(files, 3);
}

}  // namespace
}  // namespace arbiter
