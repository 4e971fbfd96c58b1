// Root probes answered by Arbiter's own retrograde tables (retrograde.h, at
// most 4 men): the same RootResult as SyzygyTablebase::ProbeRoot (syzygy.h),
// field by field and in the same move order (tablebase_move_order.h), so
// that the two are interchangeable as evidence and can be compared.
//
// The one difference is exactness: Syzygy's DTZ may be one ply short
// (wdl_category.h), and ProbeRoot can only settle the exact value by a
// bounded search; retrograde DTZ is exact. So here precise_dtz is always
// set (equal to dtz), for the position and every move, no category is ever
// maybe-win or maybe-loss, and win_within_50 is always set. The result is
// what ProbeRoot returns when its search settles every value.
#pragma once

#include "absl/status/statusor.h"
#include "core/chess/position.h"
#include "core/tablebase/retrograde.h"
#include "core/tablebase/syzygy.h"

namespace arbiter {

// DTZ, category under the fifty-move rule for the position's halfmove clock,
// and every legal move best first, as SyzygyTablebase::ProbeRoot describes
// them. Tables the position and its captures and promotions lead into are
// loaded or generated through `solver` (seconds per table the first time).
// Errors: NotFound ("not covered: ...") for more than 4 men,
// InvalidArgument for castling rights or an illegal position, and the
// solver's errors (a damaged table file).
absl::StatusOr<RootResult> ProbeRetrogradeRoot(RetrogradeSolver& solver, const Position& pos);

}  // namespace arbiter
