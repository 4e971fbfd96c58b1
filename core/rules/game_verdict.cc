#include "core/rules/game_verdict.h"

#include "core/chess/notation.h"
#include "core/rules/chess99_verdict.h"
#include "core/util/json.h"

namespace arbiter {
namespace {

// Reader and replay errors say "..., line N: ..."; the line is reported as
// its own field so that tools can point at it.
int64_t LineFromMessage(std::string_view message) {
  size_t at = message.find("line ");
  if (at == std::string_view::npos) return 0;
  int64_t line = 0;
  for (size_t i = at + 5; i < message.size() && message[i] >= '0' && message[i] <= '9'; ++i)
    line = line * 10 + (message[i] - '0');
  return line;
}

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

void VerifyGame(const RawGame& raw, const MateSearchOptions& options, ReplayedGame* scratch,
                GameVerdict* out, const SyzygyTablebase* tables) {
  *out = GameVerdict{};
  out->game = raw.index;
  if (const std::string* site = raw.Tag("Site")) out->site = *site;
  if (const std::string* result = raw.Tag("Result")) out->declared = *result;
  if (out->declared.empty()) out->declared = raw.result_token;
  if (const std::string* t = raw.Tag("Termination")) out->termination = *t;
  out->plies = int(raw.moves.size());
  out->encoding = raw.encoding;
  if (IsChess99Game(raw)) {
    out->rules = "chess99";
    if (raw.error.ok()) {
      VerifyChess99Game(raw, out);
    } else {
      out->error = std::string(raw.error.message());
      out->error_line = LineFromMessage(out->error);
    }
    if (tables) out->tablebase = NoPositionJudgement("a Chess 99 game: no tablebase covers it");
    return;
  }

  ReplayGame(raw, scratch);
  const std::string* white = raw.Tag("White");
  const std::string* black = raw.Tag("Black");
  const DeclaredOutcome declared{
      .result = out->declared,
      .termination = out->termination,
      .closing_comment = raw.closing_comment,
      .players = {white ? std::string_view(*white) : "", black ? std::string_view(*black) : ""},
      .clock_centis = scratch->clock_centis};
  // Moves recorded after a checkmate or stalemate cannot be played: a game
  // with a bad move is ruled on the moves before it, if it ended on the
  // board there.
  std::optional<Ruling> ruled;
  if (scratch->error.ok() || scratch->bad_move >= 0) {
    ruled = RuleGame(scratch->start, scratch->moves, declared, options);
    if (!scratch->error.ok() && !ruled->ended_on_board) ruled.reset();
  }
  if (!ruled) {
    out->error = std::string(scratch->error.message());
    out->error_line = LineFromMessage(out->error);
    if (tables) out->tablebase = NoPositionJudgement("the game could not be replayed");
    return;
  }
  Ruling ruling = *std::move(ruled);
  if (ruling.ended_on_board) {
    const int end_ply = *ruling.ended_at_ply;
    ruling.moves_after_end = int(raw.moves.size()) - end_ply;
    if (ruling.moves_after_end > 0) out->first_move_after_end = raw.moves[end_ply].san;
  }
  // The position where the game was ruled: replay up to the ending.
  Position pos = scratch->start;
  int end = ruling.ended_at_ply.value_or(int(scratch->moves.size()));
  for (int i = 0; i < end; ++i) pos.DoMove(scratch->moves[i]);
  out->end_fen = pos.Fen();
  if (tables) out->tablebase = JudgeDeclaredResult(*tables, pos, ruling, declared);
  for (Move m : ruling.winner_can_mate.line) {
    out->winner_line.push_back(ToUci(pos, m));
    pos.DoMove(m);
  }
  out->ruling = std::move(ruling);
}

std::string GameVerdictJson(const GameVerdict& v) {
  json::Object o;
  o.Add("game", v.game).Add("site", v.site).Add("declared", v.declared);
  o.Add("termination", v.termination);
  o.AddTextOrNull("encoding", v.encoding);
  // Chess 99 records say so; chess records keep the fields they always had.
  if (!v.rules.empty()) o.Add("rules", v.rules);
  if (!v.ruling) {
    o.AddNull("ruling").AddNull("agrees").AddNull("rule").AddNull("article");
    o.AddNull("ended_at_ply").AddNull("moves_after_end");
    if (v.tablebase) AddTablebaseFields(*v.tablebase, &o);
    o.AddRaw("error", json::Object().Add("message", v.error).Add("line", v.error_line).Close());
    return o.Close();
  }
  const Ruling& r = *v.ruling;
  o.Add("ruling", r.ruling).Add("agrees", r.agrees).Add("certain", r.certain);
  o.Add("rule", r.rule);
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
    w.AddTextOrNull("proof", r.winner_can_mate.proof);
    if (r.winner_can_mate.answer == CanMate::kYes)
      w.AddRaw("line",
               json::Array(v.winner_line, [](const std::string& s) { return json::Quote(s); }));
    else
      w.AddNull("line");
    o.AddRaw("winner", w.Close());
  } else {
    o.AddNull("winner");
  }
  o.AddRaw("claim_grounds",
           json::Array(r.claim_grounds, [](const std::string& s) { return json::Quote(s); }));
  AddDeclaredEndingFields(r, &o);
  if (!v.rules.empty()) o.Add("detail", v.detail);
  if (v.tablebase) AddTablebaseFields(*v.tablebase, &o);
  o.AddNull("error");
  return o.Close();
}

}  // namespace arbiter
