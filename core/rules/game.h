// A game in progress: the current position plus the history FIDE's draw rules
// need (occurrences of each position for 9.2 / 9.6.1).
#pragma once

#include <vector>

#include "core/chess/position.h"

namespace arbiter {

class Game {
 public:
  explicit Game(Position start);

  const Position& position() const { return pos_; }
  // Plies played since the start position.
  int plies() const { return int(history_.size()) - 1; }
  // `m` must be legal in position().
  void Play(Move m);

  // How many times the current position has appeared, this time included
  // (FIDE 9.2.2 threefold at 3, 9.6.1 fivefold at 5). Positions before the
  // last capture, pawn move or castling-right change cannot recur and are not
  // searched; positions before the start FEN are unknown and not counted.
  int Occurrences() const { return CountOccurrences(pos_); }
  // Occurrences the position after `m` would have (9.2.1: claim by the
  // written move). `m` must be legal.
  int OccurrencesAfter(Move m);

  // Memo for the per-move dead-position probe: the pawn structure and
  // material whose exploration last ran out of budget. The same structure
  // with the same men is not probed again (a skipped probe can only leave a
  // dead position undetected, never invent one).
  uint64_t exhausted_probe_signature = 0;

 private:
  struct Entry {
    uint64_t key;
    Position::Identity identity;
  };
  int CountOccurrences(const Position& pos) const;

  Position pos_;
  std::vector<Entry> history_;  // one per position, the start included
};

}  // namespace arbiter
