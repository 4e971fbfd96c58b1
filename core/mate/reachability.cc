#include "core/mate/reachability.h"

#include <algorithm>
#include <optional>

#include "absl/container/flat_hash_set.h"
#include "core/chess/movegen.h"
#include "core/mate/fortress.h"
#include "core/mate/material.h"
#include "core/mate/position_set.h"

namespace arbiter {
namespace {

// Whether the move that led to `pos` may have closed the position: a
// capture, a promotion, or a pawn push that ran into a pawn.
bool MayHaveLocked(const Position& pos, Move last) {
  if (pos.captured_piece() != kNoPiece || last.kind() == Move::kPromotion) return true;
  const Piece moved = pos.piece_on(last.to());
  if (TypeOf(moved) != kPawn) return false;
  const Square ahead = Square(ColorOf(moved) == kWhite ? last.to() + 8 : last.to() - 8);
  return pos.pieces(kPawn) & SquareBB(ahead);
}

// Positions from which no mate by `winner` can follow, by a static proof:
// such a position is a leaf of the exploration (lines that lock the pawns
// or shed the last mating material are cut there). The fortress proof costs
// more than expanding a node, so it is tried at the start and where the
// last move may have closed the position (MayHaveLocked), and at most once
// per pawn structure and material that it failed on: the men's placement
// decides it too, but the next structure is where a line usually locks.
// Skipping the proof is never wrong, only a longer exploration.
class StaticCutter {
 public:
  StaticCutter(Color winner, StaticCuts cuts) : winner_(winner), cuts_(cuts) {}

  bool Denied(const Position& pos, bool may_have_locked) {
    if (HasInsufficientMaterial(pos, winner_)) return true;
    if (cuts_ != StaticCuts::kMaterialAndFortress || !may_have_locked) return false;
    uint64_t material = 0;
    for (Bitboard men = pos.pieces() & ~pos.pieces(kPawn); men;)
      material = material * 13 + uint64_t(pos.piece_on(PopLsb(men)));
    const Structure key{pos.pieces(kWhite, kPawn), pos.pieces(kBlack, kPawn), material};
    if (failed_.contains(key)) return false;
    if (FortressDeniesMate(pos, winner_)) return true;
    failed_.insert(key);
    return false;
  }

 private:
  struct Structure {
    Bitboard white_pawns, black_pawns;
    uint64_t material;  // the other men, by square order (not placement)
    bool operator==(const Structure& o) const {
      return white_pawns == o.white_pawns && black_pawns == o.black_pawns && material == o.material;
    }
    template <typename H>
    friend H AbslHashValue(H h, const Structure& s) {
      return H::combine(std::move(h), s.white_pawns, s.black_pawns, s.material);
    }
  };
  Color winner_;
  StaticCuts cuts_;
  absl::flat_hash_set<Structure> failed_;
};

}  // namespace

// The depth-first exploration's whole state, kept between calls to
// Explore. Explicit DFS stack: the moves of all levels share one arena, so
// a level costs its few moves rather than a full move array (paths can be
// as long as the number of positions explored).
struct ReachableExplorer::State {
  State(const Position& start, Color winner, StaticCuts cuts)
      : pos(start), winner(winner), cutter(winner, cuts) {}

  // Returns true when the current position, reached by `last` (none at the
  // start), must be expanded.
  bool Enter(std::optional<Move> last) {
    if (!seen.Insert(pos)) return false;
    ++result.positions;
    if (cutter.Denied(pos, !last || MayHaveLocked(pos, *last))) return false;
    MoveList moves(pos);
    if (moves.size() > 1) result.only_forced_moves = false;
    if (moves.empty()) return false;  // mate (checked by the caller) or stalemate
    stack.push_back({uint32_t(arena.size()), uint32_t(moves.size()), 0});
    arena.insert(arena.end(), moves.begin(), moves.end());
    return true;
  }

  struct Level {
    uint32_t begin;  // first move in `arena`
    uint32_t count;
    uint32_t next;
  };
  Move CurrentMove(const Level& l) const { return arena[l.begin + l.next - 1]; }

  Position pos;
  Color winner;
  StaticCutter cutter;
  PositionSet seen;
  std::vector<Level> stack;
  std::vector<Move> arena;
  ReachabilityResult result;
  bool started = false;
};

ReachableExplorer::ReachableExplorer(const Position& start, Color winner, StaticCuts cuts)
    : state_(std::make_unique<State>(start, winner, cuts)) {}

ReachableExplorer::~ReachableExplorer() = default;

const ReachabilityResult& ReachableExplorer::Explore(uint64_t max_positions) {
  State& s = *state_;
  ReachabilityResult& result = s.result;
  if (result.outcome != ReachabilityResult::kBudgetExhausted) return result;
  // Sized for the budget at once, up to what a thread keeps between sets:
  // most explorations use all of a small budget, and a large one (millions
  // of positions) usually ends long before its budget does.
  s.seen.Reserve(std::min<uint64_t>(max_positions, PositionSet::kMaxRetainedSlots / 2));
  if (!s.started) {
    s.started = true;
    s.Enter(std::nullopt);
  }
  while (!s.stack.empty()) {
    State::Level& top = s.stack.back();
    if (top.next == top.count) {
      s.arena.resize(top.begin);
      s.stack.pop_back();
      if (!s.stack.empty()) s.pos.UndoMove(s.CurrentMove(s.stack.back()));
      continue;
    }
    // Stopping here leaves the state whole: the next call resumes with
    // this very move.
    if (result.positions >= max_positions) return result;
    const Move m = s.arena[top.begin + top.next++];
    s.pos.DoMove(m);
    if (s.pos.side_to_move() != s.winner && s.pos.in_check() && !HasLegalMove(s.pos)) {
      for (const State::Level& l : s.stack) result.line.push_back(s.CurrentMove(l));
      result.outcome = ReachabilityResult::kMateFound;
      return result;
    }
    if (!s.Enter(m)) s.pos.UndoMove(m);
  }
  result.outcome = ReachabilityResult::kNoMate;
  return result;
}

ReachabilityResult ExploreReachable(const Position& start, Color winner, uint64_t max_positions,
                                    StaticCuts cuts) {
  ReachableExplorer explorer(start, winner, cuts);
  return explorer.Explore(max_positions);
}

ReachabilityResult ShortestReachableMate(const Position& start, Color winner,
                                         uint64_t max_positions, StaticCuts cuts) {
  ReachabilityResult result;
  // Every position reached, as the move that reached it from its parent.
  struct Node {
    uint32_t parent;
    Move move;
  };
  std::vector<Node> nodes{{0, Move()}};
  PositionSet seen;
  seen.Insert(start);
  StaticCutter cutter(winner, cuts);
  result.positions = 1;
  auto line_to = [&](uint32_t i, std::vector<Move>* out) {
    out->clear();
    for (; i != 0; i = nodes[i].parent) out->push_back(nodes[i].move);
    std::reverse(out->begin(), out->end());
  };
  // The position of the node being expanded, reached from the previous one
  // by undoing moves back to their common ancestor and playing forward:
  // nodes of a layer are in their parents' order, so neighbours share most
  // of their line.
  Position pos = start;
  std::vector<Move> line;  // from the start to `pos`
  std::vector<Move> target;
  auto go_to = [&](uint32_t index) {
    line_to(index, &target);
    size_t common = 0;
    while (common < line.size() && common < target.size() && line[common] == target[common])
      ++common;
    while (line.size() > common) {
      pos.UndoMove(line.back());
      line.pop_back();
    }
    for (size_t i = common; i < target.size(); ++i) {
      pos.DoMove(target[i]);
      line.push_back(target[i]);
    }
  };
  std::vector<uint32_t> frontier{0}, next;
  while (!frontier.empty()) {
    next.clear();
    for (uint32_t index : frontier) {
      go_to(index);
      if (cutter.Denied(pos, index == 0 || MayHaveLocked(pos, nodes[index].move))) continue;
      MoveList moves(pos);
      if (moves.size() > 1) result.only_forced_moves = false;
      for (Move m : moves) {
        pos.DoMove(m);
        if (pos.side_to_move() != winner && pos.in_check() && !HasLegalMove(pos)) {
          result.line = line;
          result.line.push_back(m);
          result.outcome = ReachabilityResult::kMateFound;
          return result;
        }
        if (seen.Insert(pos)) {
          if (result.positions >= max_positions) {
            result.outcome = ReachabilityResult::kBudgetExhausted;
            return result;
          }
          ++result.positions;
          nodes.push_back({index, m});
          next.push_back(uint32_t(nodes.size() - 1));
        }
        pos.UndoMove(m);
      }
    }
    frontier.swap(next);
  }
  result.outcome = ReachabilityResult::kNoMate;
  return result;
}

bool ForcedLineDeniesMate(const Position& start, Color winner) {
  Position pos = start;
  // A forced line cannot repeat a position without a choice in between, so
  // it is at most as long as the reversible window; 300 plies is ample.
  for (int ply = 0; ply < 300; ++ply) {
    if (HasInsufficientMaterial(pos, winner)) return true;
    MoveList moves(pos);
    if (moves.empty()) return !(pos.in_check() && pos.side_to_move() != winner);
    if (moves.size() > 1) return false;
    pos.DoMove(*moves.begin());
  }
  return false;
}

}  // namespace arbiter
