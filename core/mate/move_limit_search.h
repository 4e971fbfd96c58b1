// The 75-move rule (9.6.2) as a proof. When the halfmove clock is close to
// 150, the game ends automatically within a few plies unless a pawn moves or
// something is captured. Searching every line up to that point decides the
// question outright: a mate inside the horizon is a "yes"; no mate and no
// possible zeroing move is a "no" that the move-count rule decided.
#pragma once

#include <cstdint>
#include <vector>

#include "core/chess/position.h"

namespace arbiter {

struct MoveLimitResult {
  // kOpen: some line can make a capture or pawn move (the clock restarts), or
  // the node budget ran out; the rule alone does not decide.
  enum Outcome { kMate, kNoMateBeforeLimit, kOpen } outcome = kOpen;
  std::vector<Move> line;  // kMate: from the position to the mate
  // kOpen: lines from the position that end in a capture or pawn move (the
  // clock restarts there), one per position they lead to, at most
  // kMaxResets of them, shortest first. A
  // mate after one is a mate within the 75-move limit (AnalyzeMateAbility
  // looks for one there).
  std::vector<std::vector<Move>> resets;
  // Every line to a restart is in `resets` (none was left out for the cap,
  // and the budget did not run out): if none of them leads to a mate,
  // nothing does.
  bool all_resets = false;
};

// Clock-restarting lines kept for the caller.
inline constexpr size_t kMaxResets = 16;

// Plies left before the automatic draw, where the search is worth trying.
inline constexpr int kMoveLimitHorizonPlies = 6;

// Searches every line until the clock reaches 150 (only when at most
// kMoveLimitHorizonPlies remain).
MoveLimitResult SearchBeforeMoveLimit(const Position& pos, Color winner, uint64_t node_budget);

}  // namespace arbiter
