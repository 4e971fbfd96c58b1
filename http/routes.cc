#include "http/routes.h"

#include <chrono>
#include <memory>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/io/byte_source.h"
#include "core/render/game_verdict_json.h"
#include "core/render/json.h"
#include "core/render/tablebase_json.h"
#include "core/render/verdict_output.h"
#include "http/api_json.h"
#include "http/assets.h"
#include "http/job_json.h"
#include "http/query.h"
#include "prometheus/text_serializer.h"
#include "proto/convert.h"

namespace arbiter::http {
namespace {

using Clock = std::chrono::steady_clock;

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string Decode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && HexDigit(s[i + 1]) >= 0 && HexDigit(s[i + 2]) >= 0) {
      out += char(HexDigit(s[i + 1]) * 16 + HexDigit(s[i + 2]));
      i += 2;
    } else if (s[i] == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

QueryLookup QueryOf(const Request& req) {
  return [&req](const std::string& name) -> std::optional<std::string> {
    auto it = req.query.find(name);
    if (it == req.query.end()) return std::nullopt;
    return it->second;
  };
}

// The NDJSON of a run of verdicts (`run` delivers them in order): each
// verdict, then the summary `verify --format jsonl` ends with.
absl::Status VerdictLines(bool tablebase, LineQueue& out,
                          const std::function<absl::Status(const VerdictSink&)>& run) {
  const auto start = Clock::now();
  VerdictSummary summary;
  summary.tablebases = tablebase;
  absl::Status s = run([&](const GameVerdict& v) {
    summary.Add(v);
    std::string record = GameVerdictJson(v);
    record += '\n';
    return out.Push(std::move(record));
  });
  if (!s.ok()) return s;
  out.Push(summary.Json(std::chrono::duration<double>(Clock::now() - start).count()));
  return absl::OkStatus();
}

}  // namespace

void ParseTarget(std::string_view target, Request* request) {
  const size_t q = target.find('?');
  request->path = Decode(target.substr(0, q), false);
  if (q == std::string_view::npos) return;
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    std::string name = Decode(pair.substr(0, eq), true);
    std::string value = eq == std::string_view::npos ? "" : Decode(pair.substr(eq + 1), true);
    // The first of a repeated parameter, as cpp-httplib's get_param_value.
    request->query.emplace(std::move(name), std::move(value));
  }
}

Reply JsonReply(int status, std::string json) {
  Reply r;
  r.status = status;
  r.body = std::move(json);
  r.body += '\n';
  return r;
}

Reply ErrorReply(const absl::Status& status, int http_status) {
  Reply r =
      JsonReply(http_status ? http_status : HttpStatusOf(status), ErrorJson(status, http_status));
  // UNAVAILABLE is passing (tables being built, workers starting or
  // restarting): a client may come back. A few seconds, not the time the
  // wait may take: the answer's message says how far it is.
  if (r.status == 503) r.headers.emplace_back("Retry-After", "5");
  return r;
}

std::optional<Route> Routes::Match(const Request& req, Reply* refusal) const {
  const int64_t small = options_.limits.small_body;
  const std::string& p = req.path;
  const std::string& m = req.method;
  auto route = [&](RouteName name, Kind kind, bool token, int64_t limit, std::string label,
                   std::string id = "") {
    return Route{name,         kind, token && options_.tokens != nullptr, limit, std::move(label),
                 std::move(id)};
  };
  std::optional<Route> r;
  if (p == "/v1/analyze" && m == "GET") {
    r = route(RouteName::kAnalyzeGet, Kind::kAnalyze, true, small, p);
  } else if (p == "/v1/analyze" && m == "POST") {
    r = route(RouteName::kAnalyzePost, Kind::kAnalyze, true, small, p);
  } else if (p == "/v1/tablebase" && m == "GET") {
    r = route(RouteName::kTablebase, Kind::kAnalyze, true, small, p);
  } else if (p == "/v1/verify" && m == "POST") {
    r = route(RouteName::kVerify, Kind::kStreamThrough, true, options_.max_verify_bytes, p);
  } else if (p == "/v1/jobs" && m == "POST") {
    r = route(RouteName::kSubmitJob, Kind::kStreamIn, true, options_.max_job_bytes, p);
  } else if (p == "/v1/jobs" && m == "GET") {
    r = route(RouteName::kListJobs, Kind::kPool, true, small, p);
  } else if (p.starts_with("/v1/jobs/") && p.size() > 9) {
    std::string rest = p.substr(9);
    const size_t slash = rest.find('/');
    std::string id = rest.substr(0, slash);
    std::string tail = slash == std::string::npos ? "" : rest.substr(slash);
    if (tail.empty() && m == "GET")
      r = route(RouteName::kGetJob, Kind::kPool, true, small, "/v1/jobs/{id}", id);
    else if (tail.empty() && m == "DELETE")
      r = route(RouteName::kDeleteJob, Kind::kPool, true, small, "/v1/jobs/{id}", id);
    else if (tail == "/results" && m == "GET")
      r = route(RouteName::kJobResults, Kind::kStreamOut, true, small, "/v1/jobs/{id}/results", id);
    else if (tail == "/cancel" && m == "POST")
      r = route(RouteName::kCancelJob, Kind::kPool, true, small, "/v1/jobs/{id}/cancel", id);
  } else if (p == "/healthz" && m == "GET") {
    r = route(RouteName::kHealth, Kind::kLoop, false, small, p);
  } else if (p == "/metrics" && m == "GET") {
    r = route(RouteName::kMetrics, Kind::kPool, true, small, p);
  } else if (m == "GET" && p.find('/', 1) == std::string::npos && FindAsset(p)) {
    r = route(RouteName::kAsset, Kind::kLoop, false, small, "/");
  }
  if (!r) {
    *refusal = ErrorReply(absl::NotFoundError(m == "GET" && p.find('/', 1) == std::string::npos
                                                  ? absl::StrCat("no page ", p)
                                                  : absl::StrCat("no route ", m, " ", p)));
    return std::nullopt;
  }
  // A browser form's upload (curl -F) wraps the file in MIME parts that the
  // PGN reader would take for moves; say what is read instead. Other types
  // are accepted as before: the body is read as PGN or .pgn.zst whatever it
  // is labelled.
  if ((r->name == RouteName::kVerify || r->name == RouteName::kSubmitJob) &&
      absl::StartsWithIgnoreCase(req.content_type, "multipart/")) {
    *refusal = JsonReply(
        415, ErrorJson(absl::InvalidArgumentError(absl::StrCat(
                           "the body is ", req.content_type.substr(0, req.content_type.find(';')),
                           "; send the PGN or .pgn.zst file itself as the body, e.g. curl "
                           "--data-binary @games.pgn (any Content-Type but multipart/)")),
                       415));
    return std::nullopt;
  }
  return r;
}

std::optional<Reply> Routes::CheckQuery(const Route& route, const Request& req) const {
  absl::Status s;
  if (route.name == RouteName::kVerify || route.name == RouteName::kSubmitJob)
    s = SearchOptionsFromQuery(QueryOf(req)).status();
  else if (route.name == RouteName::kJobResults)
    s = IntegerFromQuery(QueryOf(req), "first_game", 0).status();
  if (s.ok()) return std::nullopt;
  return ErrorReply(s);
}

Reply Routes::Analyze(const v1::AnalyzeRequest& request) {
  absl::StatusOr<v1::Assessment> a = backend_.Analyze(request);
  if (!a.ok()) return ErrorReply(a.status());
  absl::StatusOr<std::string> record = AssessmentRecord(*a);
  if (!record.ok()) return ErrorReply(record.status());
  return JsonReply(200, *std::move(record));
}

Reply Routes::Answer(const Route& route, const Request& req) {
  switch (route.name) {
    case RouteName::kAnalyzeGet: {
      absl::StatusOr<v1::AnalyzeRequest> request = AnalyzeRequestFromQuery(QueryOf(req));
      if (!request.ok()) return ErrorReply(request.status());
      return Analyze(*request);
    }
    case RouteName::kAnalyzePost: {
      absl::StatusOr<QueryLookup> query = QueryFromJsonBody(
          req.body, "the body (the query's parameters as a JSON object)", AnalyzeParameters());
      if (!query.ok()) return ErrorReply(query.status());
      absl::StatusOr<v1::AnalyzeRequest> request = AnalyzeRequestFromQuery(*query);
      if (!request.ok()) return ErrorReply(request.status());
      return Analyze(*request);
    }
    case RouteName::kTablebase: {
      absl::StatusOr<v1::AnalyzeRequest> request = AnalyzeRequestFromQuery(QueryOf(req));
      if (!request.ok()) return ErrorReply(request.status());
      request->mutable_options()->set_tablebase(true);
      absl::StatusOr<v1::Assessment> a = backend_.Analyze(*request);
      if (!a.ok()) return ErrorReply(a.status());
      absl::StatusOr<PositionAnalysis> analysis = wire::FromProto(*a);
      if (!analysis.ok()) return ErrorReply(analysis.status());
      return JsonReply(200,
                       TablebaseApiJson(analysis->tablebase.value_or(TablebaseProbe{}),
                                        analysis->assessment.status == GameStatus::kCheckmate,
                                        analysis->assessment.status == GameStatus::kStalemate));
    }
    case RouteName::kListJobs: {
      absl::StatusOr<int64_t> limit = IntegerFromQuery(QueryOf(req), "limit", 0);
      if (!limit.ok()) return ErrorReply(limit.status());
      absl::StatusOr<std::vector<v1::Job>> jobs =
          backend_.ListJobs(int(std::min<int64_t>(*limit, 100000)), req.authorization);
      if (!jobs.ok()) return ErrorReply(jobs.status());
      v1::ListJobsResponse list;
      for (v1::Job& job : *jobs) *list.add_jobs() = std::move(job);
      return JsonReply(200, JobListJson(list));
    }
    case RouteName::kGetJob: {
      absl::StatusOr<v1::Job> job = backend_.GetJob(route.id, req.authorization);
      if (!job.ok()) return ErrorReply(job.status());
      return JsonReply(200, JobJson(*job));
    }
    case RouteName::kCancelJob: {
      absl::StatusOr<v1::Job> job = backend_.CancelJob(route.id, req.authorization);
      if (!job.ok()) return ErrorReply(job.status());
      return JsonReply(200, JobJson(*job));
    }
    case RouteName::kDeleteJob: {
      if (absl::Status st = backend_.DeleteJob(route.id, req.authorization); !st.ok())
        return ErrorReply(st);
      return JsonReply(200, JsonObject().Add("type", "deleted").Add("id", route.id).Close());
    }
    case RouteName::kHealth: {
      const bool serving = backend_.Serving();
      return JsonReply(serving ? 200 : 503, JsonObject()
                                                .Add("type", "health")
                                                .Add("status", serving ? "serving" : "not_serving")
                                                .Close());
    }
    case RouteName::kMetrics: {
      if (!options_.metrics) return ErrorReply(absl::NotFoundError("this server keeps no metrics"));
      Reply r;
      r.body = prometheus::TextSerializer().Serialize(options_.metrics->Collect());
      r.content_type = "text/plain; version=0.0.4";
      return r;
    }
    case RouteName::kAsset: {
      const Asset* asset = FindAsset(req.path);
      if (!asset) return ErrorReply(absl::NotFoundError(absl::StrCat("no page ", req.path)));
      Reply r;
      r.body = std::string(asset->body);
      r.content_type = std::string(asset->content_type);
      // The page loads nothing from elsewhere, and says so to the browser;
      // no other site may frame it (clickjacking).
      r.headers = {{"Content-Security-Policy",
                    "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                    "frame-ancestors 'none'"},
                   {"X-Frame-Options", "DENY"},
                   {"X-Content-Type-Options", "nosniff"}};
      return r;
    }
    default:
      return ErrorReply(absl::InternalError("not a short route"));
  }
}

absl::Status Routes::Stream(const Route& route, const Request& req,
                            std::unique_ptr<ByteSource> body, LineQueue& out) {
  Backend& b = backend_;
  if (route.name == RouteName::kVerify) {
    absl::StatusOr<v1::SearchOptions> options = SearchOptionsFromQuery(QueryOf(req));
    if (!options.ok()) return options.status();
    return VerdictLines(options->tablebase(), out, [&](const VerdictSink& deliver) {
      PgnReader games(std::move(body), wire::ReaderOptionsFor(*options));
      absl::Status s = b.Verify(
          *options, [&](RawGame* game) { return games.Next(game); }, deliver);
      if (const absl::Status& cut = games.input_error(); s.ok() && !cut.ok()) {
        // A body cut by this server's limits keeps its code (408, 413 in
        // the failure line); anything else wrong with it is the client's.
        const bool limit = absl::IsDeadlineExceeded(cut) || absl::IsResourceExhausted(cut);
        s = absl::Status(
            limit ? cut.code() : absl::StatusCode::kInvalidArgument,
            absl::StrCat("the body ended early, the rest was not read: ", cut.message()));
      }
      return s;
    });
  }
  absl::StatusOr<int64_t> first = IntegerFromQuery(QueryOf(req), "first_game", 0);
  if (!first.ok()) return first.status();
  absl::StatusOr<v1::Job> job = b.GetJob(route.id, req.authorization);
  if (!job.ok()) return job.status();
  const std::string& id = route.id;
  // A job that failed or was cancelled ends with a failure line, not a
  // summary: its verdicts are not a whole run (as `arbiter job results`).
  return VerdictLines(job->options().tablebase(), out, [&](const VerdictSink& deliver) {
    if (absl::Status s = b.JobResults(id, *first, deliver, req.authorization); !s.ok()) return s;
    absl::StatusOr<v1::Job> end = b.GetJob(id, req.authorization);
    if (!end.ok()) return end.status();
    if (end->state() == v1::Job::STATE_FAILED)
      return absl::AbortedError(absl::StrCat("job ", id, " failed: ", end->error()));
    if (end->state() == v1::Job::STATE_CANCELLED)
      return absl::AbortedError(absl::StrCat("job ", id, " was cancelled"));
    return absl::OkStatus();
  });
}

Reply Routes::Upload(const Route&, const Request& req, const BodyReader& body) {
  absl::StatusOr<v1::SearchOptions> search = SearchOptionsFromQuery(QueryOf(req));
  if (!search.ok()) return ErrorReply(search.status());
  auto name = req.query.find("name");
  absl::StatusOr<v1::Job> job = backend_.SubmitJob(
      name == req.query.end() ? "upload.pgn" : name->second, *search, body, req.authorization);
  if (!job.ok()) return ErrorReply(job.status());
  return JsonReply(201, JobJson(*job));
}

}  // namespace arbiter::http
