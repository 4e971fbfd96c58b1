// Judging a Chess 99 game (spec §5): replay the moves with their draw
// offers, claims and acceptances, apply the order of checks of §5.4 after
// every move, and say how the game ended, by which rule, and where.
//
// Rules (name, section):
//   king_capture                  §5.1     the mover took the king and its own king is safe
//   drawn_king_capture            D4 §5.1  ... but the capturer's king is in check afterwards
//   lone_king                     D7 §5.4  ... but the capturer has a lone king
//   bare_kings                    D8 §5.4  only the two kings are left (automatic)
//   claim_king_capture_available  D5 §5.4  claim; a king capture existed before the move
//   claim_99_moves                D6 §5.4  claim; opponent completed 99 moves, own king safe
//   agreement                     D1 §5.4  an offer (or a claim that became one) accepted
//   no_move                       §7.9     the side to move has no move at all: it loses
//                                          (draw if the other side has a lone king, D7)
//   resignation                   §5.2     draw if the resigning side faces a lone king
//   time_forfeit                  §5.3     draw if the side whose flag stands has a lone king
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/chess99/position.h"
#include "core/domain/game_result.h"
#include "core/domain/rule.h"

namespace arbiter::chess99 {

enum class DrawCall : uint8_t { kNone, kOffer, kClaim };

// One turn of the record.
struct GamePly {
  // The move in coordinate or site notation (ParseMove). May be empty only
  // when `accepts_offer` is set.
  std::string move;
  // §5.4 [I]: before moving, the mover accepts the opponent's pending offer.
  // The game ends there by agreement; a `move` given too is then a ply
  // played after the end.
  bool accepts_offer = false;
  // An offer or claim made together with `move` (§5.4 procedure 1).
  DrawCall call = DrawCall::kNone;
};

// Resignation or flag fall, after the last ply of the record.
struct GameEnding {
  enum class Kind : uint8_t { kResignation, kFlagFall };
  Kind kind = Kind::kResignation;
  Color side = kWhite;  // the side that resigns / whose flag falls
};

// How one claim was judged.
struct ClaimRecord {
  int ply = 0;  // 1-based ply the claim came with
  Color side = kWhite;
  bool king_capture_available = false;  // D5, on the position before the move
  int opponent_moves_completed = 0;     // D6, from the fullmove number before the move
  bool in_check_after_move = false;     // D6: the claimant's king after the move
  bool valid = false;
  bool became_offer = false;  // an invalid claim becomes an offer (§5.4 procedure 4)
  bool accepted = false;      // ... which the opponent accepted
  // The move itself ended the game first (king capture or bare kings, §5.4
  // order of checks 1–2), so the claim was not needed.
  bool superseded = false;
};

struct GameJudgement {
  GameResult result = GameResult::kUnfinished;
  Rule rule = Rule::kUnfinished;  // see the list above
  std::string section;            // "§5.1", "D4 §5.1", ...
  std::optional<Color> winner;
  std::string detail;                  // one sentence on why, for people
  int plies_played = 0;                // moves made and judged
  int ended_at_ply = -1;               // plies made when the game ended; -1 while it goes on
  int plies_after_end = 0;             // record entries after the end (never replayed)
  bool ending_after_end = false;       // a resignation / flag fall after the game had ended
  std::optional<Color> pending_offer;  // an offer still open when the record stops
  std::vector<ClaimRecord> claims;
  std::string end_fen;  // position after the last move made (a captured king is missing)
  std::string error;    // "" or what is wrong (unreadable/illegal move, stray acceptance,
                        // plies after the end)
  int error_ply = 0;    // 1-based ply of the error, 0 for none
};

GameJudgement JudgeGame(const Position& start, const std::vector<GamePly>& plies,
                        std::optional<GameEnding> ending = std::nullopt);

}  // namespace arbiter::chess99
