#include "core/domain/game_result.h"

#include "core/domain/names.h"

namespace arbiter {
namespace {

constexpr NameTable<GameResult, 5> kNames{{
    {GameResult::kUnfinished, "*"},
    {GameResult::kWhiteWins, "1-0"},
    {GameResult::kBlackWins, "0-1"},
    {GameResult::kDraw, "1/2-1/2"},
    {GameResult::kDoubleForfeit, "0-0"},
}};

}  // namespace

const char* ToString(GameResult r) { return NameOf(kNames, r); }
std::optional<GameResult> ParseGameResult(std::string_view text) { return ValueOf(kNames, text); }

}  // namespace arbiter
