// arbiter.v1 requests answered by the engine in this process: a worker
// serves them to its coordinator, `arbiter serve` to HTTP clients. One
// place turns a request's options into core's, so that both refuse the
// same requests with the same words.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter.pb.h"
#include "core/mate/mate_ability.h"
#include "core/tablebase/retrograde.h"
#include "core/tablebase/syzygy.h"

namespace arbiter::common {

class LocalEngine {
 public:
  // `tables` may be null (no Syzygy tables), `retrograde` too. Requests for
  // a search table above `max_table_mb` are refused: it bounds memory.
  // `role` names this process in refusals ("worker", "server").
  LocalEngine(std::shared_ptr<const SyzygyTablebase> tables, RetrogradeSolver* retrograde,
              int max_table_mb, std::string role);

  // Core's options for `request`: INVALID_ARGUMENT for a bad option,
  // RESOURCE_EXHAUSTED for a table over the limit, FAILED_PRECONDITION for
  // tablebase probes without tables.
  absl::StatusOr<MateSearchOptions> Prepare(const v1::SearchOptions& request) const;

  // One position under `options` (from Prepare): INVALID_ARGUMENT for a bad
  // FEN or move.
  absl::StatusOr<v1::Assessment> Analyze(const v1::AnalyzeRequest& request,
                                         const MateSearchOptions& options) const;

  const SyzygyTablebase* tables() const { return tables_.get(); }

 private:
  const std::shared_ptr<const SyzygyTablebase> tables_;
  RetrogradeSolver* const retrograde_;
  const int max_table_mb_;
  const std::string role_;
};

}  // namespace arbiter::common
