// Helpers shared by the Chess 99 tests (tests/chess99_*_test.cc).
#pragma once

#include <gtest/gtest.h>

#include <string_view>

#include "core/chess99/position.h"

namespace arbiter::chess99 {

// The position of a FEN-9 the test relies on; a failure if it does not read.
inline Position Pos(std::string_view fen, const Options& options = {}) {
  auto pos = Position::FromFen(fen, options);
  EXPECT_TRUE(pos.ok()) << fen << ": " << pos.status();
  return pos.ok() ? *pos : Position::Start();
}

// Positions with e.p. squares (pawn and promoted piece), castling of both
// kinds and deferred promotion: every move of them is worth checking.
inline constexpr const char* kSpecialPositions[] = {
    "rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w - - 0 1",
    "4k4/5b3/9/9/1P7/9/9/9/4K4 b - b4 0 20",
    "1Bk6/9/9/9/9/9/9/9/4K4 b - b8 0 40",
    "4k4/9/9/3pP4/9/2n6/9/9/4K4 b - e5 0 30",
    "4r2k1/9/9/9/9/9/9/9/R3KA3 w - - 0 25",
    "3k5/9/9/9/9/9/9/9/4K1B1R w - - 0 25",
    "3P5/9/9/4p4/9/9/9/9/4K3k w - e7 0 30",
    "k8/9/9/9/9/9/9/9/1p6K b - - 0 60",
};

}  // namespace arbiter::chess99
