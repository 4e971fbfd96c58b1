#include "core/tablebase/tablebase_move_order.h"

#include <algorithm>
#include <tuple>

#include "core/chess/movegen.h"
#include "core/chess/notation.h"

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

TablebaseMove DescribeRootMove(const Position& pos, Move m, Position* child) {
  TablebaseMove tm;
  tm.move = m;
  tm.uci = ToUci(pos, m);
  Position scratch = pos;
  tm.san = ToSan(scratch, m);
  tm.zeroing = IsZeroing(pos, m);
  child->DoMove(m);
  const bool terminal = MoveList(*child).empty();
  tm.checkmate = terminal && child->in_check();
  tm.stalemate = terminal && !child->in_check();
  if (tm.checkmate) {
    tm.dtz = tm.precise_dtz = -1;
    tm.category = pos.halfmove_clock() < 100 ? TbCategory::kLoss : TbCategory::kBlessedLoss;
  } else if (tm.stalemate) {
    tm.dtz = tm.precise_dtz = 0;
    tm.category = TbCategory::kDraw;
  }
  return tm;
}

std::optional<RootResult> TerminalRoot(const Position& pos) {
  if (!MoveList(pos).empty()) return std::nullopt;
  RootResult out;
  const int h = pos.halfmove_clock();
  out.halfmove_clock = h;
  out.checkmate = pos.in_check();
  out.stalemate = !out.checkmate;
  out.dtz = out.checkmate ? -1 : 0;
  out.precise_dtz = out.dtz;
  out.category = !out.checkmate ? TbCategory::kDraw
                 : h <= 100     ? TbCategory::kLoss
                                : TbCategory::kBlessedLoss;
  out.win_within_50 = false;
  return out;
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
