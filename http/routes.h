// The API's routes, apart from how bytes move: which route a request is,
// what it may send (its body limit, whether it needs a token) and how its
// answer is made. The connection (connection.h) reads the request, runs
// the answer where its kind says (the io thread, the pool, a stream
// thread) and writes it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "http/backend.h"
#include "http/handoff.h"
#include "http/http_server.h"

namespace arbiter::http {

inline constexpr char kJson[] = "application/json";
inline constexpr char kNdjson[] = "application/x-ndjson";

// A request as the routes see it (the header's fields they need, and the
// body once read).
struct Request {
  std::string method;  // "GET", ...
  std::string path;    // percent-decoded
  std::map<std::string, std::string> query;
  std::string content_type;
  // Passed on to the backend, whose service decides from it which jobs the
  // caller sees (common/tokens.h).
  std::string authorization;
  std::string body;
};

// The start line's target split into Request::path and ::query ('+' in the
// query is a space, %XX a byte).
void ParseTarget(std::string_view target, Request* request);

// A whole answer.
struct Reply {
  int status = 200;
  std::string content_type = kJson;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};
// `json` and a newline.
Reply JsonReply(int status, std::string json);
// {"type": "failure", ...} with the HTTP status of `status` (or `http_status`).
Reply ErrorReply(const absl::Status& status, int http_status = 0);

enum class Kind {
  kLoop,           // answered on the io thread (never blocks): /healthz, the page
  kPool,           // a blocking backend call on the handler pool
  kAnalyze,        // the same, a position, on the analyze pool
  kStreamOut,      // NDJSON from a thread of its own (job results)
  kStreamThrough,  // the same, ruling the body as it arrives (verify)
  kStreamIn,       // a streamed upload consumed by a thread of its own (jobs)
};

enum class RouteName {
  kAnalyzeGet,
  kAnalyzePost,
  kTablebase,
  kVerify,
  kSubmitJob,
  kListJobs,
  kGetJob,
  kJobResults,
  kCancelJob,
  kDeleteJob,
  kHealth,
  kMetrics,
  kAsset,
};

struct Route {
  RouteName name;
  Kind kind;
  bool needs_token;
  int64_t body_limit;  // the largest body it reads
  std::string label;   // for metrics: job ids folded into "{id}"
  std::string id;      // a job's id, for the job routes
};

class Routes {
 public:
  Routes(const HttpOptions& options, Backend& backend) : options_(options), backend_(backend) {}

  // The route of a request whose header was read (its body not yet), or the
  // refusal: 404 for no route, 415 for a body type no route reads.
  std::optional<Route> Match(const Request& request, Reply* refusal) const;

  // The query's refusal, checked before the body is read (so that a bad
  // option is answered 400 whatever the body's size); nullopt when it
  // passes. Cheap: on the io thread.
  std::optional<Reply> CheckQuery(const Route& route, const Request& request) const;

  // kLoop and kPool: the answer.
  Reply Answer(const Route& route, const Request& request);
  // kStreamOut and kStreamThrough, on its thread: pushes the lines to
  // `out`; how the run ended (the connection then writes an error line, or
  // answers with the error when no line came). `body`: a kStreamThrough
  // route's body, as it arrives.
  absl::Status Stream(const Route& route, const Request& request, std::unique_ptr<ByteSource> body,
                      LineQueue& out);
  // kStreamIn, on its thread: the answer once the body was read through
  // `body`.
  Reply Upload(const Route& route, const Request& request, const BodyReader& body);

 private:
  Reply Analyze(const v1::AnalyzeRequest& request);

  const HttpOptions& options_;
  Backend& backend_;
};

}  // namespace arbiter::http
