#include "core/mate/promotion_search.h"

#include <algorithm>

#include "core/chess/movegen.h"

namespace arbiter {
namespace {

struct Search {
  Color winner;
  Square pawn;  // the pawn being promoted (tracked as it moves)
  uint64_t* nodes_left;
  std::vector<Move> line;  // in reverse while unwinding

  // Squares in front of the pawn up to the last rank.
  Bitboard Path(Square s) const {
    Bitboard path = 0;
    for (int r = RankOf(s) + (winner == kWhite ? 1 : -1); r >= 0 && r < 8;
         r += winner == kWhite ? 1 : -1)
      path |= SquareBB(MakeSquare(FileOf(s), r));
    return path;
  }

  bool Run(Position& pos, int depth) {
    if (*nodes_left == 0) return false;
    --*nodes_left;
    if (depth == 0) return false;
    const bool winner_to_move = pos.side_to_move() == winner;
    const Bitboard path = Path(pawn);
    Move moves[kMaxMoves];
    Move* end = GenerateLegalMoves(pos, moves);
    // Pawn moves first (pushes, then captures), then path clearing.
    Move chosen[kMaxMoves];
    int n = 0;
    for (Move* m = moves; m != end; ++m) {
      bool keep;
      if (winner_to_move) {
        keep = m->from() == pawn ? (m->kind() != Move::kPromotion || m->promotion() == kQueen)
                                 : (path & SquareBB(m->from())) != 0;
      } else {
        keep = (path & SquareBB(m->from())) != 0 ||
               (m->from() == pos.king_square(pos.side_to_move()) && !(path & SquareBB(m->to())));
      }
      if (keep) chosen[n++] = *m;
    }
    std::stable_partition(chosen, chosen + n, [&](Move m) { return m.from() == pawn; });
    for (int i = 0; i < n; ++i) {
      Move m = chosen[i];
      if (winner_to_move && m.from() == pawn && m.kind() == Move::kPromotion) {
        line.push_back(m);
        return true;
      }
      Square saved = pawn;
      if (m.from() == pawn) pawn = m.to();
      pos.DoMove(m);
      bool found = pos.halfmove_clock() < 150 && Run(pos, depth - 1);
      pos.UndoMove(m);
      pawn = saved;
      if (found) {
        line.push_back(m);
        return true;
      }
      if (*nodes_left == 0) return false;
    }
    return false;
  }
};

}  // namespace

bool FindQueenPromotion(Position& pos, Color winner, int max_plies, uint64_t* nodes_left,
                        std::vector<Move>* line) {
  // Most advanced pawns first.
  std::vector<Square> pawns;
  for (Bitboard b = pos.pieces(winner, kPawn); b;) pawns.push_back(PopLsb(b));
  std::stable_sort(pawns.begin(), pawns.end(), [&](Square a, Square b) {
    return RelativeRank(winner, a) > RelativeRank(winner, b);
  });
  for (Square p : pawns) {
    int distance = 7 - RelativeRank(winner, p);
    for (int depth = 2 * distance; depth <= max_plies; depth += 2) {
      Search s{winner, p, nodes_left, {}};
      // Depth counts plies; the promotion is the winner's move at the end.
      int plies = pos.side_to_move() == winner ? depth - 1 : depth;
      if (s.Run(pos, plies + 1)) {
        line->assign(s.line.rbegin(), s.line.rend());
        return true;
      }
      if (*nodes_left == 0) return false;
    }
  }
  return false;
}

}  // namespace arbiter
