// Which rules a game is played under. One type for the command line
// (--rules), the API (arbiter.v1.Ruleset), records ([Variant], see
// core/pgn/variant.h) and verdicts.
#pragma once

#include <optional>
#include <string_view>

namespace arbiter {

enum class Ruleset : uint8_t {
  kFide,     // the FIDE Laws of Chess: "fide" (also accepted: "chess")
  kChess99,  // Chess 99 (core/chess99/README.md): "chess99"
};

const char* ToString(Ruleset r);
// "fide", "chess" or "chess99"; nullopt otherwise.
std::optional<Ruleset> ParseRuleset(std::string_view text);

}  // namespace arbiter
