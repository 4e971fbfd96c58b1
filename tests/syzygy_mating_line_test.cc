// Mating lines from the Syzygy tables: on random won positions of several
// tables, the line must replay legally to a checkmate by the winner; and the
// can-mate analysis must use it when its own searches are given no budget.
#include "core/tablebase/syzygy_mating_line.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/chess/movegen.h"
#include "core/chess/random_placement.h"
#include "core/mate/mate_ability.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

std::shared_ptr<const SyzygyTablebase> Tables() {
  const std::string shared = testing::SharedDir();
  if (shared.empty()) return nullptr;
  absl::StatusOr<std::shared_ptr<const SyzygyTablebase>> tables =
      SyzygyTablebase::Open({shared + "/syzygy"});
  return tables.ok() ? *tables : nullptr;
}

TEST(SyzygyMatingLine, WonPositionsReplayToMate) {
  std::shared_ptr<const SyzygyTablebase> tables = Tables();
  if (!tables) GTEST_SKIP() << "no Syzygy tables (../shared/syzygy or $ARBITER_SHARED/syzygy)";
  std::mt19937_64 rng(31);
  int lines = 0, longest = 0;
  for (const char* men : {"KQvK", "KRvK", "KBNvK", "KPvK", "KRvKP", "KQvKR", "KBBvK"}) {
    for (int i = 0; i < 40; ++i) {
      std::optional<Position> pos = RandomPlacement(men, rng() % 2 ? kWhite : kBlack, rng);
      ASSERT_TRUE(pos) << men;
      absl::StatusOr<WdlResult> wdl = tables->ProbeWdl(*pos);
      ASSERT_TRUE(wdl.ok()) << wdl.status();
      if (wdl->wdl != SyzygyWdl::kWin && wdl->wdl != SyzygyWdl::kLoss) continue;
      const Color winner = wdl->wdl == SyzygyWdl::kWin ? pos->side_to_move() : ~pos->side_to_move();
      absl::StatusOr<std::vector<Move>> line = SyzygyMatingLine(*tables, *pos, winner);
      ASSERT_TRUE(line.ok()) << pos->Fen() << ": " << line.status();
      Position p = *pos;
      for (Move m : *line) {
        ASSERT_TRUE(IsLegalMove(p, m)) << pos->Fen();
        p.DoMove(m);
      }
      EXPECT_TRUE(p.in_check() && MoveList(p).empty()) << pos->Fen() << " ends " << p.Fen();
      EXPECT_NE(p.side_to_move(), winner);
      ++lines;
      longest = std::max(longest, int(line->size()));
    }
  }
  std::printf("%d tablebase mating lines replayed, longest %d plies\n", lines, longest);
  EXPECT_GT(lines, 100);
}

TEST(SyzygyMatingLine, DrawIsNotAWin) {
  std::shared_ptr<const SyzygyTablebase> tables = Tables();
  if (!tables) GTEST_SKIP() << "no Syzygy tables (../shared/syzygy or $ARBITER_SHARED/syzygy)";
  absl::StatusOr<Position> pos = Position::FromFen("8/8/8/4k3/8/8/8/1N2KN2 w - - 0 1");
  ASSERT_TRUE(pos.ok());
  EXPECT_FALSE(SyzygyMatingLine(*tables, *pos, kWhite).ok());  // K+N+N v K: a draw
}

TEST(SyzygyMatingLine, CanMateAnalysisUsesTheTables) {
  std::shared_ptr<const SyzygyTablebase> tables = Tables();
  if (!tables) GTEST_SKIP() << "no Syzygy tables (../shared/syzygy or $ARBITER_SHARED/syzygy)";
  // K+B+N v K far from mate: no search budget, so only the tables can say
  // "yes", with their line.
  absl::StatusOr<Position> pos = Position::FromFen("8/8/3k4/8/8/8/8/1N2KB2 w - - 0 1");
  ASSERT_TRUE(pos.ok());
  MateAbility m = AnalyzeMateAbility(
      *pos, kWhite, {.node_budget = 1, .retrograde = nullptr, .syzygy = tables.get()});
  ASSERT_EQ(ToString(m.answer), std::string("yes"));
  Position p = *pos;
  for (Move mv : m.line) p.DoMove(mv);
  EXPECT_TRUE(p.in_check() && MoveList(p).empty());
}

}  // namespace
}  // namespace arbiter
