// The HTTP/JSON API and the web page, over a Backend (the coordinator's
// gRPC service, or the engine of `arbiter serve`). Routes (docs/http.md):
//
//   GET  /v1/analyze?fen=...           one position  -> Assessment
//   POST /v1/analyze                   AnalyzeRequest as JSON -> Assessment
//   POST /v1/verify                    PGN or .pgn.zst body -> NDJSON: one
//                                      GameVerdict per game, in input order,
//                                      as ruled, then {"summary": ...}
//   GET  /v1/tablebase?fen=...         the Lichess tablebase API's shape
//   POST /v1/jobs?name=...             PGN body -> Job (201)
//   GET  /v1/jobs                      {"jobs": [Job...]}, newest first
//   GET  /v1/jobs/{id}                 Job
//   GET  /v1/jobs/{id}/results         NDJSON as /v1/verify, following a
//                                      running job
//   POST /v1/jobs/{id}/cancel          Job
//   DELETE /v1/jobs/{id}               {}
//   GET  /healthz, GET /metrics        health; Prometheus text
//   GET  /                             the web page (assets built in)
//
// With tokens, /v1/* and /metrics need "Authorization: Bearer <token>";
// the page and /healthz do not (the page asks for the token).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/security.h"
#include "http/backend.h"
#include "http/limits.h"
#include "prometheus/registry.h"

namespace arbiter::http {

struct HttpOptions {
  std::string address = "127.0.0.1:8080";     // host:port; port 0 picks a free one
  std::string cert_file, key_file;            // both set: HTTPS
  std::shared_ptr<common::TokenFile> tokens;  // null: no token needed
  // Largest /v1/verify body (it is held in memory while ruled) and /v1/analyze
  // body; job uploads stream and are bounded by the backend.
  int64_t max_verify_bytes = int64_t(256) << 20;
  int64_t max_job_bytes = int64_t(64) << 30;
  // A client that leaves a response unread this long is dropped (its run
  // cancelled), as a stalled gRPC stream is.
  std::chrono::seconds write_timeout{60};
  // Blocking backend calls (jobs, metrics) run at once on a pool of this
  // many threads; more wait. Sockets are all served by one io thread, and
  // each stream has its own thread (limits.max_streams).
  int threads = 16;
  // Positions (GET/POST /v1/analyze, /v1/tablebase) have a pool of their
  // own, so that a long analysis never holds up a job listing; 0: as
  // `threads`. `arbiter serve`, whose analyses compute in the handler's
  // thread, gives it its worker's compute slots: more threads would only
  // queue for those slots, and the wake-ups cost a third of the throughput
  // (docs/benchmarks.md). A coordinator's analyses wait on workers, so it
  // keeps many.
  int analyze_threads = 0;
  // What one client may cost (limits.h, docs/http.md).
  HttpLimits limits;
  // Without tokens, requests must name a loopback Host (localhost,
  // 127.0.0.1, [::1]) and come from a loopback Origin when they have one,
  // so that a web page elsewhere cannot reach a local server (DNS
  // rebinding); these hosts are accepted too (--http-allow-host).
  std::vector<std::string> allowed_hosts;
  // /metrics serves this registry (with the HTTP metrics added); null: 404.
  std::shared_ptr<prometheus::Registry> metrics;
  // The bound port is written here (via a rename), for scripts and tests.
  std::string port_file;
};

class HttpServer {
 public:
  // Listens on options.address and serves in background threads. Errors:
  // INVALID_ARGUMENT for a bad address or a key without a certificate,
  // NOT_FOUND for unreadable certificate files, UNAVAILABLE when the port
  // cannot be bound.
  static absl::StatusOr<std::unique_ptr<HttpServer>> Start(HttpOptions options, Backend& backend);
  ~HttpServer();  // stops

  int port() const;
  bool tls() const;
  // Stops listening and waits for the serving thread (responses being
  // streamed end).
  void Stop();

 private:
  struct Impl;
  explicit HttpServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace arbiter::http
