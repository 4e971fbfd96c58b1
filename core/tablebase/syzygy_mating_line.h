// A replayable mating line from the Syzygy tables: the evidence behind "can
// still mate" when the tables say the side wins. The winner plays a best
// tablebase move; the loser, cooperating as in a helpmate, the reply that
// loses fastest. Both follow DTZ toward the next zeroing move, so the line
// makes progress and ends in mate (the tables' win ignores the 50-move rule
// for cursed wins; the caller checks the line against the move-count rules).
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "core/chess/position.h"
#include "core/tablebase/syzygy.h"

namespace arbiter {

// Errors: the tables do not cover the position or a position on the way
// (NotFound), `winner` does not win there (FailedPrecondition), or no mate
// within `max_plies` (ResourceExhausted; not expected for a tablebase win).
absl::StatusOr<std::vector<Move>> SyzygyMatingLine(const SyzygyTablebase& tables,
                                                   const Position& pos, Color winner,
                                                   int max_plies = 600);

}  // namespace arbiter
