#include "core/pgn/san_resolver.h"

#include "core/chess/bitboard.h"
#include "core/chess/notation.h"

namespace arbiter {
namespace {

bool IsFile(char c) { return c >= 'a' && c <= 'h'; }
bool IsRank(char c) { return c >= '1' && c <= '8'; }

// Legality of a non-king, non-castling, non-en-passant move from `from` to
// `to` whose pseudo-legality the caller established: it must resolve a check
// and must not leave a pin line. This mirrors the movegen rules.
bool EvadesAndKeepsPin(const Position& pos, Square from, Square to) {
  const Square ksq = pos.king_square(pos.side_to_move());
  if (Bitboard checkers = pos.checkers()) {
    if (MoreThanOne(checkers)) return false;
    if (!(BetweenBB(ksq, Lsb(checkers)) & SquareBB(to))) return false;
  }
  return !(pos.pinned() & SquareBB(from)) || (LineBB(ksq, from) & SquareBB(to));
}

// Castling as movegen generates it (king takes own rook), or None when it
// is not legal; once per game and side, so worth avoiding a full MoveList.
Move Castling(const Position& pos, CastlingSide side) {
  const Color us = pos.side_to_move();
  const CastlingRight right = MakeCastlingRight(us, side);
  if (pos.in_check() || !pos.can_castle(right)) return Move::None();
  const Square ksq = pos.king_square(us);
  const Square rook = pos.castling_rook(right);
  const Square king_to = MakeSquare(side == kKingSide ? 6 : 2, RankOf(ksq));
  const Square rook_to = MakeSquare(side == kKingSide ? 5 : 3, RankOf(ksq));
  const Bitboard must_be_empty =
      (BetweenBB(rook, rook_to) | BetweenBB(ksq, king_to)) & ~(SquareBB(ksq) | SquareBB(rook));
  if (pos.pieces() & must_be_empty) return Move::None();
  // The king's path, with the occupancy after castling (see movegen.cc).
  const Bitboard occupied =
      (pos.pieces() ^ SquareBB(ksq) ^ SquareBB(rook)) | SquareBB(king_to) | SquareBB(rook_to);
  for (Bitboard path = BetweenBB(ksq, king_to) | SquareBB(king_to); path;)
    if (pos.IsAttacked(PopLsb(path), ~us, occupied)) return Move::None();
  return Move(ksq, rook, Move::kCastling);
}

// Returns Move::None() when the fast path cannot decide; the caller then
// asks ParseSan.
Move FastResolve(const Position& pos, std::string_view s) {
  while (!s.empty() && (s.back() == '+' || s.back() == '#')) s.remove_suffix(1);
  if (s == "O-O") return Castling(pos, kKingSide);
  if (s == "O-O-O") return Castling(pos, kQueenSide);
  if (s.size() < 2) return Move::None();

  PieceType promo = kNoPieceType;
  if (s.size() >= 4 && s[s.size() - 2] == '=') {
    promo = PieceFromSanLetter(s.back());
    if (promo == kNoPieceType || promo == kKing) return Move::None();
    s.remove_suffix(2);
  }
  if (!IsFile(s[s.size() - 2]) || !IsRank(s.back())) return Move::None();
  const Square to = MakeSquare(s[s.size() - 2] - 'a', s.back() - '1');
  s.remove_suffix(2);
  bool capture = false;
  if (!s.empty() && s.back() == 'x') {
    capture = true;
    s.remove_suffix(1);
  }

  const Color us = pos.side_to_move();
  const Bitboard occupied = pos.pieces();
  const Piece target = pos.piece_on(to);
  if (target != kNoPiece && (ColorOf(target) == us || TypeOf(target) == kKing)) return Move::None();
  if (capture != (target != kNoPiece)) return Move::None();  // incl. en passant

  if (s.empty() || IsFile(s[0])) {
    // Pawn: "e4", "e8=Q", "exd5", "exd8=Q".
    const bool last_rank = RelativeRank(us, to) == 7;
    if (last_rank != (promo != kNoPieceType)) return Move::None();
    const int up = us == kWhite ? 8 : -8;
    Square from;
    if (capture) {
      if (s.size() != 1 || RankOf(to) == (us == kWhite ? 0 : 7)) return Move::None();
      int file = s[0] - 'a';
      if (file - FileOf(to) != 1 && FileOf(to) - file != 1) return Move::None();
      from = MakeSquare(file, RankOf(to) - up / 8);
    } else {
      if (!s.empty()) return Move::None();
      if (RelativeRank(us, to) < 2) return Move::None();
      from = Square(to - up);
      // A double push needs the square in between empty: it is `from` here.
      if (pos.empty(from) && RelativeRank(us, to) == 3) from = Square(to - 2 * up);
    }
    if (pos.piece_on(from) != MakePiece(us, kPawn) || !EvadesAndKeepsPin(pos, from, to))
      return Move::None();
    return promo != kNoPieceType ? Move(from, to, Move::kPromotion, promo) : Move(from, to);
  }

  // Piece: "Nf3", "Nbd7", "R1e2", "Qh4xe1".
  const PieceType type = PieceFromSanLetter(s[0]);
  if (type == kNoPieceType || promo != kNoPieceType) return Move::None();
  s.remove_prefix(1);
  Bitboard from_mask = ~Bitboard{0};
  if (!s.empty() && IsFile(s[0])) {
    from_mask &= FileBB(s[0] - 'a');
    s.remove_prefix(1);
  }
  if (!s.empty() && IsRank(s[0])) {
    from_mask &= RankBB(s[0] - '1');
    s.remove_prefix(1);
  }
  if (!s.empty()) return Move::None();

  Bitboard candidates = Attacks(type, to, occupied) & pos.pieces(us, type) & from_mask;
  if (type == kKing) {
    if (!candidates) return Move::None();
    const Square ksq = Lsb(candidates);
    if (pos.IsAttacked(to, ~us, occupied ^ SquareBB(ksq))) return Move::None();
    return Move(ksq, to);
  }
  Move found = Move::None();
  while (candidates) {
    Square from = PopLsb(candidates);
    if (!EvadesAndKeepsPin(pos, from, to)) continue;
    if (!found.is_none()) return Move::None();  // ambiguous: ParseSan words the error
    found = Move(from, to);
  }
  return found;
}

}  // namespace

absl::StatusOr<Move> ResolveSan(const Position& pos, std::string_view san) {
  Move m = FastResolve(pos, san);
  if (!m.is_none()) return m;
  return ParseSan(pos, san);
}

}  // namespace arbiter
