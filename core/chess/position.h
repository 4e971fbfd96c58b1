// A chess position: bitboards plus a mailbox, the irreversible state of each
// ply on an undo stack, and the Zobrist key. Standard chess and Chess960 share
// one representation: castling is "king takes own rook" and the castling rook
// squares are part of the state.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/chess/bitboard.h"
#include "core/chess/types.h"

namespace arbiter {

// Castling-right bits: white king side, white queen side, black ...
enum CastlingRight : uint8_t {
  kNoCastling = 0,
  kWhiteOO = 1,
  kWhiteOOO = 2,
  kBlackOO = 4,
  kBlackOOO = 8,
  kAllCastling = 15,
};
constexpr CastlingRight MakeCastlingRight(Color c, CastlingSide side) {
  return CastlingRight(1 << (2 * c + side));
}
// Both rights of `c`.
constexpr CastlingRight CastlingRightsOf(Color c) {
  return CastlingRight((kWhiteOO | kWhiteOOO) << (2 * c));
}

class Position {
 public:
  // Irreversible per-ply state, restored by UndoMove.
  struct State {
    uint64_t key;
    Bitboard checkers;        // enemy pieces giving check to side to move
    Bitboard pinned;          // side-to-move pieces pinned to own king
    uint8_t castling;         // CastlingRight bits
    Square ep_square;         // only set when an e.p. capture is legal
    Piece captured;           // piece taken by the move that led here
    uint16_t halfmove_clock;  // plies since last capture or pawn move
  };

  // The standard start position.
  static Position Start();

  // Parses a FEN (six fields) or EPD-style four-field FEN. Castling may be
  // written as KQkq, X-FEN (KQkq plus file letters for inner rooks) or
  // Shredder-FEN (file letters). `chess960` forces Chess960 notation; it is
  // also switched on when the castling rights cannot be standard.
  static absl::StatusOr<Position> FromFen(std::string_view fen, bool chess960 = false);
  // FEN with X-FEN castling in Chess960 mode (plain KQkq when unambiguous).
  std::string Fen() const;

  // ---- queries -----------------------------------------------------------
  Piece piece_on(Square s) const { return board_[s]; }
  bool empty(Square s) const { return board_[s] == kNoPiece; }
  Bitboard pieces() const { return by_type_[kAllPieces]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType t) const { return by_type_[t]; }
  Bitboard pieces(PieceType a, PieceType b) const { return by_type_[a] | by_type_[b]; }
  Bitboard pieces(Color c, PieceType t) const { return by_color_[c] & by_type_[t]; }
  Bitboard pieces(Color c, PieceType a, PieceType b) const {
    return by_color_[c] & (by_type_[a] | by_type_[b]);
  }
  Square king_square(Color c) const { return Lsb(pieces(c, kKing)); }
  Color side_to_move() const { return side_to_move_; }
  bool chess960() const { return chess960_; }

  uint8_t castling_rights() const { return st().castling; }
  bool can_castle(CastlingRight r) const { return st().castling & r; }
  // Square of the rook that castles for right `r` (valid only when held).
  Square castling_rook(CastlingRight r) const { return castling_rook_[RightIndex(r)]; }
  Square ep_square() const { return st().ep_square; }
  int halfmove_clock() const { return st().halfmove_clock; }
  int fullmove_number() const { return 1 + game_ply_ / 2; }
  // Zobrist key. It includes the e.p. file only when an e.p. capture is
  // legal, which makes it the position identity of FIDE 9.2.3.
  uint64_t key() const { return st().key; }
  Bitboard checkers() const { return st().checkers; }
  bool in_check() const { return st().checkers != 0; }
  Bitboard pinned() const { return st().pinned; }
  Piece captured_piece() const { return st().captured; }

  // What FIDE 9.2.3 compares when deciding that two positions are the same:
  // side to move, men on squares, castling rights and a legal e.p. capture.
  // Compared exactly behind the Zobrist key, so a key collision can never
  // produce a false repetition.
  struct Identity {
    Bitboard colors[2];
    Bitboard types[6];
    uint8_t castling;
    Square ep_square;
    Color side_to_move;
    bool operator==(const Identity&) const = default;
  };
  Identity identity() const {
    return {{by_color_[0], by_color_[1]},
            {by_type_[1], by_type_[2], by_type_[3], by_type_[4], by_type_[5], by_type_[6]},
            st().castling,
            st().ep_square,
            side_to_move_};
  }

  // Every square `by`'s men attack, sliders seeing through `occupied`.
  Bitboard AttackedSquares(Color by, Bitboard occupied) const;
  Bitboard AttackersTo(Square s, Bitboard occupied) const;
  Bitboard AttackersTo(Square s) const { return AttackersTo(s, pieces()); }
  bool IsAttacked(Square s, Color by, Bitboard occupied) const {
    return AttackersTo(s, occupied) & pieces(by);
  }

  // ---- making moves ------------------------------------------------------
  // `m` must be legal. UndoMove must be given the same move.
  void DoMove(Move m);
  void UndoMove(Move m);
  // Number of moves played since this object was built or copied (undo
  // stack depth).
  int plies_played() const { return int(states_.size()) - 1; }

  // A copy is of the position, not of how it was reached: its undo stack
  // starts at the copy (plies_played() is 0, and moves played before it
  // cannot be undone on it). The searches copy the position they start
  // from, and copying a replayed game's whole stack (a heap block of up to
  // hundreds of plies) for each was a visible share of a bulk run.
  Position(const Position& other);
  Position& operator=(const Position& other);
  Position(Position&&) noexcept = default;
  Position& operator=(Position&&) noexcept = default;

 private:
  Position() = default;
  static int RightIndex(CastlingRight r) { return std::countr_zero(unsigned(r)); }
  const State& st() const { return states_.back(); }
  State& st() { return states_.back(); }

  void PutPiece(Piece p, Square s);
  void RemovePiece(Square s);
  void MovePiece(Square from, Square to);
  void SetCastlingRight(Color c, Square rook);
  // Recomputes checkers and king blockers for the side to move (after a move
  // or FEN load).
  void UpdateCheckInfo();
  bool EnPassantIsLegal(Square ep) const;
  void SetEpSquareIfLegal(Square ep);
  uint64_t ComputeKey() const;

  // Undo-stack entries a copy reserves: the plies of a typical search line.
  static constexpr size_t kCopyStackReserve = 32;

  std::array<Piece, 64> board_{};
  Bitboard by_type_[7] = {};
  Bitboard by_color_[2] = {};
  Color side_to_move_ = kWhite;
  bool chess960_ = false;
  int game_ply_ = 0;
  Square castling_rook_[4] = {kNoSquare, kNoSquare, kNoSquare, kNoSquare};
  // Castling rights lost when a piece moves from or to each square.
  uint8_t castling_mask_[64] = {};
  // Squares that must be empty for each castling right (except king/rook).
  Bitboard castling_path_[4] = {};
  std::vector<State> states_;

  friend class FenParser;
};

// The FEN letter of `p` ('P', 'n', ...); ' ' for kNoPiece.
char FenChar(Piece p);

}  // namespace arbiter
