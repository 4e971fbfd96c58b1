#include "core/render/report.h"

#include "core/chess/notation.h"
#include "core/render/claim_text.h"
#include "core/render/json.h"
#include "core/render/tablebase_json.h"

namespace arbiter {
namespace {

std::string MoveArray(const Position& pos, const std::vector<Move>& moves) {
  return JsonArray(moves, [&](Move m) { return JsonQuote(ToUci(pos, m)); });
}

}  // namespace

std::string MateAbilityJson(const Position& pos, const MateAbility& m) {
  JsonObject o;
  o.Add("can_mate", ToString(m.answer));
  o.AddTextOrNull("proof", ToString(m.proof));
  if (m.answer == CanMate::kYes) {
    o.AddRaw("line",
             JsonArray(UciLine(pos, m.line), [](const std::string& s) { return JsonQuote(s); }));
    o.AddRaw("line_san", JsonArray(m.line_san, [](const std::string& s) { return JsonQuote(s); }));
  } else {
    o.AddNull("line").AddNull("line_san");
  }
  return o.Close();
}

std::string ClaimsJson(const Position& pos, const DrawClaims& c) {
  JsonObject threefold, fifty;
  threefold.Add("article", "9.2")
      .Add("available", c.threefold_now)
      .AddRaw("by_move", MoveArray(pos, c.threefold_moves));
  fifty.Add("article", "9.3")
      .Add("available", c.fifty_now)
      .AddRaw("by_move", MoveArray(pos, c.fifty_moves));
  return JsonObject().AddRaw("threefold", threefold.Close()).AddRaw("fifty", fifty.Close()).Close();
}

std::string AssessmentJson(const PositionAnalysis& analysis) {
  const Position& pos = analysis.position;
  const Assessment& a = analysis.assessment;
  JsonObject o;
  o.Add("type", "assessment");
  o.Add("rules", ToString(analysis.rules));
  o.Add("fen", pos.Fen());
  o.Add("chess960", pos.chess960());
  o.Add("status", ToString(a.status));
  if (a.status == GameStatus::kOngoing)
    o.AddNull("article");
  else
    o.Add("article", ArticleOf(a.status));
  // A side that was not asked about is reported as null, not "unknown".
  const bool white_asked = a.Asked(kWhite), black_asked = a.Asked(kBlack);
  if (white_asked)
    o.Add("white_can_mate", ToString(a.white.answer));
  else
    o.AddNull("white_can_mate");
  if (black_asked)
    o.Add("black_can_mate", ToString(a.black.answer));
  else
    o.AddNull("black_can_mate");
  o.Add("dead", a.dead);
  const std::optional<DeadPositionProof> dead_proof = DeadProofOf(a);
  o.AddTextOrNull("proof", dead_proof ? ProofName(*dead_proof) : "");
  if (white_asked)
    o.AddRaw("white", MateAbilityJson(pos, a.white));
  else
    o.AddNull("white");
  if (black_asked)
    o.AddRaw("black", MateAbilityJson(pos, a.black));
  else
    o.AddNull("black");
  o.AddRaw("claims", ClaimsJson(pos, a.claims));
  const TablebaseProbe* tablebase = analysis.tablebase ? &*analysis.tablebase : nullptr;
  if (tablebase && tablebase->root)
    o.AddRaw("tablebase", TablebaseJson(*tablebase->root));
  else
    o.AddNull("tablebase");
  if (tablebase)
    o.Add("tablebase_source", ToString(tablebase->source));
  else
    o.AddNull("tablebase_source");
  o.AddTextOrNull("tablebase_not_covered", tablebase ? tablebase->not_covered : "");
  if (analysis.claim)
    o.AddRaw("claim", ClaimRulingJson(*analysis.claim));
  else
    o.AddNull("claim");
  return o.Close();
}

}  // namespace arbiter
