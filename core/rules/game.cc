#include "core/rules/game.h"

namespace arbiter {

Game::Game(Position start) : pos_(std::move(start)) {
  history_.push_back({pos_.key(), pos_.identity()});
}

void Game::Play(Move m) {
  pos_.DoMove(m);
  history_.push_back({pos_.key(), pos_.identity()});
}

int Game::CountOccurrences(const Position& pos) const {
  // Only positions with the same side to move, within the reversible window,
  // can be equal. `history_` holds the current position last when called
  // from Occurrences(), so the window's end is inclusive.
  const uint64_t key = pos.key();
  const Position::Identity id = pos.identity();
  int window = std::min<int>(pos.halfmove_clock(), int(history_.size()) - 1);
  int count = 0;
  int last = int(history_.size()) - 1;
  for (int i = last; i >= last - window; --i)
    if (history_[i].key == key && history_[i].identity == id) ++count;
  return count;
}

int Game::OccurrencesAfter(Move m) {
  pos_.DoMove(m);
  history_.push_back({pos_.key(), pos_.identity()});
  int count = CountOccurrences(pos_);
  history_.pop_back();
  pos_.UndoMove(m);
  return count;
}

}  // namespace arbiter
