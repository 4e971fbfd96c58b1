// `arbiter verify`: rules on every game of a PGN file (or stdin), in input
// order, in parallel, with memory bounded however large the input.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <thread>

#include "absl/strings/str_cat.h"
#include "client/args.h"
#include "client/commands.h"
#include "client/search_options.h"
#include "client/tablebase_options.h"
#include "core/io/byte_source.h"
#include "core/rules/game_verdict.h"
#include "core/util/json.h"
#include "core/util/ordered_parallel.h"

namespace arbiter::cli {
namespace {

enum class Format { kText, kJsonl, kCsv };

int Fail(const absl::Status& s) {
  std::fprintf(stderr, "arbiter verify: %s\n", std::string(s.message()).c_str());
  return 2;
}

std::string CsvField(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

constexpr char kCsvHeader[] =
    "game,site,declared,termination,ruling,agrees,certain,rule,article,ended_at_ply,"
    "moves_after_end,winner_can_mate,error,error_line";
// Appended to the header only when tables were given.
constexpr char kCsvTablebaseHeader[] = ",tablebase_category,tablebase_contradiction";

// The tablebase columns of a row (empty cells when not covered).
std::string CsvTablebase(const TablebaseJudgement& t) {
  const RootResult* r = t.probe.root ? &*t.probe.root : nullptr;
  return absl::StrCat(",", r ? ToString(r->category) : "", ",",
                      t.contradiction ? (*t.contradiction ? "true" : "false") : "");
}

std::string CsvRow(const GameVerdict& v) {
  const Ruling* r = v.ruling ? &*v.ruling : nullptr;
  std::string can_mate = r && r->winner_side ? ToString(r->winner_can_mate.answer) : "";
  return absl::StrCat(
      v.game, ",", CsvField(v.site), ",", CsvField(v.declared), ",", CsvField(v.termination), ",",
      r ? r->ruling : "", ",", r ? (r->agrees ? "true" : "false") : "", ",",
      r ? (r->certain ? "true" : "false") : "", ",", r ? r->rule : "", ",", r ? r->article : "",
      ",", r && r->ended_at_ply ? absl::StrCat(*r->ended_at_ply) : "", ",",
      r ? absl::StrCat(r->moves_after_end) : "", ",", can_mate, ",", CsvField(v.error), ",",
      v.error.empty() ? "" : absl::StrCat(v.error_line),
      v.tablebase ? CsvTablebase(*v.tablebase) : "", "\n");
}

std::string TextLine(const GameVerdict& v) {
  std::string head = absl::StrCat("#", v.game, v.site.empty() ? "" : " ", v.site, ": ");
  if (!v.ruling) return absl::StrCat(head, "ERROR ", v.error, "\n");
  const Ruling& r = *v.ruling;
  std::string line =
      absl::StrCat(head, v.declared.empty() ? "?" : v.declared, " -> ", r.ruling, " by ", r.rule);
  if (!r.article.empty()) absl::StrAppend(&line, " (", r.article, ")");
  if (r.ended_at_ply) absl::StrAppend(&line, " after ply ", *r.ended_at_ply);
  if (r.moves_after_end) absl::StrAppend(&line, ", ", r.moves_after_end, " plies played after");
  if (!r.agrees) absl::StrAppend(&line, r.certain ? "  DISAGREES" : "  DISAGREES (uncertain)");
  if (v.tablebase && !v.tablebase->note.empty()) {
    const bool contradiction = v.tablebase->contradiction.value_or(false);
    absl::StrAppend(&line, contradiction ? "  TABLEBASE CONTRADICTION: " : "  (tablebase: ",
                    v.tablebase->note, contradiction ? "" : ")");
  }
  return line + "\n";
}

struct Summary {
  int64_t games = 0, errors = 0, agree = 0, disagree = 0, uncertain = 0;
  // Counted, and printed, only when tables were given.
  bool tablebases = false;
  int64_t tablebase_covered = 0, tablebase_contradictions = 0;
  std::map<std::string, int64_t> by_rule;
  std::map<std::string, int64_t> disagreements;  // "declared -> ruling by rule"

  void Add(const GameVerdict& v) {
    ++games;
    if (v.tablebase && v.tablebase->probe.root) ++tablebase_covered;
    if (v.tablebase && v.tablebase->contradiction.value_or(false)) ++tablebase_contradictions;
    if (!v.ruling) {
      ++errors;
      return;
    }
    ++by_rule[v.ruling->rule];
    if (!v.ruling->certain) ++uncertain;
    if (v.ruling->agrees) {
      ++agree;
    } else {
      ++disagree;
      ++disagreements[absl::StrCat(v.declared, " -> ", v.ruling->ruling, " by ", v.ruling->rule)];
    }
  }

  std::string Json(double seconds) const {
    auto map_json = [](const std::map<std::string, int64_t>& m) {
      json::Object o;
      for (const auto& [k, n] : m) o.Add(k, n);
      return o.Close();
    };
    json::Object o;
    o.Add("games", games).Add("errors", errors).Add("agree", agree).Add("disagree", disagree);
    o.Add("uncertain", uncertain).AddRaw("by_rule", map_json(by_rule));
    o.AddRaw("disagreements", map_json(disagreements));
    if (tablebases) {
      o.Add("tablebase_covered", tablebase_covered);
      o.Add("tablebase_contradictions", tablebase_contradictions);
    }
    o.AddRaw("seconds", absl::StrCat(seconds));
    return json::Object().AddRaw("summary", o.Close()).Close() + "\n";
  }

  std::string Text(double seconds) const {
    std::string out = absl::StrCat("\nGames: ", games, "  errors: ", errors, "  agree: ", agree,
                                   "  disagree: ", disagree, "  (rulings resting on an unknown",
                                   " mate ability: ", uncertain, ")\n");
    absl::StrAppend(&out, "By rule:\n");
    for (const auto& [rule, n] : by_rule) absl::StrAppend(&out, "  ", rule, ": ", n, "\n");
    if (!disagreements.empty()) absl::StrAppend(&out, "Disagreements (declared -> ruling):\n");
    for (const auto& [kind, n] : disagreements) absl::StrAppend(&out, "  ", kind, ": ", n, "\n");
    if (tablebases)
      absl::StrAppend(&out, "Tablebase: ", tablebase_covered, " final positions covered, ",
                      tablebase_contradictions, " contradictions\n");
    absl::StrAppend(&out, "Time: ", seconds, " s (", seconds > 0 ? int64_t(games / seconds) : 0,
                    " games/s)\n");
    return out;
  }
};

}  // namespace

int RunVerify(const std::vector<std::string>& argv) {
  absl::StatusOr<Args> args =
      Args::Parse(argv, {"format", "jobs", kBudgetOption, kTableOption, kSyzygyOption}, {});
  if (!args.ok()) return Fail(args.status());
  // The same budget as single-position analysis (a ruling must not depend
  // on how it was asked); most game ends are decided in a few hundred nodes
  // and the table grows only as a search needs it.
  absl::StatusOr<MateSearchOptions> options = SearchOptionsFrom(*args, MateSearchOptions{});
  if (!options.ok()) return Fail(options.status());
  absl::StatusOr<std::shared_ptr<const SyzygyTablebase>> tables = TablebaseFrom(*args);
  if (!tables.ok()) return Fail(tables.status());
  const SyzygyTablebase* tb = tables->get();
  options->syzygy = tb;  // a tablebase win proves "can mate"
  if (args->positional().size() != 1)
    return Fail(absl::InvalidArgumentError("give one PGN file (.pgn or .pgn.zst), or - for stdin"));
  Format format;
  std::string format_name = args->Get("format", "text");
  if (format_name == "text")
    format = Format::kText;
  else if (format_name == "jsonl" || format_name == "json")
    format = Format::kJsonl;
  else if (format_name == "csv")
    format = Format::kCsv;
  else
    return Fail(absl::InvalidArgumentError(
        absl::StrCat("--format must be text, jsonl or csv, not \"", format_name, "\"")));
  absl::StatusOr<int64_t> jobs =
      args->GetInt("jobs", std::max(1u, std::thread::hardware_concurrency()));
  if (!jobs.ok()) return Fail(jobs.status());
  if (*jobs < 1 || *jobs > 1024) return Fail(absl::InvalidArgumentError("--jobs must be 1..1024"));

  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(args->positional()[0]);
  if (!source.ok()) return Fail(source.status());
  PgnReader reader(*std::move(source), PgnReaderOptions{.keep_comments = false});

  const bool progress = isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  auto last_progress = start;
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  Summary summary;
  summary.tablebases = tb != nullptr;
  if (format == Format::kCsv)
    std::fputs(absl::StrCat(kCsvHeader, tb ? kCsvTablebaseHeader : "", "\n").c_str(), stdout);

  thread_local ReplayedGame scratch;
  OrderedParallelMap<RawGame, GameVerdict>::Run(
      {.threads = int(*jobs), .batch_size = 64, .max_batches = size_t(4 * *jobs)},
      [&](RawGame* game) { return reader.Next(game); },
      [&](RawGame& game, GameVerdict* verdict) {
        VerifyGame(game, *options, &scratch, verdict, tb);
      },
      [&](GameVerdict& v) {
        summary.Add(v);
        std::string line = format == Format::kJsonl ? GameVerdictJson(v) + "\n"
                           : format == Format::kCsv ? CsvRow(v)
                                                    : TextLine(v);
        std::fwrite(line.data(), 1, line.size(), stdout);
        if (progress &&
            std::chrono::steady_clock::now() - last_progress > std::chrono::milliseconds(500)) {
          last_progress = std::chrono::steady_clock::now();
          std::fprintf(stderr, "\r%lld games, %.0f games/s ", (long long)summary.games,
                       summary.games / elapsed());
        }
      });
  if (progress) std::fputs("\r\033[K", stderr);
  const double seconds = elapsed();
  if (format == Format::kJsonl)
    std::fputs(summary.Json(seconds).c_str(), stdout);
  else if (format == Format::kText)
    std::fputs(summary.Text(seconds).c_str(), stdout);
  else
    std::fputs(summary.Text(seconds).c_str(), stderr);
  return 0;
}

}  // namespace arbiter::cli
