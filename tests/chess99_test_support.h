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

}  // namespace arbiter::chess99
