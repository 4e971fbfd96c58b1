#include "core/render/verdict_output.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/render/disputes.h"
#include "core/render/game_verdict_json.h"
#include "core/render/json.h"
#include "core/render/san_line.h"

namespace arbiter {
namespace {

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
    "moves_after_end,winner_can_mate,termination_read_as,flag_fallen_by,declared_grounds_hold,"
    "end_fen,error,error_line,error_column,skipped_variant";
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
      r ? ToString(r->ruling) : "", ",", r ? (r->agrees ? "true" : "false") : "", ",",
      r ? (r->certain ? "true" : "false") : "", ",", r ? ToString(r->rule) : "", ",",
      r ? r->article : "", ",", r && r->ended_at_ply ? absl::StrCat(*r->ended_at_ply) : "", ",",
      r ? absl::StrCat(r->moves_after_end) : "", ",", can_mate, ",",
      r ? ToString(r->declared_ending.kind) : "", ",",
      r && r->flag_fallen_by ? ColorName(*r->flag_fallen_by) : "", ",",
      r && r->declared_grounds_hold ? (*r->declared_grounds_hold ? "true" : "false") : "", ",",
      v.end_fen, ",", CsvField(v.error), ",", v.error.empty() ? "" : absl::StrCat(v.error_line),
      ",", v.error.empty() || !v.error_column ? "" : absl::StrCat(v.error_column), ",",
      CsvField(v.skipped_variant), v.tablebase ? CsvTablebase(*v.tablebase) : "", "\n");
}

std::string TextLine(const GameVerdict& v, TextEvidence evidence) {
  std::string head = absl::StrCat("#", v.game, v.site.empty() ? "" : " ", v.site, ": ");
  if (!v.skipped_variant.empty())
    return absl::StrCat(head, "SKIPPED a game of ", v.skipped_variant,
                        " (Arbiter rules chess, Chess960 and Chess 99)\n");
  if (!v.ruling) return absl::StrCat(head, "ERROR ", LocatedError(v), "\n");
  const Ruling& r = *v.ruling;
  std::string line = absl::StrCat(head, v.declared.empty() ? "?" : v.declared, " -> ",
                                  ToString(r.ruling), " by ", ToString(r.rule));
  if (!r.article.empty()) absl::StrAppend(&line, " (", r.article, ")");
  if (r.ended_at_ply) absl::StrAppend(&line, " after ply ", *r.ended_at_ply);
  if (r.moves_after_end)
    absl::StrAppend(&line, ", ", r.moves_after_end,
                    r.moves_after_end == 1 ? " ply played after" : " plies played after");
  if (r.flag_fallen_by) {
    absl::StrAppend(&line, ", ", *r.flag_fallen_by == kWhite ? "White" : "Black", "'s flag (by ",
                    FlagEvidenceWords(r.flag_evidence), ")");
  }
  if (r.declared_grounds_hold == false)
    absl::StrAppend(&line, ", declared ", ToString(r.declared_ending.grounds), " does not hold");
  if (!r.agrees) absl::StrAppend(&line, r.certain ? "  DISAGREES" : "  DISAGREES (uncertain)");
  // Each claim the record makes, with its answer and why.
  for (const ClaimRuling& c : r.claims)
    absl::StrAppend(&line, "  [claim ", ToString(c.claim.kind), " by ",
                    c.claim.claimant == kWhite ? "White" : "Black", ": ", ToString(c.answer), ", ",
                    c.reason, "]");
  // Chess 99: the judge's reason, e.g. "White captured the king, but its own
  // king is then in check".
  if (!v.detail.empty()) absl::StrAppend(&line, "  [Chess 99: ", v.detail, "]");
  if (v.tablebase && !v.tablebase->note.empty()) {
    const bool contradiction = v.tablebase->contradiction.value_or(false);
    absl::StrAppend(&line, contradiction ? "  TABLEBASE CONTRADICTION: " : "  (tablebase: ",
                    v.tablebase->note, contradiction ? "" : ")");
  }
  if (std::string words = CannotMateWords(r); !words.empty()) absl::StrAppend(&line, "  ", words);
  // The winner's mating line last: it may be long, and the markers above
  // stay where a reader (or grep) finds them. Only where the ruling is in
  // dispute (or --evidence all): an agreeing result needs no line to check.
  // It is a helpmate, both sides' moves, which a reader must not take for
  // a forced win.
  if (r.winner_side && r.winner_can_mate.answer == CanMate::kYes) {
    absl::StrAppend(&line, "  ", SideName(*r.winner_side), " can mate");
    if (!v.winner_line_san.empty() && (evidence == TextEvidence::kAll || DisputesOf(v).any()))
      absl::StrAppend(&line, ", helpmate line (both sides' moves): ",
                      ShownSan(v.winner_line_san, MoveNumberOfFen(v.end_fen), "--format jsonl"));
  }
  return line + "\n";
}

}  // namespace

absl::StatusOr<TextEvidence> ParseTextEvidence(const std::string& name) {
  if (name == "disputed") return TextEvidence::kDisputed;
  if (name == "all") return TextEvidence::kAll;
  return absl::InvalidArgumentError(
      absl::StrCat("--evidence must be disputed or all, not \"", name, "\""));
}

void VerdictSummary::Add(const GameVerdict& v) {
  ++games;
  if (v.tablebase && v.tablebase->probe.root) ++tablebase_covered;
  if (v.tablebase && v.tablebase->contradiction.value_or(false)) ++tablebase_contradictions;
  if (!v.skipped_variant.empty()) {
    ++skipped;
    ++skipped_variants[v.skipped_variant];
    return;
  }
  if (!v.ruling) {
    ++errors;
    return;
  }
  const Ruling& r = *v.ruling;
  ++by_rule[ToString(r.rule)];
  if (!r.certain) ++uncertain;
  if (r.agrees) {
    ++agree;
  } else {
    ++disagree;
    ++disagreements[absl::StrCat(v.declared, " -> ", ToString(r.ruling), " by ", ToString(r.rule))];
  }
}

std::string VerdictSummary::Json(double seconds) const {
  auto map_json = [](const std::map<std::string, int64_t>& m) {
    JsonObject o;
    for (const auto& [k, n] : m) o.Add(k, n);
    return o.Close();
  };
  JsonObject o;
  o.Add("type", "summary");
  o.Add("games", games).Add("errors", errors).Add("agree", agree).Add("disagree", disagree);
  o.Add("skipped", skipped).AddRaw("skipped_variants", map_json(skipped_variants));
  o.Add("uncertain", uncertain).AddRaw("by_rule", map_json(by_rule));
  o.AddRaw("disagreements", map_json(disagreements));
  // Counted only when tables were given: null otherwise, not 0.
  o.Add("tablebase_covered", tablebases ? std::optional<int64_t>(tablebase_covered) : std::nullopt);
  o.Add("tablebase_contradictions",
        tablebases ? std::optional<int64_t>(tablebase_contradictions) : std::nullopt);
  o.AddRaw("seconds", absl::StrCat(seconds));
  return o.Close() + "\n";
}

std::string VerdictSummary::Text(double seconds) const {
  std::string out = absl::StrCat("\nGames: ", games, "  errors: ", errors, "  agree: ", agree,
                                 "  disagree: ", disagree, "  (rulings resting on an unknown",
                                 " mate ability: ", uncertain, ")\n");
  if (skipped) {
    absl::StrAppend(&out, "Skipped, of other variants: ", skipped, " (");
    const char* separator = "";
    for (const auto& [variant, n] : skipped_variants) {
      absl::StrAppend(&out, separator, variant, ": ", n);
      separator = ", ";
    }
    absl::StrAppend(&out, ")\n");
  }
  absl::StrAppend(&out, "By rule:\n");
  for (const auto& [rule, n] : by_rule) absl::StrAppend(&out, "  ", rule, ": ", n, "\n");
  if (!disagreements.empty()) absl::StrAppend(&out, "Disagreements (declared -> ruling):\n");
  for (const auto& [kind, n] : disagreements) absl::StrAppend(&out, "  ", kind, ": ", n, "\n");
  if (tablebases)
    absl::StrAppend(&out, "Tablebase: ", tablebase_covered, " final positions covered, ",
                    tablebase_contradictions, " contradictions\n");
  // Hundredths, or whole seconds past 100: the run's time is a reading.
  absl::StrAppend(
      &out, "Time: ",
      (seconds >= 100 ? absl::StrFormat("%.0f", seconds) : absl::StrFormat("%.2f", seconds)),
      " s (", seconds > 0 ? int64_t(games / seconds) : 0, " games/s)\n");
  return out;
}

absl::StatusOr<VerdictFormat> ParseVerdictFormat(const std::string& name) {
  if (name == "text") return VerdictFormat::kText;
  if (name == "jsonl" || name == "json") return VerdictFormat::kJsonl;
  if (name == "csv") return VerdictFormat::kCsv;
  return absl::InvalidArgumentError(
      absl::StrCat("--format must be text, jsonl or csv, not \"", name, "\""));
}

VerdictPrinter::VerdictPrinter(VerdictFormat format, bool tablebase, FILE* out, bool csv_summary,
                               TextEvidence evidence)
    : format_(format),
      out_(out),
      csv_summary_(csv_summary),
      evidence_(evidence),
      summary_(std::make_shared<VerdictSummary>()) {
  summary_->tablebases = tablebase;
  if (format == VerdictFormat::kCsv)
    std::fputs(absl::StrCat(kCsvHeader, tablebase ? kCsvTablebaseHeader : "", "\n").c_str(), out);
}

void VerdictPrinter::Print(const GameVerdict& v) {
  summary_->Add(v);
  std::string line = format_ == VerdictFormat::kJsonl ? GameVerdictJson(v) + "\n"
                     : format_ == VerdictFormat::kCsv ? CsvRow(v)
                                                      : TextLine(v, evidence_);
  std::fwrite(line.data(), 1, line.size(), out_);
}

void VerdictPrinter::End(double seconds) {
  if (format_ == VerdictFormat::kJsonl)
    std::fputs(summary_->Json(seconds).c_str(), out_);
  else if (format_ == VerdictFormat::kText)
    std::fputs(summary_->Text(seconds).c_str(), out_);
  else if (csv_summary_)
    std::fputs(summary_->Text(seconds).c_str(), stderr);
}

int64_t VerdictPrinter::games() const { return summary_->games; }

}  // namespace arbiter
