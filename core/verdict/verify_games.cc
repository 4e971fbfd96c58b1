#include "core/verdict/verify_games.h"

#include <atomic>

#include "core/util/ordered_parallel.h"

namespace arbiter {

bool VerifyGames(const VerifyGamesOptions& options, const std::function<bool(RawGame*)>& next,
                 const std::function<bool(GameVerdict&)>& deliver) {
  // Replay storage reused game after game on each thread.
  thread_local ReplayedGame scratch;
  if (options.threads <= 1) {
    RawGame game;
    GameVerdict verdict;
    while (next(&game)) {
      VerifyGame(game, options.search, &scratch, &verdict, options.tables);
      if (!deliver(verdict)) return false;
    }
    return true;
  }
  std::atomic<bool> stopped{false};
  OrderedParallelMap<RawGame, GameVerdict>::Run(
      {.threads = options.threads, .batch_size = 64, .max_batches = size_t(4 * options.threads)},
      [&](RawGame* game) { return !stopped.load() && next(game); },
      [&](RawGame& game, GameVerdict* verdict) {
        if (!stopped.load()) VerifyGame(game, options.search, &scratch, verdict, options.tables);
      },
      [&](GameVerdict& verdict) {
        if (!stopped.load() && !deliver(verdict)) stopped = true;
      });
  return !stopped.load();
}

}  // namespace arbiter
