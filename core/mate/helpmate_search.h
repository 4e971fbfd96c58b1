// Cooperative mate search: both sides play toward `winner` giving mate.
// Used to prove "can still mate" with a line anyone can replay. Iterative
// deepening with a transposition table and move ordering toward mate; a node
// budget makes it stop deterministically.
#pragma once

#include <cstdint>
#include <vector>

#include "core/chess/position.h"
#include "core/mate/transposition_table.h"

namespace arbiter {

class HelpmateSearch {
 public:
  // `tt_bytes` bounds the table's memory.
  HelpmateSearch(Color winner, uint64_t node_budget, size_t tt_bytes);

  // Searches lines of up to `max_plies` plies. On success fills `line` (from
  // `pos`, which is restored) and returns true.
  bool Find(Position& pos, int max_plies, std::vector<Move>* line);

  bool budget_exhausted() const { return nodes_ >= budget_; }
  uint64_t nodes() const { return nodes_; }

 private:
  // `narrow`: the losing side moves only its king (unless it must do
  // otherwise), a restriction that finds typical mates much faster.
  bool Search(Position& pos, int depth, bool narrow);
  bool MateInOne(Position& pos);
  int OrderMoves(Position& pos, Move* moves, int count);

  Color winner_;
  uint64_t budget_;
  uint64_t nodes_ = 0;
  // Per key: searched this many plies deep without finding a mate.
  TranspositionTable<int8_t> tt_;
  std::vector<Move> line_;  // built in reverse while unwinding
};

}  // namespace arbiter
