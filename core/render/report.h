// JSON encodings of rule verdicts shared by `analyze`, `verify` and (later)
// the servers, so that every front end prints the same evidence.
#pragma once

#include <string>

#include "core/verdict/assessment.h"
#include "core/verdict/claim_verdict.h"
#include "core/verdict/tablebase_verdict.h"

namespace arbiter {

// {"can_mate": "yes", "proof": null, "line": ["e2e4", ...], "line_san": ["e4", ...]}
std::string MateAbilityJson(const Position& pos, const MateAbility& m);
// {"threefold": {...}, "fifty": {...}} with articles and UCI moves.
std::string ClaimsJson(const Position& pos, const DrawClaims& c);
// The full analysis record of one position (without the trailing newline).
// With `tablebase` (tables were given) it ends with "tablebase": the root
// probe in the Lichess API's shape (TablebaseJson), or null when the tables
// do not cover the position, and "tablebase_source" ("syzygy" or
// "retrograde"); without, the keys are left out. With `claim`, "claim" is
// the judged claim (ClaimRulingJson).
std::string AssessmentJson(const Position& pos, const Assessment& a,
                           const TablebaseProbe* tablebase = nullptr,
                           const ClaimRuling* claim = nullptr);

}  // namespace arbiter
