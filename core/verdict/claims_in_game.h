// The claims of a game record ([%claim] comments, a [Termination] naming
// one), judged where each was made, and what they do to the game's ruling
// (docs/rulings.md, "Claims"). Called by RuleGame.
#pragma once

#include <vector>

#include "core/chess/position.h"
#include "core/verdict/ruling.h"

namespace arbiter {

// Judges the record's claims up to the game's end (claims after an
// automatic ending are moot), appends them to r->claims, and lets them
// decide the ruling where they should have: an upheld claim before the last
// move ended the game there; a claim at the end whose result the record
// declares is the ending's reason, upheld, rejected (the game should have
// gone on) or left to the arbiter (the declared result stands, uncertain).
// Claims of another rule set are judged (rejected, saying whose they are)
// but decide nothing. `ended`: the game ended on the board at
// r->ended_at_ply.
void ApplyRecordedClaims(const Position& start, const std::vector<Move>& moves,
                         const DeclaredOutcome& declared, const DeclaredEnding& ending,
                         Ruleset rules, const MateSearchOptions& options, bool ended, Ruling* r);

}  // namespace arbiter
