// Claims an arbiter decides on the position: the quickplay-finish claim of
// the FIDE Guidelines III.5 and US Chess 14H ("the opponent cannot win by
// normal means" / "insufficient losing chances"), and ICCF's tablebase
// claim. Arbiter cannot see whether a player "makes no effort to win", so it
// upholds or rejects a claim only on evidence that decides it: a proof that
// the opponent cannot mate at all (material, fortress, retrograde, ...), or
// tables (Syzygy, or Arbiter's own for at most 4 men) that give the result
// of best play. Everything else is answered `arbiter_judgment`, with the
// evidence there is and the reason it does not decide. docs/rulings.md,
// "Claims", gives the articles and the table of answers.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "core/chess/position.h"
#include "core/domain/claim.h"
#include "core/domain/game_result.h"
#include "core/domain/ruleset.h"
#include "core/mate/mate_ability.h"
#include "core/verdict/tablebase_probe.h"

namespace arbiter {

struct Claim {
  ClaimKind kind = ClaimKind::kQuickplayFinish;
  Color claimant = kWhite;
  // Quickplay-finish and 14H claims ask for a draw (kWin is refused);
  // a tablebase claim asks for either.
  ClaimedOutcome claimed = ClaimedOutcome::kDraw;
};

// The result the claim asks the game to have: a draw, or the claimant's win.
GameResult ClaimedResult(const Claim& claim);

// What is known of the game's time control (a record's TimeControl tag);
// unset when nothing is, as in `analyze`. The claimant's own time left is
// never known well enough: a recorded [%clk] is the time after their last
// move, and their clock ran on until the claim. So "under two minutes" is
// the arbiter's to check, and the answers say so.
struct ClaimConditions {
  // True when the game adds time per move (an increment or a delay): III.5
  // and 14H are for games without either.
  std::optional<bool> adds_time;
  // True for a blitz game (FIDE Appendix B: 10 minutes or less per player,
  // 60 moves' increments included): III.2.2 limits Guidelines III to
  // standard and rapid games. Unset when the record does not say.
  std::optional<bool> blitz;
};

struct ClaimRuling {
  Claim claim;
  std::string fen;        // the position judged
  bool chess960 = false;  // how castling is spelled in its lines
  Ruleset rules = Ruleset::kFide;
  ClaimAnswer answer = ClaimAnswer::kArbiterJudgment;
  ClaimBasis basis = ClaimBasis::kNoDecisiveEvidence;
  std::string article;  // ArticleOf(claim.kind)
  std::string reason;   // in words, for people
  // The opponent's mate ability, when it was searched (the draw claims).
  std::optional<MateAbility> opponent_can_mate;
  // The tables' value of the position, when some table was asked.
  std::optional<TablebaseProbe> tablebase;
  // The game's result when the claim is upheld (a draw, or the claimant's
  // win for a tablebase claim of a win).
  std::optional<GameResult> result;
  // In a game: the ply after which the claim was made (0 = the start).
  std::optional<int> ply;
};

// Evidence a caller has already gathered in the same position with the
// same options (analyze searches both sides and probes the tables anyway),
// used instead of searching or probing again. Null: not gathered.
struct KnownEvidence {
  std::array<const MateAbility*, 2> can_mate = {nullptr, nullptr};  // [Color], SAN spelled
  const TablebaseProbe* tablebase = nullptr;  // ProbeTables with options' tables
};

// Judges `claim` in `pos` under `rules`. The opponent's mate ability is
// searched with `options` (its budget); `options.syzygy` and
// `options.retrograde` are the tables asked. `pos` must be legal.
ClaimRuling JudgeClaim(const Position& pos, const Claim& claim, Ruleset rules,
                       const MateSearchOptions& options, const ClaimConditions& conditions = {},
                       const KnownEvidence& known = {});

}  // namespace arbiter
