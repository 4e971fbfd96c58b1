// End-to-end tests of the `arbiter` binary as users run it.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/test_support.h"

namespace arbiter {
namespace {

using testing::Contains;
using testing::Lines;

// Runs the arbiter binary with `args` (shell words) and captures stdout.
testing::CommandResult Arbiter(const std::string& args, const std::string& stdin_text = "") {
  std::string cmd = std::string(ARBITER_BINARY_DIR) + "/arbiter " + args + " 2>/dev/null";
  if (!stdin_text.empty()) {
    // One file per process: ctest runs the cases of this file side by side.
    std::string input = ::testing::TempDir() + "/cli_stdin." + std::to_string(::getpid()) + ".txt";
    std::ofstream(input) << stdin_text;
    cmd += " < " + input;
  }
  return testing::RunCommand(cmd);
}

// As Arbiter, with stderr after stdout in `out`.
testing::CommandResult ArbiterWithStderr(const std::string& args) {
  return testing::RunCommand(std::string(ARBITER_BINARY_DIR) + "/arbiter " + args + " 2>&1");
}

// A directory of its own under the test's temporary directory, empty.
std::filesystem::path FreshDir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Two games: the first declared 1-0 but mated by Black (a disagreement),
// the second with an illegal move (an error record).
constexpr char kDisagreeAndError[] =
    "[Event \"disagrees\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n"
    "[Event \"illegal\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n";
// JSON lines up to the summary's timing.
std::string WithoutTime(const std::string& jsonl) {
  return jsonl.substr(0, jsonl.find("\"seconds\""));
}

// One game, declared as it ended.
constexpr char kAgrees[] = "[Event \"agrees\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n";

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
  EXPECT_EQ(Arbiter("verify /no/such/file.pgn").exit_code, 3);  // unreadable input
  EXPECT_EQ(Arbiter("verify x.pgn --format xml").exit_code, 2);
  EXPECT_EQ(Arbiter("analyze --fen '8/8/8/8/8/8/8/K6k w - - 0 1' --moves a1a3").exit_code, 2);
  EXPECT_EQ(Arbiter("--help").exit_code, 0);
}

// Errors name the option and exit 2, however the option was written.
TEST(Cli, UsageErrorsNameTheOption) {
  const std::string example = std::string(ARBITER_SOURCE_DIR) + "/examples/lichess_sample.pgn";
  struct Case {
    std::string args, message;
  };
  for (const Case& c : std::vector<Case>{
           {"verify --frobnicate " + example, "arbiter verify: unknown option --frobnicate"},
           {"verify --frobnicate=1 " + example, "arbiter verify: unknown option --frobnicate"},
           {"verify " + example + " --jobs", "arbiter verify: --jobs needs a value"},
           {"verify " + example + " --jobs=x",
            "arbiter verify: --jobs must be an integer, got \"x\""},
           {"verify " + example + " --budget 0",
            "arbiter verify: --budget must be 1..2^40 positions"},
           {"analyze --budget=0 --fen x", "arbiter analyze: --budget must be 1..2^40 positions"},
           {"perft --depth 1 --json=yes", "arbiter perft: --json takes no value"},
           {"perft --depth 1 extra", "arbiter perft: unexpected argument \"extra\""},
           {"nosuchcommand", "arbiter: unknown command \"nosuchcommand\""},
       }) {
    SCOPED_TRACE(c.args);
    testing::CommandResult r = ArbiterWithStderr(c.args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_PRED_FORMAT2(Contains, r.out, c.message);
  }
  // A value option given twice keeps the last: --jobs x is not read.
  EXPECT_EQ(Arbiter("verify --jobs x --jobs=2 " + example).exit_code, 0);
}

// `--` ends the options: a file whose name starts with "--" is read after
// it, and taken for an option without it.
TEST(Cli, DoubleDashEndsTheOptions) {
  const std::filesystem::path dir = FreshDir("cli_double_dash");
  std::ofstream(dir / "--odd.pgn") << kAgrees;
  const std::string in_dir = "cd '" + dir.string() + "' && " + ARBITER_BINARY_DIR + "/arbiter ";
  testing::CommandResult r =
      testing::RunCommand(in_dir + "verify --format jsonl -- --odd.pgn 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_PRED_FORMAT2(Contains, r.out, "\"agrees\": true");
  r = testing::RunCommand(in_dir + "verify --format jsonl --odd.pgn 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_PRED_FORMAT2(Contains, r.out, "unknown option --odd.pgn");
  std::ofstream(dir / "--fens.txt") << "8/8/8/8/8/8/8/K6k w - - 0 1\n";
  r = testing::RunCommand(in_dir + "analyze -- --fens.txt");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_PRED_FORMAT2(Contains, r.out, "\"status\": \"dead\"");
  std::filesystem::remove_all(dir);
}

// --fail-on makes a completed run exit 1 when it found what was named, after
// writing every record and the summary; without it such runs exit 0.
TEST(Cli, VerifyFailOn) {
  const std::filesystem::path dir = FreshDir("cli_fail_on");
  const std::string mixed = (dir / "mixed.pgn").string(), clean = (dir / "clean.pgn").string();
  std::ofstream(mixed) << kDisagreeAndError;
  std::ofstream(clean) << kAgrees;
  const testing::CommandResult plain = Arbiter("verify --format jsonl " + mixed);
  EXPECT_EQ(plain.exit_code, 0);
  ASSERT_EQ(Lines(plain.out).size(), 3u) << plain.out;  // two records, the summary
  struct Case {
    std::string options, file;
    int exit_code;
  };
  for (const Case& c : std::vector<Case>{
           {"--fail-on disagree", mixed, 1},
           {"--fail-on error", mixed, 1},
           {"--fail-on disagree,error", mixed, 1},
           {"--fail-on=disagree --fail-on error", mixed, 1},
           {"--fail-on disagree", clean, 0},
           {"--fail-on error", clean, 0},
           {"--fail-on disagree,error", clean, 0},
       }) {
    SCOPED_TRACE(c.options + " " + c.file);
    testing::CommandResult r = Arbiter("verify --format jsonl " + c.options + " " + c.file);
    EXPECT_EQ(r.exit_code, c.exit_code);
    if (c.file == mixed) {
      EXPECT_EQ(WithoutTime(r.out), WithoutTime(plain.out));
    }
  }
  // Each kind alone: a file with only a disagreement, one with only an error.
  const std::string disagrees = (dir / "disagrees.pgn").string();
  const std::string error = (dir / "error.pgn").string();
  const std::string both(kDisagreeAndError);
  const size_t second = both.find("[Event \"illegal\"]");
  std::ofstream(disagrees) << both.substr(0, second);
  std::ofstream(error) << both.substr(second);
  EXPECT_EQ(Arbiter("verify " + disagrees + " --fail-on disagree").exit_code, 1);
  EXPECT_EQ(Arbiter("verify " + disagrees + " --fail-on error").exit_code, 0);
  EXPECT_EQ(Arbiter("verify " + error + " --fail-on error").exit_code, 1);
  EXPECT_EQ(Arbiter("verify " + error + " --fail-on disagree").exit_code, 0);
  // The records and summary are written before the exit, --output too.
  const std::string output = (dir / "out.jsonl").string();
  EXPECT_EQ(
      Arbiter("verify --format jsonl --fail-on error " + mixed + " --output " + output).exit_code,
      1);
  std::ifstream written(output);
  std::stringstream content;
  content << written.rdbuf();
  EXPECT_EQ(Lines(content.str()).size(), 3u);
  testing::CommandResult bad = ArbiterWithStderr("verify --fail-on typo " + clean);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_PRED_FORMAT2(Contains, bad.out, "--fail-on must be disagree or error, got \"typo\"");
  std::filesystem::remove_all(dir);
}

// An input that cannot be opened or read exits 3, like one that ends early;
// a bad option stays a usage error (2).
TEST(Cli, UnreadableInputExits3) {
  const std::filesystem::path dir = FreshDir("cli_unreadable");
  for (const std::string& args :
       {std::string("verify /no/such/file.pgn"), std::string("verify --part 0/2 /no/such/file.pgn"),
        "verify " + dir.string(), std::string("analyze /no/such/fens.txt"),
        "analyze " + dir.string()}) {
    SCOPED_TRACE(args);
    testing::CommandResult r = ArbiterWithStderr(args);
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_PRED_FORMAT2(Contains, r.out, "cannot ");
  }
  std::filesystem::remove_all(dir);
}

// Every command and subcommand answers --help (and -h) with its own options.
TEST(Cli, HelpForEveryCommand) {
  struct Case {
    std::string command, option;
  };
  for (const Case& c : std::vector<Case>{
           {"perft", "--depth"},
           {"analyze", "--moves"},
           {"verify", "--fail-on"},
           {"tables", "build"},
           {"tables build", "--signatures"},
           {"job", "submit"},
           {"job submit", "--server-path"},
           {"job watch", "--coordinator"},
           {"job results", "--from"},
           {"job list", "--limit"},
           {"job cancel", "--token-file"},
           {"job delete", "--tls-ca"},
       }) {
    for (const char* flag : {"--help", "-h"}) {
      SCOPED_TRACE(c.command + " " + flag);
      testing::CommandResult r = Arbiter(c.command + " " + flag);
      EXPECT_EQ(r.exit_code, 0);
      EXPECT_PRED_FORMAT2(Contains, r.out, "Usage: arbiter " + c.command + " ");
      EXPECT_PRED_FORMAT2(Contains, r.out, c.option);
    }
  }
  // The program's own help is the overview, with the exit codes.
  testing::CommandResult r = Arbiter("--help");
  EXPECT_PRED_FORMAT2(Contains, r.out, "Commands:");
  EXPECT_PRED_FORMAT2(Contains, r.out, "Exit codes:");
}

// --version names the program, the version and the commit, for all three.
TEST(Cli, VersionOfEveryProgram) {
  for (const char* program : {"arbiter", "arbiter-coordinator", "arbiter-worker"}) {
    SCOPED_TRACE(program);
    const std::string binary = std::string(ARBITER_BINARY_DIR) + "/" + program;
    if (!std::filesystem::exists(binary)) GTEST_SKIP() << binary << " was not built";
    testing::CommandResult r = testing::RunCommand(binary + " --version");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_TRUE(std::regex_match(
        r.out, std::regex(std::string(program) +
                          " [0-9]+\\.[0-9]+\\.[0-9]+ \\(commit ([0-9a-f]+|unknown)\\)\n")))
        << r.out;
  }
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

// A mating line of 117 plies (the bishop wall's): text shows its first 32
// plies and points to --json, which has all of them.
TEST(Cli, AnalyzeTextCutsALongLine) {
  const std::string fen = "2B3B1/pBpBpBpB/P1P1P1P1/4k3/2B5/8/4K3/8 w - - 0 1";
  testing::CommandResult text = Arbiter("analyze --fen '" + fen + "'");
  EXPECT_EQ(text.exit_code, 0) << text.out;
  EXPECT_TRUE(
      std::regex_search(text.out, std::regex("White can mate: yes, e\\.g\\. 1\\. [^\n]* "
                                             "\\(\\+[0-9]+ plies, [0-9]+ in all: see --json\\)\n")))
      << text.out;
  testing::CommandResult json = Arbiter("analyze --json --fen '" + fen + "'");
  EXPECT_PRED_FORMAT2(testing::Contains, json.out, "\"white_can_mate\": \"yes\"");
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

// --jobs answers a file several lines at a time, in input order, with the
// same records (bad and blank lines included), whether the file is named,
// redirected to stdin or piped; zstd input reads the same.
TEST(Cli, AnalyzeBatchWithJobsEqualsOneAtATime) {
  const char* kFens[] = {
      "8/8/8/8/8/8/8/K6k w - - 0 1",
      "6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1",
      "4k3/8/8/p1p1p3/P1P1Pp1p/1B3P1P/8/4K3 b - e3",
      "8/8/8/3k4/3p4/8/3P4/3K4 w",
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "not a fen",
  };
  std::string input;
  for (int i = 0; i < 60; ++i) {
    input += kFens[i % 6];
    input += i % 7 == 0 ? " white\r\n" : i % 11 == 0 ? "\n\n" : "\n";
  }
  const std::string path = ::testing::TempDir() + "/jobs_batch." + std::to_string(::getpid());
  std::ofstream(path) << input;
  testing::CommandResult one = Arbiter("analyze --jobs 1 " + path);
  testing::CommandResult three = Arbiter("analyze --jobs 3 " + path);
  testing::CommandResult every_core = Arbiter("analyze " + path);  // the default for a file
  // A file redirected to stdin is answered as a named one (every core);
  // a pipe line by line.
  testing::CommandResult redirected = Arbiter("analyze -", input);
  testing::CommandResult piped = testing::RunCommand(
      "cat " + path + " | " + std::string(ARBITER_BINARY_DIR) + "/arbiter analyze - 2>/dev/null");
  ASSERT_EQ(Lines(one.out).size(), 60u) << one.out;
  EXPECT_EQ(three.out, one.out);
  EXPECT_EQ(every_core.out, one.out);
  EXPECT_EQ(redirected.out, one.out);
  EXPECT_EQ(piped.out, one.out);
  EXPECT_EQ(one.exit_code, 1);  // "not a fen"
  EXPECT_EQ(three.exit_code, 1);
  ASSERT_EQ(std::system(("zstd -q -f -o " + path + ".zst " + path).c_str()), 0);
  testing::CommandResult compressed = Arbiter("analyze --jobs 2 " + path + ".zst");
  EXPECT_EQ(compressed.out, one.out);
  std::filesystem::remove(path);
  std::filesystem::remove(path + ".zst");
}

// A program that feeds one line and waits for the answer gets it while
// stdin stays open (CHA is driven this way): the answer is flushed before
// the command waits for more input.
TEST(Cli, AnalyzeBatchAnswersALiveFeedLineByLine) {
  int to_child[2], from_child[2];
  ASSERT_EQ(::pipe(to_child), 0);
  ASSERT_EQ(::pipe(from_child), 0);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::dup2(to_child[0], 0);
    ::dup2(from_child[1], 1);
    for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) ::close(fd);
    const std::string binary = std::string(ARBITER_BINARY_DIR) + "/arbiter";
    ::execl(binary.c_str(), binary.c_str(), "analyze", "-", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  std::string answers;
  for (const char* line : {"7k/8/8/8/8/8/8/KR6 w white\n", "8/8/8/8/8/8/8/K6k w\n"}) {
    ASSERT_EQ(::write(to_child[1], line, std::strlen(line)), ssize_t(std::strlen(line)));
    // Read until this line's answer is complete; stdin stays open.
    const size_t before = std::count(answers.begin(), answers.end(), '\n');
    while (size_t(std::count(answers.begin(), answers.end(), '\n')) == before) {
      pollfd p{.fd = from_child[0], .events = POLLIN, .revents = 0};
      ASSERT_EQ(::poll(&p, 1, 60000), 1) << "no answer within 60 s; so far: " << answers;
      char buf[4096];
      const ssize_t got = ::read(from_child[0], buf, sizeof buf);
      ASSERT_GT(got, 0) << answers;
      answers.append(buf, size_t(got));
    }
  }
  ::close(to_child[1]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(from_child[0]);
  const std::vector<std::string> lines = Lines(answers);
  ASSERT_EQ(lines.size(), 2u) << answers;
  EXPECT_PRED_FORMAT2(Contains, lines[0], "\"white_can_mate\": \"yes\"");
  EXPECT_PRED_FORMAT2(Contains, lines[1], "\"status\": \"dead\"");
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

TEST(Cli, VerifyBundledExampleInAllFormats) {
  std::string example = std::string(ARBITER_SOURCE_DIR) + "/examples/lichess_sample.pgn";
  ASSERT_TRUE(std::filesystem::exists(example));
  testing::CommandResult jsonl = Arbiter("verify --format jsonl " + example);
  ASSERT_EQ(jsonl.exit_code, 0);
  std::vector<std::string> lines = Lines(jsonl.out);
  ASSERT_GE(lines.size(), 2u);
  for (size_t i = 0; i + 1 < lines.size(); ++i)
    EXPECT_EQ(testing::GameOfRecord(lines[i]), int64_t(i + 1)) << lines[i];
  EXPECT_TRUE(testing::IsSummaryRecord(lines.back())) << lines.back();
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
