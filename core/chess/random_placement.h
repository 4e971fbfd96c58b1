// Random positions for differential tests, benchmarks, warming tablebase
// files and developer tools: legal positions with given men (material
// written as Syzygy names tables: "KRPvKR" is White's K+R+P against
// Black's K+R), and positions behind locked pawn walls.
#pragma once

#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "core/chess/position.h"

namespace arbiter {

// A position with exactly these men on random squares (pawns never on the
// first or last rank), `side_to_move` to move, no castling rights, no e.p.
// square, clocks 0. Placements that are illegal (the side not to move in
// check) are drawn again; nullopt after `attempts` draws or for malformed
// material.
std::optional<Position> RandomPlacement(std::string_view men, Color side_to_move,
                                        std::mt19937_64& rng, int attempts = 1000);

// FEN field 1 for a board of 64 characters, a1 first, '.' for an empty
// square and FEN letters for men.
std::string FenPlacement(std::string_view board);

// A random position behind a wall: locked pairs (a white pawn with a black
// pawn directly in front) on most files, the rank of neighbouring pairs
// differing by one so that they form chains rather than attack each other;
// then kings and up to two other pieces on random empty squares. The FEN
// may be illegal (a king in check, adjacent kings): callers parse it and
// skip those. Tests and developer tools draw their locked positions here.
std::string RandomWallFen(std::mt19937& rng);

// Walls drawn to break one precondition of the "cannot mate" proofs each,
// for the adversarial sweeps (tools/mate_ability_sweep and its slice in the
// tests): an e.p. capture open right now, castling rights (standard or
// Chess960, Shredder letters) beside the wall, a free pawn, a pawn one step
// from promoting, a free pawn with the halfmove clock a few plies from the
// 75-move limit, a king shut in on two squares with nothing else of its
// side able to move. kPlain is RandomWallFen. The FEN may be illegal; callers
// parse it and skip those (an e.p. square with no legal capture is dropped
// by the FEN reader).
enum class WallFamily {
  kPlain,
  kEnPassant,
  kCastling,
  kChess960Castling,
  kFreePawn,
  kPromotion,
  kNearMoveLimit,
  kKingPocket,
};
inline constexpr WallFamily kAllWallFamilies[] = {
    WallFamily::kPlain,         WallFamily::kEnPassant,
    WallFamily::kCastling,      WallFamily::kChess960Castling,
    WallFamily::kFreePawn,      WallFamily::kPromotion,
    WallFamily::kNearMoveLimit, WallFamily::kKingPocket};
const char* ToString(WallFamily family);
std::string AdversarialWallFen(WallFamily family, std::mt19937& rng);

}  // namespace arbiter
