// The HTTP/JSON API as users reach it: the real `arbiter serve` and a real
// coordinator (with a worker) started with --http on 127.0.0.1, called with
// an HTTP client. Every route's JSON, read back into arbiter.v1 messages and
// rendered with the command line's own code, equals what the command line
// prints for the same input; bad input, tokens and limits get clear errors.
#include <httplib.h>

#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/render/game_verdict_json.h"
#include "core/render/report.h"
#include "core/render/tablebase_json.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "http/api_json.h"
#include "proto/convert.h"
#include "tests/cluster_support.h"

namespace arbiter {
namespace {

const std::vector<std::string> kFens = {
    "8/8/8/8/8/4k3/8/4K2Q w - - 0 1",                   // K+Q v K
    "4k3/8/8/8/8/8/8/4K1N1 b - - 0 1",                  // K+N v K: dead
    "4k3/8/8/p1p1p3/P1P1Pp1p/1B3P1P/8/4K3 b - e3 0 1",  // a wall with e.p.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
};

// The lines of an NDJSON body.
std::vector<std::string> NdjsonLines(const std::string& body) {
  return absl::StrSplit(body, '\n', absl::SkipEmpty());
}

class Http : public Cluster {
 public:
  // A worker and a coordinator serving HTTP too; the HTTP port, or 0.
  int StartCoordinatorWithHttp(std::vector<std::string> extra = {}) {
    const int w = StartWorker(0);
    if (w <= 0) return 0;
    if (StartCoordinator({w}, Concat({"--http", "127.0.0.1:0"}, extra)) <= 0) return 0;
    return WaitForPort(Path("coordinator.port.http"));
  }
  void TearDown() override {
    serve_.reset();
    Cluster::TearDown();
  }

  // `arbiter analyze --json` of `fen`, embedded, without its newline.
  static std::string AnalyzeJsonByCli(const std::string& fen, const std::string& flags = "") {
    testing::CommandResult r = testing::RunCommand(
        absl::StrCat("env -u ARBITER_SYZYGY -u ARBITER_COORDINATOR ", kBin, "/arbiter analyze ",
                     "--json --tables ", kTables, " ", flags, " --fen '", fen, "'"));
    EXPECT_EQ(r.exit_code, 0) << fen;
    if (!r.out.empty() && r.out.back() == '\n') r.out.pop_back();
    return r.out;
  }

  // A JSON response without its final newline: the API writes the records
  // `analyze --json` and `verify --format jsonl` write, byte for byte.
  static std::string Rendered(std::string body) {
    if (!body.empty() && body.back() == '\n') body.pop_back();
    return body;
  }
  static std::string RenderedVerdicts(const std::string& ndjson) { return ndjson; }

  // Checks analyze (GET and POST) and verify of the sample on the server at
  // `port` against the command line.
  void ExpectSameAsCommandLine(int port) {
    httplib::Client http("127.0.0.1", port);
    http.set_read_timeout(std::chrono::seconds(60));
    for (const std::string& fen : kFens) {
      const std::string cli = AnalyzeJsonByCli(fen);
      auto get = http.Get(("/v1/analyze?fen=" + httplib::detail::encode_query_param(fen)).c_str());
      ASSERT_TRUE(get) << httplib::to_string(get.error());
      EXPECT_EQ(get->status, 200) << get->body;
      EXPECT_EQ(get->get_header_value("Content-Type"), "application/json");
      EXPECT_EQ(Rendered(get->body), cli) << fen;
      auto post =
          http.Post("/v1/analyze", absl::StrCat("{\"fen\": \"", fen, "\"}"), "application/json");
      ASSERT_TRUE(post);
      EXPECT_EQ(post->status, 200) << post->body;
      EXPECT_EQ(Rendered(post->body), cli) << fen;
    }
    const std::string pgn = ReadFile(kSample);
    auto verify = http.Post("/v1/verify", pgn, "application/x-chess-pgn");
    ASSERT_TRUE(verify);
    EXPECT_EQ(verify->status, 200) << verify->body;
    EXPECT_EQ(verify->get_header_value("Content-Type"), "application/x-ndjson");
    EXPECT_EQ(WithoutTiming(RenderedVerdicts(verify->body)),
              WithoutTiming(VerifyEmbedded(kSample).out));
  }
};

TEST_F(Http, ServeAnswersAsTheCommandLineDoes) {
  const int port = StartServe();
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  ExpectSameAsCommandLine(port);
}

TEST_F(Http, TheCoordinatorAnswersAsTheCommandLineDoes) {
  const int port = StartCoordinatorWithHttp();
  ASSERT_GT(port, 0) << ReadFile(Path("coordinator.log"));
  ExpectSameAsCommandLine(port);
}

// A compressed file of many games streams back every verdict, in order.
TEST_F(Http, VerifyOfAZstdFileEqualsTheCommandLine) {
  const std::string shared = testing::SharedDir();
  ASSERT_FALSE(shared.empty()) << "the shared material ($ARBITER_SHARED or ../shared) is absent";
  const std::string file = shared + "/games/otb_kasparov_2128.pgn.zst";
  const int port = StartServe();
  ASSERT_GT(port, 0);
  httplib::Client http("127.0.0.1", port);
  http.set_read_timeout(std::chrono::seconds(120));
  auto verify = http.Post("/v1/verify", ReadFile(file), "application/zstd");
  ASSERT_TRUE(verify);
  EXPECT_EQ(verify->status, 200);
  EXPECT_EQ(NdjsonLines(verify->body).size(), 2128u + 1);
  EXPECT_EQ(WithoutTiming(RenderedVerdicts(verify->body)), WithoutTiming(VerifyEmbedded(file).out));
}

// Jobs over HTTP, on `arbiter serve` (in memory) and on a coordinator
// (durable): submitted, followed to the end, read back as verify's lines,
// listed, deleted.
// The fields of a job record (docs/schema/job.schema.json) the tests read.
struct JobRecord {
  std::string id, path, state;
  int64_t games_done = 0;
  static JobRecord Of(const std::string& json) {
    google::protobuf::Struct o;
    EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(json, &o).ok()) << json;
    auto text = [&](const char* key) {
      auto it = o.fields().find(key);
      return it == o.fields().end() ? std::string() : it->second.string_value();
    };
    EXPECT_EQ(text("type"), "job") << json;
    auto done = o.fields().find("games_done");
    return {text("id"), text("path"), text("state"),
            done == o.fields().end() ? -1 : int64_t(done->second.number_value())};
  }
};

void ExpectJobsWork(int port) {
  httplib::Client http("127.0.0.1", port);
  http.set_read_timeout(std::chrono::seconds(60));
  auto submitted =
      http.Post("/v1/jobs?name=sample.pgn", ReadFile(kSample), "application/x-chess-pgn");
  ASSERT_TRUE(submitted);
  ASSERT_EQ(submitted->status, 201) << submitted->body;
  JobRecord job = JobRecord::Of(submitted->body);
  EXPECT_EQ(job.path, "sample.pgn");
  // The results follow the running job to its end.
  auto results = http.Get(("/v1/jobs/" + job.id + "/results").c_str());
  ASSERT_TRUE(results);
  EXPECT_EQ(results->status, 200) << results->body;
  EXPECT_EQ(WithoutTiming(Http::RenderedVerdicts(results->body)),
            WithoutTiming(VerifyEmbedded(kSample).out));
  auto got = http.Get(("/v1/jobs/" + job.id).c_str());
  ASSERT_TRUE(got);
  job = JobRecord::Of(got->body);
  EXPECT_EQ(job.state, "done") << got->body;
  EXPECT_EQ(job.games_done, 5);
  auto from_third = http.Get(("/v1/jobs/" + job.id + "/results?first_game=3").c_str());
  ASSERT_TRUE(from_third);
  EXPECT_EQ(NdjsonLines(from_third->body).size(), 3u + 1);
  auto list = http.Get("/v1/jobs");
  ASSERT_TRUE(list);
  EXPECT_PRED_FORMAT2(testing::Contains, list->body, job.id);
  auto deleted = http.Delete(("/v1/jobs/" + job.id).c_str());
  ASSERT_TRUE(deleted);
  EXPECT_EQ(deleted->status, 200) << deleted->body;
  auto gone = http.Get(("/v1/jobs/" + job.id).c_str());
  ASSERT_TRUE(gone);
  EXPECT_EQ(gone->status, 404) << gone->body;

  // A long job cancelled at once stops, keeps what it ruled, and cannot be
  // deleted while it runs.
  const std::string shared = testing::SharedDir();
  ASSERT_FALSE(shared.empty()) << "the shared material ($ARBITER_SHARED or ../shared) is absent";
  auto big = http.Post("/v1/jobs?name=lichess.pgn.zst",
                       ReadFile(shared + "/games/lichess_jishanshaikh4_37221.pgn.zst"),
                       "application/zstd");
  ASSERT_TRUE(big);
  ASSERT_EQ(big->status, 201) << big->body;
  job = JobRecord::Of(big->body);
  auto busy = http.Delete(("/v1/jobs/" + job.id).c_str());
  ASSERT_TRUE(busy);
  EXPECT_EQ(busy->status, 400) << busy->body;
  EXPECT_PRED_FORMAT2(testing::Contains, busy->body, "FAILED_PRECONDITION");
  auto cancelled = http.Post(("/v1/jobs/" + job.id + "/cancel").c_str(), "", "text/plain");
  ASSERT_TRUE(cancelled);
  EXPECT_EQ(cancelled->status, 200) << cancelled->body;
  for (int i = 0; i < 200 && job.state == "running"; ++i) {
    std::this_thread::sleep_for(milliseconds(50));
    auto now = http.Get(("/v1/jobs/" + job.id).c_str());
    ASSERT_TRUE(now);
    job = JobRecord::Of(now->body);
  }
  EXPECT_EQ(job.state, "cancelled");
  EXPECT_LT(job.games_done, 37221);
}

TEST_F(Http, JobsOnServe) {
  const int port = StartServe();
  ASSERT_GT(port, 0);
  ExpectJobsWork(port);
}

// `arbiter serve` keeps its jobs as the coordinator does: killed with
// SIGKILL mid-job and started again on the same --job-dir, it resumes the
// job, which then holds every game once, as the embedded run rules them.
TEST_F(Http, ServeKilledMidJobFinishesItAfterARestart) {
  const std::string shared = testing::SharedDir();
  ASSERT_FALSE(shared.empty()) << "the shared material ($ARBITER_SHARED or ../shared) is absent";
  const std::string games = shared + "/games/lichess_jishanshaikh4_37221.pgn.zst";
  int port = StartServe();
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  httplib::Client http("127.0.0.1", port);
  auto submitted = http.Post("/v1/jobs?name=lichess.pgn.zst", ReadFile(games), "application/zstd");
  ASSERT_TRUE(submitted);
  ASSERT_EQ(submitted->status, 201) << submitted->body;
  JobRecord job = JobRecord::Of(submitted->body);
  for (int i = 0; i < 3000 && job.games_done < 1000; ++i) {
    std::this_thread::sleep_for(milliseconds(10));
    auto now = http.Get(("/v1/jobs/" + job.id).c_str());
    ASSERT_TRUE(now);
    job = JobRecord::Of(now->body);
  }
  ASSERT_GE(job.games_done, 1000);
  ASSERT_LT(job.games_done, 37221) << "the job ended before the kill";
  serve_->Kill(SIGKILL);

  port = StartServe();
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  httplib::Client again("127.0.0.1", port);
  again.set_read_timeout(std::chrono::seconds(600));
  auto results = again.Get(("/v1/jobs/" + job.id + "/results").c_str());
  ASSERT_TRUE(results);
  EXPECT_EQ(results->status, 200);
  EXPECT_EQ(NdjsonLines(results->body).size(), 37221u + 1);
  EXPECT_TRUE(WithoutTiming(results->body) == WithoutTiming(VerifyEmbedded(games).out))
      << "the resumed job's verdicts differ from the embedded run's";
  auto got = again.Get(("/v1/jobs/" + job.id).c_str());
  ASSERT_TRUE(got);
  EXPECT_EQ(JobRecord::Of(got->body).state, "done") << got->body;
  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("serve.log")), "resuming job " + job.id);
}

TEST_F(Http, JobsOnTheCoordinator) {
  const int port = StartCoordinatorWithHttp();
  ASSERT_GT(port, 0);
  ExpectJobsWork(port);
}

// {"type": "failure", "error": {"code": N, "status": "...", "message": "..."}}
// with status N.
void ExpectError(const httplib::Result& r, int code, const std::string& status,
                 const std::string& words) {
  ASSERT_TRUE(r) << httplib::to_string(r.error());
  EXPECT_EQ(r->status, code) << r->body;
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
  EXPECT_PRED_FORMAT2(testing::Contains, r->body,
                      absl::StrCat("{\"type\": \"failure\", \"error\": {\"code\": ", code,
                                   ", \"status\": \"", status));
  EXPECT_PRED_FORMAT2(testing::Contains, r->body, words);
}

TEST_F(Http, BadInputGetsAClearError) {
  const int port = StartServe({"--max-budget", "5000", "--max-verify-mb", "1"});
  ASSERT_GT(port, 0);
  httplib::Client http("127.0.0.1", port);
  ExpectError(http.Get("/v1/analyze?fen=bad"), 400, "INVALID_ARGUMENT", "FEN must have 6 fields");
  ExpectError(http.Get("/v1/analyze"), 400, "INVALID_ARGUMENT", "query parameter fen is required");
  ExpectError(http.Get("/v1/analyze?fen=8/8/8/8/8/8/8/K6k%20w%20-%20-%200%201&budget=lots"), 400,
              "INVALID_ARGUMENT", "query parameter budget=\\\"lots\\\"");
  ExpectError(http.Get("/v1/analyze?fen=8/8/8/8/8/8/8/K6k%20w%20-%20-%200%201&moves=a1a3"), 400,
              "INVALID_ARGUMENT", "a1a3");
  ExpectError(http.Get("/v1/analyze?fen=8/8/8/8/8/8/8/K6k%20w%20-%20-%200%201&budget=6000"), 429,
              "RESOURCE_EXHAUSTED", "--max-budget");
  ExpectError(http.Get("/v1/tablebase?fen=8/8/8/8/8/8/8/K6k%20w%20-%20-%200%201"), 400,
              "FAILED_PRECONDITION", "no Syzygy tables");
  ExpectError(http.Post("/v1/analyze", "[\"fen\"]", "application/json"), 400, "INVALID_ARGUMENT",
              "the body (the query's parameters as a JSON object) is not a JSON object");
  ExpectError(http.Post("/v1/analyze", "{\"fen\": {\"a\": 1}}", "application/json"), 400,
              "INVALID_ARGUMENT", "\\\"fen\\\" must be a string, number or boolean");
  ExpectError(http.Post("/v1/analyze", "{\"fen\": \"x\", \"colour\": 1}", "application/json"), 400,
              "INVALID_ARGUMENT", "colour");
  ExpectError(http.Post("/v1/verify?rules=go", std::string(3 << 20, ' '), "text/plain"), 400,
              "INVALID_ARGUMENT", "query parameter rules");
  // A run refused before its first verdict answers with the error's status.
  ExpectError(http.Post("/v1/verify?tablebase=true", ReadFile(kSample), "text/plain"), 400,
              "FAILED_PRECONDITION", "no Syzygy tables");
  // serve rules a stream on its worker directly (client/serve_backend.h):
  // the coordinator's limits and the worker's hold there too.
  ExpectError(http.Post("/v1/verify?budget=6000", ReadFile(kSample), "text/plain"), 429,
              "RESOURCE_EXHAUSTED", "--max-budget");
  ExpectError(http.Post("/v1/verify?table_mb=1000", ReadFile(kSample), "text/plain"), 429,
              "RESOURCE_EXHAUSTED", "table");
  ExpectError(http.Get("/v1/jobs/0123456789abcdef/results"), 404, "NOT_FOUND", "0123456789abcdef");
  ExpectError(http.Post("/v1/verify", std::string(2 << 20, ' '), "text/plain"), 413,
              "RESOURCE_EXHAUSTED", "limit of 1 MB");
  ExpectError(http.Get("/v1/jobs/0123456789abcdef"), 404, "NOT_FOUND", "0123456789abcdef");
  ExpectError(http.Get("/nowhere/at/all"), 404, "NOT_FOUND", "no route GET /nowhere/at/all");
  // A record that cannot be read is a verdict with `error`, and the run goes
  // on: the status stays 200.
  auto mixed = http.Post("/v1/verify", "1. e4 e5 2. Qxf7 *\n\n1. e4 e5 *\n", "text/plain");
  ASSERT_TRUE(mixed);
  EXPECT_EQ(mixed->status, 200) << mixed->body;
  const std::vector<std::string> lines = NdjsonLines(mixed->body);
  ASSERT_EQ(lines.size(), 3u) << mixed->body;
  EXPECT_PRED_FORMAT2(testing::Contains, lines[0], "\"type\": \"error\"");
  EXPECT_PRED_FORMAT2(testing::Contains, lines[0],
                      "\"error\": {\"message\": \"move 2. Qxf7: not a legal move");
  EXPECT_PRED_FORMAT2(testing::Contains, lines[2], "\"errors\": 1");
  // A truncated .zst body: the verdicts read, then an error line instead of
  // the summary.
  const std::string shared = testing::SharedDir();
  ASSERT_FALSE(shared.empty()) << "the shared material ($ARBITER_SHARED or ../shared) is absent";
  const std::string zst = ReadFile(shared + "/games/otb_kasparov_2128.pgn.zst");
  auto cut = http.Post("/v1/verify", zst.substr(0, zst.size() / 2), "application/zstd");
  ASSERT_TRUE(cut);
  EXPECT_EQ(cut->status, 200);
  const std::vector<std::string> cut_lines = NdjsonLines(cut->body);
  ASSERT_GT(cut_lines.size(), 100u);
  EXPECT_PRED_FORMAT2(testing::Contains, cut_lines.back(), "the body ended early");
}

TEST_F(Http, TablebaseIsShapedLikeLichess) {
  const std::string shared = testing::SharedDir();
  ASSERT_FALSE(shared.empty()) << "the shared material ($ARBITER_SHARED or ../shared) is absent";
  const std::string syzygy = shared + "/syzygy";
  const int port = StartServe({"--syzygy", syzygy});
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  httplib::Client http("127.0.0.1", port);
  for (const std::string fen :
       {"8/8/8/8/8/4k3/8/4K2Q w - - 0 1", "8/8/8/4k3/8/8/3NN3/4K3 w - - 0 1"}) {
    auto r = http.Get(("/v1/tablebase?fen=" + httplib::detail::encode_query_param(fen)).c_str());
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200) << r->body;
    // The command line's "tablebase" value for the same position (followed
    // by its "tablebase_source").
    const std::string cli = AnalyzeJsonByCli(fen, "--syzygy " + syzygy);
    const size_t at = cli.find("\"tablebase\": ");
    ASSERT_NE(at, std::string::npos) << cli;
    const size_t end = cli.find(", \"tablebase_source\": ", at);
    ASSERT_NE(end, std::string::npos) << cli;
    const std::string value = cli.substr(at + 13, end - at - 13);  // "{...}"
    EXPECT_EQ(r->body, value.substr(0, value.size() - 1) + ", \"not_covered\": null}\n") << fen;
  }
  auto many =
      http.Get(("/v1/tablebase?fen=" + httplib::detail::encode_query_param(kFens[3])).c_str());
  ASSERT_TRUE(many);
  EXPECT_EQ(many->status, 200);
  EXPECT_PRED_FORMAT2(testing::Contains, many->body, "\"category\": \"unknown\"");
}

// A server that must build retrograde tables first answers rulings with
// 503, Retry-After and what it builds, not minutes of silence, and rules
// once they are built (common/table_warmup.h); the tables are saved.
TEST_F(Http, RulingsBeforeTheTablesAreBuiltGet503) {
  tables_ = TablesWithout("partial-tables", {"KQvKR", "KPvKP"});
  const int port = StartServe();
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  httplib::Client http("127.0.0.1", port);
  http.set_read_timeout(std::chrono::seconds(60));
  const std::string analyze = "/v1/analyze?fen=8/8/8/8/8/4k3/8/4K2Q%20w%20-%20-%200%201";
  auto early = http.Get(analyze.c_str());
  ASSERT_TRUE(early);
  EXPECT_EQ(early->status, 503) << early->body;
  EXPECT_EQ(early->get_header_value("Retry-After"), "5");
  EXPECT_PRED_FORMAT2(testing::Contains, early->body,
                      "building the retrograde tables (3-4 men) before ruling: ");
  EXPECT_PRED_FORMAT2(testing::Contains, early->body, " built, ");
  auto verify = http.Post("/v1/verify", ReadFile(kSample), "application/x-chess-pgn");
  ASSERT_TRUE(verify);
  EXPECT_EQ(verify->status, 503) << verify->body;
  auto health = http.Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 503);
  // Ready within a bound, then ruling as any server does.
  for (int i = 0; i < 1200 && health && health->status != 200; ++i) {
    std::this_thread::sleep_for(milliseconds(100));
    health = http.Get("/healthz");
  }
  ASSERT_TRUE(health);
  ASSERT_EQ(health->status, 200) << ReadFile(Path("serve.log"));
  auto ruled = http.Get(analyze.c_str());
  ASSERT_TRUE(ruled);
  EXPECT_EQ(ruled->status, 200) << ruled->body;
  EXPECT_TRUE(fs::exists(tables_ + "/KQvKR.arbt"));
  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("serve.log")),
                      "retrograde tables before ruling (saved in " + tables_);
}

TEST_F(Http, HealthMetricsAndThePage) {
  const int port = StartServe();
  ASSERT_GT(port, 0);
  httplib::Client http("127.0.0.1", port);
  auto health = http.Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  EXPECT_EQ(health->body, "{\"type\": \"health\", \"status\": \"serving\"}\n");
  auto page = http.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_EQ(page->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_PRED_FORMAT2(testing::Contains, page->get_header_value("Content-Security-Policy"),
                      "default-src 'self'");
  EXPECT_PRED_FORMAT2(testing::Contains, page->body, "<html");
  auto script = http.Get("/app.js");
  ASSERT_TRUE(script);
  EXPECT_EQ(script->get_header_value("Content-Type"), "text/javascript; charset=utf-8");
  auto metrics = http.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->status, 200);
  EXPECT_PRED_FORMAT2(testing::Contains, metrics->body,
                      "arbiter_http_requests_total{code=\"200\",route=\"/healthz\"} 1");
  EXPECT_PRED_FORMAT2(testing::Contains, metrics->body, "arbiter_build_info{");
}

// Tokens and TLS as on the gRPC side: on `serve`, and on a coordinator,
// whose HTTP side calls its own service in process.
TEST_F(Http, TokensAndTls) {
  ASSERT_FALSE(testing::FindProgram("openssl").empty())
      << "openssl (Debian package openssl) makes the test certificates";
  ASSERT_TRUE(MakeTestCertificates("certs"));
  auto cert = [&](const std::string& name) { return Path("certs/" + name); };
  const std::string token_text = ReadFile(cert("token"));
  const std::string token(absl::StripTrailingAsciiWhitespace(token_text));
  const std::vector<std::string> tls = {"--tls-cert", cert("coordinator.pem"),
                                        "--tls-key",  cert("coordinator.key"),
                                        "--tokens",   cert("tokens")};
  for (const bool coordinator : {false, true}) {
    SCOPED_TRACE(coordinator ? "coordinator" : "serve");
    const int port = coordinator ? StartCoordinatorWithHttp(tls) : StartServe(tls);
    ASSERT_GT(port, 0) << ReadFile(Path(coordinator ? "coordinator.log" : "serve.log"));
    httplib::SSLClient https("127.0.0.1", port);
    https.set_ca_cert_path(cert("ca.pem").c_str());
    https.enable_server_certificate_verification(true);
    const std::string analyze = "/v1/analyze?fen=8/8/8/8/8/8/8/K6k%20w%20-%20-%200%201";
    auto none = https.Get(analyze.c_str());
    ExpectError(none, 401, "UNAUTHENTICATED", "a valid bearer token is required");
    if (none) {
      EXPECT_EQ(none->get_header_value("WWW-Authenticate"), "Bearer");
    }
    ExpectError(https.Get(analyze.c_str(), {{"Authorization", "Bearer not-the-token"}}), 401,
                "UNAUTHENTICATED", "bearer token");
    // A refused upload still gets its answer (the body is read, not cut off
    // by a reset), whatever its size.
    for (const size_t bytes : {size_t(300) << 10, size_t(11) << 20}) {
      ExpectError(https.Post("/v1/verify", std::string(bytes, ' '), "text/plain"), 401,
                  "UNAUTHENTICATED", "bearer token");
      ExpectError(https.Post("/v1/jobs", std::string(bytes, ' '), "text/plain"), 401,
                  "UNAUTHENTICATED", "bearer token");
    }
    auto good = https.Get(analyze.c_str(), {{"Authorization", "Bearer " + token}});
    ASSERT_TRUE(good) << httplib::to_string(good.error());
    EXPECT_EQ(good->status, 200) << good->body;
    auto health = https.Get("/healthz");  // probes and the page need no token
    ASSERT_TRUE(health);
    EXPECT_EQ(health->status, 200);
    // Plain HTTP to the TLS port gets nothing.
    httplib::Client plain("127.0.0.1", port);
    EXPECT_FALSE(plain.Get("/healthz") && plain.Get("/healthz")->status == 200);
    serve_.reset();
    coordinator_.reset();
    workers_.clear();
  }
}

}  // namespace
}  // namespace arbiter
