#include "core/mate/reduction_search.h"

#include "core/chess/bitboard.h"
#include "core/chess/movegen.h"

namespace arbiter {
namespace {

struct Reduction {
  Color winner;
  RetrogradeSolver& solver;
  uint64_t nodes_left;
  std::vector<Move> prefix;  // in reverse while unwinding
  std::vector<Move> tail;    // the tables' line from the small endgame

  bool IsCapture(const Position& pos, Move m) const {
    return m.kind() == Move::kEnPassant || (m.kind() != Move::kCastling && !pos.empty(m.to()));
  }

  // The side to move (the winner) has a capture. Most positions have no
  // man even attacked, which one attack map shows without generating.
  bool WinnerCanCapture(const Position& pos) const {
    Bitboard targets = pos.pieces(~pos.side_to_move());
    if (pos.ep_square() != kNoSquare) targets |= SquareBB(pos.ep_square());
    if (!(pos.AttackedSquares(pos.side_to_move(), pos.pieces()) & targets)) return false;
    for (Move m : MoveList(pos))
      if (IsCapture(pos, m)) return true;
    return false;
  }

  bool Run(Position& pos, int credit) {
    if (nodes_left == 0) return false;
    --nodes_left;
    if (PopCount(pos.pieces()) <= kMaxMen && !pos.castling_rights()) {
      // Exact from here on, whatever follows: no need to search further.
      absl::StatusOr<std::vector<Move>> line = solver.MatingLine(pos, winner);
      if (!line.ok()) return false;
      tail = *std::move(line);
      return true;
    }
    if (pos.halfmove_clock() >= 150) return false;  // 9.6.2
    MoveBuffer buffer;
    Move* const moves = buffer.moves;
    const int count = int(GenerateLegalMoves(pos, moves) - moves);
    // A capture is free. So is a move of the loser after which the winner
    // can capture: an offer, or a tempo while the winner eats its men
    // (every free pair of plies takes a man off, so free lines are short).
    int costs[kMaxMoves];
    const bool loser_to_move = pos.side_to_move() != winner;
    for (int i = 0; i < count; ++i) {
      costs[i] = IsCapture(pos, moves[i]) ? 0 : 1;
      if (costs[i] == 1 && loser_to_move) {
        pos.DoMove(moves[i]);
        if (WinnerCanCapture(pos)) costs[i] = 0;
        pos.UndoMove(moves[i]);
      }
    }
    for (int cost = 0; cost <= std::min(credit, 1); ++cost) {
      for (int i = 0; i < count; ++i) {
        if (costs[i] != cost) continue;
        pos.DoMove(moves[i]);
        const bool found = Run(pos, credit - cost);
        pos.UndoMove(moves[i]);
        if (found) {
          prefix.push_back(moves[i]);
          return true;
        }
        if (nodes_left == 0) return false;
      }
    }
    return false;
  }
};

}  // namespace

bool FindMateByReduction(const Position& start, Color winner, RetrogradeSolver& solver,
                         uint64_t node_budget, int max_credit, std::vector<Move>* line) {
  Position pos = start;
  Reduction r{winner, solver, node_budget, {}, {}};
  for (int credit = 0; credit <= max_credit && r.nodes_left > 0; ++credit) {
    r.prefix.clear();
    if (r.Run(pos, credit)) {
      line->assign(r.prefix.rbegin(), r.prefix.rend());
      line->insert(line->end(), r.tail.begin(), r.tail.end());
      return true;
    }
  }
  return false;
}

}  // namespace arbiter
