// A judged claim (core/verdict/claim_verdict.h) for people and for JSON:
// `analyze --claim` prints it, and every verify record lists the claims its
// game made.
#pragma once

#include <string>

#include "core/verdict/claim_verdict.h"

namespace arbiter {

// {"kind", "claimant", "claimed", "rules", "answer", "basis", "article",
//  "reason", "result", "ply", "fen", "opponent_can_mate": {...} | null,
//  "tablebase": {...} | null, "tablebase_source": ... | null}.
std::string ClaimRulingJson(const ClaimRuling& claim);

// A few lines: "Claim: quickplay_finish by White (FIDE Guidelines III.5):
// upheld", the reason, and the evidence.
std::string ClaimRulingText(const ClaimRuling& claim);

}  // namespace arbiter
