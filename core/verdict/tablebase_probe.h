// One position's value in the tables, for every front end: the root probe
// `analyze` prints and the evidence claims and verdicts carry, from the
// user's Syzygy tables or, for at most 4 men, Arbiter's own retrograde
// tables.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/chess/position.h"
#include "core/tablebase/retrograde.h"
#include "core/tablebase/syzygy.h"

namespace arbiter {

// Which tables answered: the user's Syzygy files, or Arbiter's own exact
// retrograde tables (at most 4 men, core/tablebase/retrograde.h), which
// give the same values where no Syzygy file is at hand.
enum class TablebaseSource : uint8_t { kSyzygy, kRetrograde };
const char* ToString(TablebaseSource s);  // "syzygy", "retrograde"

// One position's root probe, or why the tables say nothing about it.
struct TablebaseProbe {
  Color side_to_move = kWhite;
  TablebaseSource source = TablebaseSource::kSyzygy;
  std::optional<RootResult> root;  // set when the tables cover the position
  std::string not_covered;         // otherwise, why, in words for people
};

// The same probe for analyze and verify, so that a position gets the same
// answer however it is asked about. The position's DTZ is made exact when a
// short search can (precise_dtz), the moves' only where it decides them.
TablebaseProbe ProbeTablebase(const SyzygyTablebase& tables, const Position& pos);

// The Syzygy tables when they cover the position, else the retrograde
// tables for at most 4 men; nullopt when neither is at hand (both null), so
// that "not covered" always means that some table was asked.
std::optional<TablebaseProbe> ProbeTables(const Position& pos, const SyzygyTablebase* syzygy,
                                          RetrogradeSolver* retrograde);

// The category of a covered probe (root set) from `side`'s view.
TbCategory CategoryFor(const TablebaseProbe& probe, Color side);

// The first move, best first, that keeps a win inside the fifty-move rule
// (the position after it is a loss for the opponent at the clock the move
// leaves), or null when the side to move has no such win.
const TablebaseMove* MoveWinningWithin50(const RootResult& root);

}  // namespace arbiter
