// End-to-end tests of `arbiter verify --shard I/N` and `--output FILE`: the
// shards of a file together hold every game's record exactly once, each equal
// to the unsharded run's; --output writes what stdout would show, atomically.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

using ::arbiter::testing::Contains;
using ::arbiter::testing::GameOfRecord;
using ::arbiter::testing::IsSummaryRecord;
using ::arbiter::testing::Lines;

// Runs the arbiter binary with `args` (shell words); stderr is kept only
// when asked. ARBITER_SYZYGY is cleared so that the environment cannot
// change the records.
testing::CommandResult Arbiter(const std::string& args, bool with_stderr = false) {
  return testing::RunCommand("env -u ARBITER_SYZYGY " + std::string(ARBITER_BINARY_DIR) +
                             "/arbiter " + args + (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

std::string Sample() { return std::string(ARBITER_SOURCE_DIR) + "/examples/lichess_sample.pgn"; }

// A real game file from the shared material (2,128 over-the-board games,
// CRLF line ends, zstd), or "" when absent.
std::string SharedGames() {
  const std::string shared = testing::SharedDir();
  if (shared.empty()) return "";
  const std::string file = shared + "/games/otb_kasparov_2128.pgn.zst";
  return std::filesystem::exists(file) ? file : "";
}

// One jsonl run: records by game number (in output order) and the summary.
struct Run {
  std::vector<int64_t> order;
  std::map<int64_t, std::string> records;
  std::string summary;
};

Run ParseJsonl(const std::string& out) {
  Run run;
  for (const std::string& line : Lines(out)) {
    if (IsSummaryRecord(line)) {
      EXPECT_TRUE(run.summary.empty()) << "two summaries";
      run.summary = line;
      continue;
    }
    const int64_t game = GameOfRecord(line);
    EXPECT_GT(game, 0) << line.substr(0, 200);
    EXPECT_EQ(run.records.count(game), 0u) << "game " << game << " twice";
    run.order.push_back(game);
    run.records[game] = line;
  }
  EXPECT_FALSE(run.summary.empty()) << "no summary";
  return run;
}

// `"games": N` of a summary line.
int64_t SummaryGames(const std::string& summary) {
  const size_t at = summary.find("\"games\": ");
  return at == std::string::npos ? -1 : std::stoll(summary.substr(at + 9));
}

// Runs verify on `file` unsharded and in N shards for each N, and checks that
// the shards partition the games by (g - 1) % N, keep the global game numbers
// and input order, count only their own games, and give the same records.
void CheckShards(const std::string& file, const std::vector<int>& counts) {
  testing::CommandResult whole = Arbiter("verify --format jsonl --jobs 2 '" + file + "'");
  ASSERT_EQ(whole.exit_code, 0);
  const Run all = ParseJsonl(whole.out);
  ASSERT_FALSE(all.records.empty());
  ASSERT_EQ(SummaryGames(all.summary), int64_t(all.records.size()));
  for (int n : counts) {
    std::map<int64_t, int> seen;
    for (int i = 0; i < n; ++i) {
      SCOPED_TRACE(::testing::Message() << "--shard " << i << "/" << n);
      testing::CommandResult r =
          Arbiter("verify --format jsonl --jobs 2 --shard " + std::to_string(i) + "/" +
                  std::to_string(n) + " '" + file + "'");
      ASSERT_EQ(r.exit_code, 0);
      const Run shard = ParseJsonl(r.out);
      EXPECT_EQ(SummaryGames(shard.summary), int64_t(shard.records.size()));
      for (size_t k = 1; k < shard.order.size(); ++k)
        EXPECT_LT(shard.order[k - 1], shard.order[k]) << "records out of input order";
      for (const auto& [game, record] : shard.records) {
        ++seen[game];
        EXPECT_EQ((game - 1) % n, i) << "game " << game << " in the wrong shard";
        auto it = all.records.find(game);
        ASSERT_NE(it, all.records.end()) << "game " << game << " not in the unsharded run";
        EXPECT_EQ(record, it->second) << "game " << game << " differs from the unsharded run";
      }
    }
    EXPECT_EQ(seen.size(), all.records.size()) << n << " shards miss games";
    for (const auto& [game, times] : seen) EXPECT_EQ(times, 1) << "game " << game << ", N=" << n;
  }
}

TEST(VerifyShard, SampleShardsPartitionTheGames) {
  // 7 shards of 5 games: shards 5 and 6 are empty (and say 0 games).
  CheckShards(Sample(), {1, 2, 3, 5, 7});
}

TEST(VerifyShard, SharedGamesShardsPartitionTheGames) {
  const std::string file = SharedGames();
  if (file.empty()) {
    std::printf(
        "[   NOTE   ] ../shared/games/otb_kasparov_2128.pgn.zst (or under $ARBITER_SHARED) is "
        "absent: sharding was checked on examples/lichess_sample.pgn only\n");
    GTEST_SKIP() << "shared game file otb_kasparov_2128.pgn.zst not found (../shared/games or "
                    "$ARBITER_SHARED/games)";
  }
  std::printf("[   NOTE   ] sharding %s\n", file.c_str());
  CheckShards(file, {4});
}

TEST(VerifyShard, BadShardValuesFailWithTheRule) {
  for (const char* bad : {"3/3", "-1/2", "0/0", "1", "a/b", "1/2/3", "/2", "0/", "2/1", "0/-1"}) {
    SCOPED_TRACE(bad);
    testing::CommandResult r =
        Arbiter("verify --shard '" + std::string(bad) + "' '" + Sample() + "'", true);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_PRED_FORMAT2(Contains, r.out, "--shard must be I/N with 0 <= I < N");
    EXPECT_EQ(r.out.find("{\"game\""), std::string::npos) << "records despite the error";
  }
  EXPECT_EQ(Arbiter("verify --shard 0/1 '" + Sample() + "'").exit_code, 0);
  EXPECT_EQ(Arbiter("verify --shard=4/5 '" + Sample() + "'").exit_code, 0);
}

// Output with the timing-dependent parts removed: the summary's "seconds"
// (jsonl) and the "Time:" line (text).
std::string WithoutTiming(const std::string& s) {
  std::string out;
  for (std::string line : Lines(s)) {
    if (line.rfind("Time: ", 0) == 0) continue;
    if (size_t at = line.find(", \"seconds\": "); at != std::string::npos)
      line.erase(at, line.find('}', at) - at);
    out += line + "\n";
  }
  return out;
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The names in `dir`, to find temporary files left behind.
std::vector<std::string> Names(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(VerifyOutput, WritesWhatStdoutShowsAtomically) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "verify_output";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const std::string format : {"jsonl", "text", "csv"}) {
    SCOPED_TRACE(format);
    for (const std::string shard : {"", " --shard 1/2"}) {
      SCOPED_TRACE(shard);
      const std::string args = "verify --format " + format + shard + " '" + Sample() + "'";
      testing::CommandResult stdout_run = Arbiter(args);
      ASSERT_EQ(stdout_run.exit_code, 0);
      ASSERT_FALSE(stdout_run.out.empty());
      const std::filesystem::path file = dir / ("out." + format);
      // Twice: the second run replaces the first's file (a retried job).
      for (int run = 0; run < 2; ++run) {
        testing::CommandResult r = Arbiter(args + " --output '" + file.string() + "'");
        ASSERT_EQ(r.exit_code, 0);
        EXPECT_EQ(r.out, "") << "--output leaves stdout empty";
        EXPECT_EQ(WithoutTiming(ReadFile(file)), WithoutTiming(stdout_run.out));
        EXPECT_EQ(Names(dir), std::vector<std::string>{"out." + format}) << "temporary file left";
      }
      std::filesystem::remove(file);
    }
  }
  // A failed run creates nothing: a missing input, a bad option.
  const std::filesystem::path file = dir / "failed.jsonl";
  EXPECT_EQ(Arbiter("verify /no/such/file.pgn --output '" + file.string() + "'").exit_code, 3);
  EXPECT_EQ(
      Arbiter("verify --shard 2/2 '" + Sample() + "' --output '" + file.string() + "'").exit_code,
      2);
  EXPECT_TRUE(Names(dir).empty());
  // An output directory that does not exist is an error naming the path.
  testing::CommandResult r = Arbiter(
      "verify '" + Sample() + "' --output '" + (dir / "no/such/out.jsonl").string() + "'", true);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_PRED_FORMAT2(Contains, r.out, "--output " + (dir / "no/such/out.jsonl").string());
  EXPECT_TRUE(Names(dir).empty());
  // A symbolic link is followed: the file it names is replaced, not the link.
  std::filesystem::create_directories(dir / "real");
  std::filesystem::create_symlink("real/out.jsonl", dir / "link.jsonl");
  ASSERT_EQ(Arbiter("verify --format jsonl '" + Sample() + "' --output '" +
                    (dir / "link.jsonl").string() + "'")
                .exit_code,
            0);
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "link.jsonl"));
  EXPECT_EQ(Lines(ReadFile(dir / "real/out.jsonl")).size(), 6u);
  EXPECT_EQ(Names(dir / "real"), std::vector<std::string>{"out.jsonl"});
  std::filesystem::remove_all(dir);
}

// The records of a run without their game numbers, in output order.
std::vector<std::string> WithoutNumbers(const std::string& jsonl) {
  std::vector<std::string> out;
  for (const std::string& line : Lines(jsonl))
    if (GameOfRecord(line) > 0) out.push_back(line.substr(line.find(", \"site\"")));
  return out;
}

// --part I/N: each part reads only its share of the file; the parts' records
// in order are the unsharded run's (numbered within each part), for a plain
// file and for a .pgn.zst of several frames. One frame cannot be cut.
TEST(VerifyPart, PartsTogetherGiveEveryRecordOnce) {
  const std::string shared = SharedGames();
  if (shared.empty()) GTEST_SKIP() << "shared game file otb_kasparov_2128.pgn.zst not found";
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "verify_part";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string plain = (dir / "games.pgn").string(), frames = (dir / "games.pgn.zst").string();
  ASSERT_EQ(testing::RunCommand("zstd -q -dc '" + shared + "' > '" + plain + "'").exit_code, 0);
  // Three frames: the file compressed three times over, end to end.
  ASSERT_EQ(testing::RunCommand("for i in 1 2 3; do zstd -q -c '" + plain + "'; done > '" + frames +
                                "' && for i in 1 2 3; do cat '" + plain + "'; done > '" +
                                (dir / "three.pgn").string() + "'")
                .exit_code,
            0);
  for (const auto& [file, whole_file] :
       {std::pair{plain, plain}, std::pair{frames, (dir / "three.pgn").string()}}) {
    SCOPED_TRACE(file);
    const std::vector<std::string> whole =
        WithoutNumbers(Arbiter("verify --format jsonl '" + whole_file + "'").out);
    ASSERT_FALSE(whole.empty());
    for (int count : {2, 5}) {
      std::vector<std::string> joined;
      for (int i = 0; i < count; ++i) {
        testing::CommandResult r =
            Arbiter(absl::StrCat("verify --format jsonl --part ", i, "/", count, " '", file, "'"));
        ASSERT_EQ(r.exit_code, 0);
        const std::vector<std::string> part = WithoutNumbers(r.out);
        joined.insert(joined.end(), part.begin(), part.end());
      }
      EXPECT_TRUE(joined == whole)
          << count << " parts: " << joined.size() << " records of " << whole.size();
    }
  }
  testing::CommandResult one = Arbiter("verify --part 1/2 '" + shared + "'", true);
  EXPECT_EQ(one.exit_code, 2);
  EXPECT_PRED_FORMAT2(Contains, one.out, "single zstd frame");
  testing::CommandResult both = Arbiter("verify --part 0/2 --shard 0/2 '" + plain + "'", true);
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_PRED_FORMAT2(Contains, both.out, "not both");
  std::filesystem::remove_all(dir);
}

// A truncated .zst is an incomplete run, not a complete one with an odd
// last record: exit 3, the games read before the cut are printed, and
// --output is not written, so that an Indexed Job's shard fails.
TEST(VerifyOutput, ATruncatedInputFailsTheRun) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "verify_cut";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string whole = (dir / "whole.pgn.zst").string(), cut = (dir / "cut.pgn.zst").string();
  // Enough games for several zstd blocks (128 KiB of text each), so that
  // the cut falls after some whole games.
  {
    std::ofstream pgn(dir / "games.pgn");
    for (int i = 0; i < 5000; ++i)
      pgn << "[Event \"e" << i << "\"]\n[Site \"https://example.org/" << i * 7919
          << "\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# {game " << i
          << "} 1-0\n\n";
  }
  ASSERT_EQ(
      testing::RunCommand("zstd -q -f '" + (dir / "games.pgn").string() + "' -o '" + whole + "'")
          .exit_code,
      0);
  const auto size = std::filesystem::file_size(whole);
  std::filesystem::copy_file(whole, cut);
  std::filesystem::resize_file(cut, size / 2);
  ASSERT_EQ(Arbiter("verify --format jsonl '" + whole + "'").exit_code, 0);
  testing::CommandResult r = Arbiter("verify --format jsonl '" + cut + "'", true);
  EXPECT_EQ(r.exit_code, 3) << r.out;
  EXPECT_PRED_FORMAT2(Contains, r.out, "the input ended early");
  EXPECT_PRED_FORMAT2(Contains, r.out, "\"rule\": \"checkmate\"");
  const std::filesystem::path file = dir / "out.jsonl";
  EXPECT_EQ(Arbiter("verify '" + cut + "' --output '" + file.string() + "'").exit_code, 3);
  EXPECT_FALSE(std::filesystem::exists(file)) << "a truncated run wrote its output";
  std::filesystem::remove_all(dir);
}

TEST(VerifyOutput, DevicesAndPipesAreWrittenNotReplaced) {
  // /dev/stdout is the pipe popen reads: renaming over it would be wrong.
  testing::CommandResult r =
      Arbiter("verify --format jsonl '" + Sample() + "' --output /dev/stdout");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(Lines(r.out).size(), 6u) << r.out;
  r = Arbiter("verify '" + Sample() + "' --output /dev/null");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
  struct stat st;
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/null was replaced";
  // A write error is reported, with a failing exit code.
  if (::stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode)) {
    r = Arbiter("verify '" + Sample() + "' --output /dev/full", true);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_PRED_FORMAT2(Contains, r.out, "--output /dev/full: ");
    ASSERT_EQ(::stat("/dev/full", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/full was replaced";
  }
}

}  // namespace
}  // namespace arbiter
