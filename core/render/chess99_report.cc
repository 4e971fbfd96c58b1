#include "core/render/chess99_report.h"

#include "absl/strings/str_cat.h"
#include "core/chess99/notation.h"
#include "core/render/json.h"

namespace arbiter {
namespace {

const char* SideName(chess99::Color c) { return c == chess99::kWhite ? "white" : "black"; }

std::string Quoted(const std::string& s) { return JsonQuote(s); }

std::string SideJson(const chess99::SideWinAbility& s) {
  JsonObject o;
  o.Add("can_win", ToString(s.answer));
  if (s.proof == MateProof::kNone) {
    o.AddNull("proof").AddNull("section");
  } else {
    o.Add("proof", ToString(s.proof));
    o.Add("section", s.section);
  }
  if (s.answer == chess99::WinAbility::kYes)
    o.AddRaw("line", JsonArray(s.line, Quoted));
  else
    o.AddNull("line");
  return o.Close();
}

}  // namespace

std::string Chess99ReportJson(const Chess99Report& r) {
  const chess99::PositionAnalysis& a = r.analysis;
  JsonObject o;
  o.Add("type", "assessment")
      .Add("rules", "chess99")
      .Add("fen", r.fen)
      .Add("status", ToString(a.status));
  if (a.section.empty())
    o.AddNull("section");
  else
    o.Add("section", a.section);
  o.AddRaw("white", SideJson(a.can_win[chess99::kWhite]));
  o.AddRaw("black", SideJson(a.can_win[chess99::kBlack]));
  o.AddRaw("king_captures", JsonArray(a.king_captures, [](const chess99::KingCaptureNow& k) {
             return JsonObject()
                 .Add("move", k.move)
                 .Add("site", k.site)
                 .Add("wins", k.wins)
                 .Add("rule", ToString(k.rule))
                 .Add("section", k.section)
                 .Close();
           }));
  o.AddRaw("claims", JsonObject()
                         .Add("king_capture_available", a.d5_claim_available)
                         .Add("opponent_moves_completed", int64_t(a.opponent_moves_completed))
                         .Add("ninety_nine_window_open", a.d6_window_open)
                         .Add("ninety_nine_available", a.d6_claim_available)
                         .AddRaw("ninety_nine_moves", JsonArray(a.d6_claim_moves, Quoted))
                         .Close());
  return o.Close();
}

std::string Chess99ReportText(const Chess99Report& r) {
  const chess99::PositionAnalysis& a = r.analysis;
  std::string out =
      absl::StrCat("Position: ", r.fen, "  (Chess 99)\nStatus:   ", ToString(a.status));
  if (!a.section.empty()) absl::StrAppend(&out, " (", a.section, ")");
  for (chess99::Color c : {chess99::kWhite, chess99::kBlack}) {
    const chess99::SideWinAbility& s = a.can_win[c];
    absl::StrAppend(&out, "\n", c == chess99::kWhite ? "White" : "Black",
                    " can win: ", ToString(s.answer));
    if (s.proof != MateProof::kNone)
      absl::StrAppend(&out, " (proof: ", ToString(s.proof), ", ", s.section, ")");
    if (s.answer == chess99::WinAbility::kYes) {
      absl::StrAppend(&out, ", e.g.");
      for (const std::string& m : s.line) absl::StrAppend(&out, " ", m);
    }
  }
  absl::StrAppend(&out, "\nKing captures now (", SideName(r.analysis.side_to_move), "):");
  if (a.king_captures.empty()) absl::StrAppend(&out, " none");
  for (const chess99::KingCaptureNow& k : a.king_captures)
    absl::StrAppend(&out, " ", k.site, " ", k.wins ? "wins" : "draws", " (", k.section, ")");
  absl::StrAppend(
      &out, "\nDraw claim, king capture available (D5): ", a.d5_claim_available ? "yes" : "no");
  absl::StrAppend(
      &out, "\nDraw claim, 99 moves (D6): opponent completed ", a.opponent_moves_completed, "; ",
      !a.d6_window_open      ? "not yet"
      : a.d6_claim_available ? absl::StrCat("valid with ", a.d6_claim_moves.size(), " moves")
                             : "no move keeps the king out of check");
  return out + "\n";
}

}  // namespace arbiter
