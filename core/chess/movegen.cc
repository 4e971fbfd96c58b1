#include "core/chess/movegen.h"

namespace arbiter {
namespace {

// The `from_mask` that generates the moves of every man.
constexpr Bitboard kEveryMan = ~Bitboard{0};

// The king's legal steps: onto no own man and no attacked square.
template <Color kUs>
Bitboard KingDestinations(const Position& pos, Square ksq) {
  const Bitboard candidates = KingAttacks(ksq) & ~pos.pieces(kUs);
  if (!candidates) return 0;
  // One lookup per enemy man, with our king off the board (so a slider's
  // attack runs through the square it leaves): in endgames far cheaper
  // than asking, for each of up to eight destinations, who attacks it.
  return candidates & ~pos.AttackedSquares(~kUs, pos.pieces() ^ SquareBB(ksq));
}

// Pawn moves for side `us`. `target` restricts destination squares (check
// evasions); pinned pawns may only move along the pin line.
template <Color kUs>
Move* GeneratePawnMoves(const Position& pos, Move* out, Bitboard target, Bitboard pinned,
                        Square ksq, Bitboard from_mask) {
  constexpr Color kThem = ~kUs;
  constexpr int kUp = kUs == kWhite ? 8 : -8;
  constexpr int kUpLeft = kUs == kWhite ? 7 : -9;
  constexpr int kUpRight = kUs == kWhite ? 9 : -7;
  constexpr Bitboard kRank7 = kUs == kWhite ? RankBB(6) : RankBB(1);
  constexpr Bitboard kRank3 = kUs == kWhite ? RankBB(2) : RankBB(5);

  const Bitboard empty = ~pos.pieces();
  const Bitboard enemies = pos.pieces(kThem);
  const Bitboard pawns = pos.pieces(kUs, kPawn) & from_mask;
  // Pawns pinned on a file may push; pinned on a diagonal may capture the
  // pinner; we check the pin line per move only for pinned pawns.
  const Bitboard free_pawns = pawns & ~pinned;
  const Bitboard pinned_pawns = pawns & pinned;

  auto emit = [&](Bitboard dests, int delta, bool promo) {
    while (dests) {
      Square to = PopLsb(dests);
      Square from = Square(to - delta);
      if (promo) {
        *out++ = Move(from, to, Move::kPromotion, kQueen);
        *out++ = Move(from, to, Move::kPromotion, kRook);
        *out++ = Move(from, to, Move::kPromotion, kBishop);
        *out++ = Move(from, to, Move::kPromotion, kKnight);
      } else {
        *out++ = Move(from, to);
      }
    }
  };

  auto gen = [&](Bitboard movers) {
    Bitboard non7 = movers & ~kRank7, on7 = movers & kRank7;
    Bitboard push1 = Shift<kUp>(non7) & empty;
    Bitboard push2 = Shift<kUp>(push1 & kRank3) & empty;
    emit(push1 & target, kUp, false);
    emit(push2 & target, 2 * kUp, false);
    emit(Shift<kUpLeft>(non7) & enemies & target, kUpLeft, false);
    emit(Shift<kUpRight>(non7) & enemies & target, kUpRight, false);
    if (on7) {
      emit(Shift<kUp>(on7) & empty & target, kUp, true);
      emit(Shift<kUpLeft>(on7) & enemies & target, kUpLeft, true);
      emit(Shift<kUpRight>(on7) & enemies & target, kUpRight, true);
    }
  };

  gen(free_pawns);
  // Pinned pawns (rare): generate each alone, restricted to its pin line.
  for (Bitboard pp = pinned_pawns; pp;) {
    Square s = PopLsb(pp);
    Bitboard saved_target = target;
    target &= LineBB(ksq, s);
    gen(SquareBB(s));
    target = saved_target;
  }

  // En passant: rare, so checked by full simulation in Position (the state
  // only records an e.p. square when some capture is legal, but a position
  // may have two capturers of which one is illegal).
  Square ep = pos.ep_square();
  if (ep != kNoSquare) {
    Square captured = Square(ep - kUp);
    Bitboard capturers = PawnAttacks(kThem, ep) & pawns;
    while (capturers) {
      Square from = PopLsb(capturers);
      Bitboard occupied = (pos.pieces() ^ SquareBB(from) ^ SquareBB(captured)) | SquareBB(ep);
      Bitboard attackers = ((RookAttacks(ksq, occupied) & pos.pieces(kRook, kQueen)) |
                            (BishopAttacks(ksq, occupied) & pos.pieces(kBishop, kQueen)) |
                            (KnightAttacks(ksq) & pos.pieces(kKnight)) |
                            (PawnAttacks(kUs, ksq) & pos.pieces(kPawn) & ~SquareBB(captured))) &
                           enemies;
      if (!attackers) *out++ = Move(from, ep, Move::kEnPassant);
    }
  }
  return out;
}

template <PieceType kType>
Move* GeneratePieceMoves(const Position& pos, Move* out, Color us, Bitboard target, Bitboard pinned,
                         Square ksq, Bitboard from_mask) {
  Bitboard movers = pos.pieces(us, kType) & from_mask;
  if constexpr (kType == kKnight) movers &= ~pinned;  // a pinned knight never moves
  const Bitboard occupied = pos.pieces();
  while (movers) {
    Square from = PopLsb(movers);
    Bitboard dests = Attacks(kType, from, occupied) & target;
    if (kType != kKnight && (pinned & SquareBB(from))) dests &= LineBB(ksq, from);
    while (dests) *out++ = Move(from, PopLsb(dests));
  }
  return out;
}

template <Color kUs>
Move* GenerateCastling(const Position& pos, Move* out, Square ksq) {
  constexpr Color kThem = ~kUs;
  for (CastlingSide side : {kKingSide, kQueenSide}) {
    CastlingRight right = MakeCastlingRight(kUs, side);
    if (!pos.can_castle(right)) continue;
    Square rook = pos.castling_rook(right);
    Square king_to = MakeSquare(side == kKingSide ? 6 : 2, RankOf(ksq));
    Square rook_to = MakeSquare(side == kKingSide ? 5 : 3, RankOf(ksq));
    Bitboard must_be_empty =
        (BetweenBB(rook, rook_to) | BetweenBB(ksq, king_to)) & ~(SquareBB(ksq) | SquareBB(rook));
    if (pos.pieces() & must_be_empty) continue;
    // The king may not pass through or land on an attacked square. Testing
    // every square with the occupancy after castling is exact: off the rank,
    // king and rook do not matter; along the rank, an attacker from one side
    // would hit the king's origin first (already in check) and one from the
    // other side would hit the destination first.
    Bitboard occupied =
        (pos.pieces() ^ SquareBB(ksq) ^ SquareBB(rook)) | SquareBB(king_to) | SquareBB(rook_to);
    Bitboard path = BetweenBB(ksq, king_to) | SquareBB(king_to);
    bool attacked = false;
    while (path && !attacked) attacked = pos.IsAttacked(PopLsb(path), kThem, occupied);
    if (!attacked) *out++ = Move(ksq, rook, Move::kCastling);
  }
  return out;
}

// The legal moves of the men on `from_mask` (kEveryMan: all of them).
template <Color kUs>
Move* Generate(const Position& pos, Move* out, Bitboard from_mask) {
  const Square ksq = pos.king_square(kUs);
  const Bitboard checkers = pos.checkers();
  const Bitboard pinned = pos.pinned();
  const Bitboard ours = pos.pieces(kUs);

  const bool king_moves = from_mask & SquareBB(ksq);
  if (king_moves)
    for (Bitboard dests = KingDestinations<kUs>(pos, ksq); dests;)
      *out++ = Move(ksq, PopLsb(dests));
  if (MoreThanOne(checkers)) return out;  // double check: only king moves

  Bitboard target = ~ours;
  if (checkers) target = BetweenBB(ksq, Lsb(checkers));  // block or capture
  out = GeneratePawnMoves<kUs>(pos, out, target, pinned, ksq, from_mask);
  out = GeneratePieceMoves<kKnight>(pos, out, kUs, target, pinned, ksq, from_mask);
  out = GeneratePieceMoves<kBishop>(pos, out, kUs, target, pinned, ksq, from_mask);
  out = GeneratePieceMoves<kRook>(pos, out, kUs, target, pinned, ksq, from_mask);
  out = GeneratePieceMoves<kQueen>(pos, out, kUs, target, pinned, ksq, from_mask);
  if (king_moves && !checkers && pos.castling_rights()) out = GenerateCastling<kUs>(pos, out, ksq);
  return out;
}

// Whether any legal move exists: a king step first (the usual escape from a
// check), then the other men type by type, stopping at the first.
template <Color kUs>
bool AnyLegalMove(const Position& pos) {
  const Square ksq = pos.king_square(kUs);
  const Bitboard checkers = pos.checkers();
  if (KingDestinations<kUs>(pos, ksq)) return true;
  if (MoreThanOne(checkers)) return false;
  const Bitboard target = checkers ? BetweenBB(ksq, Lsb(checkers)) : ~pos.pieces(kUs);
  const Bitboard pinned = pos.pinned();
  MoveBuffer buffer;
  Move* const moves = buffer.moves;
  if (GeneratePieceMoves<kKnight>(pos, moves, kUs, target, pinned, ksq, kEveryMan) != moves)
    return true;
  if (GeneratePawnMoves<kUs>(pos, moves, target, pinned, ksq, kEveryMan) != moves) return true;
  if (GeneratePieceMoves<kBishop>(pos, moves, kUs, target, pinned, ksq, kEveryMan) != moves)
    return true;
  if (GeneratePieceMoves<kRook>(pos, moves, kUs, target, pinned, ksq, kEveryMan) != moves)
    return true;
  if (GeneratePieceMoves<kQueen>(pos, moves, kUs, target, pinned, ksq, kEveryMan) != moves)
    return true;
  // Castling is never legal in check, and without check the king's other
  // moves were found above or the men's: a castling-only position still
  // has to be looked at.
  return !checkers && pos.castling_rights() && GenerateCastling<kUs>(pos, moves, ksq) != moves;
}

// The number of legal moves, or `at_most` once that many are found: the
// men that need no attack test first, the king's steps last. In check,
// every evasion is generated (checks are a small share of positions).
template <Color kUs>
int CountLegalMovesUpTo(const Position& pos, int at_most) {
  MoveBuffer buffer;
  Move* const moves = buffer.moves;
  if (pos.checkers()) {
    return std::min(int(Generate<kUs>(pos, moves, kEveryMan) - moves), at_most);
  }
  const Square ksq = pos.king_square(kUs);
  const Bitboard target = ~pos.pieces(kUs);
  const Bitboard pinned = pos.pinned();
  Move* end = GeneratePieceMoves<kKnight>(pos, moves, kUs, target, pinned, ksq, kEveryMan);
  if (end - moves >= at_most) return at_most;
  end = GeneratePawnMoves<kUs>(pos, end, target, pinned, ksq, kEveryMan);
  if (end - moves >= at_most) return at_most;
  end = GeneratePieceMoves<kBishop>(pos, end, kUs, target, pinned, ksq, kEveryMan);
  if (end - moves >= at_most) return at_most;
  end = GeneratePieceMoves<kRook>(pos, end, kUs, target, pinned, ksq, kEveryMan);
  if (end - moves >= at_most) return at_most;
  end = GeneratePieceMoves<kQueen>(pos, end, kUs, target, pinned, ksq, kEveryMan);
  int count = int(end - moves) + PopCount(KingDestinations<kUs>(pos, ksq));
  if (count >= at_most) return at_most;
  if (pos.castling_rights()) count += int(GenerateCastling<kUs>(pos, moves, ksq) - moves);
  return std::min(count, at_most);
}

}  // namespace

bool HasLegalMove(const Position& pos) {
  return pos.side_to_move() == kWhite ? AnyLegalMove<kWhite>(pos) : AnyLegalMove<kBlack>(pos);
}

int CountLegalMoves(const Position& pos, int at_most) {
  return pos.side_to_move() == kWhite ? CountLegalMovesUpTo<kWhite>(pos, at_most)
                                      : CountLegalMovesUpTo<kBlack>(pos, at_most);
}

Move* GenerateLegalMoves(const Position& pos, Move* out) {
  return pos.side_to_move() == kWhite ? Generate<kWhite>(pos, out, kEveryMan)
                                      : Generate<kBlack>(pos, out, kEveryMan);
}

Move* GenerateLegalMovesFrom(const Position& pos, Square from, Move* out) {
  return pos.side_to_move() == kWhite ? Generate<kWhite>(pos, out, SquareBB(from))
                                      : Generate<kBlack>(pos, out, SquareBB(from));
}

}  // namespace arbiter
