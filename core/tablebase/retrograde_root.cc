#include "core/tablebase/retrograde_root.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/chess/bitboard.h"
#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "core/tablebase/tablebase_move_order.h"
#include "core/tablebase/wdl_category.h"

namespace arbiter {

absl::StatusOr<RootResult> ProbeRetrogradeRoot(RetrogradeSolver& solver, const Position& pos) {
  if (pos.castling_rights() != kNoCastling)
    return absl::InvalidArgumentError(
        "position has castling rights; retrograde tables cover only positions without them");
  const int men = PopCount(pos.pieces());
  if (men > kMaxMen)
    return absl::NotFoundError(absl::StrCat("not covered: ", MaterialName(pos), " has ", men,
                                            " men; the retrograde tables go up to ", kMaxMen));
  // Probed first even when the game is over: the solver's checks (legality,
  // pawns on the back ranks) then apply to every position, as ProbeRoot's do.
  absl::StatusOr<int> root_dtz = solver.ProbeDtz(pos);
  if (!root_dtz.ok()) return root_dtz.status();

  // The tables give a mated side DTZ 0; Syzygy's convention, kept here, is -1.
  if (std::optional<RootResult> terminal = TerminalRoot(pos)) return *terminal;
  RootResult out;
  const int h = pos.halfmove_clock();
  out.halfmove_clock = h;
  MoveList legal(pos);

  for (Move m : legal) {
    Position child = pos;  // DescribeRootMove plays the move on it
    TablebaseMove tm = DescribeRootMove(pos, m, &child);
    if (!tm.checkmate && !tm.stalemate) {
      // Captures and promotions land in another table; the solver finds it.
      absl::StatusOr<int> dtz = solver.ProbeDtz(child);
      if (!dtz.ok())
        return absl::Status(dtz.status().code(), absl::StrCat("after ", tm.uci, " in ", pos.Fen(),
                                                              ": ", dtz.status().message()));
      tm.dtz = tm.precise_dtz = *dtz;
      if (tm.zeroing) {
        // Clock 0 after the move, so the child's WDL decides; but a claim
        // already available before the move (h >= 100) still draws, as
        // ProbeRoot demotes it.
        tm.category = CategoryFromDtz(*dtz, /*precise=*/true, 0);
        if (h >= 100) tm.category = Demote(tm.category);
      } else {
        tm.category = CategoryFromDtz(*dtz, /*precise=*/true, h + 1);
      }
    }
    out.moves.push_back(std::move(tm));
  }

  out.dtz = *root_dtz;
  out.precise_dtz = *root_dtz;
  out.category = CategoryFromDtz(*root_dtz, /*precise=*/true, h);
  out.win_within_50 = WinsWithin50(*root_dtz, h);
  SortBestFirst(pos, &out.moves);
  return out;
}

}  // namespace arbiter
