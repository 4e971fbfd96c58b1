#include "core/domain/rule.h"

#include "core/domain/names.h"

namespace arbiter {
namespace {

constexpr NameTable<Rule, 29> kNames{{
    {Rule::kUnfinished, "unfinished"},
    {Rule::kCheckmate, "checkmate"},
    {Rule::kStalemate, "stalemate"},
    {Rule::kDeadPosition, "dead_position"},
    {Rule::kFivefold, "fivefold"},
    {Rule::kSeventyFiveMoves, "seventy_five_moves"},
    {Rule::kFlagFall, "flag_fall"},
    {Rule::kFlagFallCannotMate, "flag_fall_cannot_mate"},
    {Rule::kResignation, "resignation"},
    {Rule::kResignationCannotMate, "resignation_cannot_mate"},
    {Rule::kForfeit, "forfeit"},
    {Rule::kForfeitCannotMate, "forfeit_cannot_mate"},
    {Rule::kAdjudication, "adjudication"},
    {Rule::kAdjudicationCannotMate, "adjudication_cannot_mate"},
    {Rule::kDoubleForfeit, "double_forfeit"},
    {Rule::kDrawAgreedOrClaimed, "draw_agreed_or_claimed"},
    {Rule::kKingCapture, "king_capture"},
    {Rule::kDrawnKingCapture, "drawn_king_capture"},
    {Rule::kLoneKing, "lone_king"},
    {Rule::kBareKings, "bare_kings"},
    {Rule::kClaimKingCaptureAvailable, "claim_king_capture_available"},
    {Rule::kClaim99Moves, "claim_99_moves"},
    {Rule::kAgreement, "agreement"},
    {Rule::kNoMove, "no_move"},
    {Rule::kTimeForfeit, "time_forfeit"},
    {Rule::kQuickplayFinishClaim, "quickplay_finish_claim"},
    {Rule::kInsufficientLosingChancesClaim, "insufficient_losing_chances_claim"},
    {Rule::kTablebaseClaim, "tablebase_claim"},
    {Rule::kFlagFallInsufficientMaterial, "flag_fall_insufficient_material"},
}};

}  // namespace

const char* ToString(Rule r) { return NameOf(kNames, r); }
std::optional<Rule> ParseRule(std::string_view text) { return ValueOf(kNames, text); }

}  // namespace arbiter
