#include "core/render/verdict_output.h"

#include <cstdio>
#include <string>

#include "gtest/gtest.h"

namespace arbiter {
namespace {

// What a printer writes for `v`, as text.
std::string TextOf(const GameVerdict& v) {
  FILE* out = std::tmpfile();
  VerdictPrinter printer(VerdictFormat::kText, /*tablebase=*/false, out);
  printer.Print(v);
  std::fflush(out);
  std::rewind(out);
  std::string text;
  for (int c; (c = std::fgetc(out)) != EOF;) text.push_back(char(c));
  std::fclose(out);
  return text;
}

TEST(VerdictOutput, OnePlyIsOnePly) {
  GameVerdict v;
  v.game = 1;
  v.declared = "1-0";
  v.ruling.emplace();
  v.ruling->ruling = GameResult::kWhiteWins;
  v.ruling->rule = Rule::kCheckmate;
  v.ruling->ended_at_ply = 20;
  v.ruling->moves_after_end = 1;
  EXPECT_NE(TextOf(v).find(", 1 ply played after"), std::string::npos) << TextOf(v);
  v.ruling->moves_after_end = 2;
  EXPECT_NE(TextOf(v).find(", 2 plies played after"), std::string::npos) << TextOf(v);
}

TEST(VerdictOutput, TheSummaryGivesTheTimeAsAReading) {
  VerdictSummary summary;
  summary.games = 5;
  EXPECT_NE(summary.Text(0.00796845).find("Time: 0.01 s ("), std::string::npos)
      << summary.Text(0.00796845);
  EXPECT_NE(summary.Text(65.349).find("Time: 65.35 s ("), std::string::npos);
  EXPECT_NE(summary.Text(1234.6).find("Time: 1235 s ("), std::string::npos);
}

}  // namespace
}  // namespace arbiter
