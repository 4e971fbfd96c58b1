#include "core/domain/ruleset.h"

namespace arbiter {

const char* ToString(Ruleset r) { return r == Ruleset::kChess99 ? "chess99" : "fide"; }

std::optional<Ruleset> ParseRuleset(std::string_view text) {
  if (text == "fide" || text == "chess") return Ruleset::kFide;
  if (text == "chess99") return Ruleset::kChess99;
  return std::nullopt;
}

}  // namespace arbiter
