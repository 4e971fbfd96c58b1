// JSON for what Syzygy tables say: the full root probe of `analyze` (in the
// Lichess tablebase API's shape) and the short value of a `verify` record.
#pragma once

#include <string>

#include "core/tablebase/syzygy.h"
#include "core/verdict/tablebase_verdict.h"

namespace arbiter {

// JSON object for a root probe, in the Lichess API's shape:
// {"category", "dtz", "precise_dtz", "win_within_50", "halfmove_clock",
//  "checkmate", "stalemate", "moves": [{"uci", "san", "category", "dtz",
//  "precise_dtz", "zeroing", "checkmate", "stalemate"}, ...]}.
std::string TablebaseJson(const RootResult& result);

// Short JSON for a verify record (no move list: verify may write millions):
// {"category", "dtz", "precise_dtz", "win_within_50", "halfmove_clock",
//  "side_to_move"}; "null" when not covered.
std::string TablebasePositionJson(const TablebaseProbe& probe);

}  // namespace arbiter
