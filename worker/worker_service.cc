#include "worker/worker_service.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/build_info.h"
#include "common/serving.h"
#include "core/verdict/verify_games.h"
#include "proto/convert.h"

namespace arbiter::worker {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kVerdictsPerChunk = 256;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

grpc::Status ToGrpc(const absl::Status& s) {
  return grpc::Status(grpc::StatusCode(int(s.code())), std::string(s.message()));
}

}  // namespace

// One of the `threads` compute slots. A batch gives its slot up while it
// writes a chunk of verdicts (the write waits for the network and for flow
// control), so that another batch computes meanwhile.
class WorkerService::Slot {
 public:
  explicit Slot(WorkerService& s) : s_(s) { Acquire(); }
  ~Slot() {
    if (held_) Release();
  }

  void Acquire() {
    s_.AcquireSlots(1);
    held_ = true;
  }

  void Release() {
    s_.ReleaseSlots(1);
    held_ = false;
  }

 private:
  WorkerService& s_;
  bool held_ = false;
};

int WorkerService::AcquireSlots(int most) {
  std::unique_lock<std::mutex> lock(mu_);
  waiting_.Increment();
  slot_free_.wait(lock, [&] { return busy_ < threads_; });
  waiting_.Decrement();
  const int n = std::min(most, threads_ - busy_);
  busy_ += n;
  in_flight_.Increment(n);
  return n;
}

void WorkerService::ReleaseSlots(int n) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    busy_ -= n;
    in_flight_.Decrement(n);
  }
  slot_free_.notify_all();
}

WorkerService::WorkerService(int threads, int max_table_mb,
                             std::shared_ptr<const SyzygyTablebase> tables,
                             RetrogradeSolver* retrograde, prometheus::Registry& metrics,
                             const common::TableWarmup* warmup)
    : threads_(threads),
      engine_(std::move(tables), retrograde, max_table_mb, "worker"),
      warmup_(warmup),
      verdicts_(prometheus::BuildCounter()
                    .Name("arbiter_worker_verdicts_total")
                    .Help("Game verdicts produced")
                    .Register(metrics)
                    .Add({})),
      analyses_(prometheus::BuildCounter()
                    .Name("arbiter_worker_analyses_total")
                    .Help("Positions analysed")
                    .Register(metrics)
                    .Add({})),
      failures_(prometheus::BuildCounter()
                    .Name("arbiter_worker_failed_requests_total")
                    .Help("Requests refused or cancelled")
                    .Register(metrics)
                    .Add({})),
      in_flight_(prometheus::BuildGauge()
                     .Name("arbiter_worker_in_flight")
                     .Help("Requests computing now")
                     .Register(metrics)
                     .Add({})),
      waiting_(prometheus::BuildGauge()
                   .Name("arbiter_worker_queue_depth")
                   .Help("Requests waiting for a compute slot")
                   .Register(metrics)
                   .Add({})),
      game_seconds_(prometheus::BuildHistogram()
                        .Name("arbiter_worker_game_seconds")
                        .Help("Time to rule on one game")
                        .Register(metrics)
                        .Add({}, common::LatencyBuckets())),
      analysis_seconds_(prometheus::BuildHistogram()
                            .Name("arbiter_worker_analysis_seconds")
                            .Help("Time to analyse one position")
                            .Register(metrics)
                            .Add({}, common::LatencyBuckets())) {}

grpc::Status WorkerService::Prepare(const v1::SearchOptions& request,
                                    MateSearchOptions* options) const {
  absl::StatusOr<MateSearchOptions> o = engine_.Prepare(request);
  if (!o.ok()) return ToGrpc(o.status());
  *options = *o;
  return grpc::Status::OK;
}

grpc::Status WorkerService::Info(grpc::ServerContext*, const v1::InfoRequest*,
                                 v1::WorkerInfo* out) {
  out->set_threads(threads_);
  out->set_syzygy_files(engine_.tables() ? engine_.tables()->wdl_files() : 0);
  if (engine_.tables()) out->set_syzygy_digest(engine_.tables()->digest());
  out->set_syzygy_pieces(engine_.tables() ? engine_.tables()->largest() : 0);
  out->set_version(common::BuildVersion());
  if (absl::Status ready = ReadyToRule(); !ready.ok())
    out->set_tables_building(std::string(ready.message()));
  if (warmup_) out->set_retrograde_digest(warmup_->digest());
  return grpc::Status::OK;
}

grpc::Status WorkerService::Analyze(grpc::ServerContext*, const v1::AnalyzeRequest* request,
                                    v1::Assessment* out) {
  absl::StatusOr<v1::Assessment> a = AnalyzeHere(*request);
  if (!a.ok()) return ToGrpc(a.status());
  *out = *std::move(a);
  return grpc::Status::OK;
}

absl::StatusOr<v1::Assessment> WorkerService::AnalyzeHere(const v1::AnalyzeRequest& request) {
  if (absl::Status ready = ReadyToRule(); !ready.ok()) return ready;
  absl::StatusOr<MateSearchOptions> options = engine_.Prepare(request.options());
  if (!options.ok()) return failures_.Increment(), options.status();
  Slot slot(*this);
  const auto start = Clock::now();
  absl::StatusOr<v1::Assessment> a = engine_.Analyze(request, *options);
  if (!a.ok()) return failures_.Increment(), a.status();
  analysis_seconds_.Observe(SecondsSince(start));
  analyses_.Increment();
  return a;
}

grpc::Status WorkerService::VerifyBatch(grpc::ServerContext* ctx,
                                        const v1::VerifyBatchRequest* request,
                                        grpc::ServerWriter<v1::VerdictChunk>* writer) {
  if (absl::Status ready = ReadyToRule(); !ready.ok()) return ToGrpc(ready);
  MateSearchOptions options;
  if (grpc::Status s = Prepare(request->options(), &options); !s.ok())
    return failures_.Increment(), s;
  Slot slot(*this);
  v1::VerdictChunk chunk;
  auto last_flush = Clock::now();
  // A few verdicts per message: most games take well under a millisecond,
  // and one message each would cost more than the rulings.
  auto flush = [&] {
    bool ok = true;
    if (!chunk.verdicts().empty()) {
      slot.Release();
      ok = writer->Write(chunk);
      slot.Acquire();
    }
    verdicts_.Increment(double(chunk.verdicts_size()));
    verdicts_served_ += uint64_t(chunk.verdicts_size());
    chunk.Clear();
    last_flush = Clock::now();
    return ok;
  };
  // The batch through the one loop (core/verdict/verify_games.h), on this
  // thread: the worker's concurrency is its batches.
  int next = 0;
  auto start = Clock::now();
  bool cancelled = false;
  // A record is the coordinator's to check (it parsed every client's);
  // one that does not parse here is refused with the batch.
  bool unparsed = false;
  v1::GameRecord record;
  const PgnReaderOptions reader_options = wire::ReaderOptionsFor(request->options());
  const bool completed = VerifyGames(
      {.threads = 1, .search = options, .tables = options.syzygy},
      [&](RawGame* game) {
        if (next == request->games_size()) return false;
        // Checked once per chunk, not per game: IsCancelled takes a lock the
        // transport threads share, and a futex per game showed in profiles.
        if (chunk.verdicts().empty() && ctx->IsCancelled()) {
          cancelled = true;
          return false;
        }
        const v1::BatchGame& input = request->games(next++);
        if (input.has_pgn()) {
          // Read here, as the coordinator would have read it.
          ReadFirstGame(input.pgn(), input.index(), reader_options, game);
        } else if (record.ParseFromString(input.record())) {
          *game = wire::FromProto(record);
        } else {
          unparsed = true;
          return false;
        }
        start = Clock::now();
        return true;
      },
      [&](GameVerdict& verdict) {
        game_seconds_.Observe(SecondsSince(start));
        chunk.add_verdicts(wire::ToProto(verdict).SerializeAsString());
        return (chunk.verdicts_size() < kVerdictsPerChunk &&
                Clock::now() - last_flush <= std::chrono::milliseconds(50)) ||
               flush();
      });
  if (unparsed) {
    failures_.Increment();
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        absl::StrCat("game ", next, " of the batch is not a GameRecord"));
  }
  if (cancelled) {
    failures_.Increment();
    return grpc::Status(grpc::StatusCode::CANCELLED, "the coordinator cancelled the batch");
  }
  if (!completed || !flush()) {
    failures_.Increment();
    return grpc::Status(grpc::StatusCode::CANCELLED, "the coordinator went away");
  }
  ++batches_served_;
  return grpc::Status::OK;
}

absl::Status WorkerService::VerifyHere(const v1::SearchOptions& request,
                                       const std::function<bool(RawGame*)>& next,
                                       const std::function<bool(GameVerdict&)>& deliver) {
  if (absl::Status ready = ReadyToRule(); !ready.ok()) return ready;
  absl::StatusOr<MateSearchOptions> options = engine_.Prepare(request);
  if (!options.ok()) return failures_.Increment(), options.status();
  // The slots are held to the end of the run, through its deliveries: the
  // caller's bounded queue (and its write deadline) bounds how long a slow
  // reader keeps them.
  const int slots = AcquireSlots(threads_);
  const bool completed =
      VerifyGames({.threads = slots, .search = *options, .tables = options->syzygy}, next,
                  [&](GameVerdict& verdict) {
                    verdicts_.Increment();
                    ++verdicts_served_;
                    return deliver(verdict);
                  });
  ReleaseSlots(slots);
  if (!completed) {
    failures_.Increment();
    return absl::CancelledError("the verdicts' reader stopped");
  }
  return absl::OkStatus();
}

}  // namespace arbiter::worker
