#include "core/chess99/position.h"

#include <cstdlib>

#include "core/chess99/attacks.h"

namespace arbiter::chess99 {
namespace {

// Zobrist keys: one per (piece code, square), one for Black to move, one per
// e.p. square. A fixed seed keeps keys identical from run to run.
struct Zobrist {
  std::array<std::array<uint64_t, kSquares>, 16> piece{};
  std::array<uint64_t, kSquares> ep{};
  uint64_t black_to_move = 0;

  Zobrist() {
    uint64_t state = 0x9e3779b97f4a7c15ULL ^ 99;
    auto next = [&state] {  // splitmix64
      uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      return z ^ (z >> 31);
    };
    for (auto& row : piece) {
      for (auto& k : row) k = next();
    }
    for (auto& k : ep) k = next();
    black_to_move = next();
  }
};

const Zobrist& Keys() {
  static const Zobrist keys;
  return keys;
}

}  // namespace

Position Position::Start(const Options& options) {
  auto pos = FromFen(kStartFen, options);
  return *pos;  // the start FEN is valid under every option
}

Square Position::ep_victim_square() const {
  if (ep_ == kNoSquare) return kNoSquare;
  // The unit that double-stepped belongs to the side not to move and stands
  // one square beyond the e.p. square in its own forward direction.
  return ep_ + Forward(Opponent(side_));
}

int Position::CompletedMoves(Color c) const {
  // White moves first (§7.4): fullmove counts Black's completed moves + 1.
  if (c == kWhite) return side_ == kWhite ? fullmove_ - 1 : fullmove_;
  return fullmove_ - 1;
}

void Position::Put(Piece p, Square s) {
  board_[s] = p;
  key_ ^= Keys().piece[p][s];
  const Color c = ColorOf(p);
  ++units_[c];
  if (TypeOf(p) == kKing) king_[c] = s;
}

Piece Position::Remove(Square s) {
  const Piece p = board_[s];
  board_[s] = kNoPiece;
  key_ ^= Keys().piece[p][s];
  const Color c = ColorOf(p);
  --units_[c];
  if (TypeOf(p) == kKing) king_[c] = kNoSquare;
  return p;
}

uint64_t Position::ComputeKey() const {
  uint64_t k = 0;
  for (Square s = 0; s < kSquares; ++s) {
    if (board_[s] != kNoPiece) k ^= Keys().piece[board_[s]][s];
  }
  if (ep_ != kNoSquare) k ^= Keys().ep[ep_];
  if (side_ == kBlack) k ^= Keys().black_to_move;
  return k;
}

bool Position::Attacked(Square s, Color by) const {
  auto is = [&](Square q, PieceType a, PieceType b = kNoPieceType, PieceType c = kNoPieceType) {
    const Piece p = board_[q];
    if (p == kNoPiece || ColorOf(p) != by) return false;
    const PieceType t = TypeOf(p);
    return t == a || t == b || t == c;
  };
  for (Square q : KnightTargets(s)) {
    if (is(q, kKnight, kPaladin)) return true;
  }
  for (Square q : KingTargets(s)) {
    if (is(q, kKing)) return true;
  }
  // A pawn of `by` attacks `s` from one rank behind it (in by's direction),
  // one file to either side. A last-rank pawn would attack off the board.
  const int pawn_rank = RankOf(s) - (by == kWhite ? 1 : -1);
  for (int df : {-1, 1}) {
    const int f = FileOf(s) + df;
    if (OnBoard(f, pawn_rank) && is(MakeSquare(f, pawn_rank), kPawn)) return true;
  }
  for (int dir = 0; dir < kDirections; ++dir) {
    for (Square q : Ray(s, dir)) {
      if (board_[q] == kNoPiece) continue;
      if (dir < kDiagonalBegin ? is(q, kRook, kQueen) : is(q, kBishop, kQueen, kPaladin)) {
        return true;
      }
      break;
    }
  }
  return false;
}

bool Position::InCheck(Color c) const {
  return king_[c] != kNoSquare && Attacked(king_[c], Opponent(c));
}

Piece Position::CapturedPiece(const Move& m) const {
  switch (m.kind) {
    case MoveKind::kNormal:
      return board_[m.to];
    case MoveKind::kEnPassant:
      return board_[ep_victim_square()];
    case MoveKind::kCastle:
    case MoveKind::kPromoteOnly:
      break;
  }
  return kNoPiece;
}

void Position::MakeMove(const Move& m) {
  Undo u{kNoPiece, kNoSquare, board_[m.from], ep_, halfmove_, key_};
  const Color us = side_;
  const Square victim = m.kind == MoveKind::kEnPassant ? ep_victim_square() : m.to;
  if (ep_ != kNoSquare) key_ ^= Keys().ep[ep_];
  Square new_ep = kNoSquare;
  bool irreversible = false;  // only for the informational halfmove clock

  switch (m.kind) {
    case MoveKind::kCastle: {
      // Remove both first: in a short castle the partner stands on `to`.
      const Piece king = Remove(m.from);
      const Piece partner = Remove(m.partner);
      Put(king, m.to);
      Put(partner, m.from);
      break;
    }
    case MoveKind::kPromoteOnly:
      Remove(m.from);
      Put(MakePiece(us, m.deferred), m.from);
      irreversible = true;
      break;
    case MoveKind::kNormal:
    case MoveKind::kEnPassant: {
      if (board_[victim] != kNoPiece) {
        u.captured_square = victim;
        u.captured = Remove(victim);
        irreversible = true;
      }
      Piece p = Remove(m.from);
      if (m.deferred != kNoPieceType) {
        p = MakePiece(us, m.deferred);
        irreversible = true;
      } else if (TypeOf(p) == kPawn) {
        irreversible = true;
        // Any two-square advance opens e.p. (§4.2), promoted on arrival or not.
        if (std::abs(m.to - m.from) == 2 * kFiles) new_ep = (m.from + m.to) / 2;
        if (m.promotion != kNoPieceType) p = MakePiece(us, m.promotion);
      }
      Put(p, m.to);
      break;
    }
  }

  ep_ = new_ep;
  if (ep_ != kNoSquare) key_ ^= Keys().ep[ep_];
  halfmove_ = irreversible ? 0 : halfmove_ + 1;
  if (us == kBlack) ++fullmove_;
  side_ = Opponent(us);
  key_ ^= Keys().black_to_move;
  undo_.push_back(u);
}

void Position::UnmakeMove(const Move& m) {
  const Undo u = undo_.back();
  undo_.pop_back();
  side_ = Opponent(side_);
  if (side_ == kBlack) --fullmove_;

  switch (m.kind) {
    case MoveKind::kCastle: {
      const Piece king = Remove(m.to);
      const Piece partner = Remove(m.from);
      Put(king, m.from);
      Put(partner, m.partner);
      break;
    }
    case MoveKind::kPromoteOnly:
      Remove(m.from);
      Put(u.moved, m.from);
      break;
    case MoveKind::kNormal:
    case MoveKind::kEnPassant:
      Remove(m.to);
      Put(u.moved, m.from);
      if (u.captured != kNoPiece) Put(u.captured, u.captured_square);
      break;
  }
  ep_ = u.ep;
  halfmove_ = u.halfmove;
  key_ = u.key;
}

}  // namespace arbiter::chess99
