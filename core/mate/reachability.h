// Exhaustive exploration of every position reachable from a start position
// (ignoring the move counters). When the whole reachable set is explored and
// none is a checkmate by `winner`, that side provably cannot mate: the proof
// behind "no" in blocked-pawn fortresses and forced lines. The set is stored
// exactly (no hash-only identities), so a key collision cannot fake a proof.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/chess/position.h"
#include "core/domain/can_mate.h"

namespace arbiter {

struct ReachabilityResult {
  enum Outcome { kMateFound, kNoMate, kBudgetExhausted } outcome = kBudgetExhausted;
  std::vector<Move> line;         // for kMateFound: from the start to the mate
  uint64_t positions = 0;         // distinct positions visited
  bool only_forced_moves = true;  // every explored position had one move

  // The proof a kNoMate outcome gives for "cannot mate".
  MateProof proof() const {
    return only_forced_moves ? MateProof::kForcedLine : MateProof::kExhaustiveSearch;
  }
};

// Which positions the explorations leave unexpanded, because no mate by
// `winner` can follow them: those where `winner` lacks mating material, and
// by default also those the pawn-wall fortress proof (fortress.h) settles.
// kMaterialOnly is for tests that hold the fortress proof to an exploration
// that does not use it.
enum class StaticCuts { kMaterialAndFortress, kMaterialOnly };

// Explores at most `max_positions` distinct positions, depth-first, so the
// mating line found is not the shortest.
ReachabilityResult ExploreReachable(const Position& start, Color winner, uint64_t max_positions,
                                    StaticCuts cuts = StaticCuts::kMaterialAndFortress);

// The same depth-first exploration, resumable: a run that ran out of budget
// goes on from where it stopped when given a larger one, so a small first
// probe costs nothing when a larger one must follow (the can-mate cascade
// explores a little before its longer dive and the rest after it). The
// result of Explore(n) is that of ExploreReachable(start, winner, n).
class ReachableExplorer {
 public:
  ReachableExplorer(const Position& start, Color winner,
                    StaticCuts cuts = StaticCuts::kMaterialAndFortress);
  ~ReachableExplorer();
  ReachableExplorer(const ReachableExplorer&) = delete;
  ReachableExplorer& operator=(const ReachableExplorer&) = delete;

  // Explores until `max_positions` distinct positions in all have been
  // visited, or a mate is found, or the reachable set is exhausted. Once
  // the outcome is a mate or kNoMate, later calls return it unchanged.
  const ReachabilityResult& Explore(uint64_t max_positions);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The same exploration breadth-first, so that a mating line found is a
// shortest one. Depth-first lines wander through the reachable set and can
// be far longer than the 75-move rule allows; this search is for the
// positions where that happened. Each position is kept as its parent and
// the move from it, and rebuilt from the one expanded before it (undo to
// their common ancestor, replay the rest): a few dozen bytes per position.
ReachabilityResult ShortestReachableMate(const Position& start, Color winner,
                                         uint64_t max_positions,
                                         StaticCuts cuts = StaticCuts::kMaterialAndFortress);

// Follows the game while each position has exactly one legal move. True when
// that forced line ends where `winner` cannot mate (insufficient material,
// stalemate, or `winner` mated) — a "forced_line" proof; false when a choice
// appears or `winner` mates. Cheap enough to run after every move.
bool ForcedLineDeniesMate(const Position& start, Color winner);

}  // namespace arbiter
