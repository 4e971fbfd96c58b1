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

// GET /v1/tablebase: TablebaseJson and "not_covered": null, or for a
// position the tables do not cover the same keys with "category":
// "unknown", the value's keys null, no moves and "not_covered" saying why.
std::string TablebaseApiJson(const TablebaseProbe& probe, bool checkmate, bool stalemate);

// Short JSON for a verify record (no move list: verify may write millions):
// {"category", "dtz", "precise_dtz", "win_within_50", "halfmove_clock",
//  "side_to_move"}; "null" when not covered.
std::string TablebasePositionJson(const TablebaseProbe& probe);

}  // namespace arbiter
