// End-to-end tests of `arbiter tables build` and of --tables /
// ARBITER_TABLES on analyze and verify: the real binary, a scratch table
// directory per test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/test_support.h"

namespace arbiter {
namespace {

namespace fs = std::filesystem;
using ::arbiter::testing::Contains;
using ::arbiter::testing::Lines;

// Runs the arbiter binary with `args` (shell words). ARBITER_TABLES is
// cleared unless `env` sets it, and the per-user cache is a scratch
// directory of this process unless `env` sets XDG_CACHE_HOME, so that the
// caller's environment and earlier runs cannot change what is tested.
struct Output {
  int exit_code;
  std::string out, err;
};
Output Arbiter(const std::string& args, const std::string& env = "") {
  const std::string err_file =
      (fs::temp_directory_path() / ("arbiter_tables_cli_" + std::to_string(::getpid()) + ".err"))
          .string();
  const std::string cache =
      (fs::temp_directory_path() / ("arbiter_tables_cli_cache_" + std::to_string(::getpid())))
          .string();
  const std::string cmd = "env -u ARBITER_TABLES -u ARBITER_SYZYGY XDG_CACHE_HOME=" + cache + " " +
                          env + " " + std::string(ARBITER_BINARY_DIR) + "/arbiter " + args + " 2>" +
                          err_file;
  testing::CommandResult r = testing::RunCommand(cmd);
  std::ifstream in(err_file);
  std::string err(std::istreambuf_iterator<char>(in), {});
  fs::remove(err_file);
  return {r.exit_code, r.out, err};
}

class TablesCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = (fs::temp_directory_path() /
            ("arbiter_tables_cli_" + std::to_string(::getpid()) + "_" + info->name()))
               .string();
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> Files() const {
    std::vector<std::string> names;
    if (!fs::exists(dir_)) return names;
    for (const auto& entry : fs::directory_iterator(dir_))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  std::string dir_;
};

// K+P v K with a search budget of 1: White's "yes" and its mating line (a
// promotion into K+Q v K) come from the retrograde tables.
constexpr char kFen[] = "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1";
const std::string kAnalyze = std::string("analyze --json --budget 1 --fen '") + kFen + "'";
const std::vector<std::string> kKPvKFiles = {"KBvK.arbt", "KNvK.arbt", "KPvK.arbt",
                                             "KQvK.arbt", "KRvK.arbt", "KvK.arbt"};

TEST_F(TablesCli, BuildWritesTheTableAndItsSubtables) {
  Output r = Arbiter("tables build " + dir_ + " --signatures KPvK");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_EQ(lines[0].rfind("table", 0), 0u) << r.out;
  EXPECT_EQ(lines[1].rfind("KPvK ", 0), 0u) << r.out;
  EXPECT_PRED_FORMAT2(Contains, lines[1], " 165676 ");  // positions
  EXPECT_PRED_FORMAT2(Contains, lines[1], "generated (+5 sub-tables)");
  EXPECT_PRED_FORMAT2(Contains, lines[2], "6 tables (0 loaded, 6 generated)");
  EXPECT_EQ(Files(), kKPvKFiles);  // and no temporary file left

  // Run again: everything is read back (and checked) instead.
  r = Arbiter("tables build " + dir_ + " --signatures KPvK");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_PRED_FORMAT2(Contains, r.out, "loaded (+5 sub-tables)");
  EXPECT_PRED_FORMAT2(Contains, r.out, "6 tables (6 loaded, 0 generated)");
}

TEST_F(TablesCli, AnalyzeAndVerifyAnswerTheSameWithTables) {
  ASSERT_EQ(Arbiter("tables build " + dir_ + " --signatures KPvK").exit_code, 0);
  const Output plain = Arbiter(kAnalyze);
  ASSERT_EQ(plain.exit_code, 0);
  EXPECT_PRED_FORMAT2(Contains, plain.out, "\"e7e8q\"");  // the line promotes
  Output with = Arbiter(kAnalyze + " --tables " + dir_);
  EXPECT_EQ(with.exit_code, 0);
  EXPECT_EQ(with.out, plain.out);
  EXPECT_EQ(with.err, "");  // no warning
  with = Arbiter(kAnalyze, "ARBITER_TABLES=" + dir_);
  EXPECT_EQ(with.out, plain.out);
  EXPECT_EQ(with.err, "");

  // verify, into a directory of its own, which it fills: the records (not
  // the summary, which has timings) agree.
  const std::string pgn = dir_ + "/game.pgn";
  std::ofstream(pgn) << "[Event \"t\"]\n[SetUp \"1\"]\n[FEN \"" << kFen
                     << "\"]\n[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n\n1. Kd2 1-0\n";
  const std::string verify = "verify --format jsonl --jobs 1 --budget 1 " + pgn;
  const Output verified = Arbiter(verify);
  const Output verified_with = Arbiter(verify + " --tables " + dir_ + "/verify");
  ASSERT_EQ(verified.exit_code, 0);
  ASSERT_EQ(verified_with.exit_code, 0);
  // It fills the new directory, and says so once.
  EXPECT_PRED_FORMAT2(Contains, verified_with.err,
                      "arbiter verify: generated 6 retrograde tables in ");
  EXPECT_EQ(Lines(verified_with.err).size(), 1u) << verified_with.err;
  ASSERT_FALSE(Lines(verified.out).empty());
  EXPECT_PRED_FORMAT2(Contains, verified.out, "\"e7e8q\"");  // the winner's line, retrograde
  EXPECT_EQ(Lines(verified_with.out)[0], Lines(verified.out)[0]);
  EXPECT_TRUE(fs::exists(dir_ + "/verify/KPvK.arbt"));
}

TEST_F(TablesCli, AnalyzeSavesTheTablesItGenerates) {
  // The directory need not exist: the first save creates it. The run says
  // once what the tables cost and where they went.
  Output r = Arbiter(kAnalyze + " --tables " + dir_);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, Arbiter(kAnalyze + " --tables ''").out);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_PRED_FORMAT2(Contains, r.err, "arbiter analyze: generated 6 retrograde tables in ");
  EXPECT_PRED_FORMAT2(Contains, r.err, " s, stored in " + dir_ + " for later runs");
  EXPECT_EQ(Files(), kKPvKFiles);
  // The next run loads them and has nothing to say.
  r = Arbiter(kAnalyze + " --tables " + dir_);
  EXPECT_EQ(r.err, "");
}

// Without --tables or ARBITER_TABLES, the tables go to the per-user cache:
// $XDG_CACHE_HOME/arbiter/tables, else ~/.cache/arbiter/tables; with
// neither variable, or with --tables '', they stay in memory.
TEST_F(TablesCli, DefaultCacheIsPerUser) {
  const std::string xdg = dir_ + "/xdg";
  Output first = Arbiter(kAnalyze, "XDG_CACHE_HOME=" + xdg);
  EXPECT_EQ(first.exit_code, 0);
  EXPECT_PRED_FORMAT2(Contains, first.err, "stored in " + xdg + "/arbiter/tables for later runs");
  EXPECT_TRUE(fs::exists(xdg + "/arbiter/tables/KPvK.arbt"));
  Output second = Arbiter(kAnalyze, "XDG_CACHE_HOME=" + xdg);
  EXPECT_EQ(second.out, first.out);
  EXPECT_EQ(second.err, "");  // a warm cache: nothing generated

  const std::string home = dir_ + "/home";
  Output r = Arbiter(kAnalyze, "XDG_CACHE_HOME= HOME=" + home);
  EXPECT_EQ(r.out, first.out);
  EXPECT_TRUE(fs::exists(home + "/.cache/arbiter/tables/KPvK.arbt"));

  r = Arbiter(kAnalyze + " --tables ''", "XDG_CACHE_HOME=" + dir_ + "/unused");
  EXPECT_EQ(r.out, first.out);
  EXPECT_PRED_FORMAT2(Contains, r.err, "kept in memory for this run only");
  EXPECT_FALSE(fs::exists(dir_ + "/unused"));

  // A cache that cannot be created (below a file) costs one warning.
  fs::create_directories(dir_);
  std::ofstream(dir_ + "/plain_file") << "x";
  r = Arbiter(kAnalyze, "XDG_CACHE_HOME=" + dir_ + "/plain_file");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, first.out);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_PRED_FORMAT2(Contains, r.err, "arbiter analyze: warning: cannot save retrograde table");
}

TEST_F(TablesCli, UnusableDirectories) {
  fs::create_directories(dir_);
  const std::string file = dir_ + "/plain_file";
  std::ofstream(file) << "x";
  // A path that is not a directory is refused up front.
  Output r = Arbiter(kAnalyze + " --tables " + file);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_PRED_FORMAT2(Contains, r.err, "--tables: " + file + " is not a directory");
  r = Arbiter(kAnalyze, "ARBITER_TABLES=" + file);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_PRED_FORMAT2(Contains, r.err, "ARBITER_TABLES: " + file + " is not a directory");

  // One that cannot be created (below a file): the analysis still runs,
  // from memory, and stderr says the tables were not saved, once.
  r = Arbiter(kAnalyze + " --tables " + file + "/tables");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, Arbiter(kAnalyze).out);
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_PRED_FORMAT2(Contains, r.err, "arbiter analyze: warning: cannot save retrograde table");
}

TEST_F(TablesCli, CorruptTableIsReportedNotReplaced) {
  ASSERT_EQ(Arbiter("tables build " + dir_ + " --signatures KPvK").exit_code, 0);
  const std::string path = dir_ + "/KPvK.arbt";
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[bytes.size() / 2] ^= 1;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;

  Output r = Arbiter(kAnalyze + " --tables " + dir_);
  EXPECT_EQ(r.exit_code, 0);  // analysed without the table
  EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_PRED_FORMAT2(Contains, r.err, "arbiter analyze: warning: retrograde table " + path);
  EXPECT_PRED_FORMAT2(Contains, r.err, "checksum mismatch");
  EXPECT_PRED_FORMAT2(Contains, r.err, "delete it to regenerate");
  // tables build refuses it too, and leaves it for the user to delete.
  r = Arbiter("tables build " + dir_ + " --signatures KPvK");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_PRED_FORMAT2(Contains, r.err, "checksum mismatch");
  std::ifstream in(path, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), bytes);
}

// Tables built side by side (--jobs) are the tables built one at a time:
// the same files byte for byte, and the same lines on stdout (their
// seconds aside), in the order of --signatures; K+N v K, made as a
// sub-table of K+P v K, is "done above" either way.
TEST_F(TablesCli, ParallelBuildIsTheSerialBuild) {
  std::vector<std::vector<std::string>> outputs;
  for (const char* jobs : {"1", "4"}) {
    SCOPED_TRACE(jobs);
    const std::string dir = dir_ + "/jobs" + jobs;
    Output r = Arbiter("tables build " + dir + " --signatures KPvK,KRvKN,KNvK --jobs " + jobs);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.err, "");  // progress is for terminals
    std::vector<std::string> lines = Lines(r.out);
    ASSERT_EQ(lines.size(), 5u) << r.out;
    EXPECT_EQ(lines[1].rfind("KPvK ", 0), 0u) << r.out;
    EXPECT_PRED_FORMAT2(Contains, lines[1], "generated (+5 sub-tables)");
    EXPECT_EQ(lines[2].rfind("KRvKN ", 0), 0u) << r.out;
    EXPECT_EQ(lines[2].substr(lines[2].size() - 11), "  generated")
        << r.out;  // its sub-tables are above
    EXPECT_EQ(lines[3].rfind("KNvK ", 0), 0u) << r.out;
    EXPECT_PRED_FORMAT2(Contains, lines[3], "done above, as a sub-table");
    EXPECT_PRED_FORMAT2(Contains, lines[4], "7 tables (0 loaded, 7 generated)");
    // Without the seconds column (columns 35-43) and the summary (its time).
    lines.pop_back();
    for (std::string& line : lines) line = line.substr(0, 34) + line.substr(44);
    outputs.push_back(lines);
  }
  EXPECT_EQ(outputs[0], outputs[1]);
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir_ + "/jobs1")) {
    const std::string name = entry.path().filename().string();
    SCOPED_TRACE(name);
    ++files;
    std::ifstream a(entry.path(), std::ios::binary), b(dir_ + "/jobs4/" + name, std::ios::binary);
    ASSERT_TRUE(b.good());
    EXPECT_TRUE(
        std::equal(std::istreambuf_iterator<char>(a), {}, std::istreambuf_iterator<char>(b), {}));
  }
  EXPECT_EQ(files, 7u);
  EXPECT_EQ(Arbiter("tables build " + dir_ + " --jobs 0").exit_code, 2);
}

// A table that cannot be used fails the build as it always has (exit 1,
// saying which file and why), with the tables above it unbuilt, however
// many are built at once.
TEST_F(TablesCli, ParallelBuildStopsOnAFailingTable) {
  fs::create_directories(dir_ + "/KNvK.arbt");  // a directory in place of a table's file
  Output r = Arbiter("tables build " + dir_ + " --signatures KPvK --jobs 2");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_PRED_FORMAT2(Contains, r.err, dir_ + "/KNvK.arbt: not a regular file");
  EXPECT_FALSE(fs::exists(dir_ + "/KPvK.arbt"));
}

// On a terminal, stderr shows which table is being generated and how many
// are left, on one line rewritten in place and erased at the end.
TEST_F(TablesCli, ProgressOnATerminal) {
  if (testing::RunCommand("command -v script").exit_code != 0)
    GTEST_SKIP() << "no script(1) to give the command a terminal";
  // script(1) runs the command on a pseudo-terminal and copies what it
  // writes there (stdout and stderr alike) to its own stdout.
  const std::string cmd = "env -u ARBITER_TABLES script -qec '" + std::string(ARBITER_BINARY_DIR) +
                          "/arbiter tables build " + dir_ + " --signatures KPvK' /dev/null";
  testing::CommandResult r = testing::RunCommand(cmd);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_PRED_FORMAT2(Contains, r.out, "\r\033[Kretrograde tables: generating ");
  EXPECT_PRED_FORMAT2(Contains, r.out, " for KPvK: ");
  EXPECT_PRED_FORMAT2(Contains, r.out, " of 6 done, ");
  EXPECT_PRED_FORMAT2(Contains, r.out, "6 tables (0 loaded, 6 generated)");
}

TEST_F(TablesCli, BadUsage) {
  EXPECT_EQ(Arbiter("tables").exit_code, 2);
  EXPECT_EQ(Arbiter("tables list " + dir_).exit_code, 2);
  EXPECT_EQ(Arbiter("tables build").exit_code, 2);
  Output r = Arbiter("tables build " + dir_ + " --signatures KQvK,KXvK");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_PRED_FORMAT2(Contains, r.err, "unknown piece letter 'X'");
  EXPECT_EQ(Arbiter("tables build " + dir_ + " --signatures KQRvKR").exit_code, 2);  // 5 men
  EXPECT_FALSE(fs::exists(dir_));  // names are checked before any work
}

}  // namespace
}  // namespace arbiter
