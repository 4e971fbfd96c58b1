#include "core/chess99/win_ability.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "core/chess99/movegen.h"
#include "core/chess99/notation.h"

namespace arbiter::chess99 {
namespace {

int Distance(Square a, Square b) {
  return std::max(std::abs(FileOf(a) - FileOf(b)), std::abs(RankOf(a) - RankOf(b)));
}

// Cooperative (help-mate style) search: both sides play for `side` to
// capture the enemy king cleanly. Iterative deepening on the number of
// plies, with a table of positions already shown not to win within so many
// plies (sound across iterations: no Chess 99 rule depends on the path).
class CooperativeSearch {
 public:
  CooperativeSearch(const Position& pos, Color side, const SearchLimits& limits)
      : pos_(pos),
        side_(side),
        enemy_(Opponent(side)),
        limits_(limits),
        levels_(std::max(limits.max_plies, 0) + 1) {}

  SideWinAbility Run() {
    SideWinAbility out;
    for (int depth = 1; depth <= limits_.max_plies; ++depth) {
      const Outcome r = Search(depth);
      out.nodes = nodes_;
      if (r == Outcome::kWin) {
        out.answer = WinAbility::kYes;
        for (const Move& m : line_) out.line.push_back(MoveToCoordinate(m));
        return out;
      }
      if (r == Outcome::kAbort) return out;  // kUnknown
      out.depth_completed = depth;
    }
    return out;  // kUnknown: no win within max_plies
  }

 private:
  enum class Outcome { kWin, kFail, kAbort };

  Outcome Search(int remaining) {
    if (++nodes_ > limits_.node_budget) return Outcome::kAbort;
    // A lone king never wins (D7), and a side never gets units back.
    if (remaining <= 0 || pos_.lone_king(side_)) return Outcome::kFail;
    const uint64_t key = pos_.key();
    if (auto it = failed_.find(key); it != failed_.end() && it->second >= remaining) {
      return Outcome::kFail;
    }
    const bool ours = pos_.side_to_move() == side_;
    // This level's lists: deeper levels use smaller `remaining`, so they
    // stay intact while the moves below are searched.
    Level& level = levels_[remaining];
    std::vector<Move>& moves = level.moves;
    std::vector<std::pair<int, size_t>>& order = level.order;
    GenerateMoves(pos_, &moves);
    order.clear();
    if (!ours && remaining > 1) FindOurUnits(&level);
    for (size_t i = 0; i < moves.size(); ++i) {
      const Move& m = moves[i];
      const PieceType captured = TypeOf(pos_.CapturedPiece(m));
      if (captured == kKing) {
        if (!ours) continue;  // the opponent ending the game helps nobody here
        pos_.MakeMove(m);
        const bool wins = !pos_.InCheck(side_);
        pos_.UnmakeMove(m);
        if (wins) {
          line_.push_back(m);
          return Outcome::kWin;
        }
        continue;  // a drawn king capture ends the game (D4)
      }
      if (remaining > 1) order.emplace_back(Score(m, ours, captured, level), i);
    }
    // The win comes on one of our moves: with one ply left nothing else helps.
    if (remaining > 1) {
      std::stable_sort(order.begin(), order.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      for (const auto& [score, i] : order) {
        const Move& m = moves[i];
        pos_.MakeMove(m);
        line_.push_back(m);
        const Outcome r = Search(remaining - 1);
        if (r == Outcome::kWin) return r;
        line_.pop_back();
        pos_.UnmakeMove(m);
        if (r == Outcome::kAbort) return r;
      }
    }
    int& known = failed_[key];
    known = std::max(known, remaining);
    return Outcome::kFail;
  }

  // The moves of one level of the search, kept from node to node so that a
  // node does not allocate its lists anew.
  struct Level {
    std::vector<Move> moves;
    std::vector<std::pair<int, size_t>> order;  // (score, index in moves)
    // Where our units stand before an enemy move (see FindOurUnits).
    std::array<Square, kSquares> our_units;
    int our_unit_count = 0;
  };

  // An enemy move never adds or moves one of our units (it may capture
  // one), so after it our units stand on a subset of these squares: Score
  // looks at them instead of all 81.
  void FindOurUnits(Level* level) const {
    level->our_unit_count = 0;
    for (Square s = 0; s < kSquares; ++s) {
      const Piece p = pos_.piece_on(s);
      if (p != kNoPiece && ColorOf(p) == side_) level->our_units[level->our_unit_count++] = s;
    }
  }

  // Move ordering: what brings our units and the enemy king together.
  int Score(const Move& m, bool ours, PieceType captured, const Level& level) {
    pos_.MakeMove(m);
    const Square enemy_king = pos_.king_square(enemy_);
    int score = 0;
    if (pos_.Attacked(enemy_king, side_)) score += 1000;
    if (ours) {
      score -= 10 * Distance(m.to, enemy_king);
    } else {
      if (captured != kNoPieceType) score -= 500;  // our material is our chance
      int nearest = 99;
      for (int i = 0; i < level.our_unit_count; ++i) {
        const Square s = level.our_units[i];
        const Piece p = pos_.piece_on(s);  // the move may have captured it
        if (p != kNoPiece && ColorOf(p) == side_)
          nearest = std::min(nearest, Distance(s, enemy_king));
      }
      score -= 10 * nearest;
    }
    pos_.UnmakeMove(m);
    return score;
  }

  Position pos_;
  const Color side_;
  const Color enemy_;
  const SearchLimits limits_;
  int64_t nodes_ = 0;
  std::vector<Move> line_;
  std::vector<Level> levels_;  // indexed by the plies remaining
  // Exact (no entry is ever dropped), so the node counts and answers do not
  // depend on the table; open addressing, so a new entry rarely allocates.
  absl::flat_hash_map<uint64_t, int> failed_;
};

}  // namespace

const char* ToString(PositionStatus s) {
  switch (s) {
    case PositionStatus::kOngoing:
      return "ongoing";
    case PositionStatus::kBareKings:
      return "bare_kings";
    case PositionStatus::kNoMove:
      return "no_move";
  }
  return "?";
}

SideWinAbility CanWin(const Position& pos, Color side, const SearchLimits& limits) {
  SideWinAbility out;
  if (pos.bare_kings()) {
    out.answer = WinAbility::kNo;
    out.proof = MateProof::kBareKings;
    out.section = "D8 §5.4";
    return out;
  }
  if (pos.lone_king(side)) {
    out.answer = WinAbility::kNo;
    out.proof = MateProof::kLoneKing;
    out.section = "D7 §5.4";
    return out;
  }
  if (pos.king_square(kWhite) == kNoSquare || pos.king_square(kBlack) == kNoSquare) {
    return out;  // the game is over; nothing to search
  }
  return CooperativeSearch(pos, side, limits).Run();
}

PositionAnalysis AnalyzePosition(const Position& pos, const SearchLimits& limits) {
  PositionAnalysis out;
  const Color us = pos.side_to_move();
  const Color them = Opponent(us);
  out.side_to_move = us;
  const std::vector<Move> moves = GenerateMoves(pos);
  if (pos.bare_kings()) {
    out.status = PositionStatus::kBareKings;
    out.section = "D8 §5.4";
  } else if (moves.empty()) {
    out.status = PositionStatus::kNoMove;
    out.section = "§7.9";
  }
  for (Color c : {kWhite, kBlack}) out.can_win[c] = CanWin(pos, c, limits);

  out.opponent_moves_completed = pos.CompletedMoves(them);
  out.d6_window_open = out.opponent_moves_completed >= 99;
  Position p = pos;
  for (const Move& m : moves) {
    const bool king = TypeOf(p.CapturedPiece(m)) == kKing;
    const std::string site = MoveToSite(p, m);
    p.MakeMove(m);
    const bool in_check = p.InCheck(us);
    if (king) {
      KingCaptureNow k{MoveToCoordinate(m), site, false, Rule::kKingCapture, ""};
      if (p.lone_king(us)) {
        k.rule = Rule::kLoneKing;
        k.section = "D7 §5.4";
      } else if (in_check) {
        k.rule = Rule::kDrawnKingCapture;
        k.section = "D4 §5.1";
      } else {
        k.wins = true;
        k.rule = Rule::kKingCapture;
        k.section = "§5.1";
      }
      out.king_captures.push_back(std::move(k));
    } else if (out.d6_window_open && !in_check) {
      out.d6_claim_moves.push_back(MoveToCoordinate(m));
    }
    p.UnmakeMove(m);
  }
  out.d5_claim_available = !out.king_captures.empty();
  out.d6_claim_available = !out.d6_claim_moves.empty();
  return out;
}

}  // namespace arbiter::chess99
