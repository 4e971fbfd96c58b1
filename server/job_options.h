// The job options both programs that run a coordinator take, with the same
// names, defaults and checks: `arbiter-coordinator` and `arbiter serve`
// (docs/commands.md): where jobs are kept, how long, and how large an
// upload may be.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "server/jobs.h"

namespace arbiter::coordinator {

// $STATE_DIRECTORY/jobs under systemd, /var/lib/arbiter/jobs for root, else
// ${XDG_STATE_HOME:-~/.local/state}/arbiter/jobs.
std::string DefaultJobDir();

// --job-dir (into `job_dir`; unset: DefaultJobDir()), --job-retention and
// --max-upload-mb (into `jobs`).
void AddJobOptions(CLI::App& app, JobsOptions* jobs, std::optional<std::string>* job_dir);

// Creates `dir`: PERMISSION_DENIED naming it when that fails.
absl::Status CreateJobDir(const std::string& dir);

}  // namespace arbiter::coordinator
