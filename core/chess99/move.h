// A Chess 99 move. Besides ordinary moves it covers what orthodox chess does
// not have: castling with any friendly piece (§3.8), en passant by any unit
// (§4.2), and deferred promotion of a pawn waiting on its last rank (§4.4).
#pragma once

#include <cstdint>

#include "core/chess99/board.h"

namespace arbiter::chess99 {

enum class MoveKind : uint8_t {
  kNormal,       // a move or capture on `to` (king captures included)
  kEnPassant,    // capture of the unit that just double-stepped, landing on the e.p. square
  kCastle,       // king from -> to (one step); partner -> from. Short iff partner == to
  kPromoteOnly,  // deferred promotion without a move: the pawn on `from` becomes `deferred`
};

struct Move {
  Square from = kNoSquare;
  Square to = kNoSquare;  // == from for kPromoteOnly
  MoveKind kind = MoveKind::kNormal;
  // Promotion on arrival (a pawn move reaching the last rank): kBishop or
  // kKnight, or kNoPieceType when the pawn stays a pawn / no promotion.
  PieceType promotion = kNoPieceType;
  // Deferred promotion: the unpromoted pawn on `from` becomes this piece
  // first; with kNormal / kEnPassant the new piece then makes the move.
  PieceType deferred = kNoPieceType;
  Square partner = kNoSquare;  // castling partner's square (kCastle only)

  bool is_castle() const { return kind == MoveKind::kCastle; }
  bool is_short_castle() const { return is_castle() && partner == to; }
  bool is_long_castle() const { return is_castle() && partner != to; }
  bool is_en_passant() const { return kind == MoveKind::kEnPassant; }
  friend bool operator==(const Move&, const Move&) = default;
};

}  // namespace arbiter::chess99
