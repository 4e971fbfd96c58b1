#include "core/chess/perft.h"

#include "core/chess/movegen.h"

namespace arbiter {

uint64_t Perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  MoveBuffer buffer;
  Move* const moves = buffer.moves;
  Move* end = GenerateLegalMoves(pos, moves);
  // Bulk counting: the legal moves at depth 1 are the leaves.
  if (depth == 1) return uint64_t(end - moves);
  uint64_t nodes = 0;
  for (Move* m = moves; m != end; ++m) {
    pos.DoMove(*m);
    nodes += Perft(pos, depth - 1);
    pos.UndoMove(*m);
  }
  return nodes;
}

std::vector<std::pair<Move, uint64_t>> PerftDivide(Position& pos, int depth) {
  std::vector<std::pair<Move, uint64_t>> out;
  if (depth <= 0) return out;
  for (Move m : MoveList(pos)) {
    pos.DoMove(m);
    out.emplace_back(m, Perft(pos, depth - 1));
    pos.UndoMove(m);
  }
  return out;
}

}  // namespace arbiter
