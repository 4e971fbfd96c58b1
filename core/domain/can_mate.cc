#include "core/domain/can_mate.h"

#include "core/domain/names.h"

namespace arbiter {
namespace {

constexpr NameTable<CanMate, 3> kAnswers{{
    {CanMate::kYes, "yes"},
    {CanMate::kNo, "no"},
    {CanMate::kUnknown, "unknown"},
}};

constexpr NameTable<MateProof, 9> kProofs{{
    {MateProof::kNone, ""},
    {MateProof::kMaterial, "material"},
    {MateProof::kSeventyFiveMoveRule, "seventy_five_move_rule"},
    {MateProof::kFortress, "fortress"},
    {MateProof::kForcedLine, "forced_line"},
    {MateProof::kExhaustiveSearch, "exhaustive_search"},
    {MateProof::kRetrograde, "retrograde"},
    {MateProof::kBareKings, "bare_kings"},
    {MateProof::kLoneKing, "lone_king"},
}};

}  // namespace

const char* ToString(CanMate c) { return NameOf(kAnswers, c); }
std::optional<CanMate> ParseCanMate(std::string_view text) { return ValueOf(kAnswers, text); }
const char* ToString(MateProof p) { return NameOf(kProofs, p); }
std::optional<MateProof> ParseMateProof(std::string_view text) { return ValueOf(kProofs, text); }

const char* ProofWords(MateProof p) {
  switch (p) {
    case MateProof::kNone:
      return "";
    case MateProof::kMaterial:
      return "too little material for any series of legal moves to mate";
    case MateProof::kSeventyFiveMoveRule:
      return "every series of moves reaches the 75-move rule (9.6.2) before a mate";
    case MateProof::kFortress:
      return "the pawns are blocked and no piece can pass them";
    case MateProof::kForcedLine:
      return "the only legal moves, followed to the end, reach no mate";
    case MateProof::kExhaustiveSearch:
      return "every position reachable by legal moves was explored, and none is a mate";
    case MateProof::kRetrograde:
      return "the exact tables of every position with these men hold no mate";
    case MateProof::kBareKings:
      return "only the two kings are left";
    case MateProof::kLoneKing:
      return "a lone king cannot win";
  }
  return "";
}

}  // namespace arbiter
