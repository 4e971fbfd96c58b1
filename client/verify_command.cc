// `arbiter verify`: rules on every game of a PGN file (or stdin), in input
// order, in parallel, with memory bounded however large the input.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "client/commands.h"
#include "client/game_feed.h"
#include "client/remote.h"
#include "common/command_line.h"
#include "common/rules_option.h"
#include "common/search_options.h"
#include "common/tablebase_options.h"
#include "common/tables_option.h"
#include "core/io/byte_source.h"
#include "core/io/pgn_part.h"
#include "core/pgn/variant.h"
#include "core/render/annotated_pgn.h"
#include "core/render/html_report.h"
#include "core/render/json.h"
#include "core/render/verdict_output.h"
#include "core/verdict/game_verdict.h"
#include "core/verdict/verify_games.h"

namespace arbiter::cli {
namespace {

constexpr char kProgram[] = "arbiter verify";

// --shard I/N: this run rules on the games whose 1-based number g has
// (g - 1) % count == index.
struct Shard {
  int64_t index = 0, count = 1;
};

// --shard I/N or --part I/N (`flag` names which, for the message).
Shard ParseShard(const std::string& flag, const std::string& text) {
  Shard s;
  const size_t slash = text.find('/');
  if (slash == std::string::npos || !absl::SimpleAtoi(text.substr(0, slash), &s.index) ||
      !absl::SimpleAtoi(text.substr(slash + 1), &s.count) || s.count < 1 || s.index < 0 ||
      s.index >= s.count)
    throw common::UsageError(
        absl::StrCat(flag, " must be I/N with 0 <= I < N, got \"", text, "\""));
  return s;
}

// --fail-on: which records make a completed run exit kFindings.
enum class FailOn { kDisagree, kError };

struct VerifyOptions {
  std::vector<std::string> inputs;  // PATH|-: exactly one
  VerdictFormat format = VerdictFormat::kText;
  int64_t jobs = std::max(1u, std::thread::hardware_concurrency());
  std::optional<Shard> shard, part;
  std::optional<std::string> output;
  // --report FILE.html, --annotate-pgn FILE.pgn: the disputed rulings.
  std::optional<std::string> report, annotate_pgn;
  // The same budget as single-position analysis (a ruling must not depend
  // on how it was asked); most game ends are decided in a few hundred nodes
  // and the table grows only as a search needs it.
  MateSearchOptions search;
  Ruleset rules = Ruleset::kFide;
  std::vector<std::string> syzygy;
  std::optional<std::string> tables;
  std::set<FailOn> fail_on;
  bool csv_summary = false;                         // --summary
  TextEvidence evidence = TextEvidence::kDisputed;  // --evidence
  const ConnectionOptions* connection = nullptr;
};

// --output FILE: written to a temporary file beside FILE and renamed onto it
// only by Commit, so FILE is either absent, its previous content, or a
// complete run's output — never half a run (a killed or retried job). A FILE
// that exists and is not a regular file (/dev/stdout, a pipe) is written
// directly (so is anything under /dev/ or /proc/): renaming over it would
// replace the device. A symbolic link is followed, so the file it names is
// replaced, not the link.
class OutputFile {
 public:
  // `option` names the file in messages ("--output", "--report", ...).
  static absl::StatusOr<std::unique_ptr<OutputFile>> Create(std::string path,
                                                            const std::string& option) {
    // Devices and pipes (/dev/stdout may name a regular file, behind a link
    // in /proc, that the caller's shell holds open) are written in place.
    struct stat st;
    if (path.starts_with("/dev/") || path.starts_with("/proc/") ||
        (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))) {
      FILE* file = std::fopen(path.c_str(), "w");
      if (!file)
        return absl::InvalidArgumentError(
            absl::StrCat(option, " ", path, ": ", std::strerror(errno)));
      return std::unique_ptr<OutputFile>(new OutputFile(option, path, "", file));
    }
    for (int links = 0; links < 40 && ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
         ++links) {
      std::error_code error;
      std::filesystem::path target = std::filesystem::read_symlink(path, error);
      if (error) break;
      path = (std::filesystem::path(path).parent_path() / target).string();  // if absolute: target
    }
    const std::filesystem::path target(path);
    std::string temp =
        (target.parent_path() / ("." + target.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(temp.data());
    if (fd < 0)
      return absl::InvalidArgumentError(
          absl::StrCat(option, " ", path, ": cannot create ", temp, ": ", std::strerror(errno)));
    const mode_t mask = ::umask(0);  // mkstemp makes 0600; give what open() would
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    FILE* file = ::fdopen(fd, "w");
    if (!file) {
      ::close(fd);
      ::unlink(temp.c_str());
      return absl::InternalError(absl::StrCat(option, " ", path, ": ", std::strerror(errno)));
    }
    return std::unique_ptr<OutputFile>(new OutputFile(option, path, temp, file));
  }
  ~OutputFile() {
    if (file_) std::fclose(file_);
    if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
  }
  FILE* file() const { return file_; }

  // Flushes to disk and renames into place.
  absl::Status Commit() {
    bool ok = std::fflush(file_) == 0 && !std::ferror(file_) &&
              (temp_.empty() || ::fsync(fileno(file_)) == 0);
    ok = std::fclose(file_) == 0 && ok;
    file_ = nullptr;
    if (!ok || (!temp_.empty() && std::rename(temp_.c_str(), path_.c_str()) != 0))
      return absl::InternalError(absl::StrCat(option_, " ", path_, ": ", std::strerror(errno)));
    committed_ = true;
    if (temp_.empty()) return absl::OkStatus();
    // Make the rename itself durable.
    std::string dir = std::filesystem::path(path_).parent_path().string();
    if (const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY); dfd >= 0) {
      ::fsync(dfd);
      ::close(dfd);
    }
    return absl::OkStatus();
  }

 private:
  // `temp` empty: writing `path` directly.
  OutputFile(std::string option, std::string path, std::string temp, FILE* file)
      : option_(std::move(option)), path_(std::move(path)), temp_(std::move(temp)), file_(file) {}
  std::string option_, path_, temp_;
  FILE* file_;
  bool committed_ = false;
};

// A file for --part: one that cannot be opened is unreadable input, like
// any other; one that cannot be cut as asked (not a regular file, a single
// zstd frame) is a usage error.
absl::StatusOr<std::unique_ptr<ByteSource>> OpenPart(const std::string& path, const Shard& part,
                                                     common::ExitCode* code) {
  *code = common::ExitCode::kInputUnreadable;
  if (const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC); fd >= 0) {
    ::close(fd);
  } else {
    const int error = errno;
    return absl::ErrnoToStatus(error, absl::StrCat("cannot open '", path, "'"));
  }
  absl::StatusOr<std::unique_ptr<ByteSource>> source =
      OpenPgnPart(path, int(part.index), int(part.count));
  if (!source.ok() && source.status().code() != absl::StatusCode::kDataLoss)
    *code = common::ExitCode::kUsage;
  return source;
}

common::ExitCode RunVerify(const VerifyOptions& o) {
  // With a coordinator the workers hold the tables; embedded, this process.
  const std::string coordinator = CoordinatorFrom(*o.connection);
  // Before the input and output files are opened: without the cluster
  // build, a coordinator is refused whatever else the command line says.
  if (!coordinator.empty()) {
    if (absl::Status s = RemoteArbiter::Available(*o.connection); !s.ok())
      return common::Fail(kProgram, s);
  }
  std::unique_ptr<RetrogradeSolver> retrograde;
  if (coordinator.empty()) {
    absl::StatusOr<std::unique_ptr<RetrogradeSolver>> solver =
        common::RetrogradeTablesFrom(o.tables);
    if (!solver.ok()) return common::Fail(kProgram, solver.status());
    retrograde = *std::move(solver);
  }
  MateSearchOptions options = o.search;
  options.rules = o.rules;
  absl::StatusOr<std::shared_ptr<const SyzygyTablebase>> tables = nullptr;
  if (coordinator.empty()) tables = common::TablebaseFrom(o.syzygy);
  if (!tables.ok()) return common::Fail(kProgram, tables.status());
  const SyzygyTablebase* tb = tables->get();
  options.syzygy = tb;  // a tablebase win proves "can mate"
  options.retrograde = retrograde.get();
  const bool tablebase = coordinator.empty() ? tb != nullptr : TablebaseRequested(o.syzygy);
  if (o.inputs.size() != 1)
    return common::Fail(kProgram, absl::InvalidArgumentError(
                                      "give one PGN file (.pgn or .pgn.zst), or - for stdin"));
  const std::string& input = o.inputs[0];
  if (o.shard && o.part)
    return common::Fail(kProgram, absl::InvalidArgumentError("give --shard or --part, not both"));
  const Shard shard = o.shard.value_or(Shard{});

  // A part is read alone: the run's cost is its share of the file.
  common::ExitCode open_failure = common::ExitCode::kInputUnreadable;
  absl::StatusOr<std::unique_ptr<ByteSource>> source =
      o.part ? OpenPart(input, *o.part, &open_failure) : ByteSource::Open(input);
  if (!source.ok()) return common::Fail(kProgram, source.status(), open_failure);
  PgnReaderOptions read_options;
  read_options.keep_comments = false;
  // Untagged games become Chess 99 games in the record itself, so that a
  // coordinator's workers see the same rules.
  if (o.rules == Ruleset::kChess99) read_options.untagged_variant = kChess99Variant;
  PgnReader reader(*std::move(source), read_options);
  // --output, --report and --annotate-pgn are each written atomically.
  auto create = [](const std::optional<std::string>& path, const char* option,
                   std::unique_ptr<OutputFile>* file) -> absl::Status {
    if (!path) return absl::OkStatus();
    absl::StatusOr<std::unique_ptr<OutputFile>> f = OutputFile::Create(*path, option);
    if (!f.ok()) return f.status();
    *file = *std::move(f);
    return absl::OkStatus();
  };
  std::unique_ptr<OutputFile> output_file, report_file, pgn_file;
  for (const absl::Status& s :
       {create(o.output, "--output", &output_file), create(o.report, "--report", &report_file),
        create(o.annotate_pgn, "--annotate-pgn", &pgn_file)})
    if (!s.ok()) return common::Fail(kProgram, s);
  FILE* out = output_file ? output_file->file() : stdout;

  // The disputed rulings need their records (tags, moves), which the
  // verdicts do not carry. Verdicts come back in input order, embedded and
  // through a coordinator alike, so each record read is queued and the
  // front one taken with each verdict: the queue holds only the games in
  // flight (the map's batches, or what the stream's flow control lets the
  // sender get ahead), and only disputed games are kept past their verdict.
  const bool keep_records = report_file || pgn_file;
  std::mutex records_mu;
  std::deque<RawGame> records;
  std::optional<DisputeReport> report;
  if (report_file) report.emplace(input == "-" ? "standard input" : input);
  ReplayedGame pgn_scratch;
  absl::Status records_error;
  auto keep_record = [&](const RawGame& game) {
    std::lock_guard lock(records_mu);
    records.push_back(game);
  };
  auto with_record = [&](const GameVerdict& v) {
    RawGame record;
    {
      std::lock_guard lock(records_mu);
      if (records.empty()) {
        if (records_error.ok())
          records_error = absl::InternalError(
              absl::StrCat("a verdict for game ", v.game, " came without its record"));
        return;
      }
      record = std::move(records.front());
      records.pop_front();
    }
    if (record.index != v.game) {
      if (records_error.ok())
        records_error = absl::InternalError(absl::StrCat(
            "the verdict for game ", v.game, " came for the record of game ", record.index));
      return;
    }
    if (report) report->Add(v, record);
    if (pgn_file && DisputesOf(v).any()) {
      const std::string text = AnnotatedPgn(v, record, &pgn_scratch);
      std::fwrite(text.data(), 1, text.size(), pgn_file->file());
    }
  };

  // The next game of this shard: every game is parsed (RawGame::index stays
  // the global number), only the shard's are replayed.
  auto next_game = [&](RawGame* game) {
    while (reader.Next(game)) {
      if ((game->index - 1) % shard.count != shard.index) continue;
      if (keep_records) keep_record(*game);
      return true;
    }
    return false;
  };
  const bool progress = isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  auto last_progress = start;
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  VerdictPrinter printer(o.format, tablebase, out, o.csv_summary, o.evidence);
  // What --fail-on looks for, counted as the summary counts it.
  int64_t errors = 0, disagreements = 0;
  auto deliver = [&](GameVerdict& v) {
    printer.Print(v);
    if (keep_records) with_record(v);
    if (v.is_error()) {
      ++errors;
    } else if (v.ruling && !v.ruling->agrees) {
      ++disagreements;
    }
    if (progress &&
        std::chrono::steady_clock::now() - last_progress > std::chrono::milliseconds(500)) {
      last_progress = std::chrono::steady_clock::now();
      std::fprintf(stderr, "\r%lld games, %.0f games/s ", (long long)printer.games(),
                   printer.games() / elapsed());
    }
  };
  // A whole file, every game, no record kept: sent as the text of each game,
  // which the workers read (client/game_feed.h). Chess 99's untagged games
  // are the reader's to tag.
  std::unique_ptr<GameFeed> feed;
  if (!coordinator.empty() && input != "-" && !o.part && shard.count == 1 && !keep_records &&
      o.rules != Ruleset::kChess99) {
    absl::StatusOr<std::unique_ptr<GameFeed>> opened = GameFeed::Open(input, read_options);
    if (!opened.ok())
      return common::Fail(kProgram, opened.status(), common::ExitCode::kInputUnreadable);
    feed = *std::move(opened);
  }
  if (!coordinator.empty()) {
    // The coordinator's workers rule; records and summary are the same.
    absl::StatusOr<std::unique_ptr<RemoteArbiter>> connected =
        RemoteArbiter::Connect(*o.connection);
    if (!connected.ok()) return common::Fail(kProgram, connected.status());
    RemoteArbiter& remote = **connected;
    // Stdin may be a live feed: send each game as soon as it is read.
    const int per_message = input == "-" ? 1 : 256;
    if (absl::Status s = feed ? remote.Verify([&](OutgoingGame* game) { return feed->Next(game); },
                                              options, tablebase, per_message, deliver)
                              : remote.Verify(next_game, options, tablebase, per_message, deliver);
        !s.ok())
      return common::Fail(kProgram, s);
  } else {
    VerifyGames({.threads = int(o.jobs), .search = options, .tables = tb}, next_game,
                [&](GameVerdict& v) {
                  deliver(v);
                  return true;
                });
  }
  if (progress) std::fputs("\r\033[K", stderr);
  printer.End(elapsed());
  // An input that ended early (truncated .zst, I/O error) is not a complete
  // run: exit 3, and leave no --output file, so that a shard of an Indexed
  // Job fails instead of being counted as done.
  const absl::Status& input_error = feed ? feed->input_error() : reader.input_error();
  if (!input_error.ok()) {
    std::fprintf(stderr, "arbiter verify: the input ended early, the rest was not read: %s\n",
                 std::string(input_error.message()).c_str());
    return common::ExitCode::kInputUnreadable;
  }
  if (!records_error.ok()) return common::Fail(kProgram, records_error);
  if (report) {
    const std::string html = report->Html();
    std::fwrite(html.data(), 1, html.size(), report_file->file());
  }
  for (OutputFile* file : {output_file.get(), report_file.get(), pgn_file.get()}) {
    if (!file) continue;
    if (absl::Status s = file->Commit(); !s.ok()) return common::Fail(kProgram, s);
  }
  if (retrograde) common::WarnAboutTables("verify", *retrograde);
  // After the records and the summary: the caller asked to be told.
  if ((o.fail_on.count(FailOn::kDisagree) && disagreements > 0) ||
      (o.fail_on.count(FailOn::kError) && errors > 0))
    return common::ExitCode::kFindings;
  return common::ExitCode::kSuccess;
}

}  // namespace

Command AddVerify(CLI::App& arbiter, ConnectionOptions* connection) {
  CLI::App* verify = arbiter.add_subcommand(
      "verify",
      "Rule on every game of a PGN file (.pgn or .pgn.zst; - reads stdin): the\n"
      "correct result under the FIDE Laws, the rule and article that decide it,\n"
      "and whether the declared result agrees. One record per game in input\n"
      "order, then a summary.");
  auto o = std::make_shared<VerifyOptions>();
  o->connection = connection;
  common::AddOperands(*verify, "PATH", &o->inputs,
                      "The PGN file (.pgn or .pgn.zst), or - for stdin");
  common::AddChecked(
      *verify, "--format",
      [o](const std::string& name) {
        absl::StatusOr<VerdictFormat> format = ParseVerdictFormat(name);
        if (!format.ok()) throw common::UsageError(std::string(format.status().message()));
        o->format = *format;
      },
      "text|jsonl|csv", "The records' format")
      ->default_str("text");
  common::AddChecked(
      *verify, "--evidence",
      [o](const std::string& name) {
        absl::StatusOr<TextEvidence> evidence = ParseTextEvidence(name);
        if (!evidence.ok()) throw common::UsageError(std::string(evidence.status().message()));
        o->evidence = *evidence;
      },
      "disputed|all",
      "Text records: show the winner's helpmate line only where the ruling is\n"
      "disputed (disagrees, uncertain, contradicted by the tables), or on every\n"
      "record (all); JSON always has it")
      ->default_str("disputed");
  common::AddFlag(*verify, "--summary", &o->csv_summary,
                  "With --format csv: also write the summary (as text) to stderr; text and\n"
                  "jsonl always end with it");
  common::AddInteger(*verify, "--jobs", &o->jobs, 1, 1024, "--jobs must be 1..1024", "N",
                     "Games ruled at once (default: all cores)");
  common::AddChecked(
      *verify, "--shard", [o](const std::string& text) { o->shard = ParseShard("--shard", text); },
      "I/N",
      "Rule only on the games numbered g with (g - 1) % N == I (records keep\n"
      "their global numbers; every shard reads the whole file)");
  common::AddChecked(
      *verify, "--part", [o](const std::string& text) { o->part = ParseShard("--part", text); },
      "I/N",
      "Read only part I of the file (a plain .pgn, or a .pgn.zst of several\n"
      "frames), cut between games near byte I/N; records are numbered within it");
  common::AddValue(*verify, "--output", &o->output, "FILE",
                   "Write records and summary to FILE, atomically, once the run completes");
  common::AddValue(*verify, "--report", &o->report, "FILE.html",
                   "Also write the disputed rulings (disagreements, uncertain rulings,\n"
                   "tablebase contradictions, errors) as one self-contained HTML page:\n"
                   "totals, rulings by rule, and per game the board where it was ruled,\n"
                   "the ruling and its evidence, its tags and a link to it (the first 2000)");
  common::AddValue(*verify, "--annotate-pgn", &o->annotate_pgn, "FILE.pgn",
                   "Also write the disputed games as PGN: their tags, [Annotator \"Arbiter\"],\n"
                   "their moves, and at the ruled ply a comment with the ruling and evidence");
  verify
      ->add_option_function<std::vector<std::string>>(
          "--fail-on",
          [o](const std::vector<std::string>& values) {
            for (const std::string& value : values) {
              for (absl::string_view word : absl::StrSplit(value, ',')) {
                if (word == "disagree") {
                  o->fail_on.insert(FailOn::kDisagree);
                } else if (word == "error") {
                  o->fail_on.insert(FailOn::kError);
                } else {
                  throw common::UsageError(absl::StrCat(
                      "--fail-on must be disagree or error, got \"", std::string(word), "\""));
                }
              }
            }
          },
          "Exit 1 when a game's declared result disagrees with the ruling\n"
          "(disagree), or when a record is an error (error); the records and the\n"
          "summary are written first. Repeatable, or a comma list")
      ->type_name("disagree|error")
      ->allow_extra_args(false)
      ->take_all();
  common::AddRulesOption(*verify, &o->rules)
      ->description(
          "The rule system: fide (the FIDE Laws; \"chess\" too), uscf (US Chess:\n"
          "flag falls under 14E, claims under 14H), iccf (correspondence: tablebase\n"
          "claims) or chess99, which judges games without a [Variant] tag as Chess 99");
  common::AddSearchOptions(*verify, &o->search);
  common::AddSyzygyOption(*verify, &o->syzygy)
      ->description(
          "Syzygy tables (repeatable, or DIR:DIR...); default $ARBITER_SYZYGY. Adds\n"
          "the final position's tablebase value and flags declared results that\n"
          "contradict it");
  common::AddTablesOption(*verify, &o->tables);
  AddConnectionOptions(*verify, connection);
  return {verify, [o] { return RunVerify(*o); }, /*takes_connection=*/true};
}

}  // namespace arbiter::cli
