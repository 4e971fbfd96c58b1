// The one loop that rules a stream of game records: `arbiter verify` runs
// it on --jobs threads, and a worker runs it on each batch it is sent (one
// thread: the worker's concurrency is its batches), which is also how
// `arbiter serve` and a coordinator rule games. One loop, so that every way
// of asking rules each game by the same steps.
#pragma once

#include <functional>

#include "core/verdict/game_verdict.h"

namespace arbiter {

struct VerifyGamesOptions {
  int threads = 1;  // 1: on the calling thread, one game at a time
  MateSearchOptions search;
  const SyzygyTablebase* tables = nullptr;  // compared with each result (game_verdict.h)
};

// Rules every record `next` yields (false: the end) and hands each verdict
// to `deliver`, in input order, on the calling thread. `deliver` returning
// false stops the run: no record is read after it, and verdicts of records
// already being ruled are dropped. Returns false when `deliver` stopped it.
bool VerifyGames(const VerifyGamesOptions& options, const std::function<bool(RawGame*)>& next,
                 const std::function<bool(GameVerdict&)>& deliver);

}  // namespace arbiter
