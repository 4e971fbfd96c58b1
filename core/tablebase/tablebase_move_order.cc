#include "core/tablebase/tablebase_move_order.h"

#include <algorithm>
#include <tuple>

namespace arbiter {

bool IsZeroing(const Position& pos, Move m) {
  return TypeOf(pos.piece_on(m.from())) == kPawn ||
         (m.kind() != Move::kCastling && !pos.empty(m.to()));
}

PieceType CapturedType(const Position& pos, Move m) {
  if (m.kind() == Move::kEnPassant) return kPawn;
  if (m.kind() == Move::kCastling) return kNoPieceType;
  return TypeOf(pos.piece_on(m.to()));
}

void SortBestFirst(const Position& pos, std::vector<TablebaseMove>* moves) {
  // A move's values describe the position after it, from the opponent's
  // view: the lowest category (loss) is best, and a positive dtz means the
  // opponent wins, so the mover then prefers moves that do not zero.
  auto key = [&pos](const TablebaseMove& m) {
    const bool positive = m.dtz && *m.dtz > 0;
    const PieceType captured = CapturedType(pos, m.move);
    const int promotion = m.move.kind() == Move::kPromotion ? int(m.move.promotion()) : 0;
    return std::make_tuple(int(m.category), !m.checkmate, !m.stalemate, m.zeroing == positive,
                           (captured != kNoPieceType) == positive, m.dtz.has_value(),
                           m.dtz ? -*m.dtz : 0, captured ? -int(captured) : 1,
                           promotion ? -promotion : 1, m.uci);
  };
  std::stable_sort(moves->begin(), moves->end(),
                   [&](const TablebaseMove& a, const TablebaseMove& b) { return key(a) < key(b); });
}

}  // namespace arbiter
