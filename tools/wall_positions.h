// Random positions behind locked pawn walls, for the adversarial sweeps
// (tools/mate_ability_sweep), the tests' slices of them and the developer
// tools: test material, not part of the product library.
#pragma once

#include <random>
#include <string>

namespace arbiter::tools {

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

}  // namespace arbiter::tools
