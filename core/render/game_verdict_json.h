// The JSON record of one game verdict: what `verify --format jsonl`, the
// jobs' results and the workers' replies all print.
#pragma once

#include <string>

#include "core/verdict/game_verdict.h"

namespace arbiter {

// One JSON object (no newline) with every field of the verdict; the
// tablebase fields only when `v.tablebase` is set.
std::string GameVerdictJson(const GameVerdict& v);

}  // namespace arbiter
