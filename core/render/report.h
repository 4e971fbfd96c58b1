// JSON encodings of rule verdicts shared by `analyze`, `verify` and (later)
// the servers, so that every front end prints the same evidence.
#pragma once

#include <string>

#include "core/verdict/assessment.h"
#include "core/verdict/claim_verdict.h"
#include "core/verdict/position_analysis.h"
#include "core/verdict/tablebase_verdict.h"

namespace arbiter {

// {"can_mate": "yes", "proof": null, "line": ["e2e4", ...], "line_san": ["e4", ...]}
std::string MateAbilityJson(const Position& pos, const MateAbility& m);
// {"threefold": {...}, "fifty": {...}} with articles and UCI moves.
std::string ClaimsJson(const Position& pos, const DrawClaims& c);
// The full analysis record of one position (without the trailing newline),
// every key present (docs/schema/assessment.schema.json): "tablebase" is
// the root probe in the Lichess API's shape (TablebaseJson), null when no
// tables were given or they do not cover the position ("tablebase_source"
// and "tablebase_not_covered" say which); "claim" the judged claim
// (ClaimRulingJson) or null.
std::string AssessmentJson(const PositionAnalysis& analysis);

}  // namespace arbiter
