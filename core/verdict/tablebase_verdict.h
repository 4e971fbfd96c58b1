// What Syzygy tables say about a position for the rules front ends: the
// probe `analyze` prints, and, for `verify`, how the value of a game's final
// position under the fifty-move rule compares with the declared result.
//
// The comparison is not a ruling. The Laws let a player resign or agree a
// draw in any position, so `ruling` never changes because of a table; what a
// table adds is evidence that a recorded result is not the one best play
// gives (a result adjudicated from a cursed win, a resignation in a drawn
// position, a mis-typed result). See "Tablebases" in docs/rulings.md.
#pragma once

#include <optional>
#include <string>

#include "core/chess/position.h"
#include "core/domain/ruleset.h"
#include "core/tablebase/syzygy.h"
#include "core/verdict/ruling.h"
#include "core/verdict/tablebase_probe.h"

namespace arbiter {

// The tables' view of a game's declared result, judged in the position where
// the game was ruled.
struct TablebaseJudgement {
  TablebaseProbe probe;
  // true: the declared result is not the one best play gives under the
  // fifty-move rule, for a game that a player or an adjudicator decided on
  // the board (resignation, adjudication). false: it is, or the tables do
  // not bear on how this game ended (automatic endings, flag falls,
  // forfeits, agreed draws, unfinished games). Empty when the position is
  // not covered, or DTZ rounding leaves the outcome open (maybe-win/-loss).
  std::optional<bool> contradiction;
  // The contradiction's reason, or an informational remark (a draw agreed in
  // a position one side wins); empty when there is none.
  std::string note;
};

// `end` is the position where the game was ruled (GameVerdict::end_fen).
// Under `rules` kIccf, best play is judged without the fifty-move rule, as
// correspondence chess judges positions of at most 7 men.
TablebaseJudgement JudgeDeclaredResult(const SyzygyTablebase& tables, const Position& end,
                                       const Ruling& ruling, const DeclaredOutcome& declared,
                                       Ruleset rules = Ruleset::kFide);

// The verdict on a game that could not be replayed: nothing to probe.
TablebaseJudgement NoPositionJudgement(std::string why);

}  // namespace arbiter
