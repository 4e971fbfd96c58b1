#include "core/analysis/fortress.h"

#include <vector>

#include "core/chess/bitboard.h"

namespace arbiter {
namespace {

Bitboard KingStepsOf(Bitboard set) {
  Bitboard b = set | Shift<8>(set) | Shift<-8>(set);
  return b | Shift<1>(b) | Shift<-1>(b);
}

Bitboard Forward(Color c, Bitboard b) { return c == kWhite ? Shift<8>(b) : Shift<-8>(b); }

Bitboard LastRank(Color c) { return RankBB(c == kWhite ? 7 : 0); }

// Squares attacked from anywhere in `region` by a man moving like `type`,
// with `walls` blocking lines. kNoPieceType stands for a promoted piece:
// queen and knight moves together cover every piece a pawn may become.
Bitboard AttacksFrom(PieceType type, Bitboard region, Bitboard walls) {
  if (type == kKing) return KingStepsOf(region) & ~region;
  Bitboard attacked = 0;
  for (Bitboard r = region; r;) {
    const Square s = PopLsb(r);
    attacked |=
        type == kNoPieceType ? QueenAttacks(s, walls) | KnightAttacks(s) : Attacks(type, s, walls);
  }
  return attacked;
}

// Squares reachable from `start` by repeated moves of `type` onto
// `passable` squares, with `walls` blocking lines.
Bitboard Flood(PieceType type, Bitboard start, Bitboard passable, Bitboard walls) {
  Bitboard region = start, frontier = start;
  while (frontier) {
    const Bitboard next =
        type == kKing ? KingStepsOf(frontier) : AttacksFrom(type, frontier, walls);
    frontier = next & passable & ~region;
    region |= frontier;
  }
  return region;
}

// A man that is not fixed: where it may ever stand and what it may ever
// attack. For a pawn, `region` holds its squares as a pawn and `promoted`
// its squares as a promoted piece.
struct Mover {
  Square from;
  Color color;
  PieceType type;
  Bitboard region = 0;
  Bitboard promoted = 0;
  Bitboard attacks = 0;
};

// Where a pawn of `c` on `from` may ever stand: pushes onto squares no wall
// holds, captures onto `capturable` squares (where an enemy man may stand).
// Single steps cover double pushes, and so the square an e.p. capture lands
// on.
Bitboard PawnFlood(Color c, Square from, Bitboard walls, Bitboard capturable) {
  Bitboard region = SquareBB(from), frontier = region;
  while (frontier) {
    const Bitboard pawns = frontier & ~LastRank(c);
    const Bitboard next = (Forward(c, pawns) & ~walls) | (PawnAttacksBB(c, pawns) & capturable);
    frontier = next & ~region;
    region |= frontier;
  }
  return region;
}

class Wall {
 public:
  explicit Wall(const Position& pos) : pos_(pos) {}

  bool DeniesMate(Color winner) {
    fixed_ = InitialFixed();
    if (!fixed_) return false;  // nothing permanent: no wall to argue from
    while (true) {
      FloodMovers();
      const Bitboard dislodged = Dislodged();
      if (!dislodged) break;
      fixed_ &= ~dislodged;
      if (!fixed_) return false;
    }
    const Color loser = ~winner;
    Bitboard loser_king = 0;
    for (const Mover& m : movers_)
      if (m.color == loser && m.type == kKing) loser_king = m.region;
    if (PawnAttacksBB(winner, fixed_ & pos_.pieces(winner)) & loser_king) return false;
    for (const Mover& m : movers_)
      if (m.color == winner && m.type != kKing && (m.attacks & loser_king)) return false;
    return true;
  }

 private:
  // Pawns with a pawn directly in front, but not those an e.p. capture
  // involves right now: the pawn that just moved two squares, and the pawns
  // that may take it (their capture lands on the empty e.p. square, which
  // no flood accounts for).
  Bitboard InitialFixed() const {
    const Bitboard pawns = pos_.pieces(kPawn);
    Bitboard fixed = (Forward(kBlack, pawns) & pos_.pieces(kWhite, kPawn)) |
                     (Forward(kWhite, pawns) & pos_.pieces(kBlack, kPawn));
    if (const Square ep = pos_.ep_square(); ep != kNoSquare) {
      const Color us = pos_.side_to_move();
      fixed &= ~Forward(~us, SquareBB(ep));                       // the pawn that moved
      fixed &= ~(PawnAttacks(~us, ep) & pos_.pieces(us, kPawn));  // its takers
    }
    return fixed;
  }

  // Regions and attacks of every man not fixed, with the fixed pawns as
  // walls. Pawns' captures depend on the enemy's regions, so their floods
  // are repeated until nothing grows.
  void FloodMovers() {
    const Bitboard walls = fixed_;
    movers_.clear();
    for (Bitboard men = pos_.pieces() & ~fixed_; men;) {
      const Square s = PopLsb(men);
      movers_.push_back({s, ColorOf(pos_.piece_on(s)), TypeOf(pos_.piece_on(s))});
    }
    for (Mover& m : movers_) {
      if (m.type == kPawn) {
        m.region = SquareBB(m.from);
        m.attacks = PawnAttacks(m.color, m.from);
      } else if (m.type == kKing) {
        const Bitboard guarded = PawnAttacksBB(~m.color, fixed_ & pos_.pieces(~m.color));
        m.region = Flood(kKing, SquareBB(m.from), ~walls & ~guarded, walls);
        m.attacks = AttacksFrom(kKing, m.region, walls);
      } else {
        m.region = Flood(m.type, SquareBB(m.from), ~walls, walls);
        m.attacks = AttacksFrom(m.type, m.region, walls);
      }
    }
    for (bool grew = true; grew;) {
      grew = false;
      for (Mover& m : movers_) {
        if (m.type != kPawn) continue;
        const Bitboard region = PawnFlood(m.color, m.from, walls, Standing(~m.color));
        if (region == m.region) continue;
        grew = true;
        m.region = region;
        const Bitboard last = region & LastRank(m.color);
        m.promoted = last ? Flood(kNoPieceType, last, ~walls, walls) : 0;
        m.attacks = PawnAttacksBB(m.color, region & ~LastRank(m.color)) |
                    AttacksFrom(kNoPieceType, m.promoted, walls);
      }
    }
  }

  // Squares where a man of `c` other than its king may ever stand (kings
  // are never captured, so only these squares allow a pawn capture).
  Bitboard Standing(Color c) const {
    Bitboard squares = fixed_ & pos_.pieces(c);
    for (const Mover& m : movers_)
      if (m.color == c && m.type != kKing) squares |= m.region | m.promoted;
    return squares;
  }

  // Fixed pawns that could, after all, move or be taken.
  Bitboard Dislodged() const {
    Bitboard dislodged = 0;
    for (Color c : {kWhite, kBlack}) {
      const Bitboard ours = fixed_ & pos_.pieces(c);
      // A push, where the square in front is not a wall.
      dislodged |= ours & Forward(~c, ~fixed_);
      // A capture, onto a square an enemy man may stand on.
      dislodged |= ours & PawnAttacksBB(~c, Standing(~c));
      // Taken: attacked by an enemy man, or next to the enemy king's region
      // and not guarded by a fixed pawn of ours.
      const Bitboard guarded = PawnAttacksBB(c, ours);
      for (const Mover& m : movers_) {
        if (m.color == c) continue;
        dislodged |= ours & m.attacks & (m.type == kKing ? ~guarded : ~Bitboard(0));
      }
    }
    return dislodged;
  }

  const Position& pos_;
  Bitboard fixed_ = 0;
  std::vector<Mover> movers_;
};

}  // namespace

bool AllPawnsBlocked(const Position& pos) {
  const Bitboard pawns = pos.pieces(kPawn);
  return (Shift<8>(pos.pieces(kWhite, kPawn)) & ~pawns) == 0 &&
         (Shift<-8>(pos.pieces(kBlack, kPawn)) & ~pawns) == 0;
}

bool FortressDeniesMate(const Position& pos, Color winner) { return Wall(pos).DeniesMate(winner); }

}  // namespace arbiter
