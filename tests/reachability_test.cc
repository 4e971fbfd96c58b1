// The two exhaustive explorations (depth-first ExploreReachable and
// breadth-first ShortestReachableMate) checked against each other and
// against an independent breadth-first search keyed by FEN text: the same
// mate-or-no-mate outcome, and a line of exactly the shortest length.
#include "core/mate/reachability.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

#include "tests/test_support.h"

namespace arbiter {
namespace {

using testing::ExpectMatingLine;
using testing::FromFen;
using testing::RandomWallFen;
using testing::ShortestHelpmateByFen;

TEST(ShortestReachableMate, AgreesWithDepthFirstAndFenSearchOnRandomWalls) {
  const int size = testing::SampleSize(150, 300, "random positions behind pawn walls compared");
  std::mt19937 rng(20261125);
  int compared = 0, mates = 0, no_mates = 0, with_reference = 0;
  for (int i = 0; i < 20000 && compared < size; ++i) {
    absl::StatusOr<Position> pos = Position::FromFen(RandomWallFen(rng));
    if (!pos.ok()) continue;
    const Color side = rng() % 2 ? kWhite : kBlack;
    const ReachabilityResult depth_first = ExploreReachable(*pos, side, 3000);
    if (depth_first.outcome == ReachabilityResult::kBudgetExhausted) continue;
    SCOPED_TRACE(pos->Fen() + (side == kWhite ? " white" : " black"));
    // The depth-first search stops at its first mate; the breadth-first
    // one must search every position nearer the start, so it gets more room.
    const ReachabilityResult breadth_first = ShortestReachableMate(*pos, side, 20000);
    if (breadth_first.outcome == ReachabilityResult::kBudgetExhausted) {
      // Only possible when the depth-first search stumbled on a deep mate:
      // a set it explored completely has at most 3,000 positions.
      ASSERT_EQ(depth_first.outcome, ReachabilityResult::kMateFound);
      continue;
    }
    ++compared;
    ASSERT_EQ(breadth_first.outcome, depth_first.outcome);
    if (breadth_first.outcome == ReachabilityResult::kNoMate) {
      ++no_mates;
      continue;
    }
    ++mates;
    ExpectMatingLine(*pos, side, breadth_first.line);
    EXPECT_LE(breadth_first.line.size(), depth_first.line.size());
    // The reference expands whole layers and does not stop where the
    // winner's material can never mate, so it may need far more room.
    const testing::Exhaustive reference = ShortestHelpmateByFen(*pos, side, 20000);
    if (!reference.complete) continue;
    ++with_reference;
    EXPECT_EQ(int(breadth_first.line.size()), reference.plies.value_or(-1));
  }
  std::printf(
      "%d positions compared: %d with a mate (%d of them with the FEN search), %d without\n",
      compared, mates, with_reference, no_mates);
  // Of the full 300: more than 30 of each kind.
  EXPECT_GE(compared, size);
  EXPECT_GT(mates, size / 10);
  EXPECT_GT(with_reference, size / 10);
  EXPECT_GT(no_mates, size / 10);
}

// The king march of tests/mate_ability_test.cc: the depth-first line
// wanders (641 plies), the breadth-first one is the shortest, 37 plies.
TEST(ShortestReachableMate, GivesTheShortestLineWhereDepthFirstWanders) {
  const Position pos = FromFen("8/1p4p1/1Pp3p1/k1P3p1/1pP3Pb/1P4p1/6P1/7K w - - 0 1");
  const ReachabilityResult depth_first = ExploreReachable(pos, kWhite, 100000);
  ASSERT_EQ(depth_first.outcome, ReachabilityResult::kMateFound);
  EXPECT_GT(depth_first.line.size(), 37u);
  const ReachabilityResult r = ShortestReachableMate(pos, kWhite, 100000);
  ASSERT_EQ(r.outcome, ReachabilityResult::kMateFound);
  EXPECT_EQ(r.line.size(), 37u);
  ExpectMatingLine(pos, kWhite, r.line);
}

TEST(ShortestReachableMate, ABudgetTooSmallIsNeverANo) {
  const Position pos = FromFen("8/1p4p1/1Pp3p1/k1P3p1/1pP3Pb/1P4p1/6P1/7K w - - 0 1");
  const ReachabilityResult r = ShortestReachableMate(pos, kWhite, 500);
  EXPECT_EQ(r.outcome, ReachabilityResult::kBudgetExhausted);
  EXPECT_LE(r.positions, 500u);
}

// Resuming: an exploration stopped by its budget and given a larger one
// ends exactly as one run with the larger budget (the can-mate cascade
// explores a little before its longer dive and goes on after it).
TEST(ReachableExplorer, ResumedExplorationEqualsOneRun) {
  // A wandering mate (the king march above), a fortress that closes, and a
  // mate in one found at once.
  for (const char* fen :
       {"8/1p4p1/1Pp3p1/k1P3p1/1pP3Pb/1P4p1/6P1/7K w - - 0 1",
        "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1", "6k1/5ppp/8/8/8/8/8/K3R3 w - - 0 1"}) {
    SCOPED_TRACE(fen);
    const Position pos = FromFen(fen);
    const ReachabilityResult whole = ExploreReachable(pos, kWhite, 100000);
    ReachableExplorer explorer(pos, kWhite);
    ReachabilityResult parts;
    for (uint64_t budget : {1, 7, 500, 501, 3000, 100000}) {
      parts = explorer.Explore(budget);
      if (parts.outcome != ReachabilityResult::kBudgetExhausted) break;
      EXPECT_EQ(parts.positions, budget);
    }
    EXPECT_EQ(parts.outcome, whole.outcome);
    EXPECT_EQ(parts.positions, whole.positions);
    EXPECT_EQ(parts.line, whole.line);
    EXPECT_EQ(parts.only_forced_moves, whole.only_forced_moves);
    // Once settled, the answer stays.
    EXPECT_EQ(explorer.Explore(10).outcome, whole.outcome);
  }
}

}  // namespace
}  // namespace arbiter
