// `arbiter analyze`: the rules verdict for one position (with optional moves
// played from it) or for a file of FENs, one JSON line each.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "client/commands.h"
#include "client/remote.h"
#include "common/command_line.h"
#include "common/rules_option.h"
#include "common/search_options.h"
#include "common/tablebase_options.h"
#include "common/tables_option.h"
#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "core/io/byte_source.h"
#include "core/io/line_reader.h"
#include "core/render/chess99_report.h"
#include "core/render/claim_text.h"
#include "core/render/json.h"
#include "core/render/report.h"
#include "core/render/san_line.h"
#include "core/util/ordered_parallel.h"
#include "core/verdict/assessment.h"
#include "core/verdict/chess99_analysis.h"
#include "core/verdict/position_analysis.h"
#include "core/verdict/tablebase_verdict.h"

namespace arbiter::cli {
namespace {

constexpr char kProgram[] = "arbiter analyze";

// Whether standard input is a regular file (`< FILE`), not a pipe, a
// terminal or a socket that may feed one line and wait for its answer.
bool StdinIsRegularFile() {
  struct stat st;
  return ::fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode);
}

struct AnalyzeOptions {
  std::vector<std::string> files;  // FILE|-: batch mode
  std::optional<std::string> fen;
  std::vector<std::string> moves;
  bool json = false, chess960 = false, timing = false;
  std::optional<int64_t> jobs;  // default: 1 for a pipe, every core for a file
  Ruleset rules = Ruleset::kFide;
  const CLI::Option* rules_given = nullptr;
  std::optional<std::string> claim, claimant, claimed;
  MateSearchOptions search;
  std::vector<std::string> syzygy;
  std::optional<std::string> tables;
  const ConnectionOptions* connection = nullptr;
};

std::string Text(const Position& pos, const Assessment& a) {
  std::string out = absl::StrCat("Position: ", pos.Fen(), "\nStatus:   ", ToString(a.status));
  if (a.status != GameStatus::kOngoing) absl::StrAppend(&out, " (FIDE ", ArticleOf(a.status), ")");
  for (Color c : {kWhite, kBlack}) {
    if (!a.Asked(c)) continue;
    const MateAbility& m = c == kWhite ? a.white : a.black;
    absl::StrAppend(&out, "\n", c == kWhite ? "White" : "Black", " can mate: ", ToString(m.answer));
    if (m.proof != MateProof::kNone) absl::StrAppend(&out, " (proof: ", ToString(m.proof), ")");
    if (!m.line_san.empty())
      absl::StrAppend(&out, ", e.g. ",
                      ShownSan(m.line_san, {pos.fullmove_number(), pos.side_to_move()}, "--json"));
  }
  absl::StrAppend(
      &out, "\nDead position (5.2.2): ", a.dead.has_value() ? (*a.dead ? "yes" : "no") : "unknown");
  auto moves = [&](const std::vector<Move>& ms) {
    std::string s;
    for (Move m : ms) absl::StrAppend(&s, s.empty() ? "" : " ", ToUci(pos, m));
    return s.empty() ? std::string("none") : s;
  };
  if (a.status == GameStatus::kOngoing) {
    absl::StrAppend(&out, "\nThreefold claim now (9.2.2): ", a.claims.threefold_now ? "yes" : "no",
                    "; by move (9.2.1): ", moves(a.claims.threefold_moves));
    absl::StrAppend(&out, "\nFifty-move claim now (9.3.2): ", a.claims.fifty_now ? "yes" : "no",
                    "; by move (9.3.1): ", moves(a.claims.fifty_moves));
  }
  return out + "\n";
}

// Two lines: the position's value under the fifty-move rule, then the best
// moves; or one line saying why the tables are silent.
std::string TablebaseText(const TablebaseProbe& p) {
  if (!p.root) return absl::StrCat("Tablebase: not covered (", p.not_covered, ")\n");
  const RootResult& r = *p.root;
  std::string out = absl::StrCat("Tablebase: ", ToString(r.category), " for ",
                                 p.side_to_move == kWhite ? "White" : "Black", " to move");
  if (r.checkmate || r.stalemate)
    return absl::StrCat(out, r.checkmate ? " (checkmated)\n" : " (stalemate)\n");
  if (r.precise_dtz) {
    absl::StrAppend(&out, ", DTZ ", *r.precise_dtz, " (exact)");
  } else {
    // A stored DTZ n may stand for n or n + 1 plies (see wdl_category.h).
    absl::StrAppend(&out, ", DTZ ", r.dtz, " or ", r.dtz > 0 ? r.dtz + 1 : r.dtz - 1, " (rounded)");
  }
  absl::StrAppend(&out, "; win within the 50-move rule: ",
                  !r.win_within_50   ? "open"
                  : *r.win_within_50 ? "yes"
                                     : "no",
                  " (halfmove clock ", r.halfmove_clock, ")",
                  p.source == TablebaseSource::kRetrograde ? " [Arbiter's retrograde tables]" : "",
                  "\n");
  // Over the board and in correspondence: a cursed win is a draw in the
  // first and a win in the second.
  absl::StrAppend(&out, "Tablebase outcome: ", ToString(WithFiftyMoveRule(r.category)),
                  " with the 50-move rule (FIDE), ", ToString(WithoutFiftyMoveRule(r.category)),
                  " without it (ICCF)");
  if (const TablebaseMove* keep = MoveWinningWithin50(r))
    absl::StrAppend(&out, "; ", keep->san, " keeps the win inside fifty moves");
  absl::StrAppend(&out, "\n");
  // The first moves in the tables' order (best first), each with its value
  // for the mover and the DTZ of the position it leads to.
  constexpr size_t kShown = 5;
  std::string moves;
  for (size_t i = 0; i < r.moves.size() && i < kShown; ++i) {
    const TablebaseMove& m = r.moves[i];
    absl::StrAppend(&moves, i ? ", " : "", m.san, " (", ToString(Negate(m.category)));
    if (m.checkmate) absl::StrAppend(&moves, ", checkmate");
    const std::optional<int> dtz = m.precise_dtz ? m.precise_dtz : m.dtz;
    if (!m.checkmate && dtz && *dtz != 0) absl::StrAppend(&moves, ", DTZ ", std::abs(*dtz));
    absl::StrAppend(&moves, ")");
  }
  if (r.moves.size() > kShown) absl::StrAppend(&moves, " and ", r.moves.size() - kShown, " more");
  absl::StrAppend(&out, "Tablebase moves: ", moves, "\n");
  return out;
}

// One FEN plus moves (the history for repetition claims), rendered as the
// JSON record or the text report.
std::string Render(const PositionAnalysis& a, bool json) {
  if (json) return AssessmentJson(a) + "\n";
  const TablebaseProbe* tb = a.tablebase ? &*a.tablebase : nullptr;
  const ClaimRuling* claim = a.claim ? &*a.claim : nullptr;
  return Text(a.position, a.assessment) + (tb ? TablebaseText(*tb) : "") +
         (claim ? ClaimRulingText(*claim) : "");
}

// Embedded, or through a coordinator, under either rules: the same
// question, the same rendered answer.
// `only_side`: only that side's mate ability (chess; Chess 99 ignores it).
using Analyzer = std::function<absl::StatusOr<std::string>(
    const std::string& fen, bool chess960, const std::vector<std::string>& moves,
    std::optional<Color> only_side, bool json, const std::optional<ClaimQuestion>& claim)>;

// Renders what `analyze` found, or passes its error on.
template <typename Analysis, typename RenderFn>
absl::StatusOr<std::string> Rendered(const absl::StatusOr<Analysis>& a, RenderFn render) {
  if (!a.ok()) return a.status();
  return render(*a);
}

std::string RenderChess99(const Chess99Report& r, bool json) {
  return json ? Chess99ReportJson(r) + "\n" : Chess99ReportText(r);
}

// One line of a batch file: a FEN of 6, 4 or 2 fields (placement and side
// to move only, as CHA and EPD-like suites write them; no castling rights
// and no e.p. square are then assumed), optionally followed by the word
// `white` or `black`: CHA's query "can this side mate?".
struct BatchQuery {
  std::string fen;
  std::optional<Color> only_side;
};

BatchQuery ParseBatchLine(std::string_view line) {
  // (Debian's abseil has a string_view of its own.)
  std::vector<absl::string_view> words = absl::StrSplit(absl::string_view(line.data(), line.size()),
                                                        absl::ByAnyChar(" \t"), absl::SkipEmpty());
  BatchQuery q;
  if (words.size() > 1 && (words.back() == "white" || words.back() == "black")) {
    q.only_side = words.back() == "white" ? kWhite : kBlack;
    words.pop_back();
  }
  q.fen = absl::StrJoin(words, " ");
  if (words.size() == 2) q.fen += " - -";
  return q;
}

// One line of a batch and its answer: the JSON record, or an error record
// naming the line.
struct BatchLine {
  int64_t number = 0;
  std::string text;
};
struct BatchAnswer {
  std::string record;
  bool error = false;
};

// With `timing`, each record also carries "microseconds": the wall time of
// its analysis (for side-by-side benchmarks against peers that print theirs).
BatchAnswer AnswerBatchLine(const BatchLine& line, bool chess960, bool timing,
                            const Analyzer& analyze) {
  const BatchQuery query = ParseBatchLine(line.text);
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::string> out =
      analyze(query.fen, chess960, {}, query.only_side, /*json=*/true, std::nullopt);
  if (!out.ok())
    return BatchAnswer{
        .record = JsonObject()
                      .Add("type", "error")
                      .Add("input", line.text)
                      .AddRaw("error", JsonObject()
                                           .Add("message", std::string(out.status().message()))
                                           .Add("line", line.number)
                                           .Close())
                      .Close() +
                  "\n",
        .error = true};
  if (timing) {
    const auto spent = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - start);
    // The record is one JSON object and a newline: the field goes before
    // its closing brace.
    const size_t brace = out->rfind('}');
    if (brace != std::string::npos)
      out->insert(brace, absl::StrCat(", \"microseconds\": ", spent.count()));
  }
  return BatchAnswer{.record = *std::move(out), .error = false};
}

// Answers every line of `path` (- for stdin; zstd data is read as well), in
// input order, `jobs` lines at a time. Output is flushed whenever the input
// has nothing more buffered, so that a program feeding one line at a time
// gets its answer (with jobs > 1, only after a batch of lines or the end
// of input: that mode is for files). Exits kFindings when a line could not
// be analysed (its record says why), kInputUnreadable when the file cannot
// be opened or read.
common::ExitCode RunBatch(const std::string& path, bool chess960, bool timing, int jobs,
                          const Analyzer& analyze) {
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
  if (!source.ok())
    return common::Fail(kProgram, source.status(), common::ExitCode::kInputUnreadable);
  LineReader reader(*std::move(source), [] { std::fflush(stdout); });
  auto next = [&](BatchLine* line) {
    while (reader.Next(&line->text)) {
      if (line->text.find_first_not_of(" \t") == std::string::npos) continue;
      line->number = reader.line_number();
      return true;
    }
    return false;
  };
  int64_t errors = 0;
  auto print = [&](BatchAnswer& answer) {
    std::fputs(answer.record.c_str(), stdout);
    if (answer.error) ++errors;
  };
  if (jobs <= 1) {
    BatchLine line;
    while (next(&line)) {
      BatchAnswer answer = AnswerBatchLine(line, chess960, timing, analyze);
      print(answer);
    }
  } else {
    // Lines go to the threads in batches of 64: the hand-offs stay rare
    // (batches of 16 cost ~8% of a time-forfeit run on 2 cores; 256 gave
    // no more).
    OrderedParallelMap<BatchLine, BatchAnswer>::Run(
        {.threads = jobs, .batch_size = 64, .max_batches = size_t(8 * jobs)}, next,
        [&](BatchLine& line, BatchAnswer* answer) {
          *answer = AnswerBatchLine(line, chess960, timing, analyze);
        },
        print);
  }
  std::fflush(stdout);
  if (!reader.status().ok())
    return common::Fail(kProgram, reader.status(), common::ExitCode::kInputUnreadable);
  return errors ? common::ExitCode::kFindings : common::ExitCode::kSuccess;
}

// --claim, --claimant, --claimed: the claim asked about, and the rule set
// it belongs to (given by --rules, or else the claim's own).
absl::StatusOr<std::optional<ClaimQuestion>> ClaimFrom(AnalyzeOptions& o) {
  if (!o.claim) {
    if (o.claimant || o.claimed)
      return absl::InvalidArgumentError("--claimant and --claimed need --claim KIND");
    return std::optional<ClaimQuestion>();
  }
  const std::optional<ClaimKind> kind = ParseClaimKind(*o.claim);
  if (!kind)
    return absl::InvalidArgumentError(absl::StrCat(
        "--claim must be quickplay_finish, insufficient_losing_chances or tablebase_claim, got \"",
        *o.claim, "\""));
  if (o.rules_given->count() == 0) o.rules = RulesetOf(*kind);
  if (o.rules != RulesetOf(*kind))
    return absl::InvalidArgumentError(absl::StrCat(
        "--claim ", *o.claim, " is a claim of the ", DisplayName(RulesetOf(*kind)),
        " rules: use --rules ", ToString(RulesetOf(*kind)), " (or leave --rules out)"));
  ClaimQuestion q{
      .kind = *kind, .claimant = {}, .claimed = ClaimedOutcome::kDraw, .rules = o.rules};
  if (o.claimant) {
    if (*o.claimant != "white" && *o.claimant != "black")
      return absl::InvalidArgumentError(
          absl::StrCat("--claimant must be white or black, got \"", *o.claimant, "\""));
    q.claimant = *o.claimant == "white" ? kWhite : kBlack;
  }
  if (o.claimed) {
    const std::optional<ClaimedOutcome> claimed = ParseClaimedOutcome(*o.claimed);
    if (!claimed)
      return absl::InvalidArgumentError(
          absl::StrCat("--claimed must be win or draw, got \"", *o.claimed, "\""));
    if (*claimed == ClaimedOutcome::kWin && *kind != ClaimKind::kTablebaseClaim)
      return absl::InvalidArgumentError(absl::StrCat(
          "--claim ", *o.claim, " asks for a draw; only tablebase_claim may claim a win"));
    q.claimed = *claimed;
  }
  return std::optional<ClaimQuestion>(q);
}

common::ExitCode RunAnalyze(AnalyzeOptions& o) {
  MateSearchOptions* options = &o.search;
  absl::StatusOr<std::optional<ClaimQuestion>> claim = ClaimFrom(o);
  if (!claim.ok()) return common::Fail(kProgram, claim.status());
  options->rules = o.rules;
  const bool chess99 = o.rules == Ruleset::kChess99;
  if (chess99 && *claim)
    return common::Fail(kProgram, absl::InvalidArgumentError("--rules chess99 has no --claim"));
  if (chess99 && (o.chess960 || !o.syzygy.empty()))
    return common::Fail(kProgram,
                        absl::InvalidArgumentError(
                            "--rules chess99 takes FEN-9 positions: no --chess960 or --syzygy"));
  Analyzer analyze;
  std::unique_ptr<RemoteArbiter> remote;
  std::unique_ptr<RetrogradeSolver> retrograde;
  std::shared_ptr<const SyzygyTablebase> tables;
  if (std::string coordinator = CoordinatorFrom(*o.connection); !coordinator.empty()) {
    absl::StatusOr<std::unique_ptr<RemoteArbiter>> connected =
        RemoteArbiter::Connect(*o.connection);
    if (!connected.ok()) return common::Fail(kProgram, connected.status());
    remote = *std::move(connected);
    const bool tablebase = TablebaseRequested(o.syzygy);
    analyze = [&, tablebase, chess99](const std::string& fen, bool chess960,
                                      const std::vector<std::string>& moves,
                                      std::optional<Color> only_side, bool json,
                                      const std::optional<ClaimQuestion>& claim) {
      if (chess99)
        return Rendered(remote->AnalyzeChess99(fen, moves, *options),
                        [json](const Chess99Report& r) { return RenderChess99(r, json); });
      return Rendered(remote->Analyze(fen, chess960, moves, *options, tablebase, only_side, claim),
                      [json](const PositionAnalysis& a) { return Render(a, json); });
    };
  } else {
    absl::StatusOr<std::unique_ptr<RetrogradeSolver>> solver =
        common::RetrogradeTablesFrom(o.tables);
    if (!solver.ok()) return common::Fail(kProgram, solver.status());
    retrograde = *std::move(solver);
    options->retrograde = retrograde.get();
    absl::StatusOr<std::shared_ptr<const SyzygyTablebase>> opened = common::TablebaseFrom(o.syzygy);
    if (!opened.ok()) return common::Fail(kProgram, opened.status());
    tables = *std::move(opened);
    analyze = [&, chess99](const std::string& fen, bool chess960,
                           const std::vector<std::string>& moves, std::optional<Color> only_side,
                           bool json, const std::optional<ClaimQuestion>& claim) {
      if (chess99)
        return Rendered(AnalyzeChess99Position(fen, moves, int64_t(options->node_budget)),
                        [json](const Chess99Report& r) { return RenderChess99(r, json); });
      return Rendered(
          AnalyzePosition(fen, chess960, moves, *options, tables.get(), only_side, claim),
          [json](const PositionAnalysis& a) { return Render(a, json); });
    };
  }
  if (!o.files.empty()) {
    if (o.files.size() > 1 || o.fen || !o.moves.empty() || *claim)
      return common::Fail(
          kProgram, absl::InvalidArgumentError(
                        "batch mode takes one FILE (or - for stdin) and no --fen/--moves/--claim"));
    // A pipe or a terminal on standard input may be a live feed, answered
    // line by line; a file, named or redirected to standard input, is
    // answered as fast as the machine allows.
    const bool live_feed = o.files[0] == "-" && !StdinIsRegularFile();
    const int64_t jobs =
        o.jobs.value_or(live_feed ? 1 : std::max(1u, std::thread::hardware_concurrency()));
    const common::ExitCode code = RunBatch(o.files[0], o.chess960, o.timing, int(jobs), analyze);
    if (retrograde) common::WarnAboutTables("analyze", *retrograde);
    return code;
  }
  if (!o.fen)
    return common::Fail(kProgram,
                        absl::InvalidArgumentError("--fen FEN is required (or a FILE of FENs)"));
  absl::StatusOr<std::string> out =
      analyze(*o.fen, o.chess960, o.moves, std::nullopt, o.json, *claim);
  if (!out.ok()) return common::Fail(kProgram, out.status());
  std::fputs(out->c_str(), stdout);
  if (retrograde) common::WarnAboutTables("analyze", *retrograde);
  return common::ExitCode::kSuccess;
}

}  // namespace

Command AddAnalyze(CLI::App& arbiter, ConnectionOptions* connection) {
  CLI::App* analyze = arbiter.add_subcommand(
      "analyze",
      "How a position stands under the FIDE Laws: checkmate, stalemate, dead\n"
      "position, fivefold, 75 moves; whether each side can still mate\n"
      "(yes/no/unknown, with proof); threefold and fifty-move claims now and by\n"
      "which moves. With FILE (- for stdin), one FEN per line in, one JSON line\n"
      "per position out, in input order; a FEN may have 6, 4 or 2 fields, and a\n"
      "line \"FEN white\" (or black) asks about that side only.");
  auto o = std::make_shared<AnalyzeOptions>();
  o->connection = connection;
  common::AddOperands(*analyze, "FILE", &o->files, "A file of FENs, one per line (- for stdin)");
  common::AddValue(*analyze, "--fen", &o->fen, "FEN", "The position (FEN-9 with --rules chess99)");
  // Every word up to the next option is a move, and one word may hold
  // several ("e2e4 e7e5"). They are the history for repetitions.
  analyze
      ->add_option_function<std::vector<std::string>>(
          "--moves",
          [o](const std::vector<std::string>& words) {
            for (const std::string& word : words)
              for (absl::string_view move : absl::StrSplit(word, ' ', absl::SkipEmpty()))
                o->moves.emplace_back(move);
          },
          "Moves played from FEN first (UCI; Chess 99 notation with --rules chess99)")
      ->type_name("MOVE...")
      ->expected(0, CLI::detail::expected_max_vector_size)
      ->take_all();
  common::AddFlag(*analyze, "--json", &o->json, "One JSON record instead of the text report");
  common::AddFlag(*analyze, "--chess960", &o->chess960, "Write castling as king-takes-rook");
  common::AddFlag(*analyze, "--timing", &o->timing, "(FILE) Add each record's \"microseconds\"");
  common::AddInteger(
      *analyze, "--jobs", 1, 1024, "--jobs must be 1..1024", [o](int64_t n) { o->jobs = n; }, "N",
      "(FILE) Lines answered at once (default: every core for a file, also\n"
      "one redirected to stdin; 1 for a pipe, which answers each line as soon as it is read)");
  o->rules_given = common::AddRulesOption(*analyze, &o->rules);
  common::AddValue(*analyze, "--claim", &o->claim, "KIND",
                   "Judge a claim at the position: quickplay_finish (FIDE Guidelines III.5),\n"
                   "insufficient_losing_chances (US Chess 14H) or tablebase_claim (ICCF)");
  common::AddValue(*analyze, "--claimant", &o->claimant, "white|black",
                   "Who claims (default: the side to move)");
  common::AddValue(*analyze, "--claimed", &o->claimed, "win|draw",
                   "What a tablebase claim asks for (default: draw)");
  common::AddSearchOptions(*analyze, &o->search);
  common::AddSyzygyOption(*analyze, &o->syzygy)
      ->description(
          "Syzygy tables (repeatable, or DIR:DIR...); default $ARBITER_SYZYGY. Adds\n"
          "\"tablebase\": the value under the 50-move rule and every move, best first");
  common::AddTablesOption(*analyze, &o->tables);
  AddConnectionOptions(*analyze, connection);
  return {analyze, [o] { return RunAnalyze(*o); }, /*takes_connection=*/true};
}

}  // namespace arbiter::cli
