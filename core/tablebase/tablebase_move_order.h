// How root moves are described and ordered, shared by every source of root
// probes (Syzygy through Fathom, syzygy.h; the retrograde tables,
// retrograde_root.h), so that both list the same moves in the same order.
#pragma once

#include <optional>
#include <vector>

#include "core/chess/position.h"
#include "core/tablebase/syzygy.h"

namespace arbiter {

// Whether `m` resets the halfmove clock: a pawn move or a capture.
bool IsZeroing(const Position& pos, Move m);

// The type of the man `m` captures (kPawn for an e.p. capture), kNoPieceType
// if it captures nothing.
PieceType CapturedType(const Position& pos, Move m);

// One root move as every probe describes it before asking a table: its UCI
// and SAN, whether it zeroes the clock, whether it mates or stalemates, and
// for those its value (Lichess's rule: a mate is a loss for the mated side
// unless a fifty-move claim was already available before it, clock >= 100).
// `child` (a copy of `pos`) receives the position after the move.
TablebaseMove DescribeRootMove(const Position& pos, Move m, Position* child);

// The root of a position without legal moves, as every probe gives it:
// stalemate a draw, checkmate a loss (DTZ -1) unless a fifty-move claim was
// already available before the mating move (clock - 1 >= 100: Lichess's
// rule); nullopt when `pos` has a legal move.
std::optional<RootResult> TerminalRoot(const Position& pos);

// Sorts the legal moves of `pos`, described as TablebaseMove (category, dtz,
// ... filled in), best first for the side to move, in the Lichess order: by
// category, then checkmates, stalemates, zeroing moves and captures first
// unless the opponent wins after them (dtz > 0: then last), a known DTZ
// first, the DTZ (fastest win, slowest loss), the captured man and the
// promotion piece (larger first), the UCI text. Stable.
void SortBestFirst(const Position& pos, std::vector<TablebaseMove>* moves);

}  // namespace arbiter
