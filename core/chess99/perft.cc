#include "core/chess99/perft.h"

#include "core/chess99/movegen.h"
#include "core/chess99/notation.h"

namespace arbiter::chess99 {

uint64_t Perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  const std::vector<Move> moves = GenerateMoves(pos);
  if (depth == 1) return moves.size();
  uint64_t nodes = 0;
  for (const Move& m : moves) {
    pos.MakeMove(m);
    nodes += Perft(pos, depth - 1);
    pos.UnmakeMove(m);
  }
  return nodes;
}

std::vector<std::pair<std::string, uint64_t>> PerftDivide(Position& pos, int depth) {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (const Move& m : GenerateMoves(pos)) {
    const std::string name = MoveToCoordinate(m);
    pos.MakeMove(m);
    out.emplace_back(name, Perft(pos, depth - 1));
    pos.UnmakeMove(m);
  }
  return out;
}

}  // namespace arbiter::chess99
