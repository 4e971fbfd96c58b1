#include "core/rules/assessment.h"

#include "core/chess/movegen.h"

namespace arbiter {

const char* ToString(GameStatus s) {
  switch (s) {
    case GameStatus::kOngoing:
      return "ongoing";
    case GameStatus::kCheckmate:
      return "checkmate";
    case GameStatus::kStalemate:
      return "stalemate";
    case GameStatus::kDeadPosition:
      return "dead";
    case GameStatus::kFivefold:
      return "fivefold";
    case GameStatus::kSeventyFiveMoves:
      return "seventy_five_moves";
  }
  return "ongoing";
}

const char* ArticleOf(GameStatus s) {
  switch (s) {
    case GameStatus::kOngoing:
      return "";
    case GameStatus::kCheckmate:
      return "5.1.1";
    case GameStatus::kStalemate:
      return "5.2.1";
    case GameStatus::kDeadPosition:
      return "5.2.2";
    case GameStatus::kFivefold:
      return "9.6.1";
    case GameStatus::kSeventyFiveMoves:
      return "9.6.2";
  }
  return "";
}

namespace {

GameStatus Ending(Game& game, const MateAbility& white, const MateAbility& black) {
  const Position& pos = game.position();
  if (MoveList(pos).empty())
    return pos.in_check() ? GameStatus::kCheckmate : GameStatus::kStalemate;
  if (white.answer == CanMate::kNo && black.answer == CanMate::kNo)
    return GameStatus::kDeadPosition;
  if (game.Occurrences() >= 5) return GameStatus::kFivefold;
  if (pos.halfmove_clock() >= 150) return GameStatus::kSeventyFiveMoves;
  return GameStatus::kOngoing;
}

}  // namespace

GameStatus AutomaticEnding(Game& game) {
  const Position& pos = game.position();
  return Ending(game, AnalyzeMateAbility(pos, kWhite), AnalyzeMateAbility(pos, kBlack));
}

Assessment Assess(Game& game) {
  const Position& pos = game.position();
  Assessment a;
  a.white = AnalyzeMateAbility(pos, kWhite);
  a.black = AnalyzeMateAbility(pos, kBlack);
  a.status = Ending(game, a.white, a.black);
  if (a.status == GameStatus::kCheckmate) {
    // The side that delivered mate evidently could: an empty line.
    MateAbility& winner = pos.side_to_move() == kWhite ? a.black : a.white;
    winner = MateAbility{CanMate::kYes, "", {}};
  }
  if (a.white.answer == CanMate::kNo && a.black.answer == CanMate::kNo)
    a.dead = true;
  else if (a.white.answer == CanMate::kYes || a.black.answer == CanMate::kYes)
    a.dead = false;
  if (a.status != GameStatus::kOngoing) return a;

  a.claims.threefold_now = game.Occurrences() >= 3;
  a.claims.fifty_now = pos.halfmove_clock() >= 100;
  for (Move m : MoveList(pos)) {
    if (game.OccurrencesAfter(m) >= 3) a.claims.threefold_moves.push_back(m);
    bool zeroing = TypeOf(pos.piece_on(m.from())) == kPawn ||
                   (m.kind() != Move::kCastling && !pos.empty(m.to()));
    if (!zeroing && pos.halfmove_clock() + 1 >= 100) a.claims.fifty_moves.push_back(m);
  }
  return a;
}

}  // namespace arbiter
