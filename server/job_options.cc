#include "server/job_options.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>

#include "absl/strings/numbers.h"
#include "common/command_line.h"

namespace arbiter::coordinator {
namespace {

std::chrono::seconds ParseRetention(const std::string& text) {
  static const std::map<char, int64_t> kUnitSeconds = {
      {'d', 86400}, {'h', 3600}, {'m', 60}, {'s', 1}};
  const common::UsageError bad("--job-retention " + text +
                               ": give a number and a unit, as 30d, 12h, 90m or 45s (0 keeps)");
  if (text == "0") return std::chrono::seconds(0);
  if (text.size() < 2 || !kUnitSeconds.count(text.back())) throw bad;
  int64_t n = 0;
  if (!absl::SimpleAtoi(text.substr(0, text.size() - 1), &n) || n < 0 || n > 100000) throw bad;
  return std::chrono::seconds(n * kUnitSeconds.at(text.back()));
}

}  // namespace

std::string DefaultJobDir() {
  if (const char* state = std::getenv("STATE_DIRECTORY"); state && *state)
    return std::string(state) + "/jobs";
  if (geteuid() == 0) return "/var/lib/arbiter/jobs";
  if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/arbiter/jobs";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.local/state/arbiter/jobs";
}

void AddJobOptions(CLI::App& app, JobsOptions* jobs, std::optional<std::string>* job_dir) {
  common::AddValue(app, "--job-dir", job_dir, "DIR",
                   "The job database (jobs.sqlite) and uploaded job inputs; jobs running\n"
                   "when the server stopped resume at start (default:\n"
                   "$STATE_DIRECTORY/jobs under systemd, else /var/lib/arbiter/jobs for\n"
                   "root, else ${XDG_STATE_HOME:-~/.local/state}/arbiter/jobs)");
  common::AddInteger(
      app, "--max-upload-mb", 1, std::numeric_limits<int64_t>::max(),
      "--max-upload-mb must be >= 1", [jobs](int64_t mb) { jobs->max_upload_bytes = mb << 20; },
      "M", "Largest job upload")
      ->default_str(std::to_string(jobs->max_upload_bytes >> 20));
  common::AddChecked(
      app, "--job-retention",
      [jobs](const std::string& text) { jobs->retention = ParseRetention(text); }, "T",
      "Delete jobs that ended longer ago than T: 30d, 12h, 90m, 45s (0 keeps\n"
      "them)")
      ->default_str("30d");
}

absl::Status CreateJobDir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::PermissionDeniedError("--job-dir " + dir + ": " + ec.message());
  return absl::OkStatus();
}

}  // namespace arbiter::coordinator
