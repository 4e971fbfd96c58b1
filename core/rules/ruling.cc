#include "core/rules/ruling.h"

#include <algorithm>
#include <cctype>

namespace arbiter {
namespace {

constexpr char kWhiteWins[] = "1-0";
constexpr char kBlackWins[] = "0-1";
constexpr char kDraw[] = "1/2-1/2";
constexpr char kUnfinished[] = "*";

const char* WinFor(Color c) { return c == kWhite ? kWhiteWins : kBlackWins; }

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// How the record says the game stopped, when no automatic ending did.
enum class Stop { kFlagFall, kResignation, kUnfinished };

Stop ClassifyTermination(const DeclaredOutcome& d) {
  std::string t = Lower(d.termination);
  if (t == "time forfeit" || t == "time") return Stop::kFlagFall;
  if (t == "unterminated") return Stop::kUnfinished;
  // "Normal", "Abandoned", "Rules infraction" or no tag: a decisive result
  // without mate on the board is a resignation (or a forfeit treated alike).
  return Stop::kResignation;
}

Ruling Ended(GameStatus status, const Position& pos, int ply) {
  Ruling r;
  r.rule = status == GameStatus::kDeadPosition ? "dead_position" : ToString(status);
  r.article = ArticleOf(status);
  r.ended_at_ply = ply;
  r.ruling = status == GameStatus::kCheckmate ? WinFor(~pos.side_to_move()) : kDraw;
  return r;
}

}  // namespace

Ruling RuleGame(const Position& start, const std::vector<Move>& moves,
                const DeclaredOutcome& declared, const MateSearchOptions& options) {
  Game game(start);
  Ruling r;
  bool ended = false;
  for (size_t ply = 0;; ++ply) {
    GameStatus status = AutomaticEnding(game, kClosedPositionBudget, options.retrograde);
    if (status != GameStatus::kOngoing) {
      r = Ended(status, game.position(), int(ply));
      r.moves_after_end = int(moves.size() - ply);
      ended = true;
      break;
    }
    if (ply == moves.size()) break;
    game.Play(moves[ply]);
  }

  if (!ended) {
    const Position& pos = game.position();
    const std::string& result = declared.result;
    Stop stop = ClassifyTermination(declared);
    bool decisive = result == kWhiteWins || result == kBlackWins;
    if (result == kDraw && stop == Stop::kFlagFall) {
      // A draw on time: the flag of the player to move fell; the draw is
      // right only if the opponent could not have mated (6.9).
      stop = Stop::kFlagFall;
      r.winner_side = ~pos.side_to_move();
    } else if (decisive && stop != Stop::kUnfinished) {
      r.winner_side = result == kWhiteWins ? kWhite : kBlack;
    }
    if (r.winner_side) {
      const bool flag = stop == Stop::kFlagFall;
      r.winner_can_mate = AnalyzeMateAbility(pos, *r.winner_side, options);
      r.article = flag ? "6.9" : "5.1.2";
      if (r.winner_can_mate.answer == CanMate::kNo) {
        r.ruling = kDraw;
        r.rule = flag ? "flag_fall_cannot_mate" : "resignation_cannot_mate";
      } else {
        r.ruling = WinFor(*r.winner_side);
        r.rule = flag ? "flag_fall" : "resignation";
        r.certain = r.winner_can_mate.answer == CanMate::kYes;
      }
      r.ended_at_ply = int(moves.size());
    } else if (result == kDraw) {
      r.ruling = kDraw;
      r.rule = std::string("draw_agreed_or_claimed");
      r.article = "5.2.3";
      r.ended_at_ply = int(moves.size());
      Assessment a = Assess(game, options);
      if (a.claims.threefold_now) r.claim_grounds.push_back("threefold_now");
      if (!a.claims.threefold_moves.empty()) r.claim_grounds.push_back("threefold_by_move");
      if (a.claims.fifty_now) r.claim_grounds.push_back("fifty_now");
      if (!a.claims.fifty_moves.empty()) r.claim_grounds.push_back("fifty_by_move");
    } else {
      r.ruling = std::string(kUnfinished);
      r.rule = std::string("unfinished");
    }
  }
  r.agrees = r.ruling == declared.result;
  return r;
}

}  // namespace arbiter
