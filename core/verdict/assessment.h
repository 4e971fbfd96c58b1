// How a position stands under the FIDE Laws of Chess (2023): automatic
// endings (5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2) and the draw claims open to the
// player to move (9.2, 9.3).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/mate/mate_ability.h"
#include "core/rules/game.h"

namespace arbiter {

enum class GameStatus {
  kOngoing,
  kCheckmate,         // 5.1.1
  kStalemate,         // 5.2.1
  kDeadPosition,      // 5.2.2
  kFivefold,          // 9.6.1
  kSeventyFiveMoves,  // 9.6.2
};
const char* ToString(GameStatus s);   // "checkmate", "seventy_five_moves", ...
const char* ArticleOf(GameStatus s);  // "5.1.1", ...; "" for ongoing

struct DrawClaims {
  bool threefold_now = false;         // 9.2.2: the position appeared a 3rd time
  std::vector<Move> threefold_moves;  // 9.2.1: moves that would make it so
  bool fifty_now = false;             // 9.3.2: 50 moves each already
  std::vector<Move> fifty_moves;      // 9.3.1: moves that would complete them
};

struct Assessment {
  GameStatus status = GameStatus::kOngoing;
  MateAbility white;
  MateAbility black;
  // true when neither side can mate, false when one can, unset when unknown.
  std::optional<bool> dead;
  DrawClaims claims;  // empty once the game is over
  // Set when only this side's mate ability was asked for; the other side's
  // MateAbility is then left unknown and is not reported.
  std::optional<Color> only_side;
  bool Asked(Color c) const { return !only_side || *only_side == c; }
};

// The proof that a position is dead: how each side's "cannot mate" was
// proven.
struct DeadPositionProof {
  MateProof white = MateProof::kNone;
  MateProof black = MateProof::kNone;
};
// Its name, as the JSON records write it: the proof both sides share, or
// White's and Black's joined by "+" ("fortress+material").
std::string ProofName(const DeadPositionProof& proof);
// Set when `a.dead`.
std::optional<DeadPositionProof> DeadProofOf(const Assessment& a);

// Checkmate and stalemate take precedence over the automatic draws of 9.6
// (a mate on the 75th move stands); a dead position ends the game before a
// repetition or move count could.
// Both sides' mate ability is searched with `options`, or only `only_side`'s
// (as a flag-fall question asks: can the side with time left still mate?).
Assessment Assess(Game& game, const MateSearchOptions& options = {},
                  std::optional<Color> only_side = std::nullopt);

// Cheaper form for replaying games, run after every move: only whether the
// game has ended. Dead positions are found by material, by following a
// forced line (only-moves), and — when every pawn is locked — by a small
// exhaustive exploration per side (`closed_budget` positions), then, with
// a `retrograde` solver (MateSearchOptions::retrograde), by retrograde
// analysis for a locked position of at most 4 men the exploration could not
// close.
inline constexpr uint64_t kClosedPositionBudget = 4000;
// `dead_proof`, when given, is set for a dead position.
GameStatus AutomaticEnding(Game& game, uint64_t closed_budget = kClosedPositionBudget,
                           RetrogradeSolver* retrograde = nullptr,
                           DeadPositionProof* dead_proof = nullptr);

}  // namespace arbiter
