// Chess 99 vocabulary (spec §1–2): the 9x9 board, colours, the seven piece
// types including the paladin, and the rules options that the spec leaves
// open (§7). Header-only: everything here is tiny and used in hot loops.
//
// Squares are plain ints 0..80, a1 = 0, i1 = 8, a2 = 9, ..., i9 = 80
// (square = rank * 9 + file). 81 squares do not fit a 64-bit bitboard, and a
// mailbox with precomputed leap/ray tables is simple and fast enough here.
#pragma once

#include <cstdint>
#include <string>

namespace arbiter::chess99 {

using Square = int;
constexpr int kFiles = 9;
constexpr int kRanks = 9;
constexpr int kSquares = 81;
constexpr Square kNoSquare = -1;

constexpr int FileOf(Square s) { return s % kFiles; }  // 0 = a ... 8 = i
constexpr int RankOf(Square s) { return s / kFiles; }  // 0 = rank 1 ... 8 = rank 9
constexpr Square MakeSquare(int file, int rank) { return rank * kFiles + file; }
constexpr bool OnBoard(int file, int rank) {
  return file >= 0 && file < kFiles && rank >= 0 && rank < kRanks;
}
// §1: the corners and e5 are dark; with a=1 and rank 1=1, dark iff f+r even,
// which is the same parity with our 0-based file and rank.
constexpr bool IsDarkSquare(Square s) { return (FileOf(s) + RankOf(s)) % 2 == 0; }

inline std::string SquareName(Square s) { return {char('a' + FileOf(s)), char('1' + RankOf(s))}; }

enum Color : uint8_t { kWhite = 0, kBlack = 1 };
constexpr Color Opponent(Color c) { return Color(c ^ 1); }
// Rank index (0-based) of a side's first and last rank, and its forward step.
constexpr int FirstRank(Color c) { return c == kWhite ? 0 : kRanks - 1; }
constexpr int LastRank(Color c) { return c == kWhite ? kRanks - 1 : 0; }
constexpr int Forward(Color c) { return c == kWhite ? kFiles : -kFiles; }

enum PieceType : uint8_t {
  kNoPieceType = 0,
  kPawn = 1,
  kKnight = 2,
  kBishop = 3,
  kRook = 4,
  kQueen = 5,
  kPaladin = 6,  // knight + bishop; FEN-9 letter A, site move notation P
  kKing = 7,
};

// Piece = colour * 8 + type; 0 is the empty square.
enum Piece : uint8_t { kNoPiece = 0 };
constexpr Piece MakePiece(Color c, PieceType t) { return Piece((c << 3) | t); }
constexpr PieceType TypeOf(Piece p) { return PieceType(p & 7); }
constexpr Color ColorOf(Piece p) { return Color(p >> 3); }

// Letters of FEN-9 (§2.1): K Q A R B N P; uppercase White.
constexpr char FenLetter(PieceType t) {
  constexpr char kLetters[] = " PNBRQAK";
  return kLetters[t];
}

// The contested readings of spec §7 that change which moves exist.
struct Options {
  enum class PromotionTiming : uint8_t {
    // §4.4 (default): on arrival the player may promote to B/N or leave the
    // pawn unpromoted; such a pawn may promote on any later turn (deferred
    // promotion, optionally followed by one move of the new piece).
    kOptionalOnArrival,
    // §7.2 alternative: a pawn arriving on its last rank must promote at
    // once; no unpromoted last-rank pawns, hence no deferred promotion.
    kForcedOnArrival,
  };
  PromotionTiming promotion = PromotionTiming::kOptionalOnArrival;
  // §7.3: a non-pawn that can reach the e.p. square may also move there
  // without capturing (a separate move). false: only the capture exists.
  bool quiet_move_to_ep_square = true;
};

}  // namespace arbiter::chess99
