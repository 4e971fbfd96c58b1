#include "core/render/tablebase_json.h"

#include "core/render/json.h"

namespace arbiter {
namespace {

// The position's value, first in both shapes.
void AddValue(const RootResult& r, JsonObject* o) {
  o->Add("category", ToString(r.category));
  o->Add("dtz", r.dtz);
  o->Add("precise_dtz", r.precise_dtz);
  o->Add("win_within_50", r.win_within_50);
  o->Add("halfmove_clock", r.halfmove_clock);
  // Both readings of the category: over the board (FIDE 9.3) and in
  // correspondence (ICCF tablebase claims), and the move that keeps a win
  // inside the fifty-move rule.
  o->Add("fifty_move_outcome", ToString(WithFiftyMoveRule(r.category)));
  o->Add("unlimited_outcome", ToString(WithoutFiftyMoveRule(r.category)));
  if (const TablebaseMove* keep = MoveWinningWithin50(r))
    o->Add("move_within_50", keep->uci);
  else
    o->AddNull("move_within_50");
}

void AddRoot(const RootResult& result, JsonObject* out) {
  JsonObject& o = *out;
  AddValue(result, &o);
  o.Add("checkmate", result.checkmate);
  o.Add("stalemate", result.stalemate);
  o.AddRaw("moves", JsonArray(result.moves, [&](const TablebaseMove& m) {
             JsonObject mo;
             mo.Add("uci", m.uci);
             mo.Add("san", m.san);
             mo.Add("category", ToString(m.category));
             mo.Add("dtz", m.dtz);
             mo.Add("precise_dtz", m.precise_dtz);
             mo.Add("zeroing", m.zeroing);
             mo.Add("checkmate", m.checkmate);
             mo.Add("stalemate", m.stalemate);
             return mo.Close();
           }));
}

}  // namespace

std::string TablebaseJson(const RootResult& result) {
  JsonObject o;
  AddRoot(result, &o);
  return o.Close();
}

std::string TablebaseApiJson(const TablebaseProbe& probe, bool checkmate, bool stalemate) {
  JsonObject o;
  if (probe.root) {
    AddRoot(*probe.root, &o);
    return o.AddNull("not_covered").Close();
  }
  // Not covered: the same keys, the value's null, and why.
  o.Add("category", "unknown");
  for (const char* key : {"dtz", "precise_dtz", "win_within_50", "halfmove_clock",
                          "fifty_move_outcome", "unlimited_outcome", "move_within_50"})
    o.AddNull(key);
  o.Add("checkmate", checkmate).Add("stalemate", stalemate).AddRaw("moves", "[]");
  return o.Add("not_covered", probe.not_covered).Close();
}

std::string TablebasePositionJson(const TablebaseProbe& probe) {
  if (!probe.root) return "null";
  JsonObject o;
  AddValue(*probe.root, &o);
  o.Add("side_to_move", ColorName(probe.side_to_move));
  o.Add("source", ToString(probe.source));
  return o.Close();
}

}  // namespace arbiter
