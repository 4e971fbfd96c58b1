// A server's retrograde tables (3-4 men), all of them, built before it
// rules: a worker and `arbiter serve` start answering at once, and until
// every table is held they refuse rulings with UNAVAILABLE saying what is
// being built, instead of letting the first requests wait minutes in
// silence for tables generated on demand (30-40 s for the set on an idle
// machine, several minutes on a loaded one). HTTP turns that into 503 with
// Retry-After (docs/http.md); a coordinator sees the worker as not up yet,
// with the same words (docs/cluster_faults.md).
//
// A server builds the whole set rather than the tables its first requests
// need: it will need most of them (any game can reach any 3-4-man ending),
// and a server that is ready is ready for every request. Tables already in
// the table directory are loaded before (RetrogradeSolver::LoadStoredTables)
// and cost nothing here; the ones built are saved there for the next start
// and for the other workers.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "core/tablebase/retrograde.h"

namespace arbiter::common {

class TableWarmup {
 public:
  // Builds, on a thread of its own, each table of AllRetrogradeSignatures()
  // that `solver` does not hold now, on every core (the solver's
  // generation threads: tables that do not depend on each other at once);
  // with none missing (or no solver) it is ready at once. `solver` outlives this. `role` names the
  // process in the log lines ("arbiter-worker", "arbiter serve").
  TableWarmup(RetrogradeSolver* solver, std::string role);
  // Waits for the tables being built (seconds at most), then stops.
  ~TableWarmup();
  TableWarmup(const TableWarmup&) = delete;
  TableWarmup& operator=(const TableWarmup&) = delete;

  // OK once every table is held (or was tried: a table that cannot be
  // built is left to the request that needs it, which reports why);
  // UNAVAILABLE while building, e.g. "building the retrograde tables (3-4
  // men) before ruling: 12 of 30 built, KRvKN, KQvKB now, about 20 s left"
  // (the estimate from the positions left and the rate so far).
  absl::Status Ready() const;
  bool ready() const { return ready_.load(); }
  // Once ready, what the tables held are (RetrogradeSolver::digest(): a
  // coordinator refuses to mix workers whose tables differ); "" before,
  // and without a solver.
  std::string digest() const;

 private:
  void Build();

  RetrogradeSolver* const solver_;
  const std::string role_;
  std::vector<std::string> missing_;
  size_t total_ = 0;  // missing_.size()
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::atomic<bool> ready_{false}, stopping_{false};
  mutable std::mutex mu_;
  size_t built_ = 0;    // of missing_ (mu_)
  std::string digest_;  // set once ready (mu_)
  std::thread builder_;
};

}  // namespace arbiter::common
