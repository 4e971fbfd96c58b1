// The --budget and --table-mb options shared by analyze and verify.
#pragma once

#include "common/args.h"
#include "core/mate/mate_ability.h"

namespace arbiter::cli {

inline constexpr char kBudgetOption[] = "budget";
inline constexpr char kTableOption[] = "table-mb";

inline absl::StatusOr<MateSearchOptions> SearchOptionsFrom(const Args& args,
                                                           MateSearchOptions defaults) {
  absl::StatusOr<int64_t> budget = args.GetInt(kBudgetOption, int64_t(defaults.node_budget));
  if (!budget.ok()) return budget.status();
  if (*budget < 1 || *budget > (int64_t(1) << 40))
    return absl::InvalidArgumentError("--budget must be 1..2^40 positions");
  absl::StatusOr<int64_t> table_mb = args.GetInt(kTableOption, int64_t(defaults.table_bytes >> 20));
  if (!table_mb.ok()) return table_mb.status();
  if (*table_mb < 1 || *table_mb > 65536)
    return absl::InvalidArgumentError("--table-mb must be 1..65536");
  defaults.node_budget = uint64_t(*budget);
  defaults.table_bytes = size_t(*table_mb) << 20;
  return defaults;
}

}  // namespace arbiter::cli
