// What the HTTP API needs of an Arbiter, in arbiter.v1 messages, and
// verdicts as core's (the JSON is written from those): the coordinator
// answers through its own gRPC service (grpc_backend.h), and `arbiter
// serve` with the engine in its process (client/serve_backend.h). The
// routes (http_server.h) know nothing of which.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter.pb.h"
#include "core/pgn/pgn_reader.h"
#include "core/verdict/game_verdict.h"

namespace arbiter::http {

// Called with each verdict, in input order; returning false stops the run
// (the HTTP client went away).
using VerdictSink = std::function<bool(const GameVerdict&)>;

// A request body read in pieces: calls `write` with each, in order, and
// returns false when reading failed or `write` returned false.
using BodyReader = std::function<bool(const std::function<bool(std::string_view)>& write)>;

class Backend {
 public:
  virtual ~Backend() = default;

  // One position (with `options.tablebase`, its Syzygy value too). Errors
  // as the gRPC API's: INVALID_ARGUMENT, RESOURCE_EXHAUSTED,
  // FAILED_PRECONDITION, UNAVAILABLE.
  virtual absl::StatusOr<v1::Assessment> Analyze(const v1::AnalyzeRequest& request) = 0;

  // The games `next` yields (read by the caller from the request body), each
  // ruled under `options`; verdicts to `deliver` in input order. An error
  // status when the run could not complete (its options refused, no worker).
  virtual absl::Status Verify(const v1::SearchOptions& options,
                              const std::function<bool(RawGame*)>& next,
                              const VerdictSink& deliver) = 0;

  // Jobs: a PGN or .pgn.zst file ruled in the background, read back by id.
  // The job's file is `body` (PGN or .pgn.zst), named `name` as its client
  // knows it. `authorization` is the request's header ("" for none): the
  // service decides from it what the caller may do and which jobs it sees
  // (others' are NOT_FOUND).
  virtual absl::StatusOr<v1::Job> SubmitJob(const std::string& name,
                                            const v1::SearchOptions& options,
                                            const BodyReader& body,
                                            const std::string& authorization) = 0;
  virtual absl::StatusOr<v1::Job> GetJob(const std::string& id,
                                         const std::string& authorization) = 0;
  // Newest first; `limit` 0: the default.
  virtual absl::StatusOr<std::vector<v1::Job>> ListJobs(int limit,
                                                        const std::string& authorization) = 0;
  virtual absl::StatusOr<v1::Job> CancelJob(const std::string& id,
                                            const std::string& authorization) = 0;
  virtual absl::Status DeleteJob(const std::string& id, const std::string& authorization) = 0;
  // The job's verdicts from the 1-based `first_game` on (0: from the
  // start), following a running job to its end.
  virtual absl::Status JobResults(const std::string& id, int64_t first_game,
                                  const VerdictSink& deliver, const std::string& authorization) = 0;

  // Whether it can take work now (GET /healthz).
  virtual bool Serving() = 0;
};

}  // namespace arbiter::http
