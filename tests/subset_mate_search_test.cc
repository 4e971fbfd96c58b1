// Still-men helpmates (core/mate/subset_mate_search.h): real final
// positions of time-forfeit games where a lone minor piece mates with one
// of the loser's men as a blocker while the others stand still. Every line
// is replayed to checkmate here, independently of the search's own check.
#include "core/mate/subset_mate_search.h"

#include <gtest/gtest.h>

#include <array>

#include "core/chess/bitboard.h"
#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

using testing::ExpectMatingLine;
using testing::FromFen;

// The tables these positions need (KBvKN, KBvKP, KBvKR, KNvKP and their
// sub-tables): the tests' shared ones (tests/test_support.h).
RetrogradeSolver& Solver() { return testing::TestTables(); }

struct Case {
  const char* fen;
  Color winner;
  const char* why;
};

TEST(StillMen, FindsMatesOfLoneMinorPieces) {
  const Case kCases[] = {
      {"4B3/8/8/8/p7/1kn5/8/2K5 b - - 5 58", kWhite,
       "K+B v K+N+P: the knight blocks, the pawn stands still"},
      {"6k1/6p1/8/3K4/3B4/8/8/3r4 b - - 0 44", kWhite,
       "K+B v K+R+P: one of the two blocks, the other stands still"},
      {"8/8/2K1N3/6p1/8/6k1/5p2/8 b - - 1 63", kWhite, "K+N v K+P+P"},
  };
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::string(c.fen) + ": " + c.why);
    const Position pos = FromFen(c.fen);
    std::vector<Move> line;
    ASSERT_TRUE(FindMateWithStillMen(pos, c.winner, Solver(), 8, 2000, &line));
    ExpectMatingLine(pos, c.winner, line);
    // Only the men of one small set moved (besides the kings): at most two.
    // Men are followed by their starting square (no castling or e.p. here).
    std::array<int, 64> origin;
    origin.fill(-1);
    for (Bitboard b = pos.pieces(); b;) {
      const Square s = PopLsb(b);
      origin[s] = s;
    }
    Bitboard moved = 0;
    Position walk = pos;
    for (Move m : line) {
      if (TypeOf(walk.piece_on(m.from())) != kKing) moved |= SquareBB(Square(origin[m.from()]));
      origin[m.to()] = origin[m.from()];
      origin[m.from()] = -1;
      walk.DoMove(m);
    }
    EXPECT_LE(PopCount(moved), 2) << "more men moved than a still-men line allows";
  }
}

TEST(StillMen, LeavesSmallEndgamesToTheTablesAndFailsWithoutAMate) {
  std::vector<Move> line;
  // Four men: the tables answer whole positions; nothing to abstract.
  EXPECT_FALSE(FindMateWithStillMen(FromFen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"), kWhite, Solver(), 8,
                                    2000, &line));
  // Three bishops on light squares against a bare king never mate, and no
  // set of them does.
  EXPECT_FALSE(FindMateWithStillMen(FromFen("8/8/8/4k3/8/8/8/KB1B1B2 w - - 0 1"), kWhite, Solver(),
                                    8, 2000, &line));
}

}  // namespace
}  // namespace arbiter
