// The arbiter.v1.Worker service: rules on batches of games and analyses
// positions with the embedded engine (core/). Stateless: every request
// carries all it needs, so the coordinator can send any batch anywhere and
// re-send a failed one elsewhere.
//
// At most `threads` requests compute at once (a counting gate); the rest wait
// in the gRPC thread that received them. Memory apart from mapped Syzygy
// files is thereby bounded by threads x (search table + one batch) plus the
// retrograde tables (at most ~550 MB for all 3-4-man tables).
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

#include "arbiter/v1/worker.grpc.pb.h"
#include "common/local_engine.h"
#include "common/table_warmup.h"
#include "core/mate/mate_ability.h"
#include "core/tablebase/syzygy.h"
#include "core/verdict/game_verdict.h"
#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace arbiter::worker {

class WorkerService final : public v1::Worker::Service {
 public:
  // `tables` may be null (no Syzygy tables: tablebase requests fail with
  // FAILED_PRECONDITION). `retrograde`, the worker's retrograde tables,
  // serves every request (null: none).
  // Requests asking for a search table above `max_table_mb` are refused
  // (RESOURCE_EXHAUSTED): it is what bounds the worker's memory.
  // `warmup`, when not null, is the build of `retrograde`'s tables: until
  // it is ready, rulings are refused with its UNAVAILABLE and Info says
  // what is being built.
  WorkerService(int threads, int max_table_mb, std::shared_ptr<const SyzygyTablebase> tables,
                RetrogradeSolver* retrograde, prometheus::Registry& metrics,
                const common::TableWarmup* warmup = nullptr);

  grpc::Status Info(grpc::ServerContext*, const v1::InfoRequest*, v1::WorkerInfo* out) override;
  grpc::Status Analyze(grpc::ServerContext* ctx, const v1::AnalyzeRequest* request,
                       v1::Assessment* out) override;
  grpc::Status VerifyBatch(grpc::ServerContext* ctx, const v1::VerifyBatchRequest* request,
                           grpc::ServerWriter<v1::VerdictChunk>* writer) override;

  // One position here, without gRPC, on one compute slot: `arbiter
  // serve`'s GET /v1/analyze (as VerifyHere, which says why).
  absl::StatusOr<v1::Assessment> AnalyzeHere(const v1::AnalyzeRequest& request);
  // Rules the games `next` yields under `request` here, without gRPC, on
  // the compute slots free when it starts (at least one, waited for), and
  // hands each verdict to `deliver` in input order. `arbiter serve`'s
  // streaming verify runs on it: through in-process channels every game
  // and verdict would be serialized and parsed twice, which doubled the CPU
  // of a run (docs/http.md). Options are refused as VerifyBatch refuses
  // them; CANCELLED when `deliver` stopped the run.
  absl::Status VerifyHere(const v1::SearchOptions& request,
                          const std::function<bool(RawGame*)>& next,
                          const std::function<bool(GameVerdict&)>& deliver);

  // Work done so far (logged at exit; tests check that a worker got work).
  uint64_t batches_served() const { return batches_served_.load(); }
  uint64_t verdicts_served() const { return verdicts_served_.load(); }

 private:
  class Slot;  // holds one of the `threads` compute slots
  // Waits for a free slot, then takes up to `most` of those free; returns
  // how many it took.
  int AcquireSlots(int most);
  void ReleaseSlots(int n);
  // The options and tables of a request, or why it is refused.
  grpc::Status Prepare(const v1::SearchOptions& request, MateSearchOptions* options) const;

  // OK, or why rulings are refused now (the tables are being built).
  absl::Status ReadyToRule() const { return warmup_ ? warmup_->Ready() : absl::OkStatus(); }

  const int threads_;
  const common::LocalEngine engine_;
  const common::TableWarmup* const warmup_;
  std::mutex mu_;
  std::condition_variable slot_free_;
  int busy_ = 0;
  std::atomic<uint64_t> batches_served_{0}, verdicts_served_{0};

  prometheus::Counter& verdicts_;
  prometheus::Counter& analyses_;
  prometheus::Counter& failures_;
  prometheus::Gauge& in_flight_;
  prometheus::Gauge& waiting_;
  prometheus::Histogram& game_seconds_;
  prometheus::Histogram& analysis_seconds_;
};

}  // namespace arbiter::worker
