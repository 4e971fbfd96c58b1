// The [Variant] tag values Arbiter rules on besides standard chess and
// Chess960 (game_replay.h): Chess 99 (core/chess99/), a 9x9 variant with its
// own rules, move notation and FEN-9 positions.
#pragma once

#include <string_view>

namespace arbiter {

// The tag value Arbiter writes and `--rules chess99` gives untagged games.
inline constexpr std::string_view kChess99Variant = "Chess 99";

// "Chess 99", ignoring case, spaces, '-' and '_' ("chess99", "Chess-99").
inline bool IsChess99Variant(std::string_view tag) {
  constexpr std::string_view kFolded = "chess99";
  size_t matched = 0;
  for (char c : tag) {
    if (c == ' ' || c == '-' || c == '_') continue;
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    if (matched == kFolded.size() || c != kFolded[matched]) return false;
    ++matched;
  }
  return matched == kFolded.size();
}

}  // namespace arbiter
