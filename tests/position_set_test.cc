#include "core/mate/position_set.h"

#include <set>
#include <string>
#include <vector>

#include "core/chess/movegen.h"
#include "gtest/gtest.h"

namespace arbiter {
namespace {

Position Parse(const std::string& fen) {
  absl::StatusOr<Position> pos = Position::FromFen(fen);
  EXPECT_TRUE(pos.ok()) << fen << ": " << pos.status();
  return *pos;
}

// Every position within `depth` plies of `pos`, as FENs (duplicates kept).
void Collect(Position& pos, int depth, std::vector<std::string>* fens,
             std::vector<Position>* positions) {
  fens->push_back(pos.Fen());
  positions->push_back(pos);
  if (depth == 0) return;
  for (Move m : MoveList(pos)) {
    pos.DoMove(m);
    Collect(pos, depth - 1, fens, positions);
    pos.UndoMove(m);
  }
}

// The set against the FEN identity (without the move counters): inserting
// thousands of positions, many reached by transposition, through several
// growths from the first 1,024 slots.
TEST(PositionSet, AgreesWithTheFenIdentityThroughGrowth) {
  Position start = Parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  std::vector<std::string> fens;
  std::vector<Position> positions;
  Collect(start, 2, &fens, &positions);
  ASSERT_GT(positions.size(), 2000u);
  std::set<std::string> identities;
  PositionSet set;
  for (size_t i = 0; i < positions.size(); ++i) {
    // Identity: board, side, castling, e.p. (the FEN's first four fields).
    const std::string& fen = fens[i];
    size_t cut = fen.size();
    for (int spaces = 0, j = 0; j < int(fen.size()); ++j)
      if (fen[j] == ' ' && ++spaces == 4) cut = size_t(j);
    const bool fresh = identities.insert(fen.substr(0, cut)).second;
    EXPECT_EQ(set.Insert(positions[i]), fresh) << fen;
  }
  EXPECT_EQ(set.size(), identities.size());
  // A second pass finds every one.
  for (const Position& pos : positions) EXPECT_FALSE(set.Insert(pos)) << pos.Fen();
}

TEST(PositionSet, EachSetStartsEmptyAndNestedSetsAreSeparate) {
  const Position a = Parse("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
  const Position b = Parse("4k3/8/8/8/8/8/8/4K2R w - - 0 1");  // no castling right
  {
    PositionSet first;
    EXPECT_TRUE(first.Insert(a));
    EXPECT_TRUE(first.Insert(b)) << "castling rights are part of the identity";
    EXPECT_FALSE(first.Insert(a));
    {
      // A set alive beside another on this thread gets its own slots.
      PositionSet inner;
      EXPECT_EQ(inner.size(), 0u);
      EXPECT_TRUE(inner.Insert(a));
      EXPECT_FALSE(inner.Insert(a));
    }
    EXPECT_FALSE(first.Insert(b)) << "the inner set must not disturb the outer one";
    EXPECT_EQ(first.size(), 2u);
  }
  // The next set reuses the thread's slots, and sees none of the old ones.
  PositionSet next;
  next.Reserve(5000);
  EXPECT_EQ(next.size(), 0u);
  EXPECT_TRUE(next.Insert(a));
  EXPECT_TRUE(next.Insert(b));
}

}  // namespace
}  // namespace arbiter
