// The --rules option of analyze, verify and job submit: which rule system
// judges (docs/rulings.md, "Rule sets").
//   fide     (default; also "chess") the FIDE Laws;
//   uscf     the US Chess rules: flag falls under 14E, claims under 14H;
//   iccf     ICCF correspondence: tablebase claims without the 50-move rule;
//   chess99  Chess 99 (core/chess99/): analyze reads FEN-9 positions, and
//            verify treats games without a [Variant] tag as Chess 99 games
//            (a game's own [Variant] tag always decides its rules).
#pragma once

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/command_line.h"
#include "core/domain/ruleset.h"

namespace arbiter::common {

inline constexpr char kRulesOption[] = "--rules";

// Adds --rules fide|uscf|iccf|chess99 to `command`, stored in `rules`
// ("chess" is read as fide).
inline CLI::Option* AddRulesOption(CLI::App& command, Ruleset* rules) {
  return AddChecked(
             command, kRulesOption,
             [rules](const std::string& name) {
               if (std::optional<Ruleset> parsed = ParseRuleset(name)) {
                 *rules = *parsed;
               } else {
                 throw UsageError(absl::StrCat(
                     "--rules must be fide, uscf, iccf or chess99, got \"", name, "\""));
               }
             },
             "fide|uscf|iccf|chess99",
             "The rule system: fide (the FIDE Laws; also \"chess\"), uscf (US Chess),\n"
             "iccf (correspondence) or chess99 (Chess 99, 9x9)")
      ->default_str("fide");
}

}  // namespace arbiter::common
