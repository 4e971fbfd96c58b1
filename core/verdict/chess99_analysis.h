// `arbiter analyze --rules chess99`: one Chess 99 position (FEN-9, with
// optional moves played from it) analysed by core/chess99/win_ability.h,
// as a JSON record and as the text report. The same function serves the
// embedded client and the workers, so both give the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/chess99/win_ability.h"

namespace arbiter {

struct Chess99Report {
  std::string fen;  // FEN-9 of the analysed position (after the moves)
  chess99::PositionAnalysis analysis;
};

// Errors: a bad FEN-9, an unreadable or illegal move (which one, and
// why), or moves past the end of the game (a king captured, only the two
// kings left).
absl::StatusOr<Chess99Report> AnalyzeChess99Position(std::string_view fen,
                                                     const std::vector<std::string>& moves,
                                                     int64_t node_budget);

}  // namespace arbiter
