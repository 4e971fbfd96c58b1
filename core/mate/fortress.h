// Static proof that a side can never checkmate: the pawn-wall fortress.
// Some men provably never leave their file or their square; around them
// every other man's possible squares are over-approximated by floods, and
// the proof holds when no check is possible, or when no square where the
// losing king could be checked can be closed into a mating net.
//
// The argument, and the precondition behind each of its steps (checked in
// the code, never assumed). Each claim is an assumption about every man at
// once, kept only while the floods computed under it confirm it; the
// largest consistent set of claims is found by dropping the refuted ones
// until none is left, so that by induction over the moves of any game from
// here, every claim stays true and every man stays in its region.
// - A pawn is "bound" to its file while it can never capture (no enemy man
//   other than the king may ever stand on a square it may attack) and never
//   promote. A bound pawn cannot pass another pawn on its file that cannot
//   be removed (taken): an enemy one stops it before that pawn's square, an
//   own one below the highest square that one may reach.
// - A king or piece is "stuck" while its flood is its own square and (a
//   piece) no enemy man may attack it; a king takes only where no enemy
//   attacks for good.
// - Walls: stuck men and bound pawns that cannot be removed or move. Floods
//   treat only walls as obstacles (other men may move away or be taken): a
//   piece by its moves, a king by steps onto squares no enemy attacks for
//   good (a wall pawn's capture squares, the squares next to a stuck piece,
//   a knight's jump from a stuck knight, the squares next to the enemy king
//   wherever it may stand), a free pawn by pushes and by captures onto
//   squares an enemy man may stand on, and a pawn that may reach its last
//   rank as every piece it may promote to (queen and knight moves).
// - E.p.: single steps cover double pushes, so a pawn's region holds the
//   square it skips and future e.p. captures are captures onto a square an
//   enemy may stand on. A capture e.p. possible right now (the FEN's e.p.
//   square) lands on an empty square no flood accounts for: the pawns that
//   may make it start free, and the pawn that moved may be taken.
// - Castling, standard or Chess960, moves the king through squares that must
//   be empty and unattacked and the rook along its rank through squares
//   empty but for its king, so the step-by-step floods cover it as long as
//   neither is a wall: a king or rook whose side may still castle is never
//   stuck (a Chess960 rook may jump over a king that stays on its square).
// - The move-count rules and repetitions only end games sooner; ignoring
//   them over-approximates what can happen.
// - Mate: the losing king stands on a square of its region that some
//   winning man other than the king may attack, and each square next to it
//   that it could step to is attacked by a winning man (any square such a
//   man may attack counts), next to the winning king (standing two steps
//   away, in its region), or held by a losing man of its own (a matching of
//   men to squares). A king already in check for good is left to other
//   methods.
// - A side whose men but its king all stay on their squares for good
//   (stuck, or bound pawns with no square ahead) moves nothing but its
//   king, within its region. Two things follow, both about the ply where
//   they happen:
//   - The enemy king taking one of its men: if from every square of its
//     region the taker does not touch that king has no step left (its own
//     walls, the enemy's permanent attacks and the squares next to the
//     taker close them all), the side has no legal move and the game ends
//     there, stalemated, or mated if the capture uncovered a check. Such a
//     capture need not be allowed for by the claims when the side is the
//     winner (the game ends without its mate), or when it is the loser and
//     the taker comes from no square on a line from that king that a
//     winning bishop, rook, queen or promoted pawn may stand behind.
//   - As the loser, its last move before a mate was a king step (unless the
//     winner mates on its first move, which is tried move by move), so the
//     square it came from, next to the mating square, must be covered: by a
//     winning man other than the king, or by the winning king stepping next
//     to it with the mating move (it could not stand there before: the
//     kings would have touched), which then checks by uncovering a line of
//     the same kind. Not while the winner may castle: the castling king
//     steps there and its rook checks.
// No search; a few bitboard floods per round, a round per refuted claim.
#pragma once

#include "core/chess/position.h"

namespace arbiter {

// True when `winner` provably cannot checkmate (proof "fortress"). False
// means only that this argument does not apply.
bool FortressDeniesMate(const Position& pos, Color winner);

// Every pawn has a pawn directly in front of it: a cheap filter for callers
// that look for closed positions.
bool AllPawnsBlocked(const Position& pos);

}  // namespace arbiter
