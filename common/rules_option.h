// The --rules option of analyze, verify and job submit: which rule system
// judges.
//   chess    (default) the FIDE Laws, as everywhere else in Arbiter;
//   chess99  Chess 99 (core/chess99/): analyze reads FEN-9 positions, and
//            verify treats games without a [Variant] tag as Chess 99 games
//            (a game's own [Variant] tag always decides its rules).
#pragma once

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/command_line.h"
#include "core/domain/ruleset.h"

namespace arbiter::cli {

inline constexpr char kRulesOption[] = "--rules";

// Adds --rules chess|chess99 to `command`, stored in `rules` ("fide" is
// read as chess).
inline CLI::Option* AddRulesOption(CLI::App& command, Ruleset* rules) {
  return AddChecked(
             command, kRulesOption,
             [rules](const std::string& name) {
               if (std::optional<Ruleset> parsed = ParseRuleset(name)) {
                 *rules = *parsed;
               } else {
                 throw UsageError(
                     absl::StrCat("--rules must be chess or chess99, got \"", name, "\""));
               }
             },
             "chess|chess99", "The rule system: chess (the FIDE Laws) or chess99 (Chess 99, 9x9)")
      ->default_str("chess");
}

}  // namespace arbiter::cli
