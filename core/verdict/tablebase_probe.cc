#include "core/verdict/tablebase_probe.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "core/chess/bitboard.h"
#include "core/tablebase/retrograde_root.h"

namespace arbiter {
namespace {

// Fathom root probes spent on making a settled position's DTZ exact.
constexpr int kPreciseDtzBudget = 300;

}  // namespace

const char* ToString(TablebaseSource s) {
  return s == TablebaseSource::kRetrograde ? "retrograde" : "syzygy";
}

TablebaseProbe ProbeTablebase(const SyzygyTablebase& tables, const Position& pos) {
  TablebaseProbe probe;
  probe.side_to_move = pos.side_to_move();
  // The default search settles every category that DTZ rounding leaves open
  // (and so win_within_50), which is what rulings need.
  absl::StatusOr<RootResult> root = tables.ProbeRoot(pos);
  if (root.ok() && !root->precise_dtz && !IsAmbiguous(root->category)) {
    // An exact DTZ is for people reading it. A short search settles most
    // (KQvK at once); a long win can take thousands of probes under Fathom's
    // process-wide lock, so the budget is small and the value left rounded
    // when it runs out. The search is deterministic, so is the answer.
    RootProbeOptions precise;
    precise.exact_budget = kPreciseDtzBudget;
    precise.precise_dtz = true;
    absl::StatusOr<RootResult> again = tables.ProbeRoot(pos, precise);
    if (again.ok() && again->precise_dtz) root = std::move(again);
  }
  if (root.ok()) {
    probe.root = *std::move(root);
    return probe;
  }
  absl::string_view why = root.status().message();
  absl::ConsumePrefix(&why, "not covered: ");
  // Castling rights, too many men, a missing table: the usual reasons. An
  // internal error (Fathom and our move generation disagree) is a bug, said
  // as such rather than passed off as a gap in the tables.
  probe.not_covered = absl::IsInternal(root.status())
                          ? absl::StrCat("tablebase probe failed: ", why)
                          : std::string(why);
  return probe;
}

std::optional<TablebaseProbe> ProbeTables(const Position& pos, const SyzygyTablebase* syzygy,
                                          RetrogradeSolver* retrograde) {
  if (syzygy == nullptr && retrograde == nullptr) return std::nullopt;
  std::optional<TablebaseProbe> probe;
  if (syzygy != nullptr) {
    probe = ProbeTablebase(*syzygy, pos);
    if (probe->root) return probe;
  }
  if (retrograde != nullptr && PopCount(pos.pieces()) <= kMaxMen) {
    absl::StatusOr<RootResult> root = ProbeRetrogradeRoot(*retrograde, pos);
    TablebaseProbe own;
    own.side_to_move = pos.side_to_move();
    own.source = TablebaseSource::kRetrograde;
    if (root.ok()) {
      own.root = *std::move(root);
      return own;
    }
    if (!probe) {
      absl::string_view why = root.status().message();
      absl::ConsumePrefix(&why, "not covered: ");
      own.not_covered = std::string(why);
      return own;
    }
  }
  if (!probe) {
    probe.emplace();
    probe->side_to_move = pos.side_to_move();
    probe->source = TablebaseSource::kRetrograde;
    probe->not_covered = absl::StrCat("more than ", kMaxMen,
                                      " men, where Arbiter's own tables stop, and no Syzygy "
                                      "tables were given");
  }
  return probe;
}

TbCategory CategoryFor(const TablebaseProbe& probe, Color side) {
  return probe.side_to_move == side ? probe.root->category : Negate(probe.root->category);
}

const TablebaseMove* MoveWinningWithin50(const RootResult& root) {
  if (root.category != TbCategory::kWin) return nullptr;
  for (const TablebaseMove& m : root.moves)
    if (m.category == TbCategory::kLoss) return &m;
  return nullptr;
}

}  // namespace arbiter
