// JSON encodings of rule verdicts shared by `analyze`, `verify` and (later)
// the servers, so that every front end prints the same evidence.
#pragma once

#include <string>

#include "core/rules/assessment.h"

namespace arbiter {

// {"can_mate": "no", "proof": "material", "line": ["e2e4", ...]}
std::string MateAbilityJson(const Position& pos, const MateAbility& m);
// {"threefold": {...}, "fifty": {...}} with articles and UCI moves.
std::string ClaimsJson(const Position& pos, const DrawClaims& c);
// The full analysis record of one position (without the trailing newline).
std::string AssessmentJson(const Position& pos, const Assessment& a);

}  // namespace arbiter
