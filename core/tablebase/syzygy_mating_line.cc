#include "core/tablebase/syzygy_mating_line.h"

#include "absl/strings/str_cat.h"
#include "core/chess/movegen.h"

namespace arbiter {
namespace {

bool Wins(TbCategory c) {
  return c == TbCategory::kWin || c == TbCategory::kCursedWin || c == TbCategory::kMaybeWin;
}

}  // namespace

absl::StatusOr<std::vector<Move>> SyzygyMatingLine(const SyzygyTablebase& tables,
                                                   const Position& start, Color winner,
                                                   int max_plies) {
  // The exactness search is not needed: only the order of moves matters.
  const RootProbeOptions quick{.exact_budget = 0};
  Position pos = start;
  std::vector<Move> line;
  while (int(line.size()) < max_plies) {
    if (pos.in_check() && !HasLegalMove(pos)) {
      if (pos.side_to_move() == winner)
        return absl::FailedPreconditionError("the side to win is checkmated");
      return line;
    }
    absl::StatusOr<RootResult> root = tables.ProbeRoot(pos, quick);
    if (!root.ok()) return root.status();
    if (root->moves.empty()) return absl::FailedPreconditionError("stalemate");
    const TablebaseMove* chosen = nullptr;
    if (pos.side_to_move() == winner) {
      // A win for the winner makes the opponent's position after the best
      // move a loss; anything else means the tables do not see a win.
      if (line.empty() && !Wins(root->category))
        return absl::FailedPreconditionError(absl::StrCat(
            "the tables do not give this side a win (", ToString(root->category), ")"));
      chosen = &root->moves.front();  // best first: mates, then fastest progress
    } else {
      // The loser helps: of the replies that keep the winner winning, the
      // one nearest the winner's next zeroing move (a mate counts first).
      for (const TablebaseMove& m : root->moves) {
        if (!Wins(m.category)) continue;
        if (m.checkmate) continue;  // the loser mating: not a helping move
        if (!chosen || (m.dtz && chosen->dtz && *m.dtz < *chosen->dtz)) chosen = &m;
      }
      if (!chosen) return absl::FailedPreconditionError("the loser can escape the loss");
    }
    line.push_back(chosen->move);
    pos.DoMove(chosen->move);
  }
  return absl::ResourceExhaustedError(absl::StrCat("no mate within ", max_plies, " plies"));
}

}  // namespace arbiter
