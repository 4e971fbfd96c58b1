#include "core/mate/move_limit_search.h"

#include <algorithm>
#include <utility>

#include "core/chess/movegen.h"

namespace arbiter {
namespace {

struct Search {
  Color winner;
  uint64_t nodes_left;
  bool open = false;       // a zeroing move exists, or the budget ran out
  bool complete = true;    // the budget lasted and every restart was kept
  std::vector<Move> line;  // in reverse while unwinding
  std::vector<Move> path;  // from the root to the current position
  std::vector<std::vector<Move>> resets;
  std::vector<uint64_t> reset_keys;  // the positions after them

  // True when `winner` can mate from `pos` before the clock reaches 150.
  bool Run(Position& pos) {
    if (nodes_left == 0) {
      open = true;
      complete = false;
      return false;
    }
    --nodes_left;
    if (pos.halfmove_clock() >= 150) return false;  // drawn (9.6.2)
    MoveBuffer buffer;
    Move* const moves = buffer.moves;
    Move* end = GenerateLegalMoves(pos, moves);
    for (Move* m = moves; m != end; ++m) {
      const bool zeroing = m->kind() == Move::kEnPassant || m->kind() == Move::kPromotion ||
                           TypeOf(pos.piece_on(m->from())) == kPawn ||
                           (m->kind() != Move::kCastling && !pos.empty(m->to()));
      pos.DoMove(*m);
      path.push_back(*m);
      const bool mate = pos.in_check() && pos.side_to_move() != winner && !HasLegalMove(pos);
      // After a zeroing move the clock restarts: beyond this argument.
      bool found = mate || (!zeroing && Run(pos));
      if (zeroing && !mate) {
        open = true;
        // The same restarted position by another order of moves is
        // the same question: kept once.
        const bool known =
            std::find(reset_keys.begin(), reset_keys.end(), pos.key()) != reset_keys.end();
        if (!known && resets.size() < kMaxResets) {
          resets.push_back(path);
          reset_keys.push_back(pos.key());
        } else if (!known) {
          complete = false;
        }
      }
      path.pop_back();
      pos.UndoMove(*m);
      if (found) {
        line.push_back(*m);
        return true;
      }
      if (open && nodes_left == 0) return false;
    }
    return false;
  }
};

}  // namespace

MoveLimitResult SearchBeforeMoveLimit(const Position& pos, Color winner, uint64_t node_budget) {
  MoveLimitResult result;
  // At 150 the game has already ended by 9.6.2: that is the ruling, not a
  // statement about mating.
  const int plies_left = 150 - pos.halfmove_clock();
  if (plies_left <= 0 || plies_left > kMoveLimitHorizonPlies) return result;
  Position work = pos;
  Search search{winner, node_budget, false, true, {}, {}, {}, {}};
  if (search.Run(work)) {
    result.outcome = MoveLimitResult::kMate;
    result.line.assign(search.line.rbegin(), search.line.rend());
  } else if (!search.open) {
    result.outcome = MoveLimitResult::kNoMateBeforeLimit;
  } else {
    result.resets = std::move(search.resets);
    result.all_resets = search.complete;
    std::stable_sort(result.resets.begin(), result.resets.end(),
                     [](const auto& a, const auto& b) { return a.size() < b.size(); });
  }
  return result;
}

}  // namespace arbiter
