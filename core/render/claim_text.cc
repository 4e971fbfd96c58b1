#include "core/render/claim_text.h"

#include "absl/strings/str_cat.h"
#include "core/render/json.h"
#include "core/render/report.h"
#include "core/render/san_line.h"
#include "core/render/tablebase_json.h"

namespace arbiter {

std::string ClaimRulingJson(const ClaimRuling& c) {
  JsonObject o;
  o.Add("kind", ToString(c.claim.kind));
  o.Add("claimant", ColorName(c.claim.claimant));
  o.Add("claimed", ToString(c.claim.claimed));
  o.Add("rules", ToString(c.rules));
  o.Add("answer", ToString(c.answer));
  o.Add("basis", ToString(c.basis));
  o.Add("article", c.article);
  o.Add("reason", c.reason);
  if (c.result)
    o.Add("result", ToString(*c.result));
  else
    o.AddNull("result");
  o.Add("ply", c.ply);
  o.Add("fen", c.fen);
  absl::StatusOr<Position> pos = Position::FromFen(c.fen, c.chess960);
  if (c.opponent_can_mate && pos.ok())
    o.AddRaw("opponent_can_mate", MateAbilityJson(*pos, *c.opponent_can_mate));
  else
    o.AddNull("opponent_can_mate");
  // As an assessment says them: the value (null when not covered), the
  // tables asked, and why they did not answer.
  if (c.tablebase && c.tablebase->root)
    o.AddRaw("tablebase", TablebaseJson(*c.tablebase->root));
  else
    o.AddNull("tablebase");
  if (c.tablebase)
    o.Add("tablebase_source", ToString(c.tablebase->source));
  else
    o.AddNull("tablebase_source");
  // Why no table answered, when one was asked.
  o.AddTextOrNull("tablebase_not_covered", c.tablebase ? c.tablebase->not_covered : "");
  return o.Close();
}

std::string ClaimRulingText(const ClaimRuling& c) {
  std::string out = absl::StrCat("Claim: ", ToString(c.claim.kind), " by ",
                                 c.claim.claimant == kWhite ? "White" : "Black");
  if (c.claim.kind == ClaimKind::kTablebaseClaim)
    absl::StrAppend(&out, " (claims a ", ToString(c.claim.claimed), ")");
  absl::StrAppend(&out, " under ", c.article, ": ", ToString(c.answer));
  if (c.result) absl::StrAppend(&out, ", ", ToString(*c.result));
  absl::StrAppend(&out, "\n  Why: ", c.reason, "\n");
  if (c.opponent_can_mate) {
    const MateAbility& m = *c.opponent_can_mate;
    absl::StrAppend(&out, "  Opponent can mate: ", ToString(m.answer));
    if (m.proof != MateProof::kNone) absl::StrAppend(&out, " (proof: ", ToString(m.proof), ")");
    absl::StatusOr<Position> pos = Position::FromFen(c.fen, c.chess960);
    if (!m.line_san.empty() && pos.ok())
      absl::StrAppend(
          &out, ", e.g. ",
          ShownSan(m.line_san, {pos->fullmove_number(), pos->side_to_move()}, "--json"));
    absl::StrAppend(&out, "\n");
  }
  if (c.tablebase) {
    if (!c.tablebase->root) {
      absl::StrAppend(&out, "  Tablebase: not covered (", c.tablebase->not_covered, ")\n");
    } else {
      const RootResult& r = *c.tablebase->root;
      absl::StrAppend(&out, "  Tablebase (", ToString(c.tablebase->source),
                      "): ", ToString(r.category), " for ",
                      c.tablebase->side_to_move == kWhite ? "White" : "Black", " to move, DTZ ",
                      r.precise_dtz.value_or(r.dtz), "; for the side to move a ",
                      ToString(WithFiftyMoveRule(r.category)), " with the 50-move rule (FIDE), a ",
                      ToString(WithoutFiftyMoveRule(r.category)), " without it (ICCF)");
      if (const TablebaseMove* keep = MoveWinningWithin50(r))
        absl::StrAppend(&out, "; ", keep->san, " keeps the win inside fifty moves");
      absl::StrAppend(&out, "\n");
    }
  }
  return out;
}

}  // namespace arbiter
