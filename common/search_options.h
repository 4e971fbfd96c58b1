// The --budget and --table-mb options shared by analyze, verify and job
// submit.
#pragma once

#include <cstdint>
#include <string>

#include "common/command_line.h"
#include "core/mate/mate_ability.h"

namespace arbiter::common {

// Adds --budget and --table-mb to `command`; what they say is stored in
// `options`, whose values are the defaults.
inline void AddSearchOptions(CLI::App& command, MateSearchOptions* options) {
  AddInteger(
      command, "--budget", 1, int64_t(1) << 40, "--budget must be 1..2^40 positions",
      [options](int64_t v) { options->node_budget = uint64_t(v); }, "N",
      "Bound each mate search (positions; the guided dive gets 20 nodes per unit)")
      ->default_str(std::to_string(options->node_budget));
  AddInteger(
      command, "--table-mb", 1, 65536, "--table-mb must be 1..65536",
      [options](int64_t v) { options->table_bytes = size_t(v) << 20; }, "M",
      "The mate search's table, in MB")
      ->default_str(std::to_string(options->table_bytes >> 20));
}

}  // namespace arbiter::common
