#include "core/analysis/fortress.h"

#include "core/chess/bitboard.h"

namespace arbiter {
namespace {

Bitboard KingStepsOf(Bitboard set) {
  Bitboard b = set | Shift<8>(set) | Shift<-8>(set);
  return b | Shift<1>(b) | Shift<-1>(b);
}

// Squares a man of `type` standing on `from` can ever reach by moves
// through `passable`, with only `pawns` blocking its lines.
Bitboard Reach(PieceType type, Square from, Bitboard passable, Bitboard pawns) {
  Bitboard region = SquareBB(from), frontier = region;
  while (frontier) {
    Bitboard next = 0;
    if (type == kKing) {
      next = KingStepsOf(frontier);
    } else {
      for (Bitboard f = frontier; f;) next |= Attacks(type, PopLsb(f), pawns);
    }
    frontier = next & passable & ~region;
    region |= frontier;
  }
  return region;
}

// Every square a man of `type` attacks from somewhere in `region`.
Bitboard AttacksFrom(PieceType type, Bitboard region, Bitboard pawns) {
  if (type == kKing) return KingStepsOf(region);
  Bitboard attacked = 0;
  for (Bitboard r = region; r;) attacked |= Attacks(type, PopLsb(r), pawns);
  return attacked;
}

}  // namespace

bool AllPawnsBlocked(const Position& pos) {
  const Bitboard pawns = pos.pieces(kPawn);
  return (Shift<8>(pos.pieces(kWhite, kPawn)) & ~pawns) == 0 &&
         (Shift<-8>(pos.pieces(kBlack, kPawn)) & ~pawns) == 0;
}

bool FortressDeniesMate(const Position& pos, Color winner) {
  const Bitboard pawns = pos.pieces(kPawn);
  // (Castling moves a king and rook at once; not worth modelling here.)
  if (!pawns || pos.castling_rights() || !AllPawnsBlocked(pos)) return false;
  // Pawns never move unless they capture, so what they attack is fixed.
  const Bitboard attacked_by_pawns[2] = {PawnAttacksBB(kWhite, pos.pieces(kWhite, kPawn)),
                                         PawnAttacksBB(kBlack, pos.pieces(kBlack, kPawn))};
  // A pawn that can take a pawn breaks the wall.
  if ((attacked_by_pawns[kWhite] & pos.pieces(kBlack, kPawn)) ||
      (attacked_by_pawns[kBlack] & pos.pieces(kWhite, kPawn)))
    return false;
  const Color loser = ~winner;
  Bitboard loser_king_region = 0, winner_checks = 0;
  for (Bitboard men = pos.pieces() & ~pawns; men;) {
    const Square s = PopLsb(men);
    const Color c = ColorOf(pos.piece_on(s));
    const PieceType type = TypeOf(pos.piece_on(s));
    const Bitboard enemy_pawns = pos.pieces(~c, kPawn);
    Bitboard region, attacks;
    if (type == kKing) {
      // A king never steps where a pawn attacks; it can take only an
      // undefended pawn, which would break the wall.
      if (attacked_by_pawns[~c] & SquareBB(s)) return false;
      region = Reach(kKing, s, ~pawns & ~attacked_by_pawns[~c], pawns);
      attacks = AttacksFrom(kKing, region, pawns);
      if (attacks & enemy_pawns & ~attacked_by_pawns[~c]) return false;
      if (c == loser) loser_king_region = region;
    } else {
      // A piece that can reach a square a pawn attacks may be taken by it,
      // and one that attacks a pawn may take it: either breaks the wall.
      region = Reach(type, s, ~pawns, pawns);
      if (region & attacked_by_pawns[~c]) return false;
      attacks = AttacksFrom(type, region, pawns);
      if (attacks & enemy_pawns) return false;
      if (c == winner) winner_checks |= attacks;
    }
  }
  // Frozen pawns give check only where they already attack, and the losing
  // king never stands there (its region avoids those squares).
  return (winner_checks & loser_king_region) == 0;
}

}  // namespace arbiter
