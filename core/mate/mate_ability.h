// "Can this side checkmate by some series of legal moves, the opponent
// cooperating?" — the one question behind FIDE 5.2.2 (dead position),
// 6.9 (flag fall) and 5.1.2 (resignation). Every answer carries its evidence:
// `yes` a replayable mating line, `no` the kind of proof, `unknown` nothing.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "core/chess/position.h"
#include "core/domain/can_mate.h"
#include "core/domain/ruleset.h"
#include "core/mate/material.h"
#include "core/tablebase/retrograde.h"
#include "core/tablebase/syzygy.h"

namespace arbiter {

struct MateAbility {
  CanMate answer = CanMate::kUnknown;
  // For kNo: how it was proven; kNone otherwise.
  MateProof proof = MateProof::kNone;
  // For kYes: moves from the position to a checkmate by this side.
  std::vector<Move> line;
  // `line` in SAN, for people; empty until AddLineSan spells it where the
  // line is final (the searches leave it empty: most of their lines are
  // discarded, e.g. the sides' lines behind a draw's claims).
  std::vector<std::string> line_san = {};
};

struct MateSearchOptions {
  // Positions searched per side before answering "unknown" (helpmate search
  // nodes plus positions of the exhaustive exploration).
  uint64_t node_budget = 200000;
  // Memory of the helpmate search's transposition table.
  size_t table_bytes = 16 << 20;
  // Longest line of the exact helpmate search, in plies.
  int max_plies = 15;
  // The exact retrograde tables (at most 4 men), when the caller has a
  // solver: positions they cover are settled exactly, and larger ones are
  // traded down to them. The solver generates a material signature's table
  // on first use (~0.5-2 s) and keeps it; a program makes one solver and
  // passes it to every search, as it does its Syzygy tables. Null: no
  // retrograde analysis (the searches alone, as the fuzzers run).
  RetrogradeSolver* retrograde = nullptr;
  // Syzygy tables, when the user gave some: a tablebase win for the side
  // proves it can mate, with the line the tables give (after the dive).
  const SyzygyTablebase* syzygy = nullptr;
  // The rule set the request is judged under (arbiter.v1.SearchOptions
  // travels with it, rules included). The searches ignore it: what a side
  // can mate is the same under every chess rule set. RuleGame reads it for
  // claims and flag falls (docs/rulings.md, "Rule sets").
  Ruleset rules = Ruleset::kFide;
};

// Per side, cheapest method first (docs/can-mate.md numbers the steps as
// the code does): material classes; a side already mated; the 75-move
// horizon; the static fortress; the retrograde tables' line for at most 4
// men; a short guided helpmate dive; still-men lines read off the tables; an
// early reduction to 4 men; a small exhaustive exploration; the tables' "no";
// the longer dive; a Syzygy win; a late reduction; an exact helpmate search;
// promotion then the dive; then exhaustive exploration with what is left.
// Deterministic for a given budget.
MateAbility AnalyzeMateAbility(const Position& pos, Color side,
                               const MateSearchOptions& options = {});

// Retrograde analysis only, for at most 4 men without castling rights: "no"
// with proof "retrograde" when no sequence of moves lets `side` mate (exact,
// whatever the clock); "yes" with a shortest helpmate line when one exists
// and is playable under the move-count rules; else "unknown".
MateAbility RetrogradeMateAbility(const Position& pos, Color side, RetrogradeSolver& solver);

// Material only: "no" with proof "material", else "unknown". Cheap enough to
// run after every move of every game.
MateAbility MaterialMateAbility(const Position& pos, Color side);

// Whether `line` is a mating line for `side` that the Laws let be played
// from `start`: every move legal, no automatic ending (75 moves, stalemate,
// mate of `side`) before its last move, which mates. Fivefold is not
// checked: it would need the game's history, and a line could only trip it
// by repeating a position that history already holds four times.
bool LineIsPlayable(const Position& start, Color side, const std::vector<Move>& line);

// Fills m->line_san from m->line, each move spelled in the position it is
// played from, starting at `start` (the position the line starts at).
void AddLineSan(const Position& start, MateAbility* m);

// `line` from `start` with every cycle cut out: where a position (placement,
// side to move, castling rights, en passant) comes back, the moves between
// its two occurrences are dropped, so that no position of the result
// repeats. The result mates where `line` does, is legal move by move (each
// cut joins two identical positions) and is shorter, so its halfmove clock
// stays lower: a referee replaying it meets no fivefold repetition (9.6.1)
// and no earlier 75-move draw (9.6.2).
std::vector<Move> WithoutRepetitions(const Position& start, const std::vector<Move>& line);

// Where a "yes" becomes evidence shown to people: cuts the line's cycles
// (WithoutRepetitions) and spells it (AddLineSan).
void FinishLine(const Position& start, MateAbility* m);

}  // namespace arbiter
