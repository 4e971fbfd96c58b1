// `arbiter --coordinator HOST:PORT job ...`: games ruled in the background by
// the cluster. Submit uploads a local file (or names one under the
// coordinator's --job-input-dir) and prints the job's id once the coordinator
// has it; watch follows its progress; results prints its verdicts exactly as
// `arbiter verify` prints them; list, cancel and delete manage jobs.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>

#include "absl/strings/str_cat.h"
#include "client/commands.h"
#include "client/remote.h"
#include "common/command_line.h"
#include "common/rules_option.h"
#include "common/search_options.h"
#include "common/tablebase_options.h"
#include "core/render/verdict_output.h"

namespace arbiter::cli {
namespace {

constexpr char kProgram[] = "arbiter job";
constexpr char kUsage[] =
    "usage: arbiter --coordinator HOST:PORT job submit FILE | submit --server-path PATH |\n"
    "       watch ID | results ID | list | cancel ID | delete ID";

enum class Verb { kSubmit, kWatch, kResults, kList, kCancel, kDelete };

struct JobOptions {
  std::vector<std::string> operands;  // the verb's FILE or ID
  std::optional<std::string> server_path;
  Ruleset rules = Ruleset::kFide;
  MateSearchOptions search;
  std::vector<std::string> syzygy;
  VerdictFormat format = VerdictFormat::kText;
  int64_t from = 1;
  int64_t limit = 0;    // the coordinator's default
  bool follow = false;  // job results: until a running job ends
  const ConnectionOptions* connection = nullptr;
};

// "running", or "paused: REASON" for a running job that makes no progress.
std::string StateWords(const JobStatus& j) {
  return j.state == JobState::kRunning && !j.paused.empty() ? absl::StrCat("paused: ", j.paused)
                                                            : JobStateName(j.state);
}

std::string Progress(const JobStatus& j) {
  std::string line = absl::StrCat(j.id, " ", StateWords(j), ": ", j.games_done, " games ruled (",
                                  j.games_read, " read), ", j.errors, " errors, ", j.disagreements,
                                  " disagreements, ", j.seconds, " s");
  if (!j.error.empty()) absl::StrAppend(&line, ": ", j.error);
  return line + "\n";
}

// Uploads the local file `path` ("-": standard input). One that cannot be
// opened or read is unreadable input; the coordinator's refusals are
// usage errors.
common::ExitCode Upload(RemoteArbiter& remote, const std::string& path, const JobOptions& o,
                        bool chess99) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(
      path == "-" ? fdopen(dup(0), "rb") : std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file)
    return common::Fail(kProgram,
                        absl::NotFoundError(absl::StrCat(path, ": ", std::strerror(errno))),
                        common::ExitCode::kInputUnreadable);
  absl::StatusOr<JobStatus> job =
      remote.UploadJob(file.get(), path, o.search, TablebaseRequested(o.syzygy), chess99);
  if (!job.ok())
    return common::Fail(
        kProgram, job.status(),
        std::ferror(file.get()) ? common::ExitCode::kInputUnreadable : common::ExitCode::kUsage);
  std::printf("%s\n", job->id.c_str());
  return common::ExitCode::kSuccess;
}

common::ExitCode RunJob(Verb verb, JobOptions& o) {
  // Without the cluster build no job can run: say so before anything else.
  if (absl::Status s = RemoteArbiter::Available(*o.connection); !s.ok())
    return common::Fail(kProgram, s);
  const size_t operands = verb == Verb::kList || (verb == Verb::kSubmit && o.server_path) ? 0 : 1;
  if (o.operands.size() != operands)
    return common::Fail(kProgram, absl::InvalidArgumentError(kUsage));
  const std::string coordinator = CoordinatorFrom(*o.connection);
  if (coordinator.empty())
    return common::Fail(kProgram,
                        absl::InvalidArgumentError("jobs run on a coordinator: give --coordinator "
                                                   "HOST:PORT (or $ARBITER_COORDINATOR)"));
  absl::StatusOr<std::unique_ptr<RemoteArbiter>> connected = RemoteArbiter::Connect(*o.connection);
  if (!connected.ok()) return common::Fail(kProgram, connected.status());
  RemoteArbiter& remote = **connected;
  const std::string id = operands ? o.operands[0] : "";

  switch (verb) {
    case Verb::kSubmit: {
      const bool chess99 = o.rules == Ruleset::kChess99;
      o.search.rules = o.rules;
      if (!o.server_path) return Upload(remote, o.operands[0], o, chess99);
      absl::StatusOr<JobStatus> job =
          remote.SubmitServerJob(*o.server_path, o.search, TablebaseRequested(o.syzygy), chess99);
      if (!job.ok()) return common::Fail(kProgram, job.status());
      std::printf("%s\n", job->id.c_str());
      return common::ExitCode::kSuccess;
    }
    case Verb::kList: {
      absl::StatusOr<std::vector<JobStatus>> jobs = remote.ListJobs(int(o.limit));
      if (!jobs.ok()) return common::Fail(kProgram, jobs.status());
      for (const JobStatus& j : *jobs)
        std::printf("%s\t%s\t%s\t%s\t%lld games\t%s\t%s\n", j.id.c_str(), StateWords(j).c_str(),
                    j.created.c_str(), j.finished.empty() ? "-" : j.finished.c_str(),
                    (long long)j.games_done, j.path.c_str(),
                    j.owner.empty() ? "-" : j.owner.c_str());
      return common::ExitCode::kSuccess;
    }
    case Verb::kCancel: {
      absl::StatusOr<JobStatus> job = remote.CancelJob(id);
      if (!job.ok()) return common::Fail(kProgram, job.status());
      std::fputs(Progress(*job).c_str(), stdout);
      return common::ExitCode::kSuccess;
    }
    case Verb::kDelete:
      if (absl::Status s = remote.DeleteJob(id); !s.ok()) return common::Fail(kProgram, s);
      return common::ExitCode::kSuccess;
    case Verb::kWatch: {
      absl::StatusOr<JobStatus> last = remote.WatchJob(id, [](const JobStatus& j) {
        std::fputs(Progress(j).c_str(), stdout);
        std::fflush(stdout);  // progress is read as it comes, often through a pipe
      });
      if (!last.ok()) return common::Fail(kProgram, last.status());
      return last->state == JobState::kDone ? common::ExitCode::kSuccess
                                            : common::ExitCode::kFindings;
    }
    case Verb::kResults:
      break;
  }
  absl::StatusOr<JobStatus> job = remote.GetJob(id);
  if (!job.ok()) return common::Fail(kProgram, job.status());
  VerdictPrinter printer(o.format, job->tablebase, stdout);
  if (absl::Status s =
          remote.JobResults(id, o.from, o.follow, [&](GameVerdict& v) { printer.Print(v); });
      !s.ok())
    return common::Fail(kProgram, s);
  // The summary of what was printed, with the job's running time.
  absl::StatusOr<JobStatus> end = remote.GetJob(id);
  if (!end.ok()) return common::Fail(kProgram, end.status());
  printer.End(end->seconds);
  // A failed or cancelled job's verdicts are printed, but not as a whole
  // run; nor a running job's, without --follow.
  if (end->state == JobState::kFailed || end->state == JobState::kCancelled)
    return common::Fail(kProgram, absl::AbortedError(Progress(*end)));
  if (end->state == JobState::kRunning)
    return common::Fail(kProgram,
                        absl::UnavailableError(absl::StrCat(
                            "the job is still running; these are its verdicts so far (--follow "
                            "waits for the rest): ",
                            Progress(*end))),
                        common::ExitCode::kFindings);
  return common::ExitCode::kSuccess;
}

}  // namespace

Command AddJob(CLI::App& arbiter, ConnectionOptions* connection) {
  CLI::App* job = arbiter.add_subcommand(
      "job",
      "(with --coordinator) Rule on every game of a PGN file in the background:\n"
      "submit, watch, results, list, cancel, delete");
  auto o = std::make_shared<JobOptions>();
  o->connection = connection;
  AddConnectionOptions(*job, connection);
  auto verb = [&](const char* name, const std::string& operand, const std::string& help) {
    const std::string operand_help =
        operand == "FILE" ? "The PGN file (.pgn or .pgn.zst), or - for stdin" : "The job's id";
    CLI::App* sub = job->add_subcommand(name, help);
    if (!operand.empty()) common::AddOperands(*sub, operand, &o->operands, operand_help);
    AddConnectionOptions(*sub, connection);
    return sub;
  };
  const std::map<Verb, CLI::App*> verbs = {
      {Verb::kSubmit,
       verb("submit", "FILE",
            "Upload FILE (.pgn or .pgn.zst, - for stdin) as a job and print its id once\n"
            "the coordinator has stored it")},
      {Verb::kWatch,
       verb("watch", "ID", "Print the job's progress until it ends (exit 0 when done)")},
      {Verb::kResults,
       verb("results", "ID", "Print the job's committed records and their summary as verify does")},
      {Verb::kList, verb("list", "",
                         "List jobs newest first: id, state, created, finished, games, file,\n"
                         "owner (with tokens, a caller's own; an admin's: all)")},
      {Verb::kCancel, verb("cancel", "ID", "Stop a running job (its verdicts stay)")},
      {Verb::kDelete, verb("delete", "ID", "Remove an ended job and its upload")},
  };
  CLI::App& submit = *verbs.at(Verb::kSubmit);
  common::AddValue(submit, "--server-path", &o->server_path, "PATH",
                   "A file under the coordinator's --job-input-dir, instead of FILE");
  common::AddRulesOption(submit, &o->rules);
  common::AddSearchOptions(submit, &o->search);
  common::AddSyzygyOption(submit, &o->syzygy)
      ->description("Ask the workers to probe their own Syzygy tables (repeatable)");
  CLI::App& results = *verbs.at(Verb::kResults);
  common::AddFlag(results, "--follow", &o->follow,
                  "Also print what a running job rules later, until it ends (without it:\n"
                  "what is committed now, and exit 1 when the job is still running)");
  common::AddChecked(
      results, "--format",
      [o](const std::string& name) {
        absl::StatusOr<VerdictFormat> format = ParseVerdictFormat(name);
        if (!format.ok()) throw common::UsageError(std::string(format.status().message()));
        o->format = *format;
      },
      "text|jsonl|csv", "The records' format")
      ->default_str("text");
  common::AddInteger(results, "--from", &o->from, std::numeric_limits<int64_t>::min(),
                     std::numeric_limits<int64_t>::max(), "", "N", "Print from game N on")
      ->default_str("1");
  common::AddInteger(*verbs.at(Verb::kList), "--limit", &o->limit, 0, 100000,
                     "--limit must be 0..100000", "N",
                     "List at most N jobs (0: the coordinator's default)");
  // Words that name no verb are kept, to answer with the usage. (After the
  // verbs, which would inherit it.)
  job->allow_extras();
  return {job,
          [o, job, verbs] {
            for (const auto& [verb, app] : verbs)
              if (app->parsed() && job->remaining().empty()) return RunJob(verb, *o);
            return common::Fail(kProgram, absl::InvalidArgumentError(kUsage));
          },
          /*takes_connection=*/true};
}

}  // namespace arbiter::cli
