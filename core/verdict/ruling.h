// Rules on a whole game record: replays the moves, stops at the first
// automatic ending (5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2), otherwise interprets
// the declared result and termination (5.1.2 resignation, 6.9 flag fall,
// 5.2.3 agreement) and says whether the declared result is correct.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/domain/game_result.h"
#include "core/domain/rule.h"
#include "core/domain/ruleset.h"
#include "core/rules/declared_ending.h"
#include "core/verdict/assessment.h"
#include "core/verdict/claim_verdict.h"
#include "core/verdict/recorded_claim.h"

namespace arbiter {

// The result `c` wins by: "1-0" for White.
GameResult WinFor(Color c);

// What the record declares.
struct DeclaredOutcome {
  std::string result;       // the Result tag: "1-0", "0-1", "1/2-1/2", "*", ...
  std::string termination;  // the Termination tag, empty when absent
  // The movetext's last comment when no move follows it (where FICS, ICC
  // and engine matches say how the game ended), empty when none.
  std::string closing_comment = {};
  PlayerNames players = {};  // the White and Black tags
  // Clock after each move in centiseconds ([%clk]), -1 where none;
  // parallel to the moves, or empty.
  std::span<const int> clock_centis = {};
  // The TimeControl tag ("300+2", "40/5400:1800", "-", ...), empty when none.
  std::string time_control = {};
  // The claims the movetext makes, in order.
  std::span<const RecordedClaim> claims = {};
};

// What says whose flag fell in a flag-fall ruling.
enum class FlagEvidence {
  kNone,
  kTermination,  // the words: "White forfeits on time", "alice won on time"
  kClock,        // the player to move, whose last [%clk] reads 0:00:00
  kResult,       // the declared result: the loser's flag
  kSideToMove,   // a draw on time with nothing else to go by: the player to move
};
const char* ToString(FlagEvidence evidence);
// The same in words, for text: "the clock", "being the player to move".
const char* FlagEvidenceWords(FlagEvidence evidence);

struct Ruling {
  GameResult ruling = GameResult::kUnfinished;  // the correct result
  Rule rule = Rule::kUnfinished;                // the rule that decides it
  std::string article;  // the article that decided: "5.1.1", "D4 §5.1", ...
  // Ply after which the game ended (0 = the start position); unset for an
  // unfinished game.
  std::optional<int> ended_at_ply;
  int moves_after_end = 0;  // plies played after the game had already ended
  // Ended by the board itself (checkmate, stalemate, dead position,
  // fivefold, 75 moves) rather than by what the record declares.
  bool ended_on_board = false;
  bool agrees = true;  // declared result == ruling
  // False when the ruling rests on an "unknown" mate ability: the Laws'
  // default (the win stands unless mate is impossible) was applied.
  bool certain = true;
  // Evidence for flag-fall and resignation rulings: the mate ability of the
  // side that would win, judged in the final position.
  std::optional<Color> winner_side;
  MateAbility winner_can_mate;
  // Dead-position rulings: how each side's "cannot mate" was proven.
  std::optional<DeadPositionProof> dead_position_proof;
  // For draws by agreement or claim: the grounds open at the end, e.g.
  // "threefold_now", "fifty_now", "threefold_by_move", "fifty_by_move".
  std::vector<std::string> claim_grounds;
  // How the record says the game ended (declared_ending.h).
  DeclaredEnding declared_ending;
  // Flag-fall rulings: whose flag fell, and what says so.
  std::optional<Color> flag_fallen_by;
  FlagEvidence flag_evidence = FlagEvidence::kNone;
  // Set when the clocks show the player to move (alone) at zero and the
  // result is decisive: true when that player is the declared winner.
  std::optional<bool> clock_contradicts_result;
  // Whether the board bears out the grounds the record names
  // (declared_ending.grounds); unset when none are named or they cannot be
  // checked (both flags fell, a claim left to the arbiter's judgment).
  std::optional<bool> declared_grounds_hold;
  // The claims the record makes, judged where each was made, in order: the
  // [%claim] comments, then the claim a [Termination] names (at the end).
  std::vector<ClaimRuling> claims;
};

// `moves` must be legal from `start` (as a replayed PGN guarantees); moves
// recorded after an ending that cannot be played (a move after checkmate)
// are the caller's to count (moves_after_end).
// `options` bound the search for the winner's mating possibility; its
// tables (syzygy, retrograde) are the evidence for claims and for US Chess
// 14E, and its `rules` (a chess rule set) decide which claims exist and how
// a flag fall is ruled (docs/rulings.md, "Rule sets").
Ruling RuleGame(const Position& start, const std::vector<Move>& moves,
                const DeclaredOutcome& declared, const MateSearchOptions& options = {});

}  // namespace arbiter
