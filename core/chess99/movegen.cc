#include "core/chess99/movegen.h"

#include "core/chess99/attacks.h"

namespace arbiter::chess99 {
namespace {

// Room reserved for a position's moves (the start position has 26): the
// list is then allocated once instead of growing a move at a time.
constexpr size_t kTypicalMoveCount = 96;

class Generator {
 public:
  Generator(const Position& pos, std::vector<Move>* out)
      : pos_(pos), out_(*out), us_(pos.side_to_move()), ep_(pos.ep_square()) {}

  void Run() {
    if (pos_.king_square(kWhite) == kNoSquare || pos_.king_square(kBlack) == kNoSquare) return;
    for (Square s = 0; s < kSquares; ++s) {
      const Piece p = pos_.piece_on(s);
      if (p == kNoPiece || ColorOf(p) != us_) continue;
      const PieceType t = TypeOf(p);
      if (t != kPawn) {
        Unit(s, t, kNoPieceType);
        if (t == kKing) Castling(s);
      } else if (RankOf(s) == LastRank(us_)) {
        // §4.4: an unpromoted pawn on its last rank has no pawn moves; the
        // whole turn may promote it, and the new piece may move at once.
        for (PieceType promo : {kBishop, kKnight}) {
          out_.push_back({s, s, MoveKind::kPromoteOnly, kNoPieceType, promo, kNoSquare});
          Unit(s, promo, promo);
        }
      } else {
        Pawn(s);
      }
    }
  }

 private:
  // Ordinary moves of a non-pawn of type `t` on `from` (for a deferred
  // promotion, `t` is the new piece and the pawn still stands on `from`).
  void Unit(Square from, PieceType t, PieceType deferred) {
    if (t == kKnight || t == kPaladin) {
      for (Square to : KnightTargets(from)) Target(from, to, deferred);
    }
    if (t == kKing) {
      for (Square to : KingTargets(from)) Target(from, to, deferred);
    }
    const bool orth = t == kRook || t == kQueen;
    const bool diag = t == kBishop || t == kQueen || t == kPaladin;
    for (int dir = 0; dir < kDirections; ++dir) {
      if (!(dir < kDiagonalBegin ? orth : diag)) continue;
      for (Square to : Ray(from, dir)) {
        Target(from, to, deferred);
        if (!pos_.empty(to)) break;
      }
    }
  }

  // A non-pawn reaches `to` with its capture pattern.
  void Target(Square from, Square to, PieceType deferred) {
    const Piece p = pos_.piece_on(to);
    if (p != kNoPiece) {
      if (ColorOf(p) != us_) Add(from, to, MoveKind::kNormal, kNoPieceType, deferred);
      return;
    }
    if (to == ep_) {
      // §4.2: any unit whose capture pattern reaches the e.p. square may
      // capture en passant; [I] §7.3 it may also just move there.
      Add(from, to, MoveKind::kEnPassant, kNoPieceType, deferred);
      if (!pos_.options().quiet_move_to_ep_square) return;
    }
    Add(from, to, MoveKind::kNormal, kNoPieceType, deferred);
  }

  void Pawn(Square from) {
    const int fwd = Forward(us_);
    const int next_rank = RankOf(from) + (us_ == kWhite ? 1 : -1);
    // Straight: one or two squares from any rank, every square crossed empty.
    const Square one = from + fwd;
    if (pos_.empty(one)) {
      PawnTo(from, one, MoveKind::kNormal);
      const int two_rank = next_rank + (us_ == kWhite ? 1 : -1);
      if (OnBoard(0, two_rank) && pos_.empty(one + fwd)) {
        PawnTo(from, one + fwd, MoveKind::kNormal);
      }
    }
    for (int df : {-1, 1}) {
      const int f = FileOf(from) + df;
      if (!OnBoard(f, next_rank)) continue;
      const Square to = MakeSquare(f, next_rank);
      const Piece p = pos_.piece_on(to);
      if (p != kNoPiece && ColorOf(p) != us_) {
        PawnTo(from, to, MoveKind::kNormal);
      } else if (to == ep_) {
        PawnTo(from, to, MoveKind::kEnPassant);
      }
    }
  }

  void PawnTo(Square from, Square to, MoveKind kind) {
    if (RankOf(to) != LastRank(us_)) {
      Add(from, to, kind, kNoPieceType, kNoPieceType);
      return;
    }
    if (pos_.options().promotion == Options::PromotionTiming::kOptionalOnArrival) {
      Add(from, to, kind, kNoPieceType, kNoPieceType);  // stays a pawn (§4.4)
    }
    Add(from, to, kind, kBishop, kNoPieceType);
    Add(from, to, kind, kKnight, kNoPieceType);
  }

  // §3.8 as we implement it: on its own first rank the king steps one square
  // toward a friendly Q/A/R/B/N on that rank. Adjacent partner: the two swap.
  // Farther partner: every square between them is empty, the king steps one
  // square and the partner jumps to the king's old square. No other
  // condition (check, history, attacked squares) applies.
  void Castling(Square king) {
    if (RankOf(king) != FirstRank(us_)) return;
    for (int df : {-1, 1}) {
      for (int f = FileOf(king) + df; f >= 0 && f < kFiles; f += df) {
        const Square s = MakeSquare(f, RankOf(king));
        const Piece p = pos_.piece_on(s);
        if (p == kNoPiece) continue;
        const PieceType t = TypeOf(p);
        if (ColorOf(p) == us_ && t != kPawn && t != kKing) {
          out_.push_back({king, king + df, MoveKind::kCastle, kNoPieceType, kNoPieceType, s});
        }
        break;  // only the nearest unit on that side can be the partner
      }
    }
  }

  void Add(Square from, Square to, MoveKind kind, PieceType promo, PieceType deferred) {
    out_.push_back({from, to, kind, promo, deferred, kNoSquare});
  }

  const Position& pos_;
  std::vector<Move>& out_;
  const Color us_;
  const Square ep_;
};

}  // namespace

void GenerateMoves(const Position& pos, std::vector<Move>* out) {
  out->clear();
  Generator(pos, out).Run();
}

std::vector<Move> GenerateMoves(const Position& pos) {
  std::vector<Move> out;
  out.reserve(kTypicalMoveCount);
  GenerateMoves(pos, &out);
  return out;
}

bool HasAnyMove(const Position& pos) { return !GenerateMoves(pos).empty(); }

bool CanCaptureKing(const Position& pos) {
  // Not pos.Attacked(): a last-rank pawn attacks nothing (§3), yet a
  // deferred promotion may capture with the new piece in the same turn.
  for (const Move& m : GenerateMoves(pos)) {
    if (TypeOf(pos.CapturedPiece(m)) == kKing) return true;
  }
  return false;
}

}  // namespace arbiter::chess99
