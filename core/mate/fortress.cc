#include "core/mate/fortress.h"

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

#include "core/chess/bitboard.h"
#include "core/chess/movegen.h"

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
  if (type == kKing) return KingStepsOf(region);
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

// Where a free pawn of `c` on `from` may ever stand: pushes onto squares no
// wall holds, captures onto `capturable` squares (where an enemy man may
// stand). Single steps cover double pushes, and so the square an e.p.
// capture lands on.
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

// One man and what the argument allows it. Pawns start "bound": confined
// to their file, because they can never capture and never promote. A bound
// pawn may still be "removable" (an enemy man may take it); it then stops
// counting as an obstacle, but while it exists it stays on its file. Kings
// and pieces start "stuck": never moving and never taken (a king hemmed in
// by its own pawns and the enemy's, a bishop behind its own wall).
struct Man {
  Square from;
  Color color;
  PieceType type;
  bool bound = false;      // pawns only
  bool removable = false;  // bound pawns only
  bool stuck = false;      // kings and pieces only
  Bitboard region = 0;     // squares it may ever stand on (as a pawn, for pawns)
  Bitboard promoted = 0;   // free pawns: squares as a promoted piece
  Bitboard attacks = 0;    // squares it may ever attack
};

// Whether the king or piece on `s` may be stuck: every square it attacks
// holds a man of its own (for a king, or an enemy pawn, or is attacked by
// one). Pieces that can move now start free, which saves the rounds that
// would free them one by one; the rest start stuck and are freed if the
// argument does not confirm it.
bool MayBeStuck(const Position& pos, Square s) {
  const Color c = ColorOf(pos.piece_on(s));
  const PieceType type = TypeOf(pos.piece_on(s));
  Bitboard blocked = pos.pieces(c);
  if (type == kKing) {
    const Bitboard enemy_pawns = pos.pieces(~c, kPawn);
    blocked |= enemy_pawns | PawnAttacksBB(~c, enemy_pawns) | KingAttacks(pos.king_square(~c));
  }
  return (Attacks(type, s, pos.pieces()) & ~blocked) == 0;
}

// Whether the side to move has a move that mates.
bool MatesInOne(const Position& pos) {
  for (Move m : MoveList(pos)) {
    Position after = pos;
    after.DoMove(m);
    if (after.in_check() && !HasLegalMove(after)) return true;
  }
  return false;
}

class Wall {
 public:
  explicit Wall(const Position& pos) : pos_(pos) {
    for (Bitboard men = pos.pieces(); men;) {
      const Square s = PopLsb(men);
      const Piece p = pos.piece_on(s);
      Man m{s, ColorOf(p), TypeOf(p)};
      m.bound = m.type == kPawn;
      // A king or rook that may still castle is never stuck: in Chess960
      // the rook may jump over a king that does not move (king on g1, rook
      // from h1 to f1), which no flood with the king as a wall allows.
      const bool castles = pos.can_castle(CastlingRightsOf(m.color));
      m.stuck = m.type != kPawn && MayBeStuck(pos, s) &&
                !(castles && (m.type == kKing || m.type == kRook));
      men_.push_back(m);
    }
    // An e.p. capture possible now lands on an empty square that no region
    // accounts for: the pawns that may make it are free from the start,
    // and the pawn that just moved two squares may be taken.
    if (const Square ep = pos.ep_square(); ep != kNoSquare) {
      const Color us = pos.side_to_move();
      const Bitboard takers = PawnAttacks(~us, ep) & pos.pieces(us, kPawn);
      const Bitboard moved = Forward(~us, SquareBB(ep));
      for (Man& m : men_) {
        if (takers & SquareBB(m.from)) m.bound = false;
        if (moved & SquareBB(m.from)) m.removable = true;
      }
    }
  }

  bool DeniesMate(Color winner) {
    const Color loser = ~winner;
    for (int round = 0;; ++round) {
      BoundRegions();
      // Nothing permanent to argue from: the floods would cover the board.
      if (round == 0 && !walls_) return false;
      FreeRegions();
      // A winning pawn that may promote next to the losing king's region
      // gives checks from everywhere: the proof would fail in the end
      // (rounds only weaken the claims), so it is given up at once.
      const Bitboard near_king = KingStepsOf(King(loser).region);
      for (const Man& m : men_)
        if (m.color == winner && (m.promoted & near_king)) return false;
      if (!Weaken(winner)) break;
    }
    const Man& loser_king = King(loser);
    const Bitboard kingdom = loser_king.region;
    // A king already in check for good is left to other methods.
    if (PermanentAttacks(winner) & kingdom) return false;
    Bitboard checks = 0;  // squares a winning man other than the king may attack
    for (const Man& m : men_)
      if (m.color == winner && m.type != kKing) checks |= m.attacks;
    // A loser with nothing but king steps makes one before any mate: at
    // once if it is to move and not already stalemated or mated, else after
    // the winner's first move unless that one mates (tried move by move).
    // What follows from it (MateNetPossible) assumes that a king move
    // checks only by uncovering a line, which castling breaks: the rook
    // checks.
    const bool loser_steps_last =
        !pos_.can_castle(CastlingRightsOf(winner)) && OnlyKingMoves(loser) &&
        (pos_.side_to_move() == loser ? HasLegalMove(pos_) : !MatesInOne(pos_));
    for (Bitboard targets = checks & kingdom; targets;) {
      if (MateNetPossible(PopLsb(targets), winner, checks, loser_steps_last)) return false;
    }
    return true;
  }

 private:
  const Man& King(Color c) const {
    for (const Man& m : men_)
      if (m.type == kKing && m.color == c) return m;
    return men_.front();  // unreachable: a position has both kings
  }

  // Bound pawns move only along their file, and cannot pass a pawn on it
  // that cannot be removed: an enemy one stops them before its square (it
  // only comes closer), an own one below the highest square it may reach.
  void BoundRegions() {
    obstacles_ = 0;
    for (const Man& m : men_)
      if ((m.bound && !m.removable) || m.stuck) obstacles_ |= SquareBB(m.from);
    // Front pawns first, so that an own pawn ahead already has its region.
    std::vector<Man*> order;
    for (Man& m : men_)
      if (m.bound) order.push_back(&m);
    std::sort(order.begin(), order.end(), [](const Man* a, const Man* b) {
      return RelativeRank(a->color, a->from) > RelativeRank(b->color, b->from);
    });
    for (Man* m : order) {
      const int step = m->color == kWhite ? 8 : -8;
      Bitboard region = SquareBB(m->from);
      for (int s = m->from + step; s >= 0 && s < 64; s += step) {
        const Square sq = Square(s);
        if (obstacles_ & SquareBB(sq)) {
          // A stuck man never gives way; nor does an enemy pawn.
          const Man* ahead = BoundAt(sq);
          if (ahead && ahead->color == m->color) region |= ahead->region & ~SquareBB(Top(*ahead));
          break;
        }
        region |= SquareBB(sq);
      }
      m->region = region;
      m->attacks = PawnAttacksBB(m->color, region & ~LastRank(m->color));
    }
    walls_ = 0;
    for (const Man& m : men_)
      if ((m.bound && !m.removable && m.region == SquareBB(m.from)) || m.stuck)
        walls_ |= SquareBB(m.from);
  }

  // The square of a bound pawn's region farthest up its file.
  static Square Top(const Man& m) {
    return m.color == kWhite ? Square(63 - std::countl_zero(m.region)) : Lsb(m.region);
  }

  const Man* BoundAt(Square s) const {
    for (const Man& m : men_)
      if (m.bound && m.from == s) return &m;
    return nullptr;
  }

  // Regions and attacks of every man that is not a bound pawn, with the
  // walls as the only obstacles. Free pawns' captures depend on the
  // enemy's regions, so their floods are repeated until nothing grows.
  void FreeRegions() {
    ComputeFixedAttacks();
    for (Man& m : men_) {
      if (m.bound) continue;
      if (m.type == kPawn) {
        m.region = SquareBB(m.from);
        m.promoted = 0;
        m.attacks = PawnAttacks(m.color, m.from);
      } else if (m.type == kKing) {
        m.region = SquareBB(m.from);  // grown below, with the other king's
      } else {
        m.region = m.stuck ? SquareBB(m.from) : PieceFlood(m);
        m.attacks = AttacksFrom(m.type, m.region, walls_);
      }
    }
    // Each king keeps off the squares next to the other wherever it may
    // stand: grow both regions together from their squares until neither
    // grows (the least regions consistent with each other).
    for (bool grew = true; grew;) {
      grew = false;
      for (Man& m : men_) {
        if (m.type != kKing || m.stuck) continue;
        const Bitboard region = PieceFlood(m);
        grew |= region != m.region;
        m.region = region;
      }
    }
    for (Man& m : men_)
      if (m.type == kKing) m.attacks = AttacksFrom(kKing, m.region, walls_);
    for (bool grew = true; grew;) {
      grew = false;
      const Bitboard standing[2] = {Standing(kWhite), Standing(kBlack)};
      for (Man& m : men_) {
        if (m.bound || m.type != kPawn) continue;
        const Bitboard region = PawnFlood(m.color, m.from, walls_, standing[~m.color]);
        if (region == m.region) continue;
        grew = true;
        m.region = region;
        const Bitboard last = region & LastRank(m.color);
        m.promoted = last ? Flood(kNoPieceType, last, ~walls_, walls_) : 0;
        m.attacks = PawnAttacksBB(m.color, region & ~LastRank(m.color)) |
                    AttacksFrom(kNoPieceType, m.promoted, walls_);
      }
    }
  }

  // Where a king or piece may ever stand, with the walls as obstacles. A
  // king never steps where an enemy attacks for good: a square next to an
  // enemy king or stuck piece, a knight's jump from a stuck knight, or a
  // square a wall pawn attacks.
  Bitboard PieceFlood(const Man& m) const {
    if (m.type != kKing) return Flood(m.type, SquareBB(m.from), ~walls_, walls_);
    return Flood(kKing, SquareBB(m.from), ~walls_ & ~PermanentAttacks(~m.color), walls_);
  }

  // Squares the men of `c` attack for good: those of its wall pawns and
  // those next to (a knight's jump from) its stuck pieces (computed once a
  // round, with the walls), and those next to its king wherever in its
  // region it stands.
  void ComputeFixedAttacks() {
    for (Color c : {kWhite, kBlack}) {
      Bitboard attacked = PawnAttacksBB(c, walls_ & pos_.pieces(c, kPawn));
      for (const Man& m : men_) {
        if (m.color != c || !m.stuck || m.type == kKing) continue;
        attacked |= m.type == kKnight
                        ? KnightAttacks(m.from)
                        : Attacks(m.type, m.from, pos_.pieces()) & KingAttacks(m.from);
      }
      fixed_attacks_[c] = attacked;
    }
  }
  Bitboard PermanentAttacks(Color c) const {
    const Bitboard region = King(c).region;
    Bitboard near = ~Bitboard(0);
    for (Bitboard r = region; r && near;) near &= KingStepsOf(SquareBB(PopLsb(r)));
    return fixed_attacks_[c] | near;
  }

  // Squares where a man of `c` other than its king may ever stand (kings
  // are never captured, so only these squares allow a pawn capture).
  Bitboard Standing(Color c) const {
    Bitboard squares = 0;
    for (const Man& m : men_)
      if (m.color == c && m.type != kKing) squares |= m.region | m.promoted;
    return squares;
  }

  // Whether every man of `c` but its king stays on its square for good
  // (stuck, or a bound pawn with no square to go to): `c` then has no move
  // but its king's steps.
  bool OnlyKingMoves(Color c) const {
    for (const Man& m : men_) {
      if (m.color != c || m.type == kKing || m.stuck) continue;
      if (!m.bound || m.region != SquareBB(m.from)) return false;
    }
    return true;
  }

  // Squares from which a man of `c` sliding through `s` may be uncovered:
  // the lines from `s` that its bishops, rooks, queens or promoted pawns
  // could stand on, with the walls as the only obstacles.
  Bitboard DiscoveryLines(Color c, Square s) const {
    bool diagonal = false, straight = false;
    for (const Man& m : men_) {
      if (m.color != c) continue;
      diagonal |= m.promoted || m.type == kBishop || m.type == kQueen;
      straight |= m.promoted || m.type == kRook || m.type == kQueen;
    }
    return (diagonal ? BishopAttacks(s, walls_) : 0) | (straight ? RookAttacks(s, walls_) : 0);
  }

  // Squares of men of `s` that the enemy king may take only to end the
  // game, so that the claims need not allow for it. When `s` has nothing
  // but king steps (OnlyKingMoves), the taken man stood still, and with the
  // enemy king on its square `s`'s king finds no square to step to (its own
  // walls, the enemy's permanent attacks and the taker's reach close every
  // one) from anywhere in its region the taker does not touch, `s` is left
  // without a legal move: stalemate, or mate if the capture uncovered a
  // check. Mate of `s` ends the game as well when `s` is the winner; when
  // it is the loser, the capture must not come from a square on a line
  // through which the winner may check.
  Bitboard KingTakesThatEndTheGame(Color s, Color winner) const {
    if (!OnlyKingMoves(s)) return 0;
    const Bitboard region = King(s).region, taker = King(~s).region;
    const Bitboard closed = (walls_ & pos_.pieces(s)) | fixed_attacks_[~s];
    Bitboard ends = 0;
    for (const Man& m : men_) {
      if (m.color != s || m.type == kKing) continue;
      const Bitboard near_taker = KingStepsOf(SquareBB(m.from));
      bool ends_game = true;
      for (Bitboard r = region & ~near_taker; r && ends_game;) {
        const Square at = PopLsb(r);
        ends_game = !(KingAttacks(at) & ~closed & ~near_taker) &&
                    (s == winner || !(KingAttacks(m.from) & taker & DiscoveryLines(~s, at)));
      }
      if (ends_game) ends |= SquareBB(m.from);
    }
    return ends;
  }

  // Frees bound pawns that may capture or promote, and marks removable
  // those an enemy may take. False when nothing changed.
  bool Weaken(Color winner) {
    bool changed = false;
    const Bitboard standing[2] = {Standing(kWhite), Standing(kBlack)};
    // Squares where the men of a colour may take: a king only where no
    // enemy guards the square for good, and not a man whose capture ends
    // the game.
    const Bitboard permanent[2] = {PermanentAttacks(kWhite), PermanentAttacks(kBlack)};
    const Bitboard game_enders[2] = {KingTakesThatEndTheGame(kWhite, winner),
                                     KingTakesThatEndTheGame(kBlack, winner)};
    Bitboard attacked[2] = {0, 0};
    for (const Man& m : men_)
      attacked[m.color] |=
          m.type == kKing ? m.attacks & ~permanent[~m.color] & ~game_enders[~m.color] : m.attacks;
    for (Man& m : men_) {
      if (!m.stuck) continue;
      // It may move after all, or (a piece) be taken.
      if (PieceFlood(m) != SquareBB(m.from) ||
          (m.type != kKing && (attacked[~m.color] & SquareBB(m.from)))) {
        m.stuck = false;
        changed = true;
      }
    }
    for (Man& m : men_) {
      if (!m.bound) continue;
      const Color c = m.color;
      if ((m.region & LastRank(c)) || (m.attacks & standing[~c])) {
        m.bound = false;
        changed = true;
        continue;
      }
      if (m.removable) continue;
      const Bitboard guarded = permanent[c] | game_enders[c];
      for (const Man& e : men_) {
        if (e.color == c || e.bound) continue;
        const Bitboard takes = e.type == kKing ? e.attacks & ~guarded : e.attacks;
        if (takes & m.region) {
          m.removable = true;
          changed = true;
          break;
        }
      }
    }
    return changed;
  }

  // Whether the losing king could be mated on `k`: every square next to it
  // that it could step to must be attacked by a winning man or held by a
  // losing one. Squares the winning men other than the king may attack
  // (`checks`) count as attacked; the winning king covers the squares next
  // to where it stands (two steps from `k` at most); every other square
  // needs a losing man of its own, one that may stand there.
  //
  // When the loser's last move was a king step (`loser_steps_last`), it
  // came to `k` from a square next to it, which must be covered as well:
  // by a winning man other than the king, or by the winning king, which
  // could not stand next to that square before (the kings would have
  // touched), so it steps there with the mating move, and the check is
  // uncovered: it must step off a line through `k` that a winning slider
  // may stand on.
  bool MateNetPossible(Square k, Color winner, Bitboard checks, bool loser_steps_last) const {
    const Bitboard region = King(~winner).region;
    const Bitboard ring = KingStepsOf(KingStepsOf(SquareBB(k))) & ~KingStepsOf(SquareBB(k));
    if (loser_steps_last) {
      const Bitboard winner_king = King(winner).region;
      const Bitboard lines = DiscoveryLines(winner, k);
      Bitboard covered = checks;
      for (Bitboard w = ring & winner_king; w;) {
        const Square to = PopLsb(w);
        if (KingAttacks(to) & winner_king & lines) covered |= KingAttacks(to);
      }
      if (!(KingAttacks(k) & region & covered)) return false;
    }
    const Bitboard open = KingAttacks(k) & region & ~checks;
    if (!open) return true;
    std::vector<Bitboard> blockers;
    for (const Man& m : men_)
      if (m.color != winner && m.type != kKing) blockers.push_back((m.region | m.promoted) & open);
    if (Matchable(open, blockers)) return true;
    for (Bitboard w = ring & King(winner).region; w;) {
      if (Matchable(open & ~KingAttacks(PopLsb(w)), blockers)) return true;
    }
    return false;
  }

  // Whether every square of `squares` can get a man of its own, each man
  // choosing among its `options` (bipartite matching by augmenting paths).
  static bool Matchable(Bitboard squares, const std::vector<Bitboard>& options) {
    std::array<int, 64> holder;
    holder.fill(-1);
    for (Bitboard s = squares; s;) {
      std::vector<bool> visited(options.size(), false);
      if (!Augment(PopLsb(s), options, holder, visited)) return false;
    }
    return true;
  }

  static bool Augment(Square s, const std::vector<Bitboard>& options, std::array<int, 64>& holder,
                      std::vector<bool>& visited) {
    for (size_t i = 0; i < options.size(); ++i) {
      if (visited[i] || !(options[i] & SquareBB(s))) continue;
      visited[i] = true;
      // Man i takes `s`, unless it already holds a square: that square then
      // needs another man.
      int held = -1;
      for (int t = 0; t < 64; ++t)
        if (holder[t] == int(i)) held = t;
      if (held < 0 || Augment(Square(held), options, holder, visited)) {
        if (held >= 0) holder[held] = -1;
        holder[s] = int(i);
        return true;
      }
    }
    return false;
  }

  const Position& pos_;
  std::vector<Man> men_;
  Bitboard obstacles_ = 0;              // bound pawns that cannot be removed
  Bitboard walls_ = 0;                  // ... and cannot move either: permanent
  Bitboard fixed_attacks_[2] = {0, 0};  // ComputeFixedAttacks
};

}  // namespace

bool AllPawnsBlocked(const Position& pos) {
  const Bitboard pawns = pos.pieces(kPawn);
  return (Shift<8>(pos.pieces(kWhite, kPawn)) & ~pawns) == 0 &&
         (Shift<-8>(pos.pieces(kBlack, kPawn)) & ~pawns) == 0;
}

bool FortressDeniesMate(const Position& pos, Color winner) {
  if (!pos.pieces(kPawn)) return false;  // nothing permanent to argue from
  return Wall(pos).DeniesMate(winner);
}

}  // namespace arbiter
