// The disputed rulings of a `verify` run — what `--report` and
// `--annotate-pgn` list — and the words both use to state a ruling and its
// evidence.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/verdict/game_verdict.h"

namespace arbiter {

// Why a verdict is disputed; none set: it is not.
struct DisputeKinds {
  bool disagrees = false;                // declared result != ruling
  bool uncertain = false;                // the ruling rests on an unknown mate ability
  bool tablebase_contradiction = false;  // the tables contradict the declared result
  bool error = false;                    // the record could not be read or replayed
  bool any() const { return disagrees || uncertain || tablebase_contradiction || error; }
};
DisputeKinds DisputesOf(const GameVerdict& v);

// A link to the game on the site that played it, from a record's Site (or,
// as Chess.com exports write it, Link) tag: "https://lichess.org/ID#PLY"
// for a Lichess game (the anchor shows the ruled ply), a Chess.com game URL
// as it is. Only URLs of those shapes, so nothing else from the record
// becomes a link.
std::optional<std::string> GameLink(std::string_view url, std::optional<int> ply);
// The link for a record: its Site tag, else its Link tag.
std::optional<std::string> GameLinkOf(const RawGame& record, std::optional<int> ply);

// "1/2-1/2 by dead_position (FIDE 5.2.2)"; for an error, "no ruling".
std::string RulingText(const GameVerdict& v);

// The evidence behind the ruling, one phrase each, plain text: the winner's
// mating line in numbered SAN or its proof of "cannot mate", whose flag
// fell, moves played after the end, the declared grounds that do not hold,
// the tables' view, the error. Chess 99 rulings give their judge's reason.
std::vector<std::string> EvidenceOf(const GameVerdict& v);

// A "cannot mate" of the ruling in words, as the text records and the
// report state it: "Black cannot mate: too little material for any series
// of legal moves to mate (proof: material)", "neither side can mate: ...
// (proof: fortress+material)"; "" when the ruling has none.
std::string CannotMateWords(const Ruling& r);

}  // namespace arbiter
