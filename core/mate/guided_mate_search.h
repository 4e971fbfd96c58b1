// Guided cooperative-mate search: finds long helpmates in rich positions
// quickly. A plain iterative-deepening search (helpmate_search.h) finds the
// shortest line but cannot reach a mate 20 plies away among 30 moves a side.
// Here every move has a cost: moves that make progress toward a mating
// picture are free (the loser's king walking into a chosen corner, the
// winner's king and knights approaching it, the winner capturing or pushing
// pawns), ordinary moves cost 1, moves away cost 2. Iterative deepening runs
// over the total cost, so the search dives along progress and pays only for
// detours. Every free move shrinks a bounded potential (distances, material,
// pawn advance), so no line of free moves is endless; a ply cap and the
// node and move budgets bound the rest.
//
// It only ever proves "yes": a failure means nothing, and every line found is
// replayed by the caller before it is believed.
#pragma once

#include <cstdint>
#include <vector>

#include "core/chess/position.h"
#include "core/mate/transposition_table.h"

namespace arbiter {

// The ply cap the callers give Find: guided lines may be long (a king walk,
// then a promotion, then the mate).
inline constexpr int kGuidedMaxPlies = 120;

class GuidedMateSearch {
 public:
  // At most `node_budget` nodes and `move_budget` moves generated at them.
  // A node's time grows with its moves (on CHA's test vector, 0.07 us at 1.3
  // moves a node in pawn endings, 0.2 us at 12.6 among eight bishops a
  // side), so the second bound keeps positions of many mobile men within
  // about the time the first gives pawn endings.
  GuidedMateSearch(Color winner, uint64_t node_budget, size_t tt_bytes,
                   uint64_t move_budget = UINT64_MAX);

  // Lines of at most `max_plies`. On success fills `line` (from `pos`, which
  // is restored) and returns true.
  bool Find(Position& pos, int max_plies, std::vector<Move>* line);

  uint64_t nodes() const { return nodes_; }
  uint64_t moves_generated() const { return moves_; }

 private:
  bool Search(Position& pos, int credit, int ply, bool after_progress);
  bool MateInOne(Position& pos, const Move* moves, int count);
  struct CheckSquares;
  void MoveCosts(const Position& pos, const Move* moves, int count, bool exact, int discounts,
                 int* costs) const;
  std::vector<Square> CandidateCorners(const Position& pos);

  bool Exhausted() const { return nodes_ >= budget_ || moves_ >= move_budget_; }

  Color winner_;
  uint64_t budget_;
  uint64_t move_budget_;
  uint64_t nodes_ = 0;
  uint64_t moves_ = 0;
  int max_plies_ = 0;
  Square corner_ = kA1;               // where the loser's king is to be mated
  uint8_t corner_distance_[64] = {};  // king steps from each square to corner_
  bool minor_only_ = false;           // the winner has no queen, rook or pawn
  bool loser_needs_men_ = false;      // ... and the loser has only pawns to block with
  // Per key: searched with this much credit without finding a mate.
  TranspositionTable<int16_t> tt_;
  size_t max_tt_entries_ = 0;
  std::vector<Move> line_;  // built in reverse while unwinding
};

}  // namespace arbiter
