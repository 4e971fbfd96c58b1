// Research certificates of the long tier (docs/testing.md): composed
// locked positions whose only mate is far away
// (docs/research/only-mates.md). For each, the independent FEN-keyed search
// of tests/test_support.h proves the length of the shortest mate over every
// reachable position, and the can-mate analysis must answer "yes" with a
// line that mates. Each takes from seconds to minutes: scripts/long-checks.sh
// runs them (`ctest -L long`).
#include <gtest/gtest.h>

#include <string>

#include "core/mate/mate_ability.h"
#include "core/mate/reachability.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

using testing::ExpectMatingLine;
using testing::FromFen;
using testing::ShortestHelpmateByFen;
using testing::WithTables;

// A composed position: the independent FEN-keyed search proves that
// White's shortest mate is `plies` away, and the analysis must answer "yes"
// with a line that mates: of exactly that length where it finds the
// shortest (`analysis_finds_shortest`), else at least as long.
void ExpectOnlyMateFound(const Position& pos, int plies, size_t max_states = 100000,
                         MateSearchOptions options = WithTables(),
                         bool analysis_finds_shortest = true) {
  testing::Exhaustive proof = ShortestHelpmateByFen(pos, kWhite, max_states);
  ASSERT_TRUE(proof.complete) << proof.states << " positions";
  ASSERT_EQ(proof.plies.value_or(-1), plies);
  MateAbility m = AnalyzeMateAbility(pos, kWhite, options);
  ASSERT_EQ(ToString(m.answer), std::string("yes"));
  if (analysis_finds_shortest) {
    EXPECT_EQ(m.line.size(), size_t(plies));
  } else {
    EXPECT_GE(m.line.size(), size_t(plies));
  }
  ExpectMatingLine(pos, kWhite, m.line);
}

// A composed locked position whose only mate is 45 plies (23 White moves)
// away, found by tools/helpmate_composer from the king march of
// MateAbility.KingMarchThatFirstFreesASpareMove (mate_ability_test.cc). The
// white king is caged on a3 and must first let its bishop out of the way
// (Ka2, Ka1, Ba2, Kb1), walk round to take g6 so that Black gets its spare
// move ...g7-g6, and come back to take b7 and c6 before b7, b8=Q and Qb6
// mate. Its legality: every pawn file change is paid for by a capture
// (White's 7 pawns stand on files that need 5 captures, and 6 black men are
// gone; Black's 8 pawns need 6, and 7 white men are gone), the pawns on b7,
// g7, c2 and g2 are unmoved, and each piece can have walked to its square
// before the pawns closed the way (the light bishop by a2, the dark one by
// e7). The exploration's depth-first line crosses the 75-move limit, so the
// analysis must find the line breadth-first.
TEST(MateAbility, ComposedOnlyMateTwentyThreeMovesAway) {
  const Position pos = FromFen("8/1p4p1/1Pp3p1/k1P3p1/1pP3Pb/KPp3p1/2P3P1/1B6 w - - 0 1");
  const ReachabilityResult depth_first = ExploreReachable(pos, kWhite, 200000);
  ASSERT_EQ(depth_first.outcome, ReachabilityResult::kMateFound);
  EXPECT_FALSE(LineIsPlayable(pos, kWhite, depth_first.line)) << depth_first.line.size();
  ExpectOnlyMateFound(pos, 45);
}

// An only-mate 49 plies (25 White moves) away, found by
// tools/helpmate_composer with the queenside of the position above kept
// (--frozen-files abc). Black has nothing useful to do but shuffle Ka5-a6,
// so the length is the number of White moves the mate needs, in turn: the
// king leaves its cage past its bishop (Ka2, Ka1, Ba2, Kb1) and walks the
// first rank (c3 and the black f-pawns close d2 to g4), while the h-pawns
// step up out of its way to h5 and h6; it climbs the h-file, goes round by
// f6 and g7 to take h7, and the h-pawn promotes: Qa8 mates. Its legality:
// White's 8 pawns stand on files that need 5 captures and 7 black men are
// gone; Black's 8 need 4 and 6 white men are gone; c2, f2, h2, b7 and h7
// are unmoved; the light bishop reached b1 by c4 and a2 before the pawns
// stood there; White is in check from ...b5-b4, Black's last move.
// The guided dive, with 20 nodes per unit of budget, reaches a mate there
// before the breadth-first search does: a longer line, which is evidence
// all the same.
TEST(MateAbility, ComposedOnlyMateTwentyFiveMovesAway) {
  ExpectOnlyMateFound(FromFen("8/1p5p/1Pp5/k1P2p2/1pP2p2/KPp2p1P/2P2P1P/1B6 w - - 0 1"), 49, 100000,
                      {}, /*analysis_finds_shortest=*/false);
}

// The farthest only-mate so far: 61 plies (31 White moves). The 49 above
// turned upside down with the colours swapped gives 58 plies with White
// mating and Black walking; a deeper pocket for the black king (a5 to a8,
// behind a column of black b-pawns) and a cage for the white king taken from
// the same turn of another composer find give this one. White only waits
// (its king is shut in on a1, a2 and b1 behind its own bishop), so the
// length is the number of Black moves the mate needs, in turn: the black
// king climbs out of its pocket (Ka6, Ka7, Ka8) past its bishop (Ba7), walks
// the eighth rank (c6 and f6 guard the seventh) while the h-pawns step down
// out of its way to h4 and h3, comes down the h-file and round by g4, f3 and
// g2 to take h2, and steps aside. Only then can Black promote (h2, h1=Q);
// the queen gives itself up where the f-pawn takes it and promotes (on e7
// or g7), the king walks into the corner and the last h-pawn blocks h2, and
// the new queen mates. Its legality: c7, f7, h7, b2, d2 and h2 are unmoved;
// Black's other pawns need 5 captures (a-b, d-c-b, e-d, g-h) and 6 white men
// are gone; White's need 3 (a-b, e-f, g-f) and 6 black men are gone; the
// dark bishops are the original ones (White's never moved; Black's went f8,
// e7, d6, c5, b6, a7 to b8 before the b-pawns arrived).
TEST(MateAbility, ComposedOnlyMateThirtyOneMovesAway) {
  MateSearchOptions options = WithTables();
  options.node_budget = 40000000;
  ExpectOnlyMateFound(FromFen("1b6/2p2p1p/1pP2P1p/kp3P2/1p3P2/1P1p4/1P1P3P/1KB5 w - - 0 1"), 61,
                      8000000, options, /*analysis_finds_shortest=*/false);
}

}  // namespace
}  // namespace arbiter
