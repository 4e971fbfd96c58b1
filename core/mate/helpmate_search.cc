#include "core/mate/helpmate_search.h"

#include <algorithm>
#include <bit>

#include "core/chess/movegen.h"

namespace arbiter {
namespace {

int EdgeDistance(Square s) {
  return std::min({FileOf(s), 7 - FileOf(s), RankOf(s), 7 - RankOf(s)});
}

int CornerDistance(Square s) {
  return std::max(std::min(FileOf(s), 7 - FileOf(s)), std::min(RankOf(s), 7 - RankOf(s)));
}

// In the narrow phase the winner tries only its most promising moves (checks
// sort first), and the loser's king only walks toward a corner.
constexpr int kNarrowWinnerMoves = 8;

}  // namespace

HelpmateSearch::HelpmateSearch(Color winner, uint64_t node_budget, size_t tt_bytes)
    : winner_(winner), budget_(node_budget) {
  // No more entries than the search can fill: more would only hold memory.
  size_t entries = std::min(tt_bytes / tt_.kSlotBytes, size_t(2 * node_budget));
  entries = std::bit_floor(std::max<size_t>(entries, 1024));
  tt_.Reset(entries);
}

bool HelpmateSearch::MateInOne(Position& pos) {
  for (Move m : MoveList(pos)) {
    ++nodes_;
    pos.DoMove(m);
    bool mate = pos.in_check() && !HasLegalMove(pos);
    pos.UndoMove(m);
    if (mate) {
      line_.push_back(m);
      return true;
    }
  }
  return false;
}

// Higher scores first. Toward mate: the winner checks, promotes and brings
// pieces nearer the enemy king; the loser walks its king to the edge and
// keeps its hands off the winner's pieces.
int HelpmateSearch::OrderMoves(Position& pos, Move* moves, int count) {
  const Color us = pos.side_to_move();
  const Square their_king = pos.king_square(~us);
  int scores[kMaxMoves];
  for (int i = 0; i < count; ++i) {
    Move m = moves[i];
    int score = 0;
    PieceType type = TypeOf(pos.piece_on(m.from()));
    bool capture = m.kind() != Move::kCastling && !pos.empty(m.to());
    if (us == winner_) {
      if (m.kind() == Move::kPromotion) score += m.promotion() == kQueen ? 800 : -200;
      // Mate-in-one is tried on every move at the last ply, so here a check
      // is worth little; what counts is bringing men (the king above all)
      // near the enemy king.
      if (m.kind() != Move::kCastling)
        score += (type == kKing ? 40 : 20) *
                 (Distance(m.from(), their_king) - Distance(m.to(), their_king));
      pos.DoMove(m);
      if (pos.in_check()) score += 30;
      pos.UndoMove(m);
    } else {
      if (capture) score -= 500;
      if (type == kKing)
        score += 100 + 30 * (EdgeDistance(m.from()) - EdgeDistance(m.to())) +
                 20 * (CornerDistance(m.from()) - CornerDistance(m.to()));
    }
    scores[i] = score;
  }
  // Insertion sort: lists are short.
  for (int i = 1; i < count; ++i) {
    Move m = moves[i];
    int s = scores[i], j = i - 1;
    for (; j >= 0 && scores[j] < s; --j) {
      moves[j + 1] = moves[j];
      scores[j + 1] = scores[j];
    }
    moves[j + 1] = m;
    scores[j + 1] = s;
  }
  return count;
}

bool HelpmateSearch::Search(Position& pos, int depth, bool narrow) {
  if (budget_exhausted()) return false;
  ++nodes_;
  const bool winner_to_move = pos.side_to_move() == winner_;
  if (depth == 1) return winner_to_move && MateInOne(pos);
  // The game ends at 75 moves without capture or pawn move (9.6.2); no
  // zeroing move can be assumed, so stop the line there.
  if (pos.halfmove_clock() >= 150) return false;

  // Narrow and full-width results are kept apart: a narrow failure proves
  // nothing about the full tree.
  const uint64_t tt_key = pos.key() ^ (narrow ? 0x9E3779B97F4A7C15ULL : 0);
  if (const int8_t* searched = tt_.Find(tt_key); searched && *searched >= depth) return false;

  MoveBuffer buffer;
  Move* const moves = buffer.moves;
  int count = int(GenerateLegalMoves(pos, moves) - moves);
  if (count == 0) return false;
  if (narrow && !winner_to_move && !pos.in_check()) {
    // King moves that do not leave the corner further away, and moves that
    // bring another piece next to the king, where it can block a flight
    // square.
    Square king = pos.king_square(pos.side_to_move());
    int kept = 0;
    for (int i = 0; i < count; ++i) {
      Move m = moves[i];
      if (m.kind() == Move::kCastling) continue;
      // The king heads for a corner or for the winner's king (whose help
      // most mates need); other men come next to the king as blockers.
      const Square helper = pos.king_square(winner_);
      bool keep = m.from() == king ? CornerDistance(m.to()) <= CornerDistance(king) ||
                                         Distance(m.to(), helper) < Distance(king, helper)
                                   : Distance(m.to(), king) == 1 && Distance(m.from(), king) > 1;
      if (keep) moves[kept++] = m;
    }
    if (kept) count = kept;
  }
  OrderMoves(pos, moves, count);
  if (narrow && winner_to_move) count = std::min(count, kNarrowWinnerMoves);
  for (int i = 0; i < count; ++i) {
    pos.DoMove(moves[i]);
    bool found = Search(pos, depth - 1, narrow);
    pos.UndoMove(moves[i]);
    if (found) {
      line_.push_back(moves[i]);
      return true;
    }
    if (budget_exhausted()) return false;
  }
  tt_.Store(tt_key, int8_t(std::min(depth, 127)));
  return false;
}

bool HelpmateSearch::Find(Position& pos, int max_plies, std::vector<Move>* line) {
  // The winner gives the last move: odd depths when it is to move.
  const int first = pos.side_to_move() == winner_ ? 1 : 2;
  for (bool narrow : {true, false}) {
    for (int depth = first; depth <= max_plies; depth += 2) {
      line_.clear();
      if (Search(pos, depth, narrow)) {
        line->assign(line_.rbegin(), line_.rend());
        return true;
      }
      if (budget_exhausted()) return false;
    }
  }
  return false;
}

}  // namespace arbiter
