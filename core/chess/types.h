// Basic chess vocabulary shared by the whole core: colours, pieces, squares
// and the 16-bit move encoding. Kept tiny and header-only so that hot loops
// inline everything.
#pragma once

#include <cstdint>

namespace arbiter {

using Bitboard = uint64_t;

enum Color : uint8_t { kWhite = 0, kBlack = 1 };
// "white" or "black", as records and messages spell a side.
inline const char* ColorName(Color c) { return c == kWhite ? "white" : "black"; }
// "White" or "Black", as sentences name a side.
inline const char* SideName(Color c) { return c == kWhite ? "White" : "Black"; }
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : uint8_t {
  kNoPieceType = 0,
  kPawn = 1,
  kKnight = 2,
  kBishop = 3,
  kRook = 4,
  kQueen = 5,
  kKing = 6,
  kAllPieces = 0,  // index of the all-pieces bitboard in Position::by_type_
};

// Piece = colour * 8 + type, so that type and colour are one shift/mask away.
enum Piece : uint8_t {
  kNoPiece = 0,
  kWhitePawn = 1,
  kWhiteKnight,
  kWhiteBishop,
  kWhiteRook,
  kWhiteQueen,
  kWhiteKing,
  kBlackPawn = 9,
  kBlackKnight,
  kBlackBishop,
  kBlackRook,
  kBlackQueen,
  kBlackKing,
};
constexpr Piece MakePiece(Color c, PieceType t) { return Piece((c << 3) | t); }
constexpr PieceType TypeOf(Piece p) { return PieceType(p & 7); }
constexpr Color ColorOf(Piece p) { return Color(p >> 3); }

// Squares a1 = 0 ... h8 = 63 (little-endian rank-file mapping).
enum Square : uint8_t {
  // clang-format off
  kA1, kB1, kC1, kD1, kE1, kF1, kG1, kH1,
  kA2, kB2, kC2, kD2, kE2, kF2, kG2, kH2,
  kA3, kB3, kC3, kD3, kE3, kF3, kG3, kH3,
  kA4, kB4, kC4, kD4, kE4, kF4, kG4, kH4,
  kA5, kB5, kC5, kD5, kE5, kF5, kG5, kH5,
  kA6, kB6, kC6, kD6, kE6, kF6, kG6, kH6,
  kA7, kB7, kC7, kD7, kE7, kF7, kG7, kH7,
  kA8, kB8, kC8, kD8, kE8, kF8, kG8, kH8,
  // clang-format on
  kNoSquare = 64,
};
constexpr int FileOf(Square s) { return s & 7; }
constexpr int RankOf(Square s) { return s >> 3; }
constexpr Square MakeSquare(int file, int rank) { return Square(rank * 8 + file); }
// King moves from `a` to `b` on an empty board (Chebyshev distance).
constexpr int Distance(Square a, Square b) {
  const int files = FileOf(a) > FileOf(b) ? FileOf(a) - FileOf(b) : FileOf(b) - FileOf(a);
  const int ranks = RankOf(a) > RankOf(b) ? RankOf(a) - RankOf(b) : RankOf(b) - RankOf(a);
  return files > ranks ? files : ranks;
}
// Rank as seen from `c`'s side of the board (0 = own back rank).
constexpr int RelativeRank(Color c, Square s) { return c == kWhite ? RankOf(s) : 7 - RankOf(s); }
constexpr Square Flip(Square s) { return Square(s ^ 56); }
constexpr Bitboard SquareBB(Square s) { return Bitboard{1} << s; }

enum CastlingSide : uint8_t { kKingSide = 0, kQueenSide = 1 };

// A move in 16 bits: from (6) | to (6) | kind (2) | promotion piece (2).
// Castling is encoded as "king takes own rook" (from = king square, to = rook
// square), which represents standard chess and Chess960 uniformly.
class Move {
 public:
  enum Kind : uint16_t { kNormal = 0, kPromotion = 1, kEnPassant = 2, kCastling = 3 };

  constexpr Move() = default;
  constexpr Move(Square from, Square to, Kind kind = kNormal, PieceType promo = kKnight)
      : data_(uint16_t(from | (to << 6) | (kind << 12) | ((promo - kKnight) << 14))) {}

  static constexpr Move None() { return Move(); }

  constexpr Square from() const { return Square(data_ & 63); }
  constexpr Square to() const { return Square((data_ >> 6) & 63); }
  constexpr Kind kind() const { return Kind((data_ >> 12) & 3); }
  constexpr PieceType promotion() const { return PieceType(((data_ >> 14) & 3) + kKnight); }
  constexpr uint16_t raw() const { return data_; }
  constexpr bool is_none() const { return data_ == 0; }

  constexpr bool operator==(const Move&) const = default;

 private:
  uint16_t data_ = 0;
};

}  // namespace arbiter
