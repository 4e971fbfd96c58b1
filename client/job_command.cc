// `arbiter --coordinator HOST:PORT job ...`: games ruled in the background by
// the cluster. Submit uploads a local file (or names one under the
// coordinator's --job-input-dir) and prints the job's id once the coordinator
// has it; watch follows its progress; results prints its verdicts exactly as
// `arbiter verify` prints them; list, cancel and delete manage jobs.
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "client/commands.h"
#include "client/remote.h"
#include "common/args.h"
#include "common/rules_option.h"
#include "common/search_options.h"
#include "common/tablebase_options.h"
#include "core/render/verdict_output.h"

namespace arbiter::cli {
namespace {

int Fail(const absl::Status& s) {
  std::fprintf(stderr, "arbiter job: %s\n", std::string(s.message()).c_str());
  return 2;
}

constexpr char kUsage[] =
    "usage: arbiter --coordinator HOST:PORT job submit FILE | submit --server-path PATH |\n"
    "       watch ID | results ID | list | cancel ID | delete ID";

std::string Progress(const JobStatus& j) {
  std::string line = absl::StrCat(j.id, " ", JobStateName(j.state), ": ", j.games_done,
                                  " games ruled (", j.games_read, " read), ", j.errors, " errors, ",
                                  j.disagreements, " disagreements, ", j.seconds, " s");
  if (!j.error.empty()) absl::StrAppend(&line, ": ", j.error);
  return line + "\n";
}

}  // namespace

int RunJob(const std::vector<std::string>& argv) {
  absl::StatusOr<Args> args = Args::Parse(
      argv,
      {kCoordinatorOption, kTlsCaOption, kTokenFileOption, "format", "from", kRulesOption,
       kBudgetOption, kTableOption, kSyzygyOption, "server-path", "limit"},
      {});
  if (!args.ok()) return Fail(args.status());
  const std::vector<std::string>& words = args->positional();
  const std::string verb = words.empty() ? "" : words[0];
  const size_t operands = verb == "list" || (verb == "submit" && args->Has("server-path")) ? 1 : 2;
  if (words.size() != operands || (verb != "submit" && verb != "watch" && verb != "results" &&
                                   verb != "list" && verb != "cancel" && verb != "delete"))
    return Fail(absl::InvalidArgumentError(kUsage));
  const std::string coordinator = CoordinatorFrom(*args);
  if (coordinator.empty())
    return Fail(absl::InvalidArgumentError(
        "jobs run on a coordinator: give --coordinator HOST:PORT (or $ARBITER_COORDINATOR)"));
  absl::StatusOr<std::unique_ptr<RemoteArbiter>> connected = RemoteArbiter::Connect(*args);
  if (!connected.ok()) return Fail(connected.status());
  RemoteArbiter& remote = **connected;

  if (verb == "submit") {
    absl::StatusOr<MateSearchOptions> options = SearchOptionsFrom(*args, MateSearchOptions{});
    if (!options.ok()) return Fail(options.status());
    absl::StatusOr<Rules> rules = RulesFrom(*args);
    if (!rules.ok()) return Fail(rules.status());
    const bool chess99 = *rules == Rules::kChess99;
    absl::StatusOr<JobStatus> job =
        args->Has("server-path")
            ? remote.SubmitServerJob(args->Get("server-path"), *options, TablebaseRequested(*args),
                                     chess99)
            : remote.UploadJob(words[1], *options, TablebaseRequested(*args), chess99);
    if (!job.ok()) return Fail(job.status());
    std::printf("%s\n", job->id.c_str());
    return 0;
  }
  if (verb == "list") {
    absl::StatusOr<int64_t> limit = args->GetInt("limit", 0);
    if (!limit.ok()) return Fail(limit.status());
    if (*limit < 0 || *limit > 100000)
      return Fail(absl::InvalidArgumentError("--limit must be 0..100000"));
    absl::StatusOr<std::vector<JobStatus>> jobs = remote.ListJobs(int(*limit));
    if (!jobs.ok()) return Fail(jobs.status());
    for (const JobStatus& j : *jobs)
      std::printf("%s\t%s\t%s\t%s\t%lld games\t%s\n", j.id.c_str(), JobStateName(j.state),
                  j.created.c_str(), j.finished.empty() ? "-" : j.finished.c_str(),
                  (long long)j.games_done, j.path.c_str());
    return 0;
  }
  if (verb == "cancel") {
    absl::StatusOr<JobStatus> job = remote.CancelJob(words[1]);
    if (!job.ok()) return Fail(job.status());
    std::fputs(Progress(*job).c_str(), stdout);
    return 0;
  }
  if (verb == "delete") {
    if (absl::Status s = remote.DeleteJob(words[1]); !s.ok()) return Fail(s);
    return 0;
  }
  if (verb == "watch") {
    absl::StatusOr<JobStatus> last = remote.WatchJob(words[1], [](const JobStatus& j) {
      std::fputs(Progress(j).c_str(), stdout);
      std::fflush(stdout);  // progress is read as it comes, often through a pipe
    });
    if (!last.ok()) return Fail(last.status());
    return last->state == JobState::kDone ? 0 : 1;
  }
  absl::StatusOr<VerdictFormat> format = ParseVerdictFormat(args->Get("format", "text"));
  if (!format.ok()) return Fail(format.status());
  absl::StatusOr<int64_t> from = args->GetInt("from", 1);
  if (!from.ok()) return Fail(from.status());
  absl::StatusOr<JobStatus> job = remote.GetJob(words[1]);
  if (!job.ok()) return Fail(job.status());
  VerdictPrinter printer(*format, job->tablebase, stdout);
  if (absl::Status s =
          remote.JobResults(words[1], *from, [&](GameVerdict& v) { printer.Print(v); });
      !s.ok())
    return Fail(s);
  // The summary of what was printed, with the job's running time.
  absl::StatusOr<JobStatus> end = remote.GetJob(words[1]);
  if (!end.ok()) return Fail(end.status());
  printer.End(end->seconds);
  // A failed or cancelled job's verdicts are printed, but not as a whole run.
  if (end->state == JobState::kFailed || end->state == JobState::kCancelled)
    return Fail(absl::AbortedError(Progress(*end)));
  return 0;
}

}  // namespace arbiter::cli
