// The coordinator's dispatcher: sends games and positions to workers and
// collects verdicts.
//
// Workers come from a fixed list ("host:port,host:port") or a DNS name
// ("dns:///name:port", e.g. a Kubernetes headless Service), re-resolved every
// few seconds so that new pods join and vanished ones leave. Each worker gets
// as many sender threads as it has compute threads (WorkerInfo) plus one, so
// in-flight work per worker is bounded (backpressure) and a fast worker
// pulls more than a slow one.
//
// Games wait in their run's queue until a sender pulls them, so batches are
// as full as the load makes them: one game goes out at once when workers are
// idle, up to `batch_size` when they are busy. A batch is a lease: its call
// has a deadline, and when the worker fails, disconnects or misses it, the
// games without a verdict go back to the front of the queue, marked to be
// tried on a different worker (when another is up). A verdict received is
// final, and each game's slot takes one verdict only, so every game gets
// exactly one. Runs deliver verdicts in input order. A game on which calls
// broke off kMaxGameFailures times (a game that crashes workers, or that no
// worker finishes within the lease) gets an error verdict instead, so that
// one poisoned record cannot stall a run forever.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/worker.grpc.pb.h"
#include "grpcpp/security/credentials.h"
#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace arbiter::coordinator {

inline constexpr int kMaxGameFailures = 3;

struct DispatcherOptions {
  std::string workers;  // "host:port,..." or "dns:///name:port"
  // Workers in this process (`arbiter serve`), reached over these
  // in-process channels; used instead of `workers` when not empty.
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  // Games per batch at most: a few hundred keep the messages, and the
  // coordinator's work per game, few.
  int batch_size = 256;
  std::chrono::milliseconds batch_deadline{120000};
  std::chrono::milliseconds analyze_deadline{60000};
  // Games of one run accepted but not yet delivered before Add blocks.
  size_t max_outstanding = 4096;
  std::chrono::milliseconds resolve_interval{5000};
  // A run that does not wait for workers (a client's stream, not a job)
  // fails with UNAVAILABLE, naming each worker's reason, once it has had
  // games to rule and no worker up for this long.
  std::chrono::milliseconds no_worker_timeout{30000};
  // How to reach workers; null means plain text.
  std::shared_ptr<grpc::ChannelCredentials> worker_credentials;
  bool worker_tls = false;  // whether those credentials are TLS (for messages)
};

class Dispatcher;

// One stream of games through the workers (a client's VerifyGames call, or
// a job). Add from one thread, Next from another. Games and verdicts stay
// serialized: the coordinator relays them to and from the workers without
// decoding either (worker.proto).
class Run {
 public:
  ~Run();
  // Queues a game: a serialized GameRecord, or one game's PGN text for the
  // worker to read. Blocks while max_outstanding games are undelivered.
  // False when the run was cancelled.
  bool Add(v1::BatchGame game);
  // No more games will be added.
  void Finish();
  // The next verdict in input order, a serialized GameVerdict; blocks until
  // it is ready. False once every added game was delivered after Finish, or
  // when cancelled.
  bool Next(std::string* out);
  // Like Next, then also every verdict ready right behind it, up to `max`
  // in all, appended to `out`. False when Next would be.
  bool NextReady(size_t max, std::vector<std::string>* out);
  // Drops queued games and undelivered verdicts; Add and Next return false.
  void Cancel();
  // Set when workers refuse the run's options (e.g. tables asked of workers
  // without any): the run is cancelled with this status.
  absl::Status status() const;

 private:
  friend class Dispatcher;
  struct Pending {
    uint64_t seq;
    v1::BatchGame game;
    int avoid = -1;    // endpoint that failed this game
    int failures = 0;  // calls that broke off while on this game
  };
  Run(Dispatcher& d, v1::SearchOptions options, bool wait_for_workers)
      : d_(d),
        options_(std::move(options)),
        wait_for_workers_(wait_for_workers),
        created_(std::chrono::steady_clock::now()) {}
  void CancelLocked();  // Cancel, with the dispatcher's mutex held

  Dispatcher& d_;
  const v1::SearchOptions options_;
  const bool wait_for_workers_;
  const std::chrono::steady_clock::time_point created_;
  // Guarded by the dispatcher's mutex.
  std::deque<Pending> queue_;
  std::map<uint64_t, std::string> done_;  // serialized GameVerdicts
  uint64_t added_ = 0, delivered_ = 0;
  bool finished_ = false, cancelled_ = false;
  absl::Status status_;
  std::condition_variable changed_;  // verdicts arrived, room freed, cancelled
};

class Dispatcher {
 public:
  Dispatcher(DispatcherOptions options, prometheus::Registry& metrics);
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  // INVALID_ARGUMENT for a malformed worker list.
  absl::Status Start();

  // `wait_for_workers`: the run waits for a worker however long none is up
  // (a durable job); otherwise it fails after no_worker_timeout.
  std::shared_ptr<Run> NewRun(v1::SearchOptions options, bool wait_for_workers = false);

  // Cancels every run (their Add and Next return false) and refuses new
  // work: call before shutting the server down, so that no handler waits
  // for verdicts that will not come.
  void Stop();

  // One position on a worker, retried on another when the first fails.
  // Each attempt ends by `deadline` or the coordinator's own analyze
  // deadline, whichever comes first.
  grpc::Status Analyze(const v1::AnalyzeRequest& request, v1::Assessment* out,
                       std::chrono::system_clock::time_point deadline);

  // Workers answering now.
  int workers_up() const;
  // Whether some endpoint has been reachable at least once (for health).
  bool any_worker_seen() const { return seen_any_.load(); }

 private:
  friend class Run;
  struct Endpoint;
  struct Batch;

  void Resolve();  // (re)reads the worker list; needs mu_
  // Unless known; needs mu_. `channel`: an in-process worker's.
  void AddEndpoint(const std::string& address, std::shared_ptr<grpc::Channel> channel = nullptr);
  void Resolver();
  // Fails the runs that waited no_worker_timeout without a worker.
  void Watch();
  // "ADDRESS: reason; ..." for the workers that are not up (needs mu_).
  std::string WhyNoWorkerLocked() const;
  // Why a run cannot be ruled on the workers up now: they hold different
  // retrograde tables, or, for a run with tablebase probes (`syzygy`),
  // different Syzygy sets; "" when they agree (needs mu_).
  std::string TablesMismatchLocked(bool syzygy) const;
  void Manage(std::shared_ptr<Endpoint> e);
  void Send(std::shared_ptr<Endpoint> e);
  // Takes a batch for `e` from some run, or returns false (needs mu_).
  bool TakeBatch(const Endpoint& e, Batch* batch);
  bool OtherWorkerUp(int except) const;  // needs mu_
  int workers_up_locked() const;         // needs mu_
  // Puts the games of `batch` from `from` on back in front of their run's
  // queue (the one at `from` gets an error verdict instead once calls broke
  // off on it kMaxGameFailures times).
  void Requeue(Batch& batch, size_t from, int failed_endpoint, const grpc::Status& why);
  // Records the chunk's verdicts for the batch's games from `got` on;
  // returns how many of the batch's games now have one.
  size_t Complete(Batch& batch, size_t got, v1::VerdictChunk& chunk);
  void MarkDown(Endpoint& e, const grpc::Status& why);
  void MarkDownLocked(Endpoint& e, const std::string& why);  // needs mu_

  const DispatcherOptions options_;
  mutable std::mutex mu_;
  std::condition_variable work_;  // a game was queued, a worker came up, or stopping
  std::vector<std::weak_ptr<Run>> runs_;
  size_t next_run_ = 0;  // round robin over runs
  std::map<std::string, std::shared_ptr<Endpoint>> endpoints_;
  int next_endpoint_id_ = 0;
  bool stopping_ = false;
  std::atomic<bool> seen_any_{false};
  std::string dns_name_, dns_port_;
  std::thread resolver_;
  std::thread watcher_;
  std::condition_variable watch_;  // stopping (wakes Watch)
  // Since when no worker has been up (unset while one is).
  std::optional<std::chrono::steady_clock::time_point> no_worker_since_;
  std::vector<std::thread> threads_;  // endpoint managers and senders

  prometheus::Counter& verdicts_;
  prometheus::Counter& retried_games_;
  prometheus::Counter& worker_failures_;
  prometheus::Gauge& queue_depth_;
  prometheus::Gauge& in_flight_;
  prometheus::Gauge& workers_up_gauge_;
  prometheus::Histogram& batch_seconds_;
  prometheus::Histogram& analyze_seconds_;
};

}  // namespace arbiter::coordinator
