// Corner-directed cooperative-mate search: long helpmates through locked
// structures (pawn walls, bishop walls), where the winner must walk its
// king round a wall, promote, and come back, 60 to 150 plies in all.
//
// The idea is chasolver's (M. Ambrona, MIT; re-derived here in our own
// terms, no code taken): iterative deepening where the
// depth counts only the moves that make no progress toward one fixed
// mating picture, the loser's king in a corner of its own back rank.
// Progress (free) is the winner pushing a pawn or capturing, a king or
// knight of either side stepping toward its target square, a bishop coming
// nearer the corner through the squares blocked pawns leave open; a move
// right after a progress move is free too (the other side keeps pace). The
// loser capturing costs 4: it mostly removes the blockers a mate needs.
// This differs from GuidedMateSearch (guided_mate_search.h), which tries
// every corner nearest first, charges moves away, and discounts only a
// few replies: that one finds the short mates of real games in a few
// hundred nodes, this one the long composed ones (on CHA's test vector,
// the 31 sides that the guided dives left unknown).
//
// It only ever proves "yes": a failure means nothing, and every line found
// is replayed by the caller before it is believed.
#pragma once

#include <cstdint>
#include <vector>

#include "core/chess/position.h"
#include "core/mate/transposition_table.h"

namespace arbiter {

class CornerMateSearch {
 public:
  // At most `node_budget` nodes (a node is a move tried).
  CornerMateSearch(Color winner, uint64_t node_budget);

  // Lines of at most `max_plies`. On success fills `line` (from `pos`, which
  // is restored) and returns true.
  bool Find(Position& pos, int max_plies, std::vector<Move>* line);

  uint64_t nodes() const { return nodes_; }

 private:
  enum class Step : uint8_t { kNormal, kProgress, kSetBack };

  void Prepare(const Position& pos);
  Step Classify(const Position& pos, Move m) const;
  bool Search(Position& pos, int depth, int ply, bool after_progress);

  Color winner_;
  uint64_t budget_;
  uint64_t nodes_ = 0;
  int max_depth_ = 0;
  int max_plies_ = 0;
  bool cut_ = false;  // some line was cut by the depth or ply limit

  // Targets, by the mover's colour (winner, loser): king and knight.
  Square king_target_[2] = {};
  Square knight_target_[2] = {};
  // Bishop moves from the mating corner (0 = one of its three squares),
  // through squares not held by blocked pawns; 255 = unreachable.
  uint8_t bishop_distance_[64] = {};
  // Root moves whose position a static proof (the fortress) settles as
  // "no": set back wherever they are played in the tree.
  std::vector<Move> hopeless_;
  int men_ = 0;

  // Per key: the depth left it was searched with, without a mate.
  TranspositionTable<int16_t> tt_;
  std::vector<Move> line_;  // built in reverse while unwinding
};

}  // namespace arbiter
