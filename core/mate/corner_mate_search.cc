#include "core/mate/corner_mate_search.h"

#include <algorithm>
#include <array>

#include "core/chess/bitboard.h"
#include "core/chess/movegen.h"
#include "core/mate/fortress.h"
#include "core/mate/material.h"

namespace arbiter {
namespace {

// Lines longer than this are past what the 75-move rule lets a locked
// position play anyway (the clock resets only on pawn moves and captures).
constexpr int kMaxDepth = 128;

// The table's size: the search's positions mostly repeat within a line.
constexpr size_t kTableEntries = size_t{1} << 18;

// What a capture by the loser costs: it removes the blockers a mate needs,
// and is seldom part of one.
constexpr int kSetBackCost = 4;

// Knight moves between two squares, by breadth-first search on the empty
// board (the formulas have corner exceptions; a table has none).
const std::array<std::array<uint8_t, 64>, 64>& KnightDistances() {
  static const auto table = [] {
    std::array<std::array<uint8_t, 64>, 64> d{};
    for (int from = 0; from < 64; ++from) {
      d[from].fill(255);
      d[from][from] = 0;
      Bitboard reached = SquareBB(Square(from)), frontier = reached;
      for (uint8_t steps = 1; frontier; ++steps) {
        Bitboard next = 0;
        for (Bitboard f = frontier; f;) next |= KnightAttacks(PopLsb(f));
        frontier = next & ~reached;
        reached |= frontier;
        for (Bitboard f = frontier; f;) d[from][PopLsb(f)] = steps;
      }
    }
    return d;
  }();
  return table;
}

}  // namespace

CornerMateSearch::CornerMateSearch(Color winner, uint64_t node_budget)
    : winner_(winner), budget_(node_budget) {}

// The mating corner is on the loser's back rank, of the colour of the
// winner's bishops (a lone bishop mates only there), else of the colour the
// loser's bishops cannot cover. Everything is first set up as if White were
// winning and then mirrored top to bottom for Black, which also swaps the
// colours of the squares.
void CornerMateSearch::Prepare(const Position& pos) {
  const bool white = winner_ == kWhite;
  auto real = [&](Square relative) { return white ? relative : Square(relative ^ 56); };
  const Bitboard dark = white ? kDarkSquares : ~kDarkSquares;  // dark in relative terms
  const Bitboard ours = pos.pieces(winner_, kBishop), theirs = pos.pieces(~winner_, kBishop);
  const bool dark_corner = (ours & dark) || (!ours && (theirs & ~dark));
  auto side = [&](Square relative) {
    return real(dark_corner ? relative : MakeSquare(7 - FileOf(relative), RankOf(relative)));
  };
  // The winner's king takes the flight squares from one step inside the
  // corner's diagonal; its knight comes to the middle; the loser's king
  // goes into the corner and its knight beside it, a blocker.
  king_target_[0] = side(kG7);
  knight_target_[0] = side(kE5);
  king_target_[1] = side(kH8);
  knight_target_[1] = side(kG8);

  // Bishop distances through everything but blocked pawns (pawns with a
  // pawn right in front: the walls bishops must go round).
  const Bitboard pawns = pos.pieces(kPawn);
  const Bitboard blocked = (pawns & (pawns >> 8)) | (pawns & (pawns << 8));
  const Square corner = side(kH8);
  Bitboard frontier = SquareBB(corner) | SquareBB(side(kG8)) | SquareBB(side(kH7));
  Bitboard reached = frontier;
  std::fill(std::begin(bishop_distance_), std::end(bishop_distance_), uint8_t{255});
  for (uint8_t d = 0; frontier; ++d) {
    Bitboard next = 0;
    for (Bitboard f = frontier; f;) {
      const Square s = PopLsb(f);
      bishop_distance_[s] = d;
      next |= BishopAttacks(s, blocked) & ~blocked;
    }
    frontier = next & ~reached;
    reached |= frontier;
  }

  // Root moves into a position the fortress proof settles: the same move
  // played deeper in the tree is most likely as hopeless.
  hopeless_.clear();
  Position probe = pos;
  for (Move m : MoveList(pos)) {
    probe.DoMove(m);
    if (FortressDeniesMate(probe, winner_)) hopeless_.push_back(m);
    probe.UndoMove(m);
  }
  men_ = PopCount(pos.pieces());
}

CornerMateSearch::Step CornerMateSearch::Classify(const Position& pos, Move m) const {
  if (std::find(hopeless_.begin(), hopeless_.end(), m) != hopeless_.end()) return Step::kSetBack;
  const Square from = m.from(), to = m.to();
  const PieceType type = TypeOf(pos.piece_on(from));
  const bool capture =
      m.kind() == Move::kEnPassant ||
      (m.kind() != Move::kCastling && (pos.pieces(~pos.side_to_move()) & SquareBB(to)));
  const bool winner = pos.side_to_move() == winner_;
  const int us = winner ? 0 : 1;
  auto nearer = [&](PieceType t) {
    if (t == kKing) return Distance(to, king_target_[us]) < Distance(from, king_target_[us]);
    if (t == kKnight)
      return KnightDistances()[to][knight_target_[us]] <
             KnightDistances()[from][knight_target_[us]];
    return false;
  };
  if (m.kind() == Move::kCastling) return Step::kNormal;
  if (winner) {
    if (type == kPawn || capture || nearer(type)) return Step::kProgress;
    if (type == kBishop) {
      const int before = bishop_distance_[from], after = bishop_distance_[to];
      if (before == 255) return Step::kNormal;
      // Far from the corner a bishop comes nearer; at it, it steps out
      // of its own king's way.
      if ((before <= 1 && before < after) || (before > 2 && after < before)) return Step::kProgress;
    }
    return Step::kNormal;
  }
  // The loser taking a pawn, or a pawn taking, opens the walls.
  if (capture && men_ > 5 &&
      (type == kPawn || m.kind() == Move::kEnPassant || TypeOf(pos.piece_on(to)) == kPawn))
    return Step::kProgress;
  if (type == kBishop && bishop_distance_[to] < bishop_distance_[from]) return Step::kProgress;
  if (nearer(type)) return Step::kProgress;
  if (capture) return Step::kSetBack;
  return Step::kNormal;
}

bool CornerMateSearch::Search(Position& pos, int depth, int ply, bool after_progress) {
  const int left = max_depth_ - depth;
  if (const int16_t* searched = tt_.Find(pos.key()); searched && *searched >= left) return false;

  MoveBuffer buffer;
  Move* const moves = buffer.moves;
  const int count = int(GenerateLegalMoves(pos, moves) - moves);
  if (count == 0) return pos.side_to_move() != winner_ && pos.in_check();
  // 9.6.2: the game is drawn at 75 moves without capture or pawn move.
  if (pos.halfmove_clock() >= 150) return false;
  if (HasInsufficientMaterial(pos, winner_)) return false;
  if (depth >= max_depth_ || ply >= max_plies_) {
    cut_ = true;
    return false;
  }
  tt_.Store(pos.key(), int16_t(left));

  // In generation order: progress first finds shorter lines but fewer of
  // them (on CHA's test vector, 2 of the 23 sides this search decides are
  // lost at 8 M nodes).
  for (int i = 0; i < count; ++i) {
    if (++nodes_ > budget_) return false;
    const Step step = Classify(pos, moves[i]);
    const int next = step == Step::kProgress  ? depth
                     : step == Step::kSetBack ? depth + kSetBackCost
                                              : depth + (after_progress ? 0 : 1);
    pos.DoMove(moves[i]);
    const bool found = Search(pos, next, ply + 1, step == Step::kProgress);
    pos.UndoMove(moves[i]);
    if (found) {
      line_.push_back(moves[i]);
      return true;
    }
    if (nodes_ > budget_) return false;
  }
  return false;
}

bool CornerMateSearch::Find(Position& pos, int max_plies, std::vector<Move>* line) {
  Prepare(pos);
  max_plies_ = max_plies;
  for (max_depth_ = 2; max_depth_ <= kMaxDepth && nodes_ <= budget_; ++max_depth_) {
    tt_.Reset(kTableEntries);
    line_.clear();
    cut_ = false;
    if (Search(pos, 0, 0, false)) {
      line->assign(line_.rbegin(), line_.rend());
      return true;
    }
    // Nothing was cut: a deeper pass would search the same tree.
    if (!cut_ && nodes_ <= budget_) return false;
  }
  return false;
}

}  // namespace arbiter
