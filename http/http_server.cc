#include "http/http_server.h"

#include <httplib.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/serving.h"
#include "core/io/byte_source.h"
#include "core/render/json.h"
#include "core/render/tablebase_json.h"
#include "core/render/verdict_output.h"
#include "http/api_json.h"
#include "http/assets.h"
#include "http/job_json.h"
#include "http/query.h"
#include "prometheus/counter.h"
#include "prometheus/text_serializer.h"
#include "proto/convert.h"

namespace arbiter::http {
namespace {

using Clock = std::chrono::steady_clock;

constexpr char kJson[] = "application/json";
constexpr char kNdjson[] = "application/x-ndjson";
// Lines of NDJSON a stream holds for a slow reader before the run waits.
constexpr size_t kMaxQueuedLines = 1024;

// "host:port" or "[v6]:port".
absl::Status SplitAddress(const std::string& address, std::string* host, int* port) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos || !absl::SimpleAtoi(address.substr(colon + 1), port) ||
      *port < 0 || *port > 65535)
    return absl::InvalidArgumentError(
        absl::StrCat("--http ", address, ": give HOST:PORT (port 0 picks a free one)"));
  *host = address.substr(0, colon);
  if (host->size() >= 2 && host->front() == '[' && host->back() == ']')
    *host = host->substr(1, host->size() - 2);
  if (host->empty()) *host = "0.0.0.0";
  return absl::OkStatus();
}

void SendJson(httplib::Response& res, int status, const std::string& json) {
  res.status = status;
  res.set_content(json + "\n", kJson);
}

void SendError(httplib::Response& res, const absl::Status& status) {
  SendJson(res, HttpStatusOf(status), ErrorJson(status));
}

// A body that could not be taken: 413 when it is over the limit.
void SendBodyError(httplib::Response& res, const absl::Status& status) {
  if (status.code() != absl::StatusCode::kResourceExhausted) return SendError(res, status);
  SendJson(res, 413, ErrorJson(status, 413));
}

QueryLookup QueryOf(const httplib::Request& req) {
  return [&req](const std::string& name) -> std::optional<std::string> {
    if (!req.has_param(name.c_str())) return std::nullopt;
    return req.get_param_value(name.c_str());
  };
}

// The route a request matched, for metrics: job ids folded into "{id}".
std::string RouteLabel(const httplib::Request& req) {
  const std::string& path = req.path;
  if (path.starts_with("/v1/jobs/")) {
    if (path.ends_with("/results")) return "/v1/jobs/{id}/results";
    if (path.ends_with("/cancel")) return "/v1/jobs/{id}/cancel";
    return "/v1/jobs/{id}";
  }
  if (path.starts_with("/v1/") || path == "/healthz" || path == "/metrics") return path;
  return FindAsset(path) ? "/" : "other";
}

// NDJSON produced by a run on its own thread and written to the client as it
// comes: a bounded queue between the two, so that a slow reader slows the
// run instead of filling memory, and a reader that goes away (a failed
// write) cancels it. A run that fails ends the stream with an error line,
// so that a client never takes a cut stream for a complete one.
class LineStream {
 public:
  // Runs `produce` on a new thread; it calls Push for each line and returns
  // how the run ended.
  explicit LineStream(std::function<absl::Status(LineStream&)> produce)
      : thread_([this, produce = std::move(produce)] {
          absl::Status status = produce(*this);
          std::lock_guard<std::mutex> lock(mu_);
          failure_ = std::move(status);
          done_ = true;
          changed_.notify_all();
        }) {}
  ~LineStream() {
    Cancel();
    thread_.join();
  }

  // Queues a line (ending in '\n'); waits while the queue is full. False once
  // the reader went away: the producer should stop.
  bool Push(std::string line) {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [&] { return cancelled_ || lines_.size() < kMaxQueuedLines; });
    if (cancelled_) return false;
    lines_.push_back(std::move(line));
    changed_.notify_all();
    return true;
  }
  bool cancelled() {
    std::lock_guard<std::mutex> lock(mu_);
    return cancelled_;
  }

  // Waits for the first line or the end of the run. When the run ended
  // without a line and failed, returns its failure: the response can then
  // be the error, with its status.
  absl::Status FailureBeforeTheFirstLine() {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [&] { return done_ || !lines_.empty(); });
    return done_ && lines_.empty() ? failure_ : absl::OkStatus();
  }

  // httplib's chunked content provider: writes what is queued, or ends.
  bool Provide(httplib::DataSink& sink) {
    std::string text;
    bool done;
    {
      std::unique_lock<std::mutex> lock(mu_);
      changed_.wait(lock, [&] { return done_ || !lines_.empty(); });
      for (const std::string& line : lines_) text += line;
      lines_.clear();
      done = done_;
      if (done && !failure_.ok() && !failure_reported_) {
        text += ErrorJson(failure_) + "\n";
        failure_reported_ = true;
      }
      changed_.notify_all();
    }
    if (!text.empty() && !sink.write(text.data(), text.size())) {
      Cancel();
      return false;
    }
    if (done) sink.done();
    return true;
  }

  void Cancel() {
    std::lock_guard<std::mutex> lock(mu_);
    cancelled_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<std::string> lines_;
  bool done_ = false, cancelled_ = false, failure_reported_ = false;
  absl::Status failure_;
  std::thread thread_;  // last: starts once the rest exists
};

// The NDJSON of a run of verdicts (`run` delivers them in order): each
// verdict, then the summary `verify --format jsonl` ends with.
std::shared_ptr<LineStream> VerdictStream(bool tablebase,
                                          std::function<absl::Status(const VerdictSink&)> run) {
  return std::make_shared<LineStream>([tablebase, run = std::move(run)](LineStream& out) {
    const auto start = Clock::now();
    VerdictSummary summary;
    summary.tablebases = tablebase;
    absl::Status failure;
    absl::Status s = run([&](const v1::GameVerdict& v) {
      absl::StatusOr<std::string> record = VerdictRecord(v, &summary);
      if (!record.ok()) {
        failure = record.status();
        return false;
      }
      return out.Push(*std::move(record) + "\n");
    });
    if (!failure.ok()) return failure;
    if (!s.ok()) return s;
    out.Push(summary.Json(std::chrono::duration<double>(Clock::now() - start).count()));
    return absl::OkStatus();
  });
}

// Streams the run's lines as the response, or answers with its error when
// it failed before its first line (options refused, an unknown job).
void Respond(httplib::Response& res, std::shared_ptr<LineStream> stream) {
  if (absl::Status failure = stream->FailureBeforeTheFirstLine(); !failure.ok())
    return SendError(res, failure);
  res.set_chunked_content_provider(
      kNdjson, [stream](size_t, httplib::DataSink& sink) { return stream->Provide(sink); },
      [stream](bool) { stream->Cancel(); });
}

// Bytes of a refused request's body read and dropped before the answer: a
// client still sending when the server closes would see the connection
// reset instead of the answer. Past this, the connection is closed unread.
constexpr int64_t kMaxDrainBytes = int64_t(64) << 20;

// Reads the request body through `reader` (which can be called once),
// handing each piece to `take` until it returns false; the rest is read and
// dropped, up to kMaxDrainBytes.
void ReadAll(const httplib::ContentReader& reader,
             const std::function<bool(const char*, size_t)>& take) {
  bool taking = true;
  int64_t dropped = 0;
  reader([&](const char* data, size_t n) {
    if (taking && take(data, n)) return true;
    taking = false;
    dropped += int64_t(n);
    return dropped <= kMaxDrainBytes;
  });
}

// A refused request's body, read and dropped.
void Drain(const httplib::ContentReader& reader) {
  ReadAll(reader, [](const char*, size_t) { return false; });
}

// Reads the request body through `reader`, at most `max_bytes`:
// RESOURCE_EXHAUSTED beyond.
absl::StatusOr<std::string> ReadBody(const httplib::ContentReader& reader, int64_t max_bytes) {
  std::string body;
  bool too_large = false;
  ReadAll(reader, [&](const char* data, size_t n) {
    if (int64_t(body.size() + n) > max_bytes) {
      too_large = true;
      return false;
    }
    body.append(data, n);
    return true;
  });
  if (too_large)
    return absl::ResourceExhaustedError(
        absl::StrCat("the request body is larger than this server's limit of ", max_bytes >> 20,
                     " MB; submit a larger file as a job (POST /v1/jobs)"));
  return body;
}

}  // namespace

struct HttpServer::Impl {
  const HttpOptions config;
  Backend& backend;
  std::unique_ptr<httplib::Server> server;
  std::thread thread;
  int port = 0;
  bool tls = false;
  prometheus::Family<prometheus::Counter>* requests = nullptr;

  Impl(HttpOptions o, Backend& b) : config(std::move(o)), backend(b) {}

  // False (after answering 401) when tokens are required and the request has
  // none of them.
  bool Authorized(const httplib::Request& req, httplib::Response& res) const {
    if (!config.tokens ||
        config.tokens->AcceptsAuthorization(req.get_header_value("Authorization")))
      return true;
    res.set_header("WWW-Authenticate", "Bearer");
    SendError(res, absl::UnauthenticatedError(std::string(common::kTokenRequired)));
    return false;
  }

  void Analyze(const v1::AnalyzeRequest& request, httplib::Response& res) {
    absl::StatusOr<v1::Assessment> a = backend.Analyze(request);
    if (!a.ok()) return SendError(res, a.status());
    absl::StatusOr<std::string> record = AssessmentRecord(*a);
    if (!record.ok()) return SendError(res, record.status());
    SendJson(res, 200, *record);
  }

  void Tablebase(const httplib::Request& req, httplib::Response& res) {
    absl::StatusOr<v1::AnalyzeRequest> request = AnalyzeRequestFromQuery(QueryOf(req));
    if (!request.ok()) return SendError(res, request.status());
    request->mutable_options()->set_tablebase(true);
    absl::StatusOr<v1::Assessment> a = backend.Analyze(*request);
    if (!a.ok()) return SendError(res, a.status());
    absl::StatusOr<PositionAnalysis> analysis = wire::FromProto(*a);
    if (!analysis.ok()) return SendError(res, analysis.status());
    SendJson(res, 200,
             TablebaseApiJson(analysis->tablebase.value_or(TablebaseProbe{}),
                              analysis->assessment.status == GameStatus::kCheckmate,
                              analysis->assessment.status == GameStatus::kStalemate));
  }

  void Verify(const httplib::Request& req, httplib::Response& res,
              const httplib::ContentReader& reader) {
    absl::StatusOr<v1::SearchOptions> options = SearchOptionsFromQuery(QueryOf(req));
    if (!options.ok()) {
      Drain(reader);
      return SendError(res, options.status());
    }
    absl::StatusOr<std::string> body = ReadBody(reader, config.max_verify_bytes);
    if (!body.ok()) return SendBodyError(res, body.status());
    Backend& b = backend;
    auto run = [&b, options = *options, body = std::make_shared<std::string>(*std::move(body))](
                   const VerdictSink& deliver) {
      PgnReader games(ByteSource::FromString(std::move(*body)), wire::ReaderOptionsFor(options));
      absl::Status s = b.Verify(
          options, [&](RawGame* game) { return games.Next(game); }, deliver);
      if (s.ok() && !games.input_error().ok())
        s = absl::InvalidArgumentError(absl::StrCat("the body ended early, the rest was not read: ",
                                                    games.input_error().message()));
      return s;
    };
    auto stream = VerdictStream(options->tablebase(), std::move(run));
    Respond(res, std::move(stream));
  }

  void SubmitJob(const httplib::Request& req, httplib::Response& res,
                 const httplib::ContentReader& reader) {
    absl::StatusOr<v1::SearchOptions> search = SearchOptionsFromQuery(QueryOf(req));
    if (!search.ok()) {
      Drain(reader);
      return SendError(res, search.status());
    }
    const std::string name = req.has_param("name") ? req.get_param_value("name") : "upload.pgn";
    int64_t received = 0;
    bool too_large = false;
    absl::StatusOr<v1::Job> job =
        backend.SubmitJob(name, *search, [&](const std::function<bool(std::string_view)>& write) {
          bool complete = true;
          ReadAll(reader, [&](const char* data, size_t n) {
            received += int64_t(n);
            if (received > config.max_job_bytes) too_large = true;
            complete = !too_large && write(std::string_view(data, n));
            return complete;
          });
          return complete;
        });
    if (too_large)
      return SendBodyError(res, absl::ResourceExhaustedError(absl::StrCat(
                                    "the upload is larger than this server's limit of ",
                                    config.max_job_bytes >> 20, " MB")));
    if (!job.ok()) return SendError(res, job.status());
    SendJson(res, 201, JobJson(*job));
  }

  void JobResults(const std::string& id, const httplib::Request& req, httplib::Response& res) {
    absl::StatusOr<int64_t> first = IntegerFromQuery(QueryOf(req), "first_game", 0);
    if (!first.ok()) return SendError(res, first.status());
    absl::StatusOr<v1::Job> job = backend.GetJob(id);
    if (!job.ok()) return SendError(res, job.status());
    Backend& b = backend;
    // A job that failed or was cancelled ends with a failure line, not a
    // summary: its verdicts are not a whole run (as `arbiter job results`).
    auto stream = VerdictStream(
        job->options().tablebase(), [&b, id, first = *first](const VerdictSink& deliver) {
          if (absl::Status s = b.JobResults(id, first, deliver); !s.ok()) return s;
          absl::StatusOr<v1::Job> end = b.GetJob(id);
          if (!end.ok()) return end.status();
          if (end->state() == v1::Job::STATE_FAILED)
            return absl::AbortedError(absl::StrCat("job ", id, " failed: ", end->error()));
          if (end->state() == v1::Job::STATE_CANCELLED)
            return absl::AbortedError(absl::StrCat("job ", id, " was cancelled"));
          return absl::OkStatus();
        });
    Respond(res, std::move(stream));
  }

  void AddRoutes() {
    httplib::Server& s = *server;
    s.Get("/v1/analyze", [this](const httplib::Request& req, httplib::Response& res) {
      if (!Authorized(req, res)) return;
      absl::StatusOr<v1::AnalyzeRequest> request = AnalyzeRequestFromQuery(QueryOf(req));
      if (!request.ok()) return SendError(res, request.status());
      Analyze(*request, res);
    });
    s.Post("/v1/analyze", [this](const httplib::Request& req, httplib::Response& res,
                                 const httplib::ContentReader& reader) {
      if (!Authorized(req, res)) return Drain(reader);
      absl::StatusOr<std::string> body = ReadBody(reader, 1 << 20);
      if (!body.ok()) return SendBodyError(res, body.status());
      absl::StatusOr<QueryLookup> query = QueryFromJsonBody(
          *body, "the body (the query's parameters as a JSON object)", AnalyzeParameters());
      if (!query.ok()) return SendError(res, query.status());
      absl::StatusOr<v1::AnalyzeRequest> request = AnalyzeRequestFromQuery(*query);
      if (!request.ok()) return SendError(res, request.status());
      Analyze(*request, res);
    });
    s.Get("/v1/tablebase", [this](const httplib::Request& req, httplib::Response& res) {
      if (!Authorized(req, res)) return;
      Tablebase(req, res);
    });
    s.Post("/v1/verify", [this](const httplib::Request& req, httplib::Response& res,
                                const httplib::ContentReader& reader) {
      if (!Authorized(req, res)) return Drain(reader);
      Verify(req, res, reader);
    });
    s.Post("/v1/jobs", [this](const httplib::Request& req, httplib::Response& res,
                              const httplib::ContentReader& reader) {
      if (!Authorized(req, res)) return Drain(reader);
      SubmitJob(req, res, reader);
    });
    s.Get("/v1/jobs", [this](const httplib::Request& req, httplib::Response& res) {
      if (!Authorized(req, res)) return;
      absl::StatusOr<int64_t> limit = IntegerFromQuery(QueryOf(req), "limit", 0);
      if (!limit.ok()) return SendError(res, limit.status());
      absl::StatusOr<std::vector<v1::Job>> jobs =
          backend.ListJobs(int(std::min<int64_t>(*limit, 100000)));
      if (!jobs.ok()) return SendError(res, jobs.status());
      v1::ListJobsResponse list;
      for (v1::Job& job : *jobs) *list.add_jobs() = std::move(job);
      SendJson(res, 200, JobListJson(list));
    });
    s.Get(R"(/v1/jobs/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
      if (!Authorized(req, res)) return;
      absl::StatusOr<v1::Job> job = backend.GetJob(req.matches[1]);
      if (!job.ok()) return SendError(res, job.status());
      SendJson(res, 200, JobJson(*job));
    });
    s.Get(R"(/v1/jobs/([^/]+)/results)",
          [this](const httplib::Request& req, httplib::Response& res) {
            if (!Authorized(req, res)) return;
            JobResults(req.matches[1], req, res);
          });
    s.Post(R"(/v1/jobs/([^/]+)/cancel)",
           [this](const httplib::Request& req, httplib::Response& res) {
             if (!Authorized(req, res)) return;
             absl::StatusOr<v1::Job> job = backend.CancelJob(req.matches[1]);
             if (!job.ok()) return SendError(res, job.status());
             SendJson(res, 200, JobJson(*job));
           });
    s.Delete(R"(/v1/jobs/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) {
      if (!Authorized(req, res)) return;
      if (absl::Status st = backend.DeleteJob(req.matches[1]); !st.ok()) return SendError(res, st);
      SendJson(res, 200,
               JsonObject().Add("type", "deleted").Add("id", req.matches[1].str()).Close());
    });
    s.Get("/healthz", [this](const httplib::Request&, httplib::Response& res) {
      const bool serving = backend.Serving();
      SendJson(res, serving ? 200 : 503,
               JsonObject()
                   .Add("type", "health")
                   .Add("status", serving ? "serving" : "not_serving")
                   .Close());
    });
    s.Get("/metrics", [this](const httplib::Request& req, httplib::Response& res) {
      if (!Authorized(req, res)) return;
      if (!config.metrics)
        return SendError(res, absl::NotFoundError("this server keeps no metrics"));
      res.set_content(prometheus::TextSerializer().Serialize(config.metrics->Collect()),
                      "text/plain; version=0.0.4");
    });
    s.Get(R"(/[^/]*)", [](const httplib::Request& req, httplib::Response& res) {
      const Asset* asset = FindAsset(req.path);
      if (!asset) return SendError(res, absl::NotFoundError(absl::StrCat("no page ", req.path)));
      // The page loads nothing from elsewhere, and says so to the browser.
      res.set_header("Content-Security-Policy",
                     "default-src 'self'; img-src 'self' data:; style-src 'self'");
      res.set_header("X-Content-Type-Options", "nosniff");
      res.set_content(std::string(asset->body), std::string(asset->content_type));
    });
  }
};

absl::StatusOr<std::unique_ptr<HttpServer>> HttpServer::Start(HttpOptions options,
                                                              Backend& backend) {
  std::string host;
  int port = 0;
  if (absl::Status s = SplitAddress(options.address, &host, &port); !s.ok()) return s;
  auto impl = std::make_unique<Impl>(std::move(options), backend);
  const HttpOptions& o = impl->config;
  if (o.cert_file.empty() != o.key_file.empty())
    return absl::InvalidArgumentError("HTTPS needs both --tls-cert and --tls-key");
  if (!o.cert_file.empty()) {
    for (const std::string& file : {o.cert_file, o.key_file})
      if (absl::StatusOr<std::string> data = common::ReadSmallFile(file, "TLS file"); !data.ok())
        return data.status();
    auto tls = std::make_unique<httplib::SSLServer>(o.cert_file.c_str(), o.key_file.c_str());
    if (!tls->is_valid())
      return absl::InvalidArgumentError(absl::StrCat("--tls-cert ", o.cert_file, " / --tls-key ",
                                                     o.key_file,
                                                     ": not a usable certificate and key"));
    impl->server = std::move(tls);
    impl->tls = true;
  } else {
    impl->server = std::make_unique<httplib::Server>();
  }
  httplib::Server& s = *impl->server;
  const int threads = o.threads;
  s.new_task_queue = [threads] { return new httplib::ThreadPool(size_t(threads)); };
  // Small JSON answers must not wait for a delayed ACK (Nagle: 40 ms each).
  s.set_tcp_nodelay(true);
  s.set_write_timeout(o.write_timeout);
  s.set_read_timeout(std::chrono::seconds(60));
  s.set_payload_max_length(size_t(std::max(o.max_verify_bytes, o.max_job_bytes)));
  s.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    switch (res.status) {
      case 404:
        return SendError(res,
                         absl::NotFoundError(absl::StrCat("no route ", req.method, " ", req.path)));
      case 413:
        return SendBodyError(res, absl::ResourceExhaustedError("the request body is too large"));
      default:
        SendJson(res, res.status,
                 ErrorJson(absl::InvalidArgumentError(absl::StrCat("HTTP ", res.status))));
    }
  });
  s.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr error) {
        std::string what = "unknown";
        try {
          std::rethrow_exception(error);
        } catch (const std::exception& e) {
          what = e.what();
        } catch (...) {
        }
        SendError(res, absl::InternalError(absl::StrCat("the server failed: ", what)));
      });
  if (o.metrics) {
    impl->requests = &prometheus::BuildCounter()
                          .Name("arbiter_http_requests_total")
                          .Help("HTTP requests by route and status")
                          .Register(*o.metrics);
    Impl* self = impl.get();
    s.set_logger([self](const httplib::Request& req, const httplib::Response& res) {
      self->requests->Add({{"route", RouteLabel(req)}, {"code", std::to_string(res.status)}})
          .Increment();
    });
  }
  impl->AddRoutes();
  impl->port = port == 0 ? s.bind_to_any_port(host) : (s.bind_to_port(host, port) ? port : -1);
  if (impl->port <= 0)
    return absl::UnavailableError(absl::StrCat("--http ", o.address, ": cannot listen there"));
  if (!o.port_file.empty())
    if (absl::Status st = common::WritePortFile(o.port_file, impl->port); !st.ok()) return st;
  impl->thread = std::thread([&s] { s.listen_after_bind(); });
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

HttpServer::~HttpServer() { Stop(); }

int HttpServer::port() const { return impl_->port; }
bool HttpServer::tls() const { return impl_->tls; }

void HttpServer::Stop() {
  if (!impl_->thread.joinable()) return;
  impl_->server->stop();
  impl_->thread.join();
}

}  // namespace arbiter::http
