#include "core/verdict/position_analysis.h"

#include "absl/strings/str_cat.h"
#include "core/chess/notation.h"

namespace arbiter {

absl::StatusOr<PositionAnalysis> AnalyzePosition(const std::string& fen, bool chess960,
                                                 const std::vector<std::string>& moves,
                                                 const MateSearchOptions& options,
                                                 const SyzygyTablebase* tables,
                                                 std::optional<Color> only_side,
                                                 const std::optional<ClaimQuestion>& claim) {
  absl::StatusOr<Position> pos = Position::FromFen(fen, chess960);
  if (!pos.ok()) return pos.status();
  Game game(*pos);
  for (size_t i = 0; i < moves.size(); ++i) {
    absl::StatusOr<Move> m = ParseUci(game.position(), moves[i]);
    if (!m.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("move ", i + 1, ": ", std::string(m.status().message())));
    if (AutomaticEnding(game, kClosedPositionBudget, options.retrograde) != GameStatus::kOngoing)
      return absl::InvalidArgumentError(
          absl::StrCat("move ", i + 1, " (", moves[i], "): the game had already ended"));
    game.Play(*m);
  }
  MateSearchOptions with_tables = options;
  with_tables.syzygy = tables;  // a tablebase win proves "can mate"
  PositionAnalysis out{game.position(), Assess(game, with_tables, only_side), std::nullopt,
                       std::nullopt, options.rules};
  // The lines are final here: the analysis prints them (Assess leaves them
  // unspelled, for the draws ruled on claims, which print none).
  FinishLine(out.position, &out.assessment.white);
  FinishLine(out.position, &out.assessment.black);
  if (tables) out.tablebase = ProbeTables(game.position(), tables, options.retrograde);
  if (claim) {
    const Claim asked{.kind = claim->kind,
                      .claimant = claim->claimant.value_or(out.position.side_to_move()),
                      .claimed = claim->claimed};
    // The analysis above already searched the sides and probed the tables.
    KnownEvidence known;
    for (Color c : {kWhite, kBlack})
      if (out.assessment.Asked(c))
        known.can_mate[c] = c == kWhite ? &out.assessment.white : &out.assessment.black;
    if (out.tablebase) known.tablebase = &*out.tablebase;
    out.claim = JudgeClaim(out.position, asked, claim->rules, with_tables, {}, known);
  }
  return out;
}

}  // namespace arbiter
