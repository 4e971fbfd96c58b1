// Bitboard primitives and attack tables (magic bitboards for sliders).
// Call InitBitboards() once before use; Position does it for you.
#pragma once

#include <bit>

#include "core/chess/types.h"

namespace arbiter {

constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kRank1 = 0xFFULL;
constexpr Bitboard FileBB(int file) { return kFileA << file; }
constexpr Bitboard RankBB(int rank) { return kRank1 << (8 * rank); }
constexpr Bitboard kDarkSquares = 0xAA55AA55AA55AA55ULL;

inline int PopCount(Bitboard b) { return std::popcount(b); }
inline Square Lsb(Bitboard b) { return Square(std::countr_zero(b)); }
inline Square PopLsb(Bitboard& b) {
  Square s = Lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool MoreThanOne(Bitboard b) { return (b & (b - 1)) != 0; }

// Shifts that drop bits falling off the board.
template <int kDelta>
constexpr Bitboard Shift(Bitboard b) {
  if constexpr (kDelta == 8) return b << 8;
  if constexpr (kDelta == -8) return b >> 8;
  if constexpr (kDelta == 16) return b << 16;
  if constexpr (kDelta == -16) return b >> 16;
  if constexpr (kDelta == 9) return (b & ~FileBB(7)) << 9;
  if constexpr (kDelta == 7) return (b & ~kFileA) << 7;
  if constexpr (kDelta == -7) return (b & ~FileBB(7)) >> 7;
  if constexpr (kDelta == -9) return (b & ~kFileA) >> 9;
  if constexpr (kDelta == 1) return (b & ~FileBB(7)) << 1;
  if constexpr (kDelta == -1) return (b & ~kFileA) >> 1;
  static_assert(kDelta == 8 || kDelta == -8 || kDelta == 16 || kDelta == -16 || kDelta == 9 ||
                    kDelta == 7 || kDelta == -7 || kDelta == -9 || kDelta == 1 || kDelta == -1,
                "unsupported shift");
  return 0;
}

namespace bb_internal {

struct Magic {
  Bitboard mask;
  Bitboard magic;
  const Bitboard* attacks;
  unsigned shift;
  unsigned Index(Bitboard occupied) const { return unsigned(((occupied & mask) * magic) >> shift); }
};

extern Magic rook_magics[64];
extern Magic bishop_magics[64];
extern Bitboard pawn_attacks[2][64];
extern Bitboard knight_attacks[64];
extern Bitboard king_attacks[64];
extern Bitboard between[64][64];  // squares strictly between, plus the target
extern Bitboard line[64][64];     // full line through both squares, or 0
// Trial multipliers drawn because a stored one did not fit (0 unless the
// stored multipliers in bitboard.cc are edited wrongly).
extern int magic_searches;

}  // namespace bb_internal

void InitBitboards();

inline Bitboard PawnAttacks(Color c, Square s) { return bb_internal::pawn_attacks[c][s]; }
// Every square some pawn of `c` in `pawns` attacks.
constexpr Bitboard PawnAttacksBB(Color c, Bitboard pawns) {
  return c == kWhite ? Shift<9>(pawns) | Shift<7>(pawns) : Shift<-7>(pawns) | Shift<-9>(pawns);
}
inline Bitboard KnightAttacks(Square s) { return bb_internal::knight_attacks[s]; }
inline Bitboard KingAttacks(Square s) { return bb_internal::king_attacks[s]; }
inline Bitboard BishopAttacks(Square s, Bitboard occupied) {
  const auto& m = bb_internal::bishop_magics[s];
  return m.attacks[m.Index(occupied)];
}
inline Bitboard RookAttacks(Square s, Bitboard occupied) {
  const auto& m = bb_internal::rook_magics[s];
  return m.attacks[m.Index(occupied)];
}
inline Bitboard QueenAttacks(Square s, Bitboard occupied) {
  return BishopAttacks(s, occupied) | RookAttacks(s, occupied);
}
// Attacks of a non-pawn piece type.
inline Bitboard Attacks(PieceType t, Square s, Bitboard occupied) {
  switch (t) {
    case kKnight:
      return KnightAttacks(s);
    case kBishop:
      return BishopAttacks(s, occupied);
    case kRook:
      return RookAttacks(s, occupied);
    case kQueen:
      return QueenAttacks(s, occupied);
    case kKing:
      return KingAttacks(s);
    default:
      return 0;
  }
}

// Squares strictly between a and b plus b itself if aligned; just b otherwise.
// Used for check evasions: a blocker or a capture of the checker.
inline Bitboard BetweenBB(Square a, Square b) { return bb_internal::between[a][b]; }
// The whole line (rank, file or diagonal) through a and b, or 0.
inline Bitboard LineBB(Square a, Square b) { return bb_internal::line[a][b]; }
inline bool Aligned(Square a, Square b, Square c) { return LineBB(a, b) & SquareBB(c); }

}  // namespace arbiter
