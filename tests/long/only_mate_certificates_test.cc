// Research certificates of the long tier (docs/testing.md): the composed
// locked position whose only mate is farthest away
// (docs/research/only-mates.md). The independent FEN-keyed search of
// tests/test_support.h proves the length of the shortest mate over every
// reachable position (up to 8 million), and the can-mate analysis must
// answer "yes" with a line that mates. It takes about a minute:
// scripts/long-checks.sh runs it (`ctest -L long`). The nearer ones, 23 and
// 25 moves away, take well under a second with the tables stored and are in
// the default tier (mate_ability_test.cc).
#include <gtest/gtest.h>

#include <string>

#include "core/mate/mate_ability.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

using testing::ExpectOnlyMateFound;
using testing::FromFen;
using testing::WithTables;

// The farthest only-mate so far: 61 plies (31 White moves). The 49 of
// MateAbility.ComposedOnlyMateTwentyFiveMovesAway (mate_ability_test.cc)
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
