// The --rules option of analyze and verify: which rule system judges.
//   chess    (default) the FIDE Laws, as everywhere else in Arbiter;
//   chess99  Chess 99 (core/chess99/): analyze reads FEN-9 positions, and
//            verify treats games without a [Variant] tag as Chess 99 games
//            (a game's own [Variant] tag always decides its rules).
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "common/args.h"

namespace arbiter::cli {

inline constexpr char kRulesOption[] = "rules";

enum class Rules { kChess, kChess99 };

inline absl::StatusOr<Rules> RulesFrom(const Args& args) {
  const std::string rules = args.Get(kRulesOption, "chess");
  if (rules == "chess" || rules == "fide") return Rules::kChess;
  if (rules == "chess99") return Rules::kChess99;
  return absl::InvalidArgumentError(
      absl::StrCat("--rules must be chess or chess99, got \"", rules, "\""));
}

}  // namespace arbiter::cli
