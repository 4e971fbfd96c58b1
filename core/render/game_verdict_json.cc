#include "core/render/game_verdict_json.h"

#include "core/chess/notation.h"
#include "core/render/claim_text.h"
#include "core/render/json.h"
#include "core/render/tablebase_json.h"

namespace arbiter {
namespace {

// How the record said the game ended, and what the board and clocks say of
// it.
void AddDeclaredEndingFields(const Ruling& r, JsonObject* o) {
  const DeclaredEnding& e = r.declared_ending;
  o->Add("termination_read_as", ToString(e.kind));
  if (e.source == EndingSource::kNone)
    o->AddNull("termination_source");
  else
    o->Add("termination_source", ToString(e.source));
  if (e.kind == EndingKind::kForfeit)
    o->Add("forfeit_reason", ToString(e.forfeit));
  else
    o->AddNull("forfeit_reason");
  if (e.grounds == EndingGrounds::kNone)
    o->AddNull("declared_grounds");
  else
    o->Add("declared_grounds", ToString(e.grounds));
  o->Add("declared_grounds_hold", r.declared_grounds_hold);
  if (r.flag_fallen_by) {
    o->Add("flag_fallen_by", ColorName(*r.flag_fallen_by));
    o->Add("flag_evidence", ToString(r.flag_evidence));
  } else {
    o->AddNull("flag_fallen_by").AddNull("flag_evidence");
  }
  o->Add("clock_contradicts_result", r.clock_contradicts_result);
}

std::string WinnerJson(const GameVerdict& v, const Ruling& r) {
  if (!r.winner_side) return "null";
  JsonObject w;
  w.Add("side", ColorName(*r.winner_side));
  w.Add("can_mate", ToString(r.winner_can_mate.answer));
  w.AddTextOrNull("proof", ToString(r.winner_can_mate.proof));
  // The SAN beside the UCI, named as analyze names it.
  if (r.winner_can_mate.answer == CanMate::kYes) {
    w.AddRaw("line", JsonArray(v.winner_line, JsonQuote));
    w.AddRaw("line_san", JsonArray(v.winner_line_san, JsonQuote));
  } else {
    w.AddNull("line").AddNull("line_san");
  }
  return w.Close();
}

// The keys of a ruling, all null: an error record has every key a verdict
// has (docs/schema/verdict.schema.json).
constexpr const char* kRulingKeys[] = {
    "ruling",  "agrees",       "certain",         "rule",
    "article", "ended_at_ply", "moves_after_end", "first_move_after_end"};
constexpr const char* kEndingKeys[] = {"winner",
                                       "dead_position_proof",
                                       "claim_grounds",
                                       "termination_read_as",
                                       "termination_source",
                                       "forfeit_reason",
                                       "declared_grounds",
                                       "declared_grounds_hold",
                                       "flag_fallen_by",
                                       "flag_evidence",
                                       "clock_contradicts_result",
                                       "claims"};

}  // namespace

std::string GameVerdictJson(const GameVerdict& v) {
  const Ruling* r = v.ruling ? &*v.ruling : nullptr;
  JsonObject o;
  o.Add("type", r ? "verdict" : v.skipped_variant.empty() ? "error" : "skipped");
  o.Add("game", v.game);
  o.AddTextOrNull("site", v.site).AddTextOrNull("declared", v.declared);
  o.AddTextOrNull("termination", v.termination);
  // null for UTF-8 as written: the common case says nothing.
  if (v.encoding == RecordEncoding::kUtf8)
    o.AddNull("encoding");
  else
    o.Add("encoding", ToString(v.encoding));
  o.Add("rules", ToString(v.rules));
  if (r) {
    o.Add("ruling", ToString(r->ruling)).Add("agrees", r->agrees).Add("certain", r->certain);
    o.Add("rule", ToString(r->rule));
    o.AddTextOrNull("article", r->article);
    o.Add("ended_at_ply", r->ended_at_ply);
    o.Add("moves_after_end", r->moves_after_end);
    o.AddTextOrNull("first_move_after_end", v.first_move_after_end);
  } else {
    for (const char* key : kRulingKeys) o.AddNull(key);
  }
  o.Add("plies", v.plies);
  o.AddTextOrNull("end_fen", v.end_fen);
  if (r) {
    o.AddRaw("winner", WinnerJson(v, *r));
    // Named as analyze names a dead position's proof: "material",
    // "fortress+material"; null for other rulings.
    o.AddTextOrNull("dead_position_proof",
                    r->dead_position_proof ? ProofName(*r->dead_position_proof) : "");
    o.AddRaw("claim_grounds", JsonArray(r->claim_grounds, JsonQuote));
    AddDeclaredEndingFields(*r, &o);
    o.AddRaw("claims", JsonArray(r->claims, ClaimRulingJson));
  } else {
    for (const char* key : kEndingKeys) o.AddNull(key);
  }
  o.AddTextOrNull("detail", v.detail);
  if (v.tablebase) {
    o.AddRaw("tablebase", TablebasePositionJson(v.tablebase->probe));
    o.Add("tablebase_contradiction", v.tablebase->contradiction);
    o.AddTextOrNull("tablebase_note", v.tablebase->note);
  } else {
    o.AddNull("tablebase").AddNull("tablebase_contradiction").AddNull("tablebase_note");
  }
  o.AddTextOrNull("skipped_variant", v.skipped_variant);
  if (r || !v.skipped_variant.empty())
    o.AddNull("error");
  else
    o.AddRaw(
        "error",
        JsonObject()
            .Add("message", v.error)
            .Add("game", v.game)
            .Add("line", v.error_line ? std::optional<int64_t>(v.error_line) : std::nullopt)
            .Add("column", v.error_line && v.error_column ? std::optional<int64_t>(v.error_column)
                                                          : std::nullopt)
            .Close());
  return o.Close();
}

}  // namespace arbiter
