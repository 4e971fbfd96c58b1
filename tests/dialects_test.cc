// Game records as each source writes them (tests/fixtures/dialects/): every
// record's `arbiter verify` verdict must hold the fragments listed for it in
// expected.txt — the ruling, how the ending was read, whose flag fell and
// why, the named grounds and whether they hold, moves after the end, the
// encoding.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_split.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

const std::string kFixtures = std::string(ARBITER_SOURCE_DIR) + "/tests/fixtures/dialects";

struct Expectation {
  int game = 0;
  std::vector<std::string> fragments;
};

// File name -> the expectations for its games, from expected.txt.
std::map<std::string, std::vector<Expectation>> ReadExpectations() {
  std::map<std::string, std::vector<Expectation>> out;
  std::ifstream in(kFixtures + "/expected.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string file;
    Expectation e;
    words >> file >> e.game;
    std::string rest;
    std::getline(words, rest);
    for (absl::string_view f : absl::StrSplit(absl::string_view(rest), " | ")) {
      absl::string_view trimmed = absl::StripAsciiWhitespace(f);
      e.fragments.emplace_back(trimmed.data(), trimmed.size());
    }
    out[file].push_back(std::move(e));
  }
  return out;
}

TEST(Dialects, EveryFixtureRecordIsRuledAsExpected) {
  const auto expectations = ReadExpectations();
  ASSERT_FALSE(expectations.empty()) << "no expectations in " << kFixtures << "/expected.txt";
  // Every fixture file has its expectations, and every listed file exists.
  for (const auto& entry : std::filesystem::directory_iterator(kFixtures)) {
    if (entry.path().extension() != ".pgn") continue;
    EXPECT_TRUE(expectations.count(entry.path().filename().string())) << entry.path();
  }
  int checked = 0;
  for (const auto& [file, games] : expectations) {
    const testing::CommandResult r =
        testing::RunCommand(std::string(ARBITER_BINARY_DIR) + "/arbiter verify --format jsonl " +
                            kFixtures + "/" + file + " 2>/dev/null");
    ASSERT_EQ(r.exit_code, 0) << file;
    std::map<int, std::string> records;
    for (const std::string& line : testing::Lines(r.out)) {
      if (const int64_t game = testing::GameOfRecord(line); game > 0) records[int(game)] = line;
    }
    EXPECT_EQ(records.size(), games.size()) << file << ": every game needs its expectation";
    for (const Expectation& e : games) {
      ASSERT_TRUE(records.count(e.game)) << file << " game " << e.game;
      const std::string& record = records[e.game];
      for (const std::string& fragment : e.fragments)
        EXPECT_NE(record.find(fragment), std::string::npos)
            << file << " game " << e.game << ": no " << fragment << " in\n"
            << record;
      ++checked;
    }
  }
  EXPECT_GE(checked, 20);
}

}  // namespace
}  // namespace arbiter
