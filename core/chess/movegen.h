// Legal move generation. Moves are generated fully legal (pins, checks,
// en passant discovered checks and castling through attacked squares are
// handled in the generator), so callers never filter.
#pragma once

#include <algorithm>

#include "core/chess/position.h"

namespace arbiter {

constexpr int kMaxMoves = 256;

// Room for one position's moves, left uninitialised on purpose: searches
// declare one per node, and zeroing 512 bytes there cost as much as
// generating the moves. The generator writes every move that is read.
struct MoveBuffer {
  MoveBuffer() {}
  union {
    Move moves[kMaxMoves];
  };
};

// Writes the legal moves of `pos` to `out` (room for kMaxMoves) and returns
// the end pointer.
Move* GenerateLegalMoves(const Position& pos, Move* out);

// The legal moves of the man on `from` only (none if it is not the side to
// move's): what a legality test of one move needs.
Move* GenerateLegalMovesFrom(const Position& pos, Square from, Move* out);

// Whether `pos` has a legal move: GenerateLegalMoves(...) != out, but
// stops at the first move found (king steps first). Mate and stalemate
// tests call it once per node of the mate searches.
bool HasLegalMove(const Position& pos);

// The number of legal moves of `pos`, counted up to `at_most` (then
// `at_most` is returned): whether a position has none, one or several
// costs a fraction of generating them all. Replay calls it after every move.
int CountLegalMoves(const Position& pos, int at_most);

// Convenience container; cheap (no heap).
class MoveList {
 public:
  explicit MoveList(const Position& pos) : end_(GenerateLegalMoves(pos, buffer_.moves)) {}
  const Move* begin() const { return buffer_.moves; }
  const Move* end() const { return end_; }
  size_t size() const { return size_t(end_ - buffer_.moves); }
  bool empty() const { return end_ == buffer_.moves; }
  bool contains(Move m) const { return std::find(begin(), end(), m) != end(); }

 private:
  MoveBuffer buffer_;
  Move* end_;
};

inline bool IsLegalMove(const Position& pos, Move m) {
  MoveBuffer buffer;
  Move* end = GenerateLegalMovesFrom(pos, m.from(), buffer.moves);
  return std::find(buffer.moves, end, m) != end;
}

}  // namespace arbiter
