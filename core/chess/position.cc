#include "core/chess/position.h"

#include <algorithm>
#include <iterator>

#include "core/chess/zobrist.h"

namespace arbiter {

Bitboard Position::AttackersTo(Square s, Bitboard occupied) const {
  return (PawnAttacks(kBlack, s) & pieces(kWhite, kPawn)) |
         (PawnAttacks(kWhite, s) & pieces(kBlack, kPawn)) | (KnightAttacks(s) & pieces(kKnight)) |
         (RookAttacks(s, occupied) & pieces(kRook, kQueen)) |
         (BishopAttacks(s, occupied) & pieces(kBishop, kQueen)) | (KingAttacks(s) & pieces(kKing));
}

Bitboard Position::AttackedSquares(Color by, Bitboard occupied) const {
  Bitboard attacked = PawnAttacksBB(by, pieces(by, kPawn)) | KingAttacks(king_square(by));
  for (Bitboard b = pieces(by, kKnight); b;) attacked |= KnightAttacks(PopLsb(b));
  for (Bitboard b = pieces(by, kBishop, kQueen); b;) attacked |= BishopAttacks(PopLsb(b), occupied);
  for (Bitboard b = pieces(by, kRook, kQueen); b;) attacked |= RookAttacks(PopLsb(b), occupied);
  return attacked;
}

void Position::PutPiece(Piece p, Square s) {
  board_[s] = p;
  Bitboard b = SquareBB(s);
  by_type_[kAllPieces] |= b;
  by_type_[TypeOf(p)] |= b;
  by_color_[ColorOf(p)] |= b;
}

void Position::RemovePiece(Square s) {
  Piece p = board_[s];
  Bitboard b = SquareBB(s);
  by_type_[kAllPieces] ^= b;
  by_type_[TypeOf(p)] ^= b;
  by_color_[ColorOf(p)] ^= b;
  board_[s] = kNoPiece;
}

void Position::MovePiece(Square from, Square to) {
  Piece p = board_[from];
  Bitboard b = SquareBB(from) | SquareBB(to);
  by_type_[kAllPieces] ^= b;
  by_type_[TypeOf(p)] ^= b;
  by_color_[ColorOf(p)] ^= b;
  board_[from] = kNoPiece;
  board_[to] = p;
}

void Position::UpdateCheckInfo() {
  State& s = st();
  Color us = side_to_move_, them = ~us;
  Square ksq = king_square(us);
  // Checkers: pawns and knights by table; sliders from the snipers below (an
  // enemy slider on one of the king's lines with nothing between gives
  // check), which spares two slider look-ups per move made.
  s.checkers =
      (PawnAttacks(us, ksq) & pieces(them, kPawn)) | (KnightAttacks(ksq) & pieces(them, kKnight));
  // A piece of ours is pinned when it is the only piece between our king and
  // an enemy slider that would otherwise attack the king.
  s.pinned = 0;
  Bitboard snipers = ((RookAttacks(ksq, 0) & pieces(kRook, kQueen)) |
                      (BishopAttacks(ksq, 0) & pieces(kBishop, kQueen))) &
                     pieces(them);
  const Bitboard all = pieces();
  const Bitboard occupied = all ^ snipers;
  while (snipers) {
    Square sniper = PopLsb(snipers);
    // BetweenBB includes the sniper's own square.
    const Bitboard between = BetweenBB(ksq, sniper);
    if (!(between & all & ~SquareBB(sniper))) s.checkers |= SquareBB(sniper);
    Bitboard b = between & occupied;
    if (b && !MoreThanOne(b)) s.pinned |= b & pieces(us);
  }
}

bool Position::EnPassantIsLegal(Square ep) const {
  Color us = side_to_move_, them = ~us;
  Square captured = Square(us == kWhite ? ep - 8 : ep + 8);
  Square ksq = king_square(us);
  Bitboard capturers = PawnAttacks(them, ep) & pieces(us, kPawn);
  while (capturers) {
    Square from = PopLsb(capturers);
    Bitboard occupied = (pieces() ^ SquareBB(from) ^ SquareBB(captured)) | SquareBB(ep);
    Bitboard attackers = ((RookAttacks(ksq, occupied) & pieces(kRook, kQueen)) |
                          (BishopAttacks(ksq, occupied) & pieces(kBishop, kQueen)) |
                          (KnightAttacks(ksq) & pieces(kKnight)) |
                          (PawnAttacks(us, ksq) & pieces(kPawn) & ~SquareBB(captured))) &
                         pieces(them);
    if (!attackers) return true;
  }
  return false;
}

void Position::SetEpSquareIfLegal(Square ep) {
  if (EnPassantIsLegal(ep)) {
    st().ep_square = ep;
    st().key ^= zobrist::ep_file[FileOf(ep)];
  }
}

uint64_t Position::ComputeKey() const {
  uint64_t k = 0;
  for (Bitboard b = pieces(); b;) {
    Square s = PopLsb(b);
    k ^= zobrist::piece_square[board_[s]][s];
  }
  k ^= zobrist::castling[st().castling];
  if (st().ep_square != kNoSquare) k ^= zobrist::ep_file[FileOf(st().ep_square)];
  if (side_to_move_ == kBlack) k ^= zobrist::side;
  return k;
}

void Position::DoMove(Move m) {
  State next = st();
  Color us = side_to_move_, them = ~us;
  Square from = m.from(), to = m.to();
  Piece piece = board_[from];
  uint64_t key = next.key ^ zobrist::side;
  if (next.ep_square != kNoSquare) key ^= zobrist::ep_file[FileOf(next.ep_square)];
  next.ep_square = kNoSquare;
  next.captured = kNoPiece;
  ++next.halfmove_clock;
  bool double_push = false;

  if (m.kind() == Move::kCastling) {
    // `to` is the castling rook's square.
    bool king_side = to > from;
    Square king_to = MakeSquare(king_side ? 6 : 2, RankOf(from));
    Square rook_to = MakeSquare(king_side ? 5 : 3, RankOf(from));
    Piece rook = board_[to];
    RemovePiece(from);
    RemovePiece(to);
    PutPiece(piece, king_to);
    PutPiece(rook, rook_to);
    key ^= zobrist::piece_square[piece][from] ^ zobrist::piece_square[piece][king_to] ^
           zobrist::piece_square[rook][to] ^ zobrist::piece_square[rook][rook_to];
  } else {
    Square capture_square = to;
    if (m.kind() == Move::kEnPassant) capture_square = Square(us == kWhite ? to - 8 : to + 8);
    Piece captured = board_[capture_square];
    if (captured != kNoPiece) {
      RemovePiece(capture_square);
      key ^= zobrist::piece_square[captured][capture_square];
      next.halfmove_clock = 0;
      next.captured = captured;
    }
    MovePiece(from, to);
    key ^= zobrist::piece_square[piece][from] ^ zobrist::piece_square[piece][to];
    if (TypeOf(piece) == kPawn) {
      next.halfmove_clock = 0;
      double_push = (from ^ to) == 16;
      if (m.kind() == Move::kPromotion) {
        Piece promoted = MakePiece(us, m.promotion());
        RemovePiece(to);
        PutPiece(promoted, to);
        key ^= zobrist::piece_square[piece][to] ^ zobrist::piece_square[promoted][to];
      }
    }
  }
  uint8_t lost = castling_mask_[from] | castling_mask_[to];
  if (next.castling & lost) {
    key ^= zobrist::castling[next.castling];
    next.castling &= ~lost;
    key ^= zobrist::castling[next.castling];
  }
  next.key = key;
  states_.push_back(next);
  side_to_move_ = them;
  ++game_ply_;
  UpdateCheckInfo();
  if (double_push) SetEpSquareIfLegal(Square((from + to) / 2));
}

Position::Position(const Position& other) { *this = other; }

Position& Position::operator=(const Position& other) {
  if (this == &other) return *this;
  board_ = other.board_;
  std::copy(std::begin(other.by_type_), std::end(other.by_type_), std::begin(by_type_));
  std::copy(std::begin(other.by_color_), std::end(other.by_color_), std::begin(by_color_));
  side_to_move_ = other.side_to_move_;
  chess960_ = other.chess960_;
  game_ply_ = other.game_ply_;
  std::copy(std::begin(other.castling_rook_), std::end(other.castling_rook_),
            std::begin(castling_rook_));
  std::copy(std::begin(other.castling_mask_), std::end(other.castling_mask_),
            std::begin(castling_mask_));
  std::copy(std::begin(other.castling_path_), std::end(other.castling_path_),
            std::begin(castling_path_));
  // Room for a search's depth without regrowing; an assignment into a
  // position that has room keeps it.
  states_.clear();
  states_.reserve(kCopyStackReserve);
  states_.push_back(other.st());
  return *this;
}

void Position::UndoMove(Move m) {
  Square from = m.from(), to = m.to();
  Piece captured = st().captured;
  states_.pop_back();
  side_to_move_ = ~side_to_move_;
  --game_ply_;
  Color us = side_to_move_;
  if (m.kind() == Move::kCastling) {
    bool king_side = to > from;
    Square king_to = MakeSquare(king_side ? 6 : 2, RankOf(from));
    Square rook_to = MakeSquare(king_side ? 5 : 3, RankOf(from));
    Piece king = board_[king_to], rook = board_[rook_to];
    RemovePiece(king_to);
    RemovePiece(rook_to);
    PutPiece(king, from);
    PutPiece(rook, to);
    return;
  }
  if (m.kind() == Move::kPromotion) {
    RemovePiece(to);
    PutPiece(MakePiece(us, kPawn), to);
  }
  MovePiece(to, from);
  if (captured != kNoPiece) {
    Square capture_square = to;
    if (m.kind() == Move::kEnPassant) capture_square = Square(us == kWhite ? to - 8 : to + 8);
    PutPiece(captured, capture_square);
  }
}

}  // namespace arbiter
