// The result of a game, as a ruling states it. Records spell results as
// PGN does ("1-0", ...); that spelling is the text form below, and a
// record's own Result tag stays text (it may hold anything).
#pragma once

#include <optional>
#include <string_view>

namespace arbiter {

enum class GameResult : uint8_t {
  kUnfinished,     // "*": the game goes on
  kWhiteWins,      // "1-0"
  kBlackWins,      // "0-1"
  kDraw,           // "1/2-1/2"
  kDoubleForfeit,  // "0-0": both players lose (FIDE 11.8, both forfeit)
};

const char* ToString(GameResult r);
std::optional<GameResult> ParseGameResult(std::string_view text);

}  // namespace arbiter
