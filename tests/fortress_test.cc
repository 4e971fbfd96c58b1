// The static fortress proof checked against search: on thousands of random
// blocked-pawn positions, whenever the fortress analysis says "cannot mate",
// neither the guided mate search nor an exhaustive exploration of every
// reachable position may find a mate.
#include "core/mate/fortress.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/chess/random_placement.h"
#include "core/mate/guided_mate_search.h"
#include "core/mate/reachability.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

using testing::AdversarialWallFen;
using testing::FromFen;
using testing::kAllWallFamilies;
using testing::RandomWallFen;
using testing::WallFamily;

struct Verdicts {
  int positions = 0, fortresses = 0, exhaustive_confirmed = 0;
};

// Draws `count` legal positions from `draw` and holds every fortress verdict
// on them to searches that do not use the proof: the guided mate search and
// an exploration of every reachable position (up to 20,000), neither of
// which may find a mate.
template <typename Draw>
Verdicts HoldFortressToSearch(int count, Draw draw) {
  Verdicts n;
  while (n.positions < count) {
    absl::StatusOr<Position> pos = Position::FromFen(draw());
    if (!pos.ok()) continue;
    ++n.positions;
    for (Color side : {kWhite, kBlack}) {
      if (!FortressDeniesMate(*pos, side)) continue;
      ++n.fortresses;
      SCOPED_TRACE(pos->Fen() + (side == kWhite ? " white" : " black"));
      Position work = *pos;
      std::vector<Move> line;
      GuidedMateSearch guided(side, 3000, 1 << 20);
      EXPECT_FALSE(guided.Find(work, 60, &line)) << "guided search found a mate";
      ReachabilityResult r = ExploreReachable(*pos, side, 20000, StaticCuts::kMaterialOnly);
      EXPECT_NE(r.outcome, ReachabilityResult::kMateFound) << "exploration found a mate";
      if (r.outcome == ReachabilityResult::kNoMate) ++n.exhaustive_confirmed;
    }
  }
  return n;
}

TEST(Fortress, NeverDeniesAMateThatSearchFinds) {
  std::mt19937 rng(20261122);
  const Verdicts n = HoldFortressToSearch(30130, [&] { return RandomWallFen(rng); });
  std::printf(
      "%d random wall positions, %d fortress verdicts, %d also proven by exhaustive "
      "exploration\n",
      n.positions, n.fortresses, n.exhaustive_confirmed);
  EXPECT_GT(n.fortresses, 200);
  EXPECT_GT(n.exhaustive_confirmed, 50);
}

// The same on the adversarial families (AdversarialWallFen: e.p. squares,
// castling rights standard and Chess960, free and promoting pawns, the
// 75-move limit, a king shut in with nothing else to move).
TEST(Fortress, NeverDeniesAMateOnAdversarialFamilies) {
  std::mt19937 rng(20261127);
  for (WallFamily family : kAllWallFamilies) {
    const Verdicts n = HoldFortressToSearch(3000, [&] { return AdversarialWallFen(family, rng); });
    std::printf("%s: %d positions, %d fortress verdicts, %d also proven exhaustively\n",
                ToString(family), n.positions, n.fortresses, n.exhaustive_confirmed);
  }
}

TEST(Fortress, LabelledWalls) {
  // Kings on either side of a wall of four locked pairs.
  EXPECT_TRUE(FortressDeniesMate(FromFen("8/8/1k6/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1"), kWhite));
  EXPECT_TRUE(FortressDeniesMate(FromFen("8/8/1k6/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1"), kBlack));
  // A light bishop behind its own light-square pawns can never check.
  EXPECT_TRUE(FortressDeniesMate(FromFen("8/8/1k6/p1p1p1p1/P1P1P1P1/3B4/3K4/8 w - - 0 1"), kWhite));
  // A dark bishop attacks the black pawns: the wall can break.
  EXPECT_FALSE(
      FortressDeniesMate(FromFen("8/8/1k6/p1p1p1p1/P1P1P1P1/8/3K4/2B5 w - - 0 1"), kWhite));
  // A pawn that can still move: no static proof.
  EXPECT_FALSE(FortressDeniesMate(FromFen("8/8/1k6/p1p1p1p1/P1P1P1Pp/8/3K3P/8 w - - 0 1"), kWhite));
  // A king that can walk round the open end of the wall.
  EXPECT_FALSE(FortressDeniesMate(FromFen("8/8/1k6/2p1p1p1/2P1P1P1/8/3K4/8 w - - 0 1"), kWhite));
  // No pawns: nothing static to build on.
  EXPECT_FALSE(FortressDeniesMate(FromFen("8/8/1k6/8/8/8/3K4/8 w - - 0 1"), kWhite));
}

// A king shut in on h3-h4 with nothing else of its side able to move (lines
// of CHA's test vector): the black king may take g2 only when the white
// king stands on h4, which stalemates White, and a mate on h4 would need h3
// covered by the black king, which could not stand next to h3 while the
// white king did. Neither side can mate.
TEST(Fortress, AKingThatOnlyStepsIsStalematedOrNeverMated) {
  for (const char* fen : {"8/b1b5/k6p/2b2p1P/1b3p2/5PpK/6P1/8 w - - 0 1",
                          "8/8/3b3p/5p1P/3b1p1K/5Pp1/6P1/5kb1 b - - 0 1",
                          "8/6b1/7p/5p1P/5p1K/5Pp1/6P1/6k1 b - - 0 1"}) {
    SCOPED_TRACE(fen);
    EXPECT_TRUE(FortressDeniesMate(FromFen(fen), kWhite));
    EXPECT_TRUE(FortressDeniesMate(FromFen(fen), kBlack));
  }
  // With the black king already on h2, Black mates at once (Bf6#): the
  // argument about the square White's king came from holds only after a
  // move of White's.
  EXPECT_FALSE(FortressDeniesMate(FromFen("8/6b1/7p/5p1P/5p1K/5Pp1/6Pk/8 b - - 0 1"), kBlack));
  EXPECT_TRUE(FortressDeniesMate(FromFen("8/6b1/7p/5p1P/5p1K/5Pp1/6Pk/8 b - - 0 1"), kWhite));
}

// Walls that are fortresses without an e.p. square and open with one: the
// capture en passant lands on an empty square no flood covers (a line of
// CHA's test vector, and one written to break the same precondition).
TEST(Fortress, AnEnPassantSquareOpensTheWall) {
  for (const char* placement :
       {"4k3/8/8/p1p1p3/P1P1Pp1p/1B3P1P/8/4K3 b", "8/2b1k3/7p/p1p1p1pP/PpP1P1P1/1P1BK3/8/8 b"}) {
    SCOPED_TRACE(placement);
    const Position closed = FromFen(std::string(placement) + " - - 0 1");
    const std::string ep = std::string(placement).find("Pp1p") != std::string::npos ? "e3" : "a3";
    const Position open = FromFen(std::string(placement) + " - " + ep + " 0 1");
    ASSERT_NE(open.ep_square(), kNoSquare);
    for (Color side : {kWhite, kBlack}) {
      EXPECT_TRUE(FortressDeniesMate(closed, side));
      EXPECT_FALSE(FortressDeniesMate(open, side));
      // The exploration that does not use the proof agrees on both.
      EXPECT_EQ(ExploreReachable(closed, side, 200000, StaticCuts::kMaterialOnly).outcome,
                ReachabilityResult::kNoMate);
      EXPECT_EQ(ExploreReachable(open, side, 200000, StaticCuts::kMaterialOnly).outcome,
                ReachabilityResult::kMateFound);
    }
  }
}

}  // namespace
}  // namespace arbiter
