// Chess 99 games (core/chess99/) in the common verdict of game_verdict.h,
// so that `verify`, the workers and the jobs rule on them like on any other
// record. A game is a Chess 99 game when its [Variant] tag says so
// (core/pgn/variant.h; `verify --rules chess99` tags untagged games).
//
// The record: [FEN] in FEN-9 (the Chess 99 start position without it);
// moves in the site notation or the coordinate form (chess99/notation.h);
// a draw offer or claim made with a move is a PGN command in the comment
// after it, "{[%draw offer]}" or "{[%draw claim]}"; "{[%draw accept]}"
// after a move: the next player accepts the open offer (§5.4). A declared
// 1/2-1/2 that the moves leave open was agreed (D1): with a recorded offer
// still open, the judge accepts it; without one, the agreement is taken
// from the record, as for a chess game (records rarely write offers down),
// and the claim grounds open at the end are listed. A decisive result the
// moves do not explain is a resignation (§5.2), or a flag fall (§5.3) when
// [Termination] mentions time.
#pragma once

#include "core/pgn/pgn_reader.h"
#include "core/verdict/game_verdict.h"

namespace arbiter {

bool IsChess99Game(const RawGame& raw);

// Fills `out` (its game, site, declared, termination, plies and rules
// already set by VerifyGame, which also reports a record the reader could
// not read): the ruling, rule and section of the Chess 99 judge, the
// end position in FEN-9, and the judge's one-sentence reason in `detail`.
void VerifyChess99Game(const RawGame& raw, GameVerdict* out);

}  // namespace arbiter
