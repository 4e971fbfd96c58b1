// The slider attack tables: start-up fills them from stored magic
// multipliers (bitboard.cc); these check that every stored multiplier fits
// and that the tables agree with a plain ray walk written here.
#include "core/chess/bitboard.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

namespace arbiter {
namespace {

Bitboard WalkRays(Square s, Bitboard occupied, bool diagonal) {
  Bitboard attacks = 0;
  for (int df = -1; df <= 1; ++df) {
    for (int dr = -1; dr <= 1; ++dr) {
      if ((df == 0 && dr == 0) || (diagonal != (df != 0 && dr != 0))) continue;
      for (int f = FileOf(s) + df, r = RankOf(s) + dr; f >= 0 && f < 8 && r >= 0 && r < 8;
           f += df, r += dr) {
        attacks |= SquareBB(MakeSquare(f, r));
        if (occupied & SquareBB(MakeSquare(f, r))) break;
      }
    }
  }
  return attacks;
}

TEST(Bitboard, EveryStoredMagicFitsWithoutASearch) {
  InitBitboards();
  EXPECT_EQ(bb_internal::magic_searches, 0);
}

TEST(Bitboard, SliderAttacksEqualARayWalk) {
  InitBitboards();
  std::mt19937_64 rng(20261128);
  for (int trial = 0; trial < 20000; ++trial) {
    // Sparse and dense boards: a random mask thinned by one or two ANDs.
    Bitboard occupied = rng();
    if (trial % 3) occupied &= rng();
    if (trial % 3 == 2) occupied &= rng();
    const Square s = Square(trial % 64);
    ASSERT_EQ(RookAttacks(s, occupied), WalkRays(s, occupied, false)) << trial;
    ASSERT_EQ(BishopAttacks(s, occupied), WalkRays(s, occupied, true)) << trial;
  }
}

}  // namespace
}  // namespace arbiter
