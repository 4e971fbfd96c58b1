// Position analysis for `analyze --rules chess99`: can each side still win,
// and what the side to move may do about the game's end right now.
//
// "Can win" means: some sequence of legal moves (the opponent cooperating,
// nobody claiming) reaches a capture of the enemy king after which the
// capturer's king is not in check, by a side that is not a lone king
// (§5.1, D4, D7). The answer is
//   kNo      with a proof: the side has a lone king (D7; units never come
//            back, so it stays lone), or only the two kings are left (D8);
//   kYes     with a replayable line in coordinate notation that ends with
//            the winning king capture, found by an iterative-deepening
//            cooperative search;
//   kUnknown when the search ran out of its node budget or depth: no guess.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/chess99/position.h"
#include "core/domain/can_mate.h"
#include "core/domain/rule.h"

namespace arbiter::chess99 {

// The answer is the one type chess uses for "can mate" (core/domain).
using WinAbility = CanMate;

struct SideWinAbility {
  WinAbility answer = WinAbility::kUnknown;
  MateProof proof = MateProof::kNone;  // kNo: kLoneKing or kBareKings
  std::string section;                 // kNo: "D7 §5.4" or "D8 §5.4"
  // kYes: the moves from the analysed position, both sides, coordinate
  // notation; the last one captures the king and wins.
  std::vector<std::string> line;
  int64_t nodes = 0;        // positions the search visited
  int depth_completed = 0;  // plies searched exhaustively without a win
};

struct SearchLimits {
  int64_t node_budget = 200000;  // per side
  int max_plies = 11;
};

// The side to move's options concerning the end of the game right now.
struct KingCaptureNow {
  std::string move;                // coordinate notation
  std::string site;                // site notation
  bool wins = false;               // false: the capture only draws
  Rule rule = Rule::kKingCapture;  // kKingCapture, kDrawnKingCapture (D4) or kLoneKing (D7)
  std::string section;             // §5.1, D4 §5.1, D7 §5.4
};

// How the position stands: ongoing; bare kings (D8: drawn); no move (§7.9:
// the side to move cannot move and loses, or draws against a lone king).
enum class PositionStatus : uint8_t { kOngoing, kBareKings, kNoMove };
const char* ToString(PositionStatus s);  // "ongoing", "bare_kings", "no_move"

struct PositionAnalysis {
  PositionStatus status = PositionStatus::kOngoing;
  std::string section;
  Color side_to_move = kWhite;
  std::array<SideWinAbility, 2> can_win;  // indexed by Color
  std::vector<KingCaptureNow> king_captures;
  bool d5_claim_available = false;  // a king capture exists now
  // D6 for the side to move: the opponent's completed moves (from the
  // fullmove number), whether that reaches 99, and the moves after which
  // the claimant's king is not in check, i.e. with which a claim is valid.
  int opponent_moves_completed = 0;
  bool d6_window_open = false;
  std::vector<std::string> d6_claim_moves;
  bool d6_claim_available = false;
};

SideWinAbility CanWin(const Position& pos, Color side, const SearchLimits& limits = {});
PositionAnalysis AnalyzePosition(const Position& pos, const SearchLimits& limits = {});

}  // namespace arbiter::chess99
