// One position, as `arbiter analyze` and the workers are asked about it: a
// FEN, moves played from it (the history for repetition claims), the search
// options, and optionally Syzygy tables. Shared so that the embedded run and
// a worker compute the same thing from the same request.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/verdict/assessment.h"
#include "core/verdict/claim_verdict.h"
#include "core/verdict/tablebase_verdict.h"

namespace arbiter {

// A claim to judge at the position (analyze --claim).
struct ClaimQuestion {
  ClaimKind kind = ClaimKind::kQuickplayFinish;
  std::optional<Color> claimant;  // unset: the side to move
  ClaimedOutcome claimed = ClaimedOutcome::kDraw;
  Ruleset rules = Ruleset::kFide;
};

struct PositionAnalysis {
  Position position;  // after the moves
  Assessment assessment;
  // Set exactly when Syzygy tables were given; for at most 4 men that they
  // do not cover, Arbiter's retrograde tables answer (source kRetrograde).
  std::optional<TablebaseProbe> tablebase;
  std::optional<ClaimRuling> claim;  // set exactly when a claim was asked
  Ruleset rules = Ruleset::kFide;    // the rules it was analysed under
};

// INVALID_ARGUMENT for a bad FEN, an illegal move (its 1-based number is
// named), or a move played after the game had ended. With `only_side`, only
// that side's mate ability is searched (Assess).
absl::StatusOr<PositionAnalysis> AnalyzePosition(const std::string& fen, bool chess960,
                                                 const std::vector<std::string>& moves,
                                                 const MateSearchOptions& options,
                                                 const SyzygyTablebase* tables,
                                                 std::optional<Color> only_side = std::nullopt,
                                                 const std::optional<ClaimQuestion>& claim = {});

}  // namespace arbiter
