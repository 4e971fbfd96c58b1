#include "core/domain/claim.h"

#include "core/domain/names.h"

namespace arbiter {
namespace {

constexpr NameTable<ClaimKind, 3> kKinds{{
    {ClaimKind::kQuickplayFinish, "quickplay_finish"},
    {ClaimKind::kInsufficientLosingChances, "insufficient_losing_chances"},
    {ClaimKind::kTablebaseClaim, "tablebase_claim"},
}};

constexpr NameTable<ClaimedOutcome, 2> kOutcomes{{
    {ClaimedOutcome::kDraw, "draw"},
    {ClaimedOutcome::kWin, "win"},
}};

constexpr NameTable<ClaimAnswer, 3> kAnswers{{
    {ClaimAnswer::kUpheld, "upheld"},
    {ClaimAnswer::kRejected, "rejected"},
    {ClaimAnswer::kArbiterJudgment, "arbiter_judgment"},
}};

constexpr NameTable<ClaimBasis, 12> kBases{{
    {ClaimBasis::kNotUnderTheseRules, "not_under_these_rules"},
    {ClaimBasis::kGameOver, "game_over"},
    {ClaimBasis::kNotOnMove, "not_on_move"},
    {ClaimBasis::kClockConditions, "clock_conditions"},
    {ClaimBasis::kOpponentCannotMate, "opponent_cannot_mate"},
    {ClaimBasis::kTablebaseDraw, "tablebase_draw"},
    {ClaimBasis::kTablebaseOpponentWins, "tablebase_opponent_wins"},
    {ClaimBasis::kTablebaseOpen, "tablebase_open"},
    {ClaimBasis::kTablebaseResult, "tablebase_result"},
    {ClaimBasis::kTooManyMen, "too_many_men"},
    {ClaimBasis::kNotCovered, "not_covered"},
    {ClaimBasis::kNoDecisiveEvidence, "no_decisive_evidence"},
}};

}  // namespace

const char* ToString(ClaimKind k) { return NameOf(kKinds, k); }
std::optional<ClaimKind> ParseClaimKind(std::string_view text) { return ValueOf(kKinds, text); }

Ruleset RulesetOf(ClaimKind k) {
  switch (k) {
    case ClaimKind::kQuickplayFinish:
      return Ruleset::kFide;
    case ClaimKind::kInsufficientLosingChances:
      return Ruleset::kUscf;
    case ClaimKind::kTablebaseClaim:
      return Ruleset::kIccf;
  }
  return Ruleset::kFide;
}

const char* ArticleOf(ClaimKind k) {
  switch (k) {
    case ClaimKind::kQuickplayFinish:
      return "FIDE Guidelines III.5";
    case ClaimKind::kInsufficientLosingChances:
      return "US Chess 14H";
    case ClaimKind::kTablebaseClaim:
      return "ICCF tablebase claims";
  }
  return "";
}

const char* ToString(ClaimedOutcome o) { return NameOf(kOutcomes, o); }
std::optional<ClaimedOutcome> ParseClaimedOutcome(std::string_view text) {
  return ValueOf(kOutcomes, text);
}

const char* ToString(ClaimAnswer a) { return NameOf(kAnswers, a); }
std::optional<ClaimAnswer> ParseClaimAnswer(std::string_view text) {
  return ValueOf(kAnswers, text);
}

const char* ToString(ClaimBasis b) { return NameOf(kBases, b); }
std::optional<ClaimBasis> ParseClaimBasis(std::string_view text) { return ValueOf(kBases, text); }

}  // namespace arbiter
