#include "core/mate/mate_ability.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "core/chess/bitboard.h"
#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "core/mate/corner_mate_search.h"
#include "core/mate/fortress.h"
#include "core/mate/guided_mate_search.h"
#include "core/mate/helpmate_search.h"
#include "core/mate/move_limit_search.h"
#include "core/mate/promotion_search.h"
#include "core/mate/reachability.h"
#include "core/mate/reduction_search.h"
#include "core/mate/subset_mate_search.h"
#include "core/tablebase/retrograde.h"
#include "core/tablebase/syzygy_mating_line.h"

namespace arbiter {

MateAbility MaterialMateAbility(const Position& pos, Color side) {
  MateAbility result;
  if (HasInsufficientMaterial(pos, side)) {
    result.answer = CanMate::kNo;
    result.proof = MateProof::kMaterial;
  }
  return result;
}

namespace {

// Non-capturing moves a reduction to a small endgame may spend.
constexpr int kReductionCredit = 6;

// The first guided dive: most positions need a few hundred nodes.
constexpr uint64_t kFirstDiveNodes = 2000;

// The middle dive, before the short exploration. Measured at the default
// budget (docs/research/can-mate-evidence.md), the wall time of 10,000
// Lichess time-forfeit positions x 2 sides and of CHA's test vector: none
// 1.72 s and 68.4 s, 10,000 nodes 1.37 s and 66.1 s, 30,000 1.29 s and
// 63.6 s, 100,000 1.32 s and 74.7 s; the same answers throughout.
constexpr uint64_t kMiddleDiveNodes = 30000;

// Still-men lines: sets of men tried, and table probes per set at most;
// each set costs a table probe before its walk, whatever the walk's share.
// The walk gets one probe per kBudgetPerStillMenProbe units of budget (2,000
// at the default budget, the measured setting), and with none the step is
// skipped: a cost that did not shrink with the budget made `--budget 1`
// about 4x slower than the default on the shared Lichess file.
constexpr size_t kStillMenSets = 8;
constexpr uint64_t kStillMenProbes = 2000;
constexpr uint64_t kBudgetPerStillMenProbe = 100;
// ... and below this many probes per set the sets' own probes would cost
// more than their walks: the step is skipped (budgets under 20,000).
constexpr uint64_t kStillMenMinProbes = 200;

// A guided dive's node costs a move generation and a table probe, several
// times less than a node of the exhaustive exploration (an exact set and
// static proofs): the longer dive gets this many nodes per unit of budget.
// Measured on CHA's test vector at the default budget (docs/research/can-mate-evidence.md):
// 2 nodes per unit leave 121 of 3,606 side verdicts unknown, 10 leave 77,
// 20 leave 53 with every position still under a second once the tables
// are loaded.
constexpr uint64_t kDiveNodesPerBudget = 20;

// ... and at most this many moves generated per unit of budget (see
// GuidedMateSearch's constructor): a node's time grows with its moves.
// Measured on CHA's test vector at the default budget (4 M nodes, so
// 12 M moves): the successful longer dive that generated the most moves
// needed 7.9 M; the three failing ones above 12 M were the vector's slowest
// sides (0.8 s, 0.5 s and 0.3 s in the dive alone: 50 M, 42 M and 16 M
// moves), now stopped at 12 M; the answers are the same.
constexpr uint64_t kDiveMovesPerBudget = 60;

// The corner dive (corner_mate_search.h): nodes per unit of budget, not
// charged, as the longer dive's. Its node is one move tried, cheaper than a
// dive's. Measured on CHA's test vector at the default budget, one thread,
// the corner dive before the longer one: 1 M nodes (5 a unit) left 15 sides
// unknown in 31.7 s, 3 M (15) 10 in 35.9 s, 8 M (40) 10 in 57.5 s; without
// it, 33 in 49.7 s (the dive settles in tens of milliseconds sides that
// the longer dive spent half a second failing on).
constexpr uint64_t kCornerNodesPerBudget = 15;
// Its set-up (target squares, distances round the walls) costs as much as
// thousands of nodes: below this many nodes the dive is not tried, so that
// a small budget stays cheap (the default budget gives it 3 M).
constexpr uint64_t kCornerMinNodes = 10000;

// Its lines: a king walk round a wall, promotions, the walk back (up to 147
// plies on CHA's test vector); LineIsPlayable holds them to the 75-move rule.
constexpr int kCornerMaxPlies = 160;

// A side that moves only pawns in every line of a small probe (chasolver's
// trigger for its exhaustive check, re-derived): its king and pieces are
// shut in, so the reachable set is about as small as its pawns' moves
// allow, and the exhaustive exploration settles the question where the
// dives would only wander. On CHA's test vector, 50 such "no" sides spent
// 0.3 to 0.9 s each in the dives before the exploration closed.
constexpr uint64_t kPawnMoverProbeNodes = 1000;

bool SomeSideMovesOnlyPawns(const Position& start) {
  bool moved_piece[2] = {false, false};
  uint64_t nodes = 0;
  Position pos = start;
  auto probe = [&](auto&& self, int depth) -> void {
    if (depth == 0 || nodes >= kPawnMoverProbeNodes) return;
    MoveBuffer buffer;
    Move* const end = GenerateLegalMoves(pos, buffer.moves);
    for (Move* m = buffer.moves; m != end && nodes < kPawnMoverProbeNodes; ++m) {
      ++nodes;
      if (TypeOf(pos.piece_on(m->from())) != kPawn) moved_piece[pos.side_to_move()] = true;
      pos.DoMove(*m);
      self(self, depth - 1);
      pos.UndoMove(*m);
    }
  };
  // Deep enough for a king to step out once a pawn has moved.
  probe(probe, 6);
  return !moved_piece[kWhite] || !moved_piece[kBlack];
}

MateAbility FromReachability(const Position& pos, Color side, const ReachabilityResult& r) {
  MateAbility out;
  if (r.outcome == ReachabilityResult::kNoMate) {
    out.answer = CanMate::kNo;
    out.proof = r.proof();
  } else if (r.outcome == ReachabilityResult::kMateFound && LineIsPlayable(pos, side, r.line)) {
    out.answer = CanMate::kYes;
    out.line = r.line;
  }
  return out;
}

// A depth-first line longer than this is looked for again breadth first,
// for a shortest line: on CHA's test vector the depth-first lines ran to 787
// plies (playable: its pawn moves restart the clock), where shorter ones
// exist.
constexpr size_t kLongExploredLine = 150;

// Exhaustive exploration, resumed where an earlier call stopped, up to
// `budget` positions in all. Its depth-first line to a mate is no evidence
// when it crosses the 75-move limit (in a locked position it wanders
// through hundreds of positions); a mate found that way is then looked for
// again breadth-first, which gives a shortest line, within the same budget.
MateAbility ExploreForMate(const Position& pos, Color side, ReachableExplorer& explorer,
                           uint64_t budget) {
  ReachabilityResult r = explorer.Explore(budget);
  if (r.outcome == ReachabilityResult::kMateFound &&
      (r.line.size() > kLongExploredLine || !LineIsPlayable(pos, side, r.line))) {
    ReachabilityResult shortest = ShortestReachableMate(pos, side, budget);
    if (shortest.outcome == ReachabilityResult::kMateFound &&
        LineIsPlayable(pos, side, shortest.line))
      r = std::move(shortest);
  }
  return FromReachability(pos, side, r);
}

}  // namespace

bool LineIsPlayable(const Position& start, Color side, const std::vector<Move>& line) {
  Position pos = start;
  for (Move m : line) {
    if (pos.halfmove_clock() >= 150 || !IsLegalMove(pos, m)) return false;
    pos.DoMove(m);
  }
  return pos.side_to_move() != side && pos.in_check() && !HasLegalMove(pos);
}

MateAbility RetrogradeMateAbility(const Position& pos, Color side, RetrogradeSolver& solver) {
  MateAbility out;
  if (PopCount(pos.pieces()) > kMaxMen || pos.castling_rights()) return out;
  absl::StatusOr<bool> can = solver.CanMate(pos, side);
  if (!can.ok()) return out;
  if (!*can) {
    out.answer = CanMate::kNo;
    out.proof = MateProof::kRetrograde;
    return out;
  }
  // A shortest helpmate, read off the tables' distances. The tables ignore
  // the move counters; a line that would cross the 75-move limit is no
  // evidence, and the answer stays with the other methods.
  absl::StatusOr<std::vector<Move>> line = solver.MatingLine(pos, side);
  if (line.ok() && LineIsPlayable(pos, side, *line)) {
    out.answer = CanMate::kYes;
    out.line = std::move(*line);
  }
  return out;
}

MateAbility AnalyzeMateAbility(const Position& pos, Color side, const MateSearchOptions& options) {
  // Steps as numbered in docs/can-mate.md. 1. Material classes; 2. a side
  // already mated.
  MateAbility result = MaterialMateAbility(pos, side);
  if (result.answer == CanMate::kNo) return result;
  if (pos.side_to_move() != side && pos.in_check() && !HasLegalMove(pos))
    return MateAbility{CanMate::kYes, MateProof::kNone, {}};  // already mated

  // 3. Near the 75-move limit every line to the automatic draw is searched:
  //    the rule itself may decide (9.6.2 ends the game before any mate).
  MoveLimitResult limit = SearchBeforeMoveLimit(pos, side, options.node_budget / 4);
  if (limit.outcome == MoveLimitResult::kMate)
    return MateAbility{CanMate::kYes, MateProof::kNone, limit.line};
  if (limit.outcome == MoveLimitResult::kNoMateBeforeLimit)
    return MateAbility{CanMate::kNo, MateProof::kSeventyFiveMoveRule, {}};
  // A capture or pawn move restarts the clock: a mate after one fits in the
  // 75 moves that follow. Each restart gets an equal share of a quarter of
  // the budget; its clock is 0, so this does not recurse again. Where every
  // line to a restart is listed and each ends where the side cannot mate,
  // no line mates: the rule and those proofs decide "no".
  if (!limit.resets.empty()) {
    MateSearchOptions after = options;
    after.node_budget = std::max<uint64_t>(options.node_budget / 4 / limit.resets.size(), 1);
    bool all_no = limit.all_resets;
    for (const std::vector<Move>& reset : limit.resets) {
      Position restarted = pos;
      for (Move m : reset) restarted.DoMove(m);
      MateAbility then = AnalyzeMateAbility(restarted, side, after);
      all_no = all_no && then.answer == CanMate::kNo;
      if (then.answer != CanMate::kYes) continue;
      std::vector<Move> whole = reset;
      whole.insert(whole.end(), then.line.begin(), then.line.end());
      if (LineIsPlayable(pos, side, whole))
        return MateAbility{CanMate::kYes, MateProof::kNone, whole};
    }
    if (all_no) return MateAbility{CanMate::kNo, MateProof::kSeventyFiveMoveRule, {}};
  }

  // 4. In small endgames the retrograde tables give a mating line at once
  //     (a probe and a walk down the mate distances), where a search may
  //     wander for thousands of nodes (K+P v K+B: 14 ms by search). Their
  //     "no" waits until step 9 has had its chance to name a simpler proof
  //     (a forced line reads better than "retrograde"), and spares the
  //     longer dive.
  std::optional<MateAbility> retrograde;
  if (options.retrograde && PopCount(pos.pieces()) <= kMaxMen) {
    retrograde = RetrogradeMateAbility(pos, side, *options.retrograde);
    if (retrograde->answer == CanMate::kYes) return *retrograde;
  }

  // 5. A guided dive toward a mating picture answers most real positions
  //    within a few hundred nodes: first a short dive, then (9) a middle
  //    (11) the corner dive and (12) a longer one.
  Position work = pos;
  std::vector<Move> line;
  uint64_t used = 0;
  // `charged`: its nodes count against the budget (the middle and longer
  // dives' do not: see kDiveNodesPerBudget).
  auto dive = [&](uint64_t budget, bool charged,
                  uint64_t move_budget = UINT64_MAX) -> std::optional<MateAbility> {
    GuidedMateSearch guided(side, budget, options.table_bytes, move_budget);
    const bool found = guided.Find(work, kGuidedMaxPlies, &line) && LineIsPlayable(pos, side, line);
    if (charged) used += guided.nodes();
    if (found) return MateAbility{CanMate::kYes, MateProof::kNone, line};
    return std::nullopt;
  };
  // Trading down to a small endgame the tables settle (7, 14).
  auto reduction = [&]() -> std::optional<MateAbility> {
    std::vector<Move> reduced;
    if (FindMateByReduction(pos, side, *options.retrograde, options.node_budget / 20,
                            kReductionCredit, &reduced) &&
        LineIsPlayable(pos, side, reduced))
      return MateAbility{CanMate::kYes, MateProof::kNone, reduced};
    return std::nullopt;
  };
  const uint64_t first_dive = std::min(options.node_budget / 4, kFirstDiveNodes);
  if (std::optional<MateAbility> found = dive(first_dive, /*charged=*/true)) return *found;

  // 6. The blocked-pawn fortress: a static proof, no search. After the
  //    short dive, which cannot find a mate where the proof holds, so the
  //    answers are those of the other order: most real positions are
  //    answered by the dive, and the proof (~4 us a position with pawns)
  //    is spared them.
  if (FortressDeniesMate(pos, side)) return MateAbility{CanMate::kNo, MateProof::kFortress, {}};

  // 7. A winner without queen or rook mates with the loser's men as
  //     blockers, where the longer dive wanders longest: trading down to
  //     a small endgame the tables settle is tried first. Before the
  //     still men (8): of the 207 sides of 10,000 Lichess time forfeits
  //     that reach these steps, the still men settled 76 and the
  //     reduction most of the rest, each still-men failure costing about
  //     a millisecond of table probes; in this order the whole run took
  //     0.87 s against 0.95 s (one thread, best of 6), with the same
  //     answers there and on CHA's test vector.
  const bool reduce = options.retrograde && PopCount(pos.pieces()) > kMaxMen;
  const bool reduce_early = reduce && !pos.pieces(side, kQueen, kRook);
  if (reduce_early) {
    if (std::optional<MateAbility> found = reduction()) return *found;
  }

  // 8. A mate with two or three men while the others stand still, read off
  //     the tables (lone minor pieces against pawns and pieces, where the
  //     dives wander longest).
  const uint64_t still_probes =
      std::min(kStillMenProbes, options.node_budget / kBudgetPerStillMenProbe);
  if (options.retrograde && still_probes >= kStillMenMinProbes) {
    std::vector<Move> still;
    if (FindMateWithStillMen(pos, side, *options.retrograde, kStillMenSets, still_probes, &still))
      return MateAbility{CanMate::kYes, MateProof::kNone, still};
  }

  // 9. A middle dive, then a small exhaustive exploration, which settles
  //    forced lines and fortresses. The exploration comes before the
  //    longer dive: most unwinnable positions that no static proof settles
  //    close within a few thousand positions, and would otherwise wait for
  //    millions of dive nodes to fail first (CHA's test vector: 114 s in
  //    all before, 68 s after). The middle dive comes before it: the
  //    mates the short dive missed are mostly found within a few thousand
  //    more nodes, where the exploration spends ~10 ms first (see
  //    kMiddleDiveNodes). Not charged, as the longer dive. The exploration
  //    is resumed, not restarted, by step 17: its positions count once,
  //    in step 17's total.
  if (std::optional<MateAbility> found =
          dive(std::min(kMiddleDiveNodes, options.node_budget * kDiveNodesPerBudget),
               /*charged=*/false))
    return *found;
  const uint64_t probe = std::max<uint64_t>(options.node_budget / 10, 1);
  ReachableExplorer explorer(pos, side);
  result = ExploreForMate(pos, side, explorer, probe);
  if (result.answer != CanMate::kUnknown) return result;

  // ... and where a side moves only pawns, with the whole budget before
  //    the dives (step 17 then has nothing left to add). The test costs up
  //    to kPawnMoverProbeNodes nodes: worth it only when the exploration it
  //    may extend would grow by at least as much.
  if (options.node_budget >= probe + kPawnMoverProbeNodes && SomeSideMovesOnlyPawns(pos)) {
    result = ExploreForMate(pos, side, explorer, options.node_budget);
    if (result.answer != CanMate::kUnknown) return result;
  }

  // 10. Small endgames are settled exactly by retrograde analysis.
  if (retrograde && retrograde->answer == CanMate::kNo) return *retrograde;

  // 11. The corner dive: the long composed mates through walls, which
  //     the guided dives wander past (not charged: see
  //     kCornerNodesPerBudget).
  if (const uint64_t corner_nodes = options.node_budget * kCornerNodesPerBudget;
      corner_nodes >= kCornerMinNodes) {
    CornerMateSearch corner(side, corner_nodes);
    if (corner.Find(work, kCornerMaxPlies, &line) && LineIsPlayable(pos, side, line))
      return MateAbility{CanMate::kYes, MateProof::kNone, line};
  }

  // 12. The longer dive (not charged: see kDiveNodesPerBudget).
  if (std::optional<MateAbility> found =
          dive(options.node_budget * kDiveNodesPerBudget,
               /*charged=*/false, options.node_budget * kDiveMovesPerBudget))
    return *found;

  // 13. A tablebase win proves mate; the tables give the line.
  if (options.syzygy && PopCount(pos.pieces()) <= options.syzygy->largest() &&
      !pos.castling_rights()) {
    absl::StatusOr<std::vector<Move>> won = SyzygyMatingLine(*options.syzygy, pos, side);
    if (won.ok() && LineIsPlayable(pos, side, *won))
      return MateAbility{CanMate::kYes, MateProof::kNone, *won};
  }

  // 14. More men: trade down to a small endgame the tables settle.
  if (reduce && !reduce_early) {
    if (std::optional<MateAbility> found = reduction()) return *found;
  }

  // 15. Exact helpmate search: the shortest line, where the dive failed.
  HelpmateSearch search(side, options.node_budget / 4, options.table_bytes);
  if (search.Find(work, options.max_plies, &line) && LineIsPlayable(pos, side, line))
    return MateAbility{CanMate::kYes, MateProof::kNone, line};
  used += search.nodes();

  // 16. Real endgames often need a new queen first: promote, then mate.
  if (pos.pieces(side, kPawn) && used < options.node_budget) {
    uint64_t nodes_left = (options.node_budget - used) / 4;
    const uint64_t promotion_budget = nodes_left;
    std::vector<Move> to_queen;
    bool promoted = FindQueenPromotion(work, side, 24, &nodes_left, &to_queen);
    used += promotion_budget - nodes_left;
    if (promoted) {
      Position queened = pos;
      for (Move m : to_queen) queened.DoMove(m);
      GuidedMateSearch finish(side, (options.node_budget - used) / 2, options.table_bytes);
      std::vector<Move> rest;
      bool mated = finish.Find(queened, kGuidedMaxPlies, &rest);
      used += finish.nodes();
      to_queen.insert(to_queen.end(), rest.begin(), rest.end());
      if (mated && LineIsPlayable(pos, side, to_queen))
        return MateAbility{CanMate::kYes, MateProof::kNone, to_queen};
    }
  }

  // 17. Whatever budget is left, for the exhaustive proof (step 9's
  //     exploration goes on).
  if (used < options.node_budget)
    result = ExploreForMate(pos, side, explorer, options.node_budget - used);
  return result;
}

void AddLineSan(const Position& start, MateAbility* m) {
  m->line_san.clear();
  m->line_san.reserve(m->line.size());
  Position pos = start;
  for (Move move : m->line) {
    m->line_san.push_back(ToSan(pos, move));
    pos.DoMove(move);
  }
}

std::vector<Move> WithoutRepetitions(const Position& start, const std::vector<Move>& line) {
  // keys[i] is the key of the position after i kept moves; a key that comes
  // back truncates the kept moves to its first occurrence. Keys alone
  // decide: a collision could only join two different positions, and
  // FinishLine replays the result under the Laws before it is shown.
  std::vector<Move> kept;
  kept.reserve(line.size());
  std::vector<uint64_t> keys = {start.key()};
  keys.reserve(line.size() + 1);
  Position pos = start;
  for (Move m : line) {
    pos.DoMove(m);
    kept.push_back(m);
    const auto seen = std::find(keys.begin(), keys.end(), pos.key());
    if (seen == keys.end()) {
      keys.push_back(pos.key());
      continue;
    }
    keys.erase(seen + 1, keys.end());
    kept.resize(keys.size() - 1);
  }
  return kept;
}

void FinishLine(const Position& start, MateAbility* m) {
  if (m->answer == CanMate::kYes && !m->line.empty()) {
    // The mating side makes the line's last move: the side to move at the
    // start for a line of odd length.
    const Color to_move = start.side_to_move();
    const Color mater = m->line.size() % 2 == 1 ? to_move : (to_move == kWhite ? kBlack : kWhite);
    std::vector<Move> cut = WithoutRepetitions(start, m->line);
    // Playable by construction; checked, since the line is evidence.
    if (cut.size() < m->line.size() && LineIsPlayable(start, mater, cut)) m->line = std::move(cut);
  }
  AddLineSan(start, m);
}

}  // namespace arbiter
