// Which rules a game is played under. One type for the command line
// (--rules), the API (arbiter.v1.Ruleset), records ([Variant], see
// core/pgn/variant.h) and verdicts. docs/rulings.md, "Rule sets", gives each
// set's source articles and what Arbiter rules differently under it.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace arbiter {

enum class Ruleset : uint8_t {
  kFide,     // the FIDE Laws of Chess: "fide" (also accepted: "chess")
  kUscf,     // the US Chess Federation's Official Rules: "uscf"
  kIccf,     // the ICCF rules of correspondence chess: "iccf"
  kChess99,  // Chess 99 (core/chess99/README.md): "chess99"
};

// "fide", "uscf", "iccf" or "chess99".
const char* ToString(Ruleset r);
// The names above, or "chess" for kFide; nullopt otherwise.
std::optional<Ruleset> ParseRuleset(std::string_view text);
// "FIDE", "US Chess", "ICCF", "Chess 99": the set's name in sentences.
const char* DisplayName(Ruleset r);

}  // namespace arbiter
