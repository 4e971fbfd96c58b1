// Draw and result claims that an arbiter (or tournament director) decides
// on the position rather than by counting: their kinds, the answers Arbiter
// gives, and what each answer rests on. The rulings themselves are in
// core/verdict/claim_verdict.h; docs/rulings.md, "Claims", has the articles.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/domain/ruleset.h"

namespace arbiter {

enum class ClaimKind : uint8_t {
  kQuickplayFinish,            // FIDE Guidelines III.5: "quickplay_finish"
  kInsufficientLosingChances,  // US Chess 14H: "insufficient_losing_chances"
  kTablebaseClaim,             // ICCF tablebase claims: "tablebase_claim"
};
const char* ToString(ClaimKind k);
std::optional<ClaimKind> ParseClaimKind(std::string_view text);
// The one rule set that has the claim.
Ruleset RulesetOf(ClaimKind k);
// Where the rule set states it, the set named: "FIDE Guidelines III.5",
// "US Chess 14H", "ICCF tablebase claims".
const char* ArticleOf(ClaimKind k);

// What the claimant asks for. Quickplay-finish and insufficient-losing-
// chances claims ask for a draw; a tablebase claim asks for the result the
// tables give, a win or a draw.
enum class ClaimedOutcome : uint8_t { kDraw, kWin };
const char* ToString(ClaimedOutcome o);  // "draw", "win"
std::optional<ClaimedOutcome> ParseClaimedOutcome(std::string_view text);

// Upheld and rejected are rulings on evidence that decides the question;
// anything less is left to the arbiter, and said to be.
enum class ClaimAnswer : uint8_t { kUpheld, kRejected, kArbiterJudgment };
const char* ToString(ClaimAnswer a);  // "upheld", "rejected", "arbiter_judgment"
std::optional<ClaimAnswer> ParseClaimAnswer(std::string_view text);

// What an answer rests on.
enum class ClaimBasis : uint8_t {
  kNotUnderTheseRules,     // the claim belongs to another rule set: rejected
  kGameOver,               // the game had already ended: rejected
  kNotOnMove,              // the claimant did not have the move: rejected
  kClockConditions,        // the recorded clock or time control rules it out
  kOpponentCannotMate,     // a proof that the opponent cannot mate: upheld
  kTablebaseDraw,          // the tables: the opponent cannot force a win
  kTablebaseOpponentWins,  // the tables: the opponent forces a win: rejected
  kTablebaseOpen,          // DTZ rounding leaves the fifty-move outcome open
  kTablebaseResult,        // a tablebase claim: the tables' result (no 50-move rule)
  kTooManyMen,             // a tablebase claim beyond 7 men: rejected
  kNotCovered,             // no table here covers the position: judgment
  kNoDecisiveEvidence,     // the opponent can (or may) mate, no table: judgment
};
const char* ToString(ClaimBasis b);  // "opponent_cannot_mate", ...
std::optional<ClaimBasis> ParseClaimBasis(std::string_view text);

}  // namespace arbiter
