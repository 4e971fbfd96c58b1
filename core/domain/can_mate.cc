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

}  // namespace arbiter
