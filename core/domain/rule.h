// The rule that decided a game, under the FIDE Laws or the Chess 99 rules
// (core/chess99/README.md). The text form is the snake-case name records,
// the API and the summaries use ("checkmate", "flag_fall_cannot_mate", ...).
#pragma once

#include <optional>
#include <string_view>

namespace arbiter {

enum class Rule : uint8_t {
  // FIDE Laws (docs/rulings.md).
  kUnfinished,              // no ending yet
  kCheckmate,               // 5.1.1
  kStalemate,               // 5.2.1
  kDeadPosition,            // 5.2.2
  kFivefold,                // 9.6.1
  kSeventyFiveMoves,        // 9.6.2
  kFlagFall,                // 6.9: the opponent can mate
  kFlagFallCannotMate,      // 6.9: ... cannot: a draw
  kResignation,             // 5.1.2 (Chess 99: §5.2)
  kResignationCannotMate,   // 5.1.2 with a winner who cannot mate: a draw
  kForfeit,                 // 6.7.1, 7.5.5, 12.9.6: illegal move, absence, ...
  kForfeitCannotMate,       // ... where the Laws' exception makes it a draw
  kAdjudication,            // a decisive adjudication the winner can back
  kAdjudicationCannotMate,  // ... by a side that cannot mate: a draw
  kDoubleForfeit,           // 11.8
  kDrawAgreedOrClaimed,     // 5.2.3 / 9.x
  // Chess 99 only (core/chess99/endings.h).
  kKingCapture,                // §5.1
  kDrawnKingCapture,           // D4 §5.1
  kLoneKing,                   // D7 §5.4
  kBareKings,                  // D8 §5.4
  kClaimKingCaptureAvailable,  // D5 §5.4
  kClaim99Moves,               // D6 §5.4
  kAgreement,                  // D1 §5.4
  kNoMove,                     // §7.9
  kTimeForfeit,                // §5.3
  // Claims decided on the position (core/verdict/claim_verdict.h).
  kQuickplayFinishClaim,            // FIDE Guidelines III.5: upheld, a draw
  kInsufficientLosingChancesClaim,  // US Chess 14H: upheld, a draw
  kTablebaseClaim,                  // ICCF: the tables' result, no 50-move rule
  // US Chess 14E: a flag fell, but the opponent has only a king and a minor
  // piece (or two knights) and no forced win: a draw. (Last:
  // tests/domain_test.cc checks up to it.)
  kFlagFallInsufficientMaterial,
};

const char* ToString(Rule r);
std::optional<Rule> ParseRule(std::string_view text);

}  // namespace arbiter
