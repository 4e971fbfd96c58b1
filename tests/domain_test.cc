// The domain enums (core/domain): every value has one text form, which
// parses back to it, and no two values share one. A value added to an enum
// but not to its name table fails here.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/domain/can_mate.h"
#include "core/domain/claim.h"
#include "core/domain/game_result.h"
#include "core/domain/rule.h"
#include "core/domain/ruleset.h"

namespace arbiter {
namespace {

// Checks the values 0..last of `Enum`.
template <typename Enum, typename Parse>
void ExpectNamesRoundTrip(Enum last, Parse parse) {
  std::set<std::string> seen;
  for (int i = 0; i <= int(last); ++i) {
    const Enum value = Enum(i);
    const std::string name = ToString(value);
    SCOPED_TRACE(name);
    EXPECT_NE(name, "?") << "value " << i << " has no name";
    EXPECT_TRUE(seen.insert(name).second) << "two values are named " << name;
    EXPECT_EQ(parse(name), value);
  }
  EXPECT_EQ(parse("no such name"), std::nullopt);
}

TEST(Domain, EveryRuleHasOneName) {
  ExpectNamesRoundTrip(Rule::kFlagFallInsufficientMaterial, ParseRule);
}

TEST(Domain, EveryResultHasOneName) {
  ExpectNamesRoundTrip(GameResult::kDoubleForfeit, ParseGameResult);
  EXPECT_EQ(ToString(GameResult::kDraw), std::string("1/2-1/2"));
}

TEST(Domain, EveryCanMateAnswerAndProofHasOneName) {
  ExpectNamesRoundTrip(CanMate::kUnknown, ParseCanMate);
  ExpectNamesRoundTrip(MateProof::kLoneKing, ParseMateProof);
  EXPECT_EQ(ToString(MateProof::kNone), std::string(""));
}

TEST(Domain, RulesetsParseTheirNamesAndTheChessAlias) {
  EXPECT_EQ(ParseRuleset(ToString(Ruleset::kFide)), Ruleset::kFide);
  EXPECT_EQ(ParseRuleset(ToString(Ruleset::kChess99)), Ruleset::kChess99);
  ExpectNamesRoundTrip(Ruleset::kChess99, ParseRuleset);
  EXPECT_EQ(ParseRuleset("chess"), Ruleset::kFide);
  EXPECT_EQ(ParseRuleset("FIDE"), std::nullopt);
}

TEST(Domain, EveryClaimValueHasOneName) {
  ExpectNamesRoundTrip(ClaimKind::kTablebaseClaim, ParseClaimKind);
  ExpectNamesRoundTrip(ClaimedOutcome::kWin, ParseClaimedOutcome);
  ExpectNamesRoundTrip(ClaimAnswer::kArbiterJudgment, ParseClaimAnswer);
  ExpectNamesRoundTrip(ClaimBasis::kNoDecisiveEvidence, ParseClaimBasis);
  // Each claim belongs to the rule set that has it.
  EXPECT_EQ(RulesetOf(ClaimKind::kQuickplayFinish), Ruleset::kFide);
  EXPECT_EQ(RulesetOf(ClaimKind::kInsufficientLosingChances), Ruleset::kUscf);
  EXPECT_EQ(RulesetOf(ClaimKind::kTablebaseClaim), Ruleset::kIccf);
}

}  // namespace
}  // namespace arbiter
