// `arbiter --coordinator HOST:PORT job ...`: jobs over PGN files on storage
// the coordinator reads. Submit returns at once with the job's id; watch
// follows its progress; results prints its verdicts exactly as `arbiter
// verify` prints them.
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "client/args.h"
#include "client/commands.h"
#include "client/remote.h"
#include "client/rules_option.h"
#include "client/search_options.h"
#include "client/tablebase_options.h"
#include "client/verdict_output.h"

namespace arbiter::cli {
namespace {

int Fail(const absl::Status& s) {
  std::fprintf(stderr, "arbiter job: %s\n", std::string(s.message()).c_str());
  return 2;
}

std::string Progress(const JobStatus& j) {
  std::string line = absl::StrCat(j.id, " ", j.state, ": ", j.games_done, " games ruled (",
                                  j.games_read, " read), ", j.errors, " errors, ", j.disagreements,
                                  " disagreements, ", j.seconds, " s");
  if (!j.error.empty()) absl::StrAppend(&line, ": ", j.error);
  return line + "\n";
}

}  // namespace

int RunJob(const std::vector<std::string>& argv) {
  absl::StatusOr<Args> args =
      Args::Parse(argv,
                  {kCoordinatorOption, kTlsCaOption, kTokenFileOption, "format", "from",
                   kRulesOption, kBudgetOption, kTableOption, kSyzygyOption},
                  {});
  if (!args.ok()) return Fail(args.status());
  const std::vector<std::string>& words = args->positional();
  if (words.size() != 2 || (words[0] != "submit" && words[0] != "watch" && words[0] != "results"))
    return Fail(absl::InvalidArgumentError(
        "usage: arbiter --coordinator HOST:PORT job submit PATH | watch ID | results ID"));
  const std::string coordinator = CoordinatorFrom(*args);
  if (coordinator.empty())
    return Fail(absl::InvalidArgumentError(
        "jobs run on a coordinator: give --coordinator HOST:PORT (or $ARBITER_COORDINATOR)"));
  absl::StatusOr<std::unique_ptr<RemoteArbiter>> connected = RemoteArbiter::Connect(*args);
  if (!connected.ok()) return Fail(connected.status());
  RemoteArbiter& remote = **connected;

  if (words[0] == "submit") {
    absl::StatusOr<MateSearchOptions> options = SearchOptionsFrom(*args, MateSearchOptions{});
    if (!options.ok()) return Fail(options.status());
    absl::StatusOr<Rules> rules = RulesFrom(*args);
    if (!rules.ok()) return Fail(rules.status());
    absl::StatusOr<JobStatus> job =
        remote.SubmitJob(words[1], *options, TablebaseRequested(*args), *rules == Rules::kChess99);
    if (!job.ok()) return Fail(job.status());
    std::printf("%s\n", job->id.c_str());
    return 0;
  }
  if (words[0] == "watch") {
    absl::StatusOr<JobStatus> last = remote.WatchJob(words[1], [](const JobStatus& j) {
      std::fputs(Progress(j).c_str(), stdout);
      std::fflush(stdout);  // progress is read as it comes, often through a pipe
    });
    if (!last.ok()) return Fail(last.status());
    return last->state == "done" ? 0 : 1;
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
  if (end->state == "failed") return Fail(absl::AbortedError(Progress(*end)));
  return 0;
}

}  // namespace arbiter::cli
