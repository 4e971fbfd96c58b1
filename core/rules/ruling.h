// Rules on a whole game record: replays the moves, stops at the first
// automatic ending (5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2), otherwise interprets
// the declared result and termination (5.1.2 resignation, 6.9 flag fall,
// 5.2.3 agreement) and says whether the declared result is correct.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/rules/assessment.h"

namespace arbiter {

// What the record declares.
struct DeclaredOutcome {
  std::string result;       // the Result tag: "1-0", "0-1", "1/2-1/2", "*", ...
  std::string termination;  // the Termination tag, empty when absent
};

struct Ruling {
  std::string ruling;   // correct result: "1-0", "0-1", "1/2-1/2" or "*"
  std::string rule;     // checkmate, stalemate, dead_position, fivefold, ...
  std::string article;  // FIDE Laws article that decided
  // Ply after which the game ended (0 = the start position); unset for an
  // unfinished game.
  std::optional<int> ended_at_ply;
  int moves_after_end = 0;  // plies played after the game had already ended
  bool agrees = true;       // declared result == ruling
  // False when the ruling rests on an "unknown" mate ability: the Laws'
  // default (the win stands unless mate is impossible) was applied.
  bool certain = true;
  // Evidence for flag-fall and resignation rulings: the mate ability of the
  // side that would win, judged in the final position.
  std::optional<Color> winner_side;
  MateAbility winner_can_mate;
  // For draws by agreement or claim: the grounds open at the end, e.g.
  // "threefold_now", "fifty_now", "threefold_by_move", "fifty_by_move".
  std::vector<std::string> claim_grounds;
};

// `moves` must be legal from `start` (as a replayed PGN guarantees).
// `options` bound the search for the winner's mating possibility.
Ruling RuleGame(const Position& start, const std::vector<Move>& moves,
                const DeclaredOutcome& declared, const MateSearchOptions& options = {});

}  // namespace arbiter
