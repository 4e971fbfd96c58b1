// A Chess 99 position: a mailbox of 81 squares, side to move, the e.p.
// square, the move counters and a Zobrist key, with make/unmake.
//
// There is no king-safety anywhere in here: a king may stand attacked, and
// a move may capture it (§3). A position reached by capturing a king has that
// king missing (king_square() == kNoSquare); games end there (§5.1), so the
// move generator gives no moves for such a position.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/chess99/board.h"
#include "core/chess99/move.h"

namespace arbiter::chess99 {

class Position {
 public:
  // rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w - - 0 1
  static Position Start(const Options& options = {});
  static constexpr std::string_view kStartFen =
      "rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w - - 0 1";

  // FEN-9 (§2.1), six fields, or four (halfmove 0 and fullmove 1 assumed).
  // A game position needs exactly one king per side; pawns may not stand on
  // their own first rank; the e.p. square must have the unit that
  // double-stepped one square beyond it (a pawn, or a B/N on its last rank,
  // §4.3) and both squares it crossed empty. With forced promotion on
  // arrival (Options) a pawn on its last rank is rejected too. Errors say
  // what is wrong and where (rank number, field name).
  static absl::StatusOr<Position> FromFen(std::string_view fen, const Options& options = {});
  std::string Fen() const;

  // ---- queries -----------------------------------------------------------
  Piece piece_on(Square s) const { return board_[s]; }
  bool empty(Square s) const { return board_[s] == kNoPiece; }
  Color side_to_move() const { return side_; }
  Square ep_square() const { return ep_; }
  // Where the unit capturable en passant stands (kNoSquare without e.p.).
  Square ep_victim_square() const;
  int halfmove_clock() const { return halfmove_; }
  int fullmove_number() const { return fullmove_; }
  // §2.1: moves completed by a side, counted from the fullmove number.
  int CompletedMoves(Color c) const;
  // kNoSquare once the king has been captured.
  Square king_square(Color c) const { return king_[c]; }
  // Units of a side, king included.
  int unit_count(Color c) const { return units_[c]; }
  // D7: the side has its king and nothing else.
  bool lone_king(Color c) const { return king_[c] != kNoSquare && units_[c] == 1; }
  // D8: only the two kings are left.
  bool bare_kings() const { return lone_king(kWhite) && lone_king(kBlack); }
  const Options& options() const { return options_; }
  uint64_t key() const { return key_; }

  // §3 "attack": a unit of `by` could capture an enemy unit on `s` with an
  // ordinary capture. A pawn on its last rank attacks nothing; castling and
  // en passant never attack.
  bool Attacked(Square s, Color by) const;
  // The king of `c` stands attacked (false when it was captured).
  bool InCheck(Color c) const;

  // The unit that moves (for kPromoteOnly: the pawn), and the unit a move
  // captures (kNoPiece for none). Valid before the move is made.
  Piece MovingPiece(const Move& m) const { return board_[m.from]; }
  Piece CapturedPiece(const Move& m) const;

  // ---- make / unmake -----------------------------------------------------
  // `m` must come from GenerateMoves(*this); nothing is checked here.
  void MakeMove(const Move& m);
  // Undoes the last MakeMove, which must have been `m`.
  void UnmakeMove(const Move& m);

  friend bool operator==(const Position& a, const Position& b) {
    return a.board_ == b.board_ && a.side_ == b.side_ && a.ep_ == b.ep_ &&
           a.halfmove_ == b.halfmove_ && a.fullmove_ == b.fullmove_ && a.key_ == b.key_;
  }

 private:
  struct Undo {
    Piece captured;
    Square captured_square;
    Piece moved;  // the unit on `from` before the move (a pawn for promotions)
    Square ep;
    int halfmove;
    uint64_t key;
  };

  void Put(Piece p, Square s);
  Piece Remove(Square s);
  uint64_t ComputeKey() const;

  std::array<Piece, kSquares> board_{};
  std::array<Square, 2> king_{kNoSquare, kNoSquare};
  std::array<int, 2> units_{0, 0};
  Color side_ = kWhite;
  Square ep_ = kNoSquare;
  int halfmove_ = 0;
  int fullmove_ = 1;
  uint64_t key_ = 0;
  Options options_;
  std::vector<Undo> undo_;
};

}  // namespace arbiter::chess99
