// `arbiter verify --annotate-pgn FILE.pgn`: a disputed game written back as
// PGN: the record's tags (and [Annotator "Arbiter"]), its moves as written
// (with their NAGs and clocks), at the ruled ply a comment with the ruling
// and its evidence, and the result token the record declared.
//
// The output is PGN any reader takes: moves that cannot be played (after a
// checkmate, an illegal move, a variant Arbiter does not replay) go into a
// comment, verbatim, instead of the movetext; comment text has no `}`, tag
// values are escaped, lines are at most 79 characters where a token allows.
#pragma once

#include <string>
#include <string_view>

#include "core/pgn/game_replay.h"
#include "core/verdict/game_verdict.h"

namespace arbiter {

// The game's PGN, ending in a blank line. `scratch` is reused between calls.
std::string AnnotatedPgn(const GameVerdict& v, const RawGame& record, ReplayedGame* scratch);

// "Arbiter: 1/2-1/2 by dead_position (FIDE 5.2.2), not 1-0 as declared:
// neither side can mate (proof: material)", as the comment holds it.
std::string ArbiterComment(const GameVerdict& v);

// `text` made safe inside a PGN comment: `}` becomes `)` (and `{` `(`, for
// readers that nest them), line breaks and other control characters spaces.
std::string PgnCommentText(std::string_view text);

}  // namespace arbiter
