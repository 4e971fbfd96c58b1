#include "core/domain/ruleset.h"

#include "core/domain/names.h"

namespace arbiter {
namespace {

constexpr NameTable<Ruleset, 4> kNames{{
    {Ruleset::kFide, "fide"},
    {Ruleset::kUscf, "uscf"},
    {Ruleset::kIccf, "iccf"},
    {Ruleset::kChess99, "chess99"},
}};

}  // namespace

const char* ToString(Ruleset r) { return NameOf(kNames, r); }

std::optional<Ruleset> ParseRuleset(std::string_view text) {
  if (text == "chess") return Ruleset::kFide;
  return ValueOf(kNames, text);
}

const char* DisplayName(Ruleset r) {
  switch (r) {
    case Ruleset::kFide:
      return "FIDE";
    case Ruleset::kUscf:
      return "US Chess";
    case Ruleset::kIccf:
      return "ICCF";
    case Ruleset::kChess99:
      return "Chess 99";
  }
  return "FIDE";
}

}  // namespace arbiter
