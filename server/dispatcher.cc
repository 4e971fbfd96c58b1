#include "server/dispatcher.h"

#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/serving.h"
#include "core/util/text_encoding.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "grpcpp/create_channel.h"
#include "proto/convert.h"

namespace arbiter::coordinator {
namespace {

using Clock = std::chrono::steady_clock;

std::chrono::system_clock::time_point After(std::chrono::milliseconds d) {
  return std::chrono::system_clock::now() + d;
}

// Failures that say nothing about the worker: the request itself is at
// fault, and another worker would refuse it too.
// The watchdog's pings of a worker with calls in flight: every interval,
// each with this deadline; this many missed in a row mark it hung.
constexpr auto kWatchdogInterval = std::chrono::milliseconds(1000);
constexpr auto kWatchdogDeadline = std::chrono::milliseconds(1500);
constexpr int kWatchdogMisses = 2;

// A worker's refusal of the request itself; RESOURCE_EXHAUSTED is a request
// over the worker's limits (--max-table-mb), which the cluster's workers
// share.
bool RequestFault(grpc::StatusCode code) {
  return code == grpc::StatusCode::INVALID_ARGUMENT ||
         code == grpc::StatusCode::RESOURCE_EXHAUSTED ||
         code == grpc::StatusCode::FAILED_PRECONDITION || code == grpc::StatusCode::OUT_OF_RANGE ||
         code == grpc::StatusCode::UNIMPLEMENTED;
}

// Why a probe failed, in gRPC's words without what the line already says
// ("failed to connect to all addresses; last error: UNKNOWN: ipv4:ADDR: ").
// `tls`: whether the coordinator speaks TLS to its workers.
std::string ProbeFailure(const grpc::Status& s, bool tls) {
  if (s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED)
    return "no answer within 2 s (a stalled worker, or a handshake it never completes)";
  const std::string message = s.error_message();  // a copy: Status returns one
  std::string_view why = message;
  for (std::string_view preamble :
       {"failed to connect to all addresses; last error: ", "UNKNOWN: ", "UNAVAILABLE: "})
    if (why.starts_with(preamble)) why.remove_prefix(preamble.size());
  if (why.starts_with("ipv4:") || why.starts_with("ipv6:") || why.starts_with("unix:"))
    if (const size_t end = why.find(": "); end != std::string_view::npos)
      why.remove_prefix(end + 2);
  std::string out =
      why.empty() ? absl::StrCat("gRPC status ", int(s.error_code())) : std::string(why);
  // A worker that expects TLS hangs up on plain text without a word.
  if (!tls && out == "Socket closed")
    out += " (a worker that expects TLS closes plain-text connections: --worker-ca)";
  return out;
}

// The record a batch game stands for: its own, or read from its PGN text
// as the worker reads it.
v1::GameRecord RecordOf(const v1::BatchGame& game, const v1::SearchOptions& options) {
  v1::GameRecord record;
  if (game.has_pgn())
    record =
        wire::ToProto(ReadFirstGame(game.pgn(), game.index(), wire::ReaderOptionsFor(options)));
  else if (!record.ParseFromString(game.record()))
    record.set_index(game.index());
  return record;
}

}  // namespace

struct Dispatcher::Endpoint {
  int id = 0;
  std::string address;
  std::shared_ptr<grpc::Channel> channel;  // preset for an in-process worker
  std::unique_ptr<v1::Worker::Stub> stub;
  // Guarded by the dispatcher's mutex.
  bool up = false;
  bool removed = false;
  // Why its last probe failed ("" once it answers): logged when it changes,
  // and named to a client whose run found no worker.
  std::string last_failure;
  // Its Syzygy tables, from Info (WorkerInfo.syzygy_digest; "" = none),
  // and its retrograde tables (WorkerInfo.retrograde_digest).
  std::string syzygy_digest;
  std::string retrograde_digest;
  // It answers, but builds its retrograde tables before it rules
  // (WorkerInfo.tables_building, in last_failure).
  bool building = false;
  int senders = 0;
  int in_flight = 0;
  // The calls in flight to it, cancelled when the watchdog finds it hung.
  std::set<grpc::ClientContext*> calls;
  std::condition_variable state_changed;  // went down, was removed, stopping
};

struct Dispatcher::Batch {
  std::shared_ptr<Run> run;
  std::vector<uint64_t> seqs;
  std::vector<int> failures;  // Pending::failures of each game
  v1::VerifyBatchRequest request;
};

// ---------------------------------------------------------------------------
// Run.
// ---------------------------------------------------------------------------

// No lock: the last owner is going away, and weak references (the
// dispatcher's run list) can no longer reach this run. It may be the
// dispatcher itself, holding its mutex, that drops the last reference.
Run::~Run() { d_.queue_depth_.Decrement(double(queue_.size())); }

bool Run::Add(v1::BatchGame game) {
  std::unique_lock<std::mutex> lock(d_.mu_);
  changed_.wait(lock,
                [&] { return cancelled_ || added_ - delivered_ < d_.options_.max_outstanding; });
  if (cancelled_) return false;
  queue_.push_back(Pending{added_++, std::move(game)});
  d_.queue_depth_.Increment();
  d_.work_.notify_one();
  return true;
}

void Run::Finish() {
  std::lock_guard<std::mutex> lock(d_.mu_);
  finished_ = true;
  changed_.notify_all();
}

bool Run::Next(std::string* out) {
  std::unique_lock<std::mutex> lock(d_.mu_);
  changed_.wait(lock, [&] {
    return cancelled_ || done_.count(delivered_) || (finished_ && delivered_ == added_);
  });
  if (cancelled_ || (finished_ && delivered_ == added_)) return false;
  auto it = done_.find(delivered_);
  *out = std::move(it->second);
  done_.erase(it);
  ++delivered_;
  changed_.notify_all();  // room for Add
  return true;
}

bool Run::NextReady(size_t max, std::vector<std::string>* out) {
  std::unique_lock<std::mutex> lock(d_.mu_);
  changed_.wait(lock, [&] {
    return cancelled_ || done_.count(delivered_) || (finished_ && delivered_ == added_);
  });
  if (cancelled_ || (finished_ && delivered_ == added_)) return false;
  for (auto it = done_.find(delivered_); it != done_.end() && it->first == delivered_ && max > 0;
       it = done_.erase(it), ++delivered_, --max)
    out->push_back(std::move(it->second));
  changed_.notify_all();  // room for Add
  return true;
}

void Run::Cancel() {
  std::lock_guard<std::mutex> lock(d_.mu_);
  CancelLocked();
}

void Run::CancelLocked() {
  if (cancelled_) return;
  cancelled_ = true;
  d_.queue_depth_.Decrement(double(queue_.size()));
  queue_.clear();
  done_.clear();
  changed_.notify_all();
}

absl::Status Run::status() const {
  std::lock_guard<std::mutex> lock(d_.mu_);
  return status_;
}

// ---------------------------------------------------------------------------
// Dispatcher.
// ---------------------------------------------------------------------------

Dispatcher::Dispatcher(DispatcherOptions options, prometheus::Registry& metrics)
    : options_(std::move(options)),
      verdicts_(prometheus::BuildCounter()
                    .Name("arbiter_coordinator_verdicts_total")
                    .Help("Game verdicts received from workers")
                    .Register(metrics)
                    .Add({})),
      retried_games_(prometheus::BuildCounter()
                         .Name("arbiter_coordinator_retried_games_total")
                         .Help("Games sent again after their worker failed")
                         .Register(metrics)
                         .Add({})),
      worker_failures_(prometheus::BuildCounter()
                           .Name("arbiter_coordinator_worker_failures_total")
                           .Help("Calls to workers that failed or missed their deadline")
                           .Register(metrics)
                           .Add({})),
      queue_depth_(prometheus::BuildGauge()
                       .Name("arbiter_coordinator_queue_depth")
                       .Help("Games waiting for a worker")
                       .Register(metrics)
                       .Add({})),
      in_flight_(prometheus::BuildGauge()
                     .Name("arbiter_coordinator_in_flight_batches")
                     .Help("Batches being worked on")
                     .Register(metrics)
                     .Add({})),
      workers_up_gauge_(prometheus::BuildGauge()
                            .Name("arbiter_coordinator_workers_up")
                            .Help("Workers answering")
                            .Register(metrics)
                            .Add({})),
      batch_seconds_(prometheus::BuildHistogram()
                         .Name("arbiter_coordinator_batch_seconds")
                         .Help("Round trip of one batch")
                         .Register(metrics)
                         .Add({}, common::LatencyBuckets())),
      analyze_seconds_(prometheus::BuildHistogram()
                           .Name("arbiter_coordinator_analyze_seconds")
                           .Help("Round trip of one position analysis")
                           .Register(metrics)
                           .Add({}, common::LatencyBuckets())) {}

Dispatcher::~Dispatcher() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    for (auto& [address, e] : endpoints_) e->state_changed.notify_all();
  }
  work_.notify_all();
  watch_.notify_all();
  if (resolver_.joinable()) resolver_.join();
  if (watcher_.joinable()) watcher_.join();
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mu_);
    threads.swap(threads_);
  }
  for (std::thread& t : threads) t.join();
}

absl::Status Dispatcher::Start() {
  watcher_ = std::thread([this] { Watch(); });
  if (!options_.channels.empty()) {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = 0; i < options_.channels.size(); ++i)
      AddEndpoint(absl::StrCat("in-process worker ", i + 1), options_.channels[i]);
    return absl::OkStatus();
  }
  std::string spec = options_.workers;
  if (spec.empty()) return absl::InvalidArgumentError("--workers is required");
  if (spec.rfind("dns:///", 0) == 0) {
    std::string target = spec.substr(7);
    size_t colon = target.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == target.size())
      return absl::InvalidArgumentError(
          absl::StrCat("--workers ", spec, ": expected dns:///NAME:PORT"));
    dns_name_ = target.substr(0, colon);
    dns_port_ = target.substr(colon + 1);
    {
      std::lock_guard<std::mutex> lock(mu_);
      Resolve();
    }
    resolver_ = std::thread([this] { Resolver(); });
    return absl::OkStatus();
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (absl::string_view a : absl::StrSplit(spec, ',', absl::SkipEmpty())) {
    std::string address(a);
    if (address.find(':') == std::string::npos)
      return absl::InvalidArgumentError(
          absl::StrCat("--workers: \"", address, "\" is not HOST:PORT"));
    AddEndpoint(address);
  }
  return absl::OkStatus();
}

void Dispatcher::AddEndpoint(const std::string& address, std::shared_ptr<grpc::Channel> channel) {
  if (endpoints_.count(address)) return;
  auto e = std::make_shared<Endpoint>();
  e->id = next_endpoint_id_++;
  e->address = address;
  e->channel = std::move(channel);
  endpoints_[address] = e;
  threads_.emplace_back([this, e] { Manage(e); });
}

void Dispatcher::Resolve() {
  std::set<std::string> found;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (getaddrinfo(dns_name_.c_str(), dns_port_.c_str(), &hints, &res) == 0) {
    for (addrinfo* p = res; p; p = p->ai_next) {
      char host[NI_MAXHOST];
      if (getnameinfo(p->ai_addr, p->ai_addrlen, host, sizeof host, nullptr, 0, NI_NUMERICHOST))
        continue;
      const bool v6 = p->ai_family == AF_INET6;
      found.insert(absl::StrCat(v6 ? "[" : "", host, v6 ? "]" : "", ":", dns_port_));
    }
    freeaddrinfo(res);
  } else {
    return;  // keep what we have: a resolver hiccup is not a scale-down
  }
  for (const std::string& address : found) AddEndpoint(address);
  for (auto it = endpoints_.begin(); it != endpoints_.end();) {
    if (found.count(it->first)) {
      ++it;
      continue;
    }
    it->second->removed = true;
    it->second->state_changed.notify_all();
    it = endpoints_.erase(it);
  }
  work_.notify_all();
}

void Dispatcher::Resolver() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    work_.wait_for(lock, options_.resolve_interval);
    if (!stopping_) Resolve();
  }
}

// Probes a worker until it answers, then starts its senders; probes again
// after every failure. A restarted worker so rejoins within a probe period.
void Dispatcher::Manage(std::shared_ptr<Endpoint> e) {
  grpc::ChannelArguments args;
  // Reconnect quickly: a restarted worker must get work again at once, not
  // after gRPC's default backoff of up to two minutes.
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 200);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 200);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  // Workers found by DNS are reached at their addresses, but a certificate
  // shared by every worker pod cannot name each pod's address: it names the
  // Service, so TLS checks it against the name that was resolved.
  if (!dns_name_.empty() && options_.worker_credentials) args.SetSslTargetNameOverride(dns_name_);
  if (!e->channel)
    e->channel =
        grpc::CreateCustomChannel(e->address,
                                  options_.worker_credentials ? options_.worker_credentials
                                                              : grpc::InsecureChannelCredentials(),
                                  args);
  e->stub = v1::Worker::NewStub(e->channel);
  std::unique_lock<std::mutex> lock(mu_);
  int missed_pings = 0;
  while (!stopping_ && !e->removed) {
    if (e->up) {
      // Watchdog: a worker with calls in flight must still answer Info (on
      // gRPC's threads, not the ones computing). One that misses
      // kWatchdogMisses pings in a row is hung (stopped, swapping, wedged):
      // it is marked down and its calls are cancelled, so that their games
      // go to another worker within seconds instead of at the end of their
      // lease. An idle worker is not pinged.
      e->state_changed.wait_for(lock, kWatchdogInterval);
      if (stopping_ || e->removed || !e->up) continue;
      if (e->in_flight == 0) {
        missed_pings = 0;
        continue;
      }
      lock.unlock();
      grpc::ClientContext ping;
      ping.set_deadline(After(kWatchdogDeadline));
      v1::WorkerInfo unused;
      const bool answered = e->stub->Info(&ping, v1::InfoRequest(), &unused).ok();
      lock.lock();
      missed_pings = answered ? 0 : missed_pings + 1;
      if (missed_pings >= kWatchdogMisses && e->up && !stopping_) {
        MarkDownLocked(*e, absl::StrCat("it does not answer: ", missed_pings, " pings missed with ",
                                        e->in_flight, " calls in flight"));
        for (grpc::ClientContext* call : e->calls) call->TryCancel();
        missed_pings = 0;
      }
      continue;
    }
    lock.unlock();
    grpc::ClientContext ctx;
    ctx.set_deadline(After(std::chrono::milliseconds(2000)));
    v1::WorkerInfo info;
    grpc::Status s = e->stub->Info(&ctx, v1::InfoRequest(), &info);
    lock.lock();
    if (stopping_ || e->removed) break;
    if (!s.ok()) {
      // Logged once per reason (a refused connection, a TLS handshake, a
      // certificate's name), not once per probe.
      e->building = false;
      if (std::string why = ProbeFailure(s, options_.worker_tls); why != e->last_failure) {
        std::fprintf(stderr, "arbiter-coordinator: worker %s does not answer: %s\n",
                     e->address.c_str(), why.c_str());
        e->last_failure = std::move(why);
      }
      e->state_changed.wait_for(lock, std::chrono::milliseconds(300));
      continue;
    }
    if (!info.tables_building().empty()) {
      // Up, but not ruling yet: no work until it is (common/table_warmup.h).
      // Logged once, not at each table; clients are told its latest words.
      if (!e->building)
        std::fprintf(stderr, "arbiter-coordinator: worker %s answers but is %s\n",
                     e->address.c_str(), info.tables_building().c_str());
      e->building = true;
      e->last_failure = info.tables_building();
      watch_.notify_all();  // runs waiting for a worker learn why at once
      e->state_changed.wait_for(lock, std::chrono::milliseconds(500));
      continue;
    }
    if (!e->last_failure.empty())
      std::fprintf(stderr, "arbiter-coordinator: worker %s answers\n", e->address.c_str());
    e->last_failure.clear();
    e->building = false;
    e->up = true;
    e->syzygy_digest = info.syzygy_digest();
    e->retrograde_digest = info.retrograde_digest();
    seen_any_ = true;
    // One batch more than the worker computes at once hides the round trip.
    const int wanted = std::max(1, info.threads()) + 1;
    for (; e->senders < wanted; ++e->senders) threads_.emplace_back([this, e] { Send(e); });
    workers_up_gauge_.Set(double(workers_up_locked()));
    work_.notify_all();
  }
  if (e->up) {
    e->up = false;
    workers_up_gauge_.Set(double(workers_up_locked()));
  }
  work_.notify_all();
}

void Dispatcher::Watch() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    // Its own condition: on work_, a notify_one meant for a sender (a game
    // queued) could wake this thread instead, and the game would wait.
    watch_.wait_for(lock, std::chrono::milliseconds(250), [&] { return stopping_; });
    if (stopping_) break;
    const auto now = Clock::now();
    if (workers_up_locked() > 0) {
      no_worker_since_.reset();
      continue;
    }
    if (!no_worker_since_) no_worker_since_ = now;
    // Workers that answer but still build their tables will be a while
    // (tens of seconds to minutes): a client is told so at once, to retry,
    // rather than after the timeout.
    bool building = false;
    for (const auto& [address, e] : endpoints_) building |= e->building && !e->removed;
    for (const std::weak_ptr<Run>& r : runs_) {
      std::shared_ptr<Run> run = r.lock();
      if (!run || run->wait_for_workers_ || run->cancelled_ || run->queue_.empty()) continue;
      if (building) {
        run->status_ =
            absl::UnavailableError(absl::StrCat("no worker rules yet: ", WhyNoWorkerLocked()));
      } else if (now - std::max(run->created_, *no_worker_since_) >= options_.no_worker_timeout) {
        run->status_ = absl::UnavailableError(absl::StrCat(
            "no worker answered for ",
            std::chrono::duration_cast<std::chrono::seconds>(options_.no_worker_timeout).count(),
            " s (--no-worker-timeout): ", WhyNoWorkerLocked()));
      } else {
        continue;
      }
      run->CancelLocked();
    }
  }
}

std::string Dispatcher::TablesMismatchLocked(bool syzygy) const {
  // Retrograde tables serve every run; Syzygy tables only runs that probe.
  for (const bool of_syzygy : {false, true}) {
    if (of_syzygy && !syzygy) continue;
    auto digest_of = [&](const Endpoint& e) -> const std::string& {
      return of_syzygy ? e.syzygy_digest : e.retrograde_digest;
    };
    // Called for each batch taken: agreement, the usual case, is found
    // without building anything.
    const std::string* first = nullptr;
    bool agree = true;
    for (const auto& [address, e] : endpoints_) {
      if (!e->up || e->removed) continue;
      if (!first) first = &digest_of(*e);
      agree &= digest_of(*e) == *first;
    }
    if (agree) continue;
    std::map<std::string, std::vector<std::string>> by_set;
    for (const auto& [address, e] : endpoints_)
      if (e->up && !e->removed) by_set[digest_of(*e)].push_back(address);
    std::string out = absl::StrCat(
        "the workers hold different ", of_syzygy ? "Syzygy" : "retrograde",
        " tables, so a verdict would depend on which worker ruled its game; give them the same ",
        of_syzygy ? "files" : "build and --tables", ":");
    for (const auto& [digest, addresses] : by_set)
      absl::StrAppend(&out, " ", absl::StrJoin(addresses, ", "), ": ",
                      digest.empty() ? (of_syzygy ? "no tables" : "not reported") : digest, ";");
    out.pop_back();
    return out;
  }
  return "";
}

std::string Dispatcher::WhyNoWorkerLocked() const {
  std::string out;
  for (const auto& [address, e] : endpoints_) {
    if (e->up || e->removed) continue;
    absl::StrAppend(&out, out.empty() ? "" : "; ", address, ": ",
                    e->last_failure.empty() ? "not reached yet" : e->last_failure);
  }
  return out.empty() ? "no worker is known (--workers)" : out;
}

int Dispatcher::workers_up_locked() const {
  int n = 0;
  for (const auto& [address, e] : endpoints_) n += e->up && !e->removed;
  return n;
}

int Dispatcher::workers_up() const {
  std::lock_guard<std::mutex> lock(mu_);
  return workers_up_locked();
}

bool Dispatcher::OtherWorkerUp(int except) const {
  for (const auto& [address, e] : endpoints_)
    if (e->id != except && e->up && !e->removed) return true;
  return false;
}

bool Dispatcher::TakeBatch(const Endpoint& e, Batch* batch) {
  const size_t n = runs_.size();
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (next_run_ + k) % n;
    std::shared_ptr<Run> run = runs_[i].lock();
    if (!run || run->cancelled_ || run->queue_.empty()) continue;
    // Rulings answer from the worker's own tables: with workers that hold
    // different sets, a verdict would depend on which worker took its game.
    if (std::string why = TablesMismatchLocked(run->options_.tablebase()); !why.empty()) {
      run->status_ = absl::FailedPreconditionError(why);
      run->CancelLocked();
      continue;
    }
    // Games that failed on this worker go elsewhere when there is elsewhere.
    const bool elsewhere = OtherWorkerUp(e.id);
    if (run->queue_.front().avoid == e.id && elsewhere) continue;
    batch->run = run;
    batch->seqs.clear();
    batch->failures.clear();
    batch->request.Clear();
    *batch->request.mutable_options() = run->options_;
    while (!run->queue_.empty() && batch->seqs.size() < size_t(options_.batch_size) &&
           !(run->queue_.front().avoid == e.id && elsewhere)) {
      Run::Pending& p = run->queue_.front();
      batch->seqs.push_back(p.seq);
      batch->failures.push_back(p.failures);
      batch->request.mutable_games()->Add(std::move(p.game));
      run->queue_.pop_front();
    }
    queue_depth_.Decrement(double(batch->seqs.size()));
    next_run_ = i + 1;
    return true;
  }
  // Forget runs that ended.
  runs_.erase(std::remove_if(runs_.begin(), runs_.end(),
                             [](const std::weak_ptr<Run>& r) { return r.expired(); }),
              runs_.end());
  return false;
}

void Dispatcher::Send(std::shared_ptr<Endpoint> e) {
  Batch batch;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_.wait(lock, [&] { return stopping_ || e->removed || (e->up && TakeBatch(*e, &batch)); });
      if (stopping_ || e->removed) {
        // A batch taken just before is impossible here: the predicate
        // returns before TakeBatch when stopping or removed.
        --e->senders;
        return;
      }
      ++e->in_flight;
      in_flight_.Increment();
    }
    const auto start = Clock::now();
    grpc::ClientContext ctx;
    ctx.set_deadline(After(options_.batch_deadline));
    {
      std::lock_guard<std::mutex> lock(mu_);
      e->calls.insert(&ctx);
    }
    std::unique_ptr<grpc::ClientReader<v1::VerdictChunk>> reader =
        e->stub->VerifyBatch(&ctx, batch.request);
    const size_t n = batch.seqs.size();
    size_t got = 0;
    v1::VerdictChunk chunk;
    while (got < n && reader->Read(&chunk)) got = Complete(batch, got, chunk);
    // Read returned false: the call is over and Finish gives the worker's
    // own status (a refusal stays a refusal; cancelling here would turn it
    // into CANCELLED, a worker failure).
    grpc::Status status = reader->Finish();
    batch_seconds_.Observe(std::chrono::duration<double>(Clock::now() - start).count());
    if (got < n) {
      if (RequestFault(status.error_code())) {
        // The worker refuses the run's request; so would every other.
        {
          std::lock_guard<std::mutex> lock(mu_);
          batch.run->status_ = absl::Status(absl::StatusCode(status.error_code()),
                                            absl::StrCat(e->address, ": ", status.error_message()));
        }
        batch.run->Cancel();
      } else {
        // Down first: requeued games must not be taken by another sender of
        // this endpoint in between, or one dead worker could use up a
        // game's kMaxGameFailures calls on its own.
        MarkDown(*e, status);
        Requeue(batch, got, e->id, status);
      }
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      e->calls.erase(&ctx);
      --e->in_flight;
      in_flight_.Decrement();
    }
    batch.run.reset();  // outside the lock: it may be the last reference
  }
}

size_t Dispatcher::Complete(Batch& batch, size_t got, v1::VerdictChunk& chunk) {
  std::lock_guard<std::mutex> lock(mu_);
  Run& run = *batch.run;
  for (std::string& verdict : *chunk.mutable_verdicts()) {
    if (got == batch.seqs.size()) break;  // a worker sending more than asked
    const uint64_t seq = batch.seqs[got++];
    if (run.cancelled_ || seq < run.delivered_ || run.done_.count(seq)) continue;
    run.done_.emplace(seq, std::move(verdict));
    verdicts_.Increment();
  }
  run.changed_.notify_all();
  return got;
}

void Dispatcher::Requeue(Batch& batch, size_t from, int failed_endpoint, const grpc::Status& why) {
  std::lock_guard<std::mutex> lock(mu_);
  Run& run = *batch.run;
  if (run.cancelled_) return;
  const size_t n = batch.seqs.size();
  // The game the call broke off on is the suspect; the ones after it were
  // not started.
  if (batch.failures[from] + 1 >= kMaxGameFailures) {
    // The one game the coordinator decodes: its verdict names the record.
    const v1::GameRecord record = RecordOf(batch.request.games(int(from)), run.options_);
    v1::GameVerdict verdict;
    verdict.set_game(record.index());
    for (const v1::GameRecord::Tag& t : record.tags()) {
      if (t.name() == "Site") verdict.set_site(t.value());
      if (t.name() == "Result") verdict.set_declared(t.value());
      if (t.name() == "Termination") verdict.set_termination(t.value());
    }
    if (verdict.declared().empty()) verdict.set_declared(record.result_token());
    verdict.set_plies(record.move_lines_size());
    verdict.set_error(ReplaceInvalidUtf8(
        absl::StrCat("no worker could rule on this game: ", kMaxGameFailures,
                     " calls broke off on it, the last with \"", why.error_message(), "\"")));
    if (batch.seqs[from] >= run.delivered_ && !run.done_.count(batch.seqs[from]))
      run.done_.emplace(batch.seqs[from], verdict.SerializeAsString());
    run.changed_.notify_all();
    ++from;
  } else {
    ++batch.failures[from];
  }
  for (size_t i = n; i-- > from;) {
    run.queue_.push_front(Run::Pending{batch.seqs[i],
                                       std::move(*batch.request.mutable_games(int(i))),
                                       failed_endpoint, batch.failures[i]});
  }
  queue_depth_.Increment(double(n - from));
  retried_games_.Increment(double(n - from));
  work_.notify_all();
}

void Dispatcher::MarkDown(Endpoint& e, const grpc::Status& why) {
  std::lock_guard<std::mutex> lock(mu_);
  MarkDownLocked(e, why.error_message());
}

void Dispatcher::MarkDownLocked(Endpoint& e, const std::string& why) {
  worker_failures_.Increment();
  if (!e.up) return;
  std::fprintf(stderr, "arbiter-coordinator: worker %s failed (%s); its games go elsewhere\n",
               e.address.c_str(), why.c_str());
  e.up = false;
  workers_up_gauge_.Set(double(workers_up_locked()));
  e.state_changed.notify_all();
  work_.notify_all();
}

std::shared_ptr<Run> Dispatcher::NewRun(v1::SearchOptions options, bool wait_for_workers) {
  std::shared_ptr<Run> run(new Run(*this, std::move(options), wait_for_workers));
  std::lock_guard<std::mutex> lock(mu_);
  if (stopping_) {
    run->cancelled_ = true;
    run->status_ = absl::UnavailableError("the coordinator is shutting down");
  }
  runs_.push_back(run);
  return run;
}

void Dispatcher::Stop() {
  std::vector<std::shared_ptr<Run>> runs;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    for (const std::weak_ptr<Run>& r : runs_)
      if (std::shared_ptr<Run> run = r.lock()) runs.push_back(std::move(run));
    for (auto& [address, e] : endpoints_) e->state_changed.notify_all();
  }
  work_.notify_all();
  watch_.notify_all();
  for (const std::shared_ptr<Run>& run : runs) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (run->status_.ok())
        run->status_ = absl::UnavailableError("the coordinator is shutting down");
    }
    run->Cancel();
  }
}

grpc::Status Dispatcher::Analyze(const v1::AnalyzeRequest& request, v1::Assessment* out,
                                 std::chrono::system_clock::time_point deadline) {
  std::set<int> tried;
  int timeouts = 0;
  grpc::Status last;
  for (int attempt = 0; attempt < 3; ++attempt) {
    std::shared_ptr<Endpoint> e;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (const auto& [address, c] : endpoints_) {
        if (!c->up || c->removed || tried.count(c->id)) continue;
        if (!e || c->in_flight < e->in_flight) e = c;
      }
      if (!e && last.ok())
        return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                            absl::StrCat("no worker is serving: ", WhyNoWorkerLocked()));
      if (std::string why = TablesMismatchLocked(request.options().tablebase()); !why.empty())
        return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, why);
      if (!e) return last;
      ++e->in_flight;
    }
    tried.insert(e->id);
    const auto start = Clock::now();
    grpc::ClientContext ctx;
    ctx.set_deadline(std::min(deadline, After(options_.analyze_deadline)));
    {
      std::lock_guard<std::mutex> lock(mu_);
      e->calls.insert(&ctx);
    }
    grpc::Status s = e->stub->Analyze(&ctx, request, out);
    {
      std::lock_guard<std::mutex> lock(mu_);
      e->calls.erase(&ctx);
      --e->in_flight;
    }
    analyze_seconds_.Observe(std::chrono::duration<double>(Clock::now() - start).count());
    if (s.ok() || RequestFault(s.error_code())) return s;
    // Past the client's own deadline nothing is retried. A call that only
    // ran out of the coordinator's analyze deadline is tried once more on
    // another worker (an analysis is idempotent), without marking this one
    // down: it may just be busy, and the watchdog finds hung workers.
    if (s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
      if (std::chrono::system_clock::now() >= deadline || ++timeouts > 1) return s;
    } else {
      MarkDown(*e, s);
    }
    last = s;
  }
  return last;
}

}  // namespace arbiter::coordinator
