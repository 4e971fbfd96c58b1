#include "core/render/game_verdict_json.h"

#include "core/chess/notation.h"
#include "core/render/claim_text.h"
#include "core/render/json.h"
#include "core/render/tablebase_json.h"

namespace arbiter {
namespace {

// The tablebase fields of a record: `tablebase` (the final position's
// value, or null), `tablebase_contradiction` (true / false / null) and
// `tablebase_note` (a reason or remark, or null).
void AddTablebaseFields(const TablebaseJudgement& t, json::Object* o) {
  o->AddRaw("tablebase", TablebasePositionJson(t.probe));
  o->Add("tablebase_contradiction", t.contradiction);
  o->AddTextOrNull("tablebase_note", t.note);
}

// How the record said the game ended, and what the board and clocks say of
// it.
void AddDeclaredEndingFields(const Ruling& r, json::Object* o) {
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

}  // namespace

std::string GameVerdictJson(const GameVerdict& v) {
  json::Object o;
  o.Add("game", v.game).Add("site", v.site).Add("declared", v.declared);
  o.Add("termination", v.termination);
  o.AddTextOrNull("encoding", v.encoding);
  // Records of other rules than FIDE's say so; FIDE records keep the fields
  // they always had.
  if (v.rules != Ruleset::kFide) o.Add("rules", ToString(v.rules));
  if (!v.ruling) {
    o.AddNull("ruling").AddNull("agrees").AddNull("rule").AddNull("article");
    o.AddNull("ended_at_ply").AddNull("moves_after_end");
    if (v.tablebase) AddTablebaseFields(*v.tablebase, &o);
    o.AddRaw("error", json::Object().Add("message", v.error).Add("line", v.error_line).Close());
    return o.Close();
  }
  const Ruling& r = *v.ruling;
  o.Add("ruling", ToString(r.ruling)).Add("agrees", r.agrees).Add("certain", r.certain);
  o.Add("rule", ToString(r.rule));
  o.AddTextOrNull("article", r.article);
  o.Add("ended_at_ply", r.ended_at_ply);
  o.Add("moves_after_end", r.moves_after_end);
  o.AddTextOrNull("first_move_after_end", v.first_move_after_end);
  o.Add("plies", v.plies);
  o.Add("end_fen", v.end_fen);
  if (r.winner_side) {
    json::Object w;
    w.Add("side", ColorName(*r.winner_side));
    w.Add("can_mate", ToString(r.winner_can_mate.answer));
    w.AddTextOrNull("proof", ToString(r.winner_can_mate.proof));
    // The SAN beside the UCI, named as analyze names it.
    if (r.winner_can_mate.answer == CanMate::kYes) {
      auto quote = [](const std::string& s) { return json::Quote(s); };
      w.AddRaw("line", json::Array(v.winner_line, quote));
      w.AddRaw("line_san", json::Array(v.winner_line_san, quote));
    } else {
      w.AddNull("line").AddNull("line_san");
    }
    o.AddRaw("winner", w.Close());
  } else {
    o.AddNull("winner");
  }
  o.AddRaw("claim_grounds",
           json::Array(r.claim_grounds, [](const std::string& s) { return json::Quote(s); }));
  AddDeclaredEndingFields(r, &o);
  o.AddRaw("claims", json::Array(r.claims, ClaimRulingJson));
  if (v.rules == Ruleset::kChess99) o.Add("detail", v.detail);
  if (v.tablebase) AddTablebaseFields(*v.tablebase, &o);
  o.AddNull("error");
  return o.Close();
}

}  // namespace arbiter
