// The HTTP front against clients that do not play fair, on raw sockets (so
// that the bytes on the wire are exactly these): the real `arbiter serve`
// on 127.0.0.1, no mocks. Slow clients must not hold threads or delay
// others; floods must be refused early, costing the server little memory;
// badly framed requests get 400; the token-less server answers only
// loopback names. Each check is bounded in time. Lines starting "FIGURE"
// are the measurements bench/hostile_http.sh prints.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "tests/cluster_support.h"

namespace arbiter {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// A TCP connection to 127.0.0.1:port, optionally TLS (certificates not
// checked: these tests are about what the server reads and answers).
class Raw {
 public:
  explicit Raw(int port, SSL_CTX* tls = nullptr) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(uint16_t(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      close(fd_);
      fd_ = -1;
      return;
    }
    const int one = 1;
    setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (tls) {
      ssl_ = SSL_new(tls);
      SSL_set_fd(ssl_, fd_);
      if (SSL_connect(ssl_) != 1) {
        SSL_free(ssl_);
        ssl_ = nullptr;
        close(fd_);
        fd_ = -1;
      }
    }
  }
  ~Raw() {
    if (ssl_) SSL_free(ssl_);
    if (fd_ >= 0) close(fd_);
  }
  bool ok() const { return fd_ >= 0; }
  int fd() const { return fd_; }

  // False once the server closed or reset the connection.
  bool Send(std::string_view data) {
    while (!data.empty()) {
      const long n = ssl_ ? SSL_write(ssl_, data.data(), int(data.size()))
                          : send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      data.remove_prefix(size_t(n));
    }
    return true;
  }
  // What arrives within `timeout` (up to the close); "" for nothing.
  std::string Read(std::chrono::milliseconds timeout, size_t until_bytes = SIZE_MAX) {
    std::string got;
    const auto end = Clock::now() + timeout;
    char buf[16384];
    while (got.size() < until_bytes) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now());
      if (left.count() <= 0) break;
      if (!(ssl_ && SSL_pending(ssl_) > 0)) {
        pollfd p{fd_, POLLIN, 0};
        if (poll(&p, 1, int(left.count())) <= 0) break;
      }
      const long n = ssl_ ? SSL_read(ssl_, buf, sizeof buf) : recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) break;
      got.append(buf, size_t(n));
    }
    return got;
  }
  // Reads until `text` appears (or the close, or the timeout).
  std::string ReadUntil(const std::string& text, std::chrono::milliseconds timeout) {
    std::string got;
    const auto end = Clock::now() + timeout;
    while (!absl::StrContains(got, text) && Clock::now() < end) {
      std::string more =
          Read(std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()), 1);
      if (more.empty()) break;
      got += more;
    }
    return got;
  }

 private:
  int fd_ = -1;
  SSL* ssl_ = nullptr;
};

// The status of the first response in `text`; 0 for none.
int StatusOf(const std::string& text) {
  if (!text.starts_with("HTTP/1.")) return 0;
  return std::atoi(text.c_str() + 9);
}

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// One GET on a new connection: the status, and how long it took.
std::pair<int, double> Probe(int port, const std::string& path = "/healthz") {
  const auto start = Clock::now();
  Raw c(port);
  if (!c.ok()) return {0, 0};
  c.Send(absl::StrCat("GET ", path, " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
  const std::string answer = c.Read(5s);
  return {StatusOf(answer),
          std::chrono::duration<double, std::milli>(Clock::now() - start).count()};
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(p * double(v.size())))];
}

class HttpHostile : public Cluster {
 public:
  // The same with HTTPS and tokens; the token in *token.
  int StartTokenServe(std::string* token) {
    if (!MakeTestCertificates("certs")) return 0;
    const std::string text = ReadFile(Path("certs/token"));
    *token = std::string(absl::StripTrailingAsciiWhitespace(text));
    tls_ = SSL_CTX_new(TLS_client_method());
    return StartServe({"--tls-cert", Path("certs/coordinator.pem"), "--tls-key",
                       Path("certs/coordinator.key"), "--tokens", Path("certs/tokens")});
  }
  int64_t Rss() const { return ProcStatus(serve_->pid(), "VmRSS"); }

  // One request on its own connection (TLS when tls_), with `token` as a
  // bearer token unless empty; the whole answer.
  std::string Ask(int port, const std::string& method, const std::string& target,
                  const std::string& token, const std::string& body = "") {
    Raw c(port, tls_);
    if (!c.ok()) return "";
    c.Send(absl::StrCat(method, " ", target, " HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                        token.empty() ? "" : absl::StrCat("Authorization: Bearer ", token, "\r\n"),
                        "Content-Length: ", body.size(), "\r\nConnection: close\r\n\r\n", body));
    return c.Read(30s);
  }
  void TearDown() override {
    serve_.reset();
    if (tls_) SSL_CTX_free(tls_);
    Cluster::TearDown();
  }

  // Sends `head`, then `filler` repeatedly up to `total` bytes or until the
  // answer comes (or the server stops reading); meanwhile reads the answer.
  // Returns it; *sent: the bytes sent when it came.
  std::string Flood(int port, const std::string& head, const std::string& filler, int64_t total,
                    int64_t* sent) {
    Raw c(port, tls_);
    EXPECT_TRUE(c.ok());
    if (!c.ok()) return "";
    std::string answer;
    std::atomic<bool> answered{false};
    std::atomic<int64_t> bytes{0}, at_answer{-1};
    // TLS objects are not for two threads: without TLS the answer is read
    // beside the flood, with TLS between its pieces.
    std::thread reader;
    if (!tls_)
      reader = std::thread([&] {
        answer = c.ReadUntil("\r\n\r\n", 30s);
        at_answer = bytes.load();
        answered = true;
      });
    bool open = c.Send(head);
    const auto end = Clock::now() + 30s;
    while (open && bytes < total && !answered && Clock::now() < end) {
      // A bounded wait per piece: a server that stopped reading (but has
      // not closed) must not hang the test.
      pollfd p{c.fd(), POLLOUT, 0};
      if (poll(&p, 1, 2000) <= 0) break;
      if (tls_) {
        pollfd r{c.fd(), POLLIN, 0};
        if (poll(&r, 1, 0) > 0) break;  // the answer (or the close) came
      }
      open = c.Send(filler);
      if (open) bytes += int64_t(filler.size());
    }
    if (reader.joinable()) {
      reader.join();
    } else {
      at_answer = bytes.load();
      answer = c.ReadUntil("\r\n\r\n", 10s);
    }
    *sent = at_answer;
    return answer;
  }

  SSL_CTX* tls_ = nullptr;
};

constexpr char kFen[] = "8/8/8/8/8/4k3/8/4K2Q%20w%20-%20-%200%201";

// 200 clients sending their header a byte a second hold no thread, and
// /healthz on new connections meanwhile answers every probe quickly.
TEST_F(HttpHostile, SlowClientsDoNotDelayOthers) {
  const int port = StartServe();
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  ASSERT_EQ(Probe(port).first, 200);
  const int64_t threads_before = ProcStatus(serve_->pid(), "Threads");
  std::vector<std::unique_ptr<Raw>> slow;
  for (int i = 0; i < 200; ++i) {
    slow.push_back(std::make_unique<Raw>(port));
    ASSERT_TRUE(slow.back()->ok());
  }
  const std::string header = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaa\r\n";
  std::atomic<bool> stop{false};
  std::thread sender([&] {
    for (size_t i = 0; !stop && i < header.size(); ++i) {
      for (auto& c : slow) c->Send(std::string_view(&header[i], 1));
      for (int t = 0; t < 10 && !stop; ++t) std::this_thread::sleep_for(100ms);
    }
  });
  std::vector<double> ms;
  int failures = 0;
  int64_t threads_during = 0;
  const auto end = Clock::now() + 10s;
  while (Clock::now() < end) {
    auto [status, took] = Probe(port);
    if (status != 200) ++failures;
    ms.push_back(took);
    threads_during = std::max(threads_during, ProcStatus(serve_->pid(), "Threads"));
    std::this_thread::sleep_for(20ms);
  }
  stop = true;
  sender.join();
  std::printf(
      "FIGURE slow-clients: 200 slow connections, %zu /healthz probes: p50 %.2f ms, "
      "p99 %.2f ms, max %.2f ms, %d failed; server threads %lld before, %lld during\n",
      ms.size(), Percentile(ms, 0.5), Percentile(ms, 0.99), Percentile(ms, 1.0), failures,
      static_cast<long long>(threads_before), static_cast<long long>(threads_during));
  EXPECT_EQ(failures, 0);
  EXPECT_LT(Percentile(ms, 0.99), 100.0);
  EXPECT_GT(ms.size(), 100u);
  EXPECT_LT(threads_during, threads_before + 10) << "a slow connection took a thread";
}

// 300 MB of header fields: 431 once the limit is read, the rest unread.
TEST_F(HttpHostile, HeaderFloodIsRefusedEarly) {
  const int port = StartServe();
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  ASSERT_EQ(Probe(port).first, 200);
  const int64_t before = Rss();
  int64_t sent = 0;
  const std::string answer =
      Flood(port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n",
            "X-Flood: " + std::string(1000, 'a') + "\r\n", int64_t(300) << 20, &sent);
  const int64_t after = Rss();
  std::printf(
      "FIGURE header-flood: 431 when the client had sent %lld bytes; server RSS %lld kB "
      "before, %lld kB after\n",
      static_cast<long long>(sent), static_cast<long long>(before), static_cast<long long>(after));
  EXPECT_EQ(StatusOf(answer), 431) << answer.substr(0, 300);
  EXPECT_PRED_FORMAT2(testing::Contains, answer, "Connection: close");
  EXPECT_LT(after - before, 20 << 10) << "kB";
  EXPECT_EQ(Probe(port).first, 200);
}

// Bodies nobody reads: refused before they are read, from Content-Length
// or from the chunks' start, on the token server too (where the body's
// size is checked before the token, and the token before the body).
TEST_F(HttpHostile, BodyFloodsAreRefusedEarly) {
  ASSERT_FALSE(testing::FindProgram("openssl").empty());
  std::string token;
  const int port = StartTokenServe(&token);
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  const int64_t before = Rss();
  const std::string chunk = "4000\r\n" + std::string(0x4000, 'x') + "\r\n";
  struct Case {
    std::string head;
    std::string filler;
    int status;
  };
  const std::vector<Case> cases = {
      {"POST /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 314572800\r\n\r\n",
       std::string(1 << 14, 'x'), 404},
      {"POST /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n", chunk,
       404},
      {"POST /v1/jobs/x/cancel HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 314572800\r\n\r\n",
       std::string(1 << 14, 'x'), 413},
      {"POST /v1/jobs/x/cancel HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n",
       chunk, 401},
      {"POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n", chunk,
       401},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.head);
    int64_t sent = 0;
    const std::string answer = Flood(port, c.head, c.filler, int64_t(300) << 20, &sent);
    EXPECT_EQ(StatusOf(answer), c.status) << answer.substr(0, 300);
    EXPECT_LT(sent, int64_t(32) << 20) << "the answer came late";
    std::printf("FIGURE body-flood: %s -> %d when the client had sent %lld bytes\n",
                c.head.substr(0, c.head.find("\r\n")).c_str(), StatusOf(answer),
                static_cast<long long>(sent));
  }
  const int64_t after = Rss();
  std::printf("FIGURE body-flood: server RSS %lld kB before, %lld kB after\n",
              static_cast<long long>(before), static_cast<long long>(after));
  EXPECT_LT(after - before, 20 << 10) << "kB";

  // The scheme is case-insensitive (RFC 9110 11.1).
  Raw lower(port, tls_);
  ASSERT_TRUE(lower.ok());
  lower.Send(absl::StrCat("GET /v1/analyze?fen=", kFen,
                          " HTTP/1.1\r\nHost: 127.0.0.1\r\nauthorization: bearer ", token,
                          "\r\nConnection: close\r\n\r\n"));
  const std::string answer = lower.Read(30s);
  EXPECT_EQ(StatusOf(answer), 200) << answer.substr(0, 300);
}

TEST_F(HttpHostile, HeaderDeadline) {
  const int port = StartServe({"--http-header-timeout", "1"});
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  Raw c(port);
  ASSERT_TRUE(c.ok());
  const auto start = Clock::now();
  c.Send("GET /healthz HTTP/1.1\r\nHo");
  const std::string answer = c.Read(5s);
  const double s = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_EQ(StatusOf(answer), 408) << answer;
  EXPECT_PRED_FORMAT2(testing::Contains, answer, "{\"type\": \"failure\"");
  EXPECT_GT(s, 0.9);
  EXPECT_LT(s, 3.0);
  // A connection that sent nothing is closed without an answer.
  Raw idle(port);
  EXPECT_EQ(idle.Read(5s), "");
}

TEST_F(HttpHostile, PipelinedRequestsAreAnsweredInOrder) {
  const int port = StartServe();
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  Raw c(port);
  ASSERT_TRUE(c.ok());
  c.Send(absl::StrCat("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                      "GET /v1/analyze?fen=", kFen, " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                      "POST /v1/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}",
                      "GET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
  const std::string answer = c.Read(30s);
  const size_t health = answer.find("\"type\": \"health\"");
  const size_t assessment = answer.find("\"type\": \"assessment\"");
  const size_t bad = answer.find("fen is required");
  const size_t none = answer.find("no page /nope");
  ASSERT_NE(health, std::string::npos) << answer;
  ASSERT_NE(assessment, std::string::npos) << answer;
  ASSERT_NE(bad, std::string::npos) << answer;
  ASSERT_NE(none, std::string::npos) << answer;
  EXPECT_LT(health, assessment);
  EXPECT_LT(assessment, bad);
  EXPECT_LT(bad, none);
  EXPECT_EQ(Count(answer, "\r\nContent-Type: "), 4);
}

std::string Chunk(std::string_view data) {
  return absl::StrCat(absl::Hex(data.size()), "\r\n", absl::string_view(data.data(), data.size()),
                      "\r\n");
}

constexpr char kMateGame[] = "[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
constexpr char kChunkedVerify[] =
    "POST /v1/verify HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n";

// POST /v1/verify rules games as they arrive: verdicts before the body's
// end; a body cut by its idle deadline or its size limit ends the stream
// with the cut game's error record and a failure line with 408 or 413,
// never a summary; each such stream is ended once (serve then stops
// cleanly).
TEST_F(HttpHostile, VerifyRulesTheBodyAsItArrives) {
  const int port = StartServe({"--http-body-timeout", "2", "--max-verify-mb", "1"});
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  const std::string two = absl::StrCat(kMateGame, kMateGame);
  {
    SCOPED_TRACE("verdicts before the body ends, then the next request");
    Raw c(port);
    ASSERT_TRUE(c.ok());
    c.Send(kChunkedVerify + Chunk(two));
    std::string answer = c.ReadUntil("\"type\": \"verdict\"", 10s);
    EXPECT_EQ(StatusOf(answer), 200) << answer;
    EXPECT_PRED_FORMAT2(testing::Contains, answer, "\"type\": \"verdict\"");
    c.Send(Chunk(kMateGame) + "0\r\n\r\n");
    answer += c.ReadUntil("\r\n0\r\n\r\n", 10s);
    EXPECT_EQ(Count(answer, "\"type\": \"verdict\""), 3) << answer;
    EXPECT_EQ(Count(answer, "\"type\": \"summary\""), 1) << answer;
    c.Send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    EXPECT_PRED_FORMAT2(testing::Contains, c.Read(10s), "\"type\": \"health\"");
  }
  {
    SCOPED_TRACE("a pause past the body's idle deadline after verdicts began");
    Raw c(port);
    ASSERT_TRUE(c.ok());
    const auto start = Clock::now();
    c.Send(kChunkedVerify + Chunk(two));
    const std::string answer = c.Read(15s);  // to the close
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    EXPECT_GE(Count(answer, "\"type\": \"verdict\""), 1) << answer;
    EXPECT_EQ(Count(answer, "\"type\": \"summary\""), 0) << answer;
    EXPECT_PRED_FORMAT2(testing::Contains, answer,
                        "{\"type\": \"failure\", \"error\": {\"code\": 408, \"status\": "
                        "\"DEADLINE_EXCEEDED\", \"message\": \"the body ended early, the rest was "
                        "not read: no byte of the request body came for 2000 ms\"}}");
    EXPECT_TRUE(answer.ends_with("\r\n0\r\n\r\n")) << answer;
    EXPECT_GT(s, 1.5);
    EXPECT_LT(s, 12.0);
  }
  {
    SCOPED_TRACE("the same inside the first game");
    Raw c(port);
    ASSERT_TRUE(c.ok());
    c.Send(kChunkedVerify + Chunk("[Event \"x\"]\n"));
    const std::string answer = c.Read(15s);
    EXPECT_EQ(Count(answer, "\"type\": \"error\", \"game\": 1"), 1) << answer;  // the game cut
    EXPECT_PRED_FORMAT2(testing::Contains, answer,
                        "{\"type\": \"failure\", \"error\": {\"code\": 408, ");
  }
  {
    SCOPED_TRACE("over the size limit after verdicts began");
    Raw c(port);
    ASSERT_TRUE(c.ok());
    c.Send(kChunkedVerify + Chunk(two));
    std::string answer = c.ReadUntil("\"type\": \"verdict\"", 10s);
    const std::string padded = absl::StrCat("{", std::string(64 << 10, 'c'), "} ", kMateGame);
    for (int i = 0; i < 20 && c.Send(Chunk(padded)); ++i) {
    }
    answer += c.Read(10s);
    EXPECT_EQ(Count(answer, "\"type\": \"summary\""), 0) << answer.substr(0, 2000);
    EXPECT_PRED_FORMAT2(testing::Contains, answer,
                        "{\"type\": \"failure\", \"error\": {\"code\": 413, ");
    EXPECT_PRED_FORMAT2(testing::Contains, answer, "larger than this route's limit of 1 MB");
  }
  {
    SCOPED_TRACE("the same inside the first game");
    Raw c(port);
    ASSERT_TRUE(c.ok());
    c.Send(kChunkedVerify);
    const std::string comment = Chunk(std::string(64 << 10, 'c'));
    for (int i = 0; i < 20 && c.Send(i == 0 ? Chunk("{") : comment); ++i) {
    }
    const std::string answer = c.Read(10s);
    EXPECT_PRED_FORMAT2(testing::Contains, answer,
                        "{\"type\": \"failure\", \"error\": {\"code\": 413, ");
  }
  serve_->Signal(SIGTERM);
  int status = 0;
  EXPECT_TRUE(serve_->Wait(20s, &status)) << "serve did not stop: a stream was not ended";
}

// A client that sends its whole body before it reads a byte of the answer
// (as many HTTP clients do) is answered: the body is read whether or not
// the answer is, so neither side waits on the other. The body is larger
// than the kernel's buffers on both sides hold, and its verdicts fill the
// connection's before it ends.
TEST_F(HttpHostile, AClientThatSendsItsWholeBodyBeforeReadingIsAnswered) {
  const int port = StartServe();
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  constexpr int kGames = 4000;
  const std::string game = absl::StrCat("{", std::string(6000, 'c'), "} ", kMateGame);
  std::string body;
  for (int i = 0; i < kGames; ++i) body += game;
  Raw c(port);
  ASSERT_TRUE(c.ok());
  c.Send(absl::StrCat("POST /v1/verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ",
                      body.size(), "\r\nConnection: close\r\n\r\n"));
  std::string_view left = body;
  while (!left.empty()) {
    pollfd p{c.fd(), POLLOUT, 0};
    ASSERT_GT(poll(&p, 1, 10000), 0)
        << "the server stopped reading with " << left.size() << " bytes of the body left";
    const long n = send(c.fd(), left.data(), left.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    ASSERT_GT(n, 0) << "the server closed the connection";
    left.remove_prefix(size_t(n));
  }
  const std::string answer = c.Read(60s);
  EXPECT_EQ(StatusOf(answer), 200) << answer.substr(0, 300);
  EXPECT_EQ(Count(answer, "\"type\": \"verdict\""), kGames);
  EXPECT_EQ(Count(answer, "\"type\": \"summary\""), 1);
}

// RFC 9112's framing cases that could smuggle a second request: 400 with
// the API's failure body, and the connection closed.
TEST_F(HttpHostile, BadFramingIs400) {
  const int port = StartServe();
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  const std::string post = "POST /v1/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  const std::vector<std::string> cases = {
      post + "Content-Length: 5\r\nContent-Length: 6\r\n\r\n{}   x",
      post + "Content-Length: 5, 6\r\n\r\n{}   x",
      post + "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
      post + "Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
      post + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      post + "Transfer-Encoding: identity\r\n\r\n{}",
      post + "Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n",
      post + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
      "GET /healthz HTTP/1.1\r\n\r\n",                        // no Host
      "GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",  // two
      "GET /healthz HTTP/1.1\r\nHost : 127.0.0.1\r\n\r\n",
  };
  for (const std::string& request : cases) {
    SCOPED_TRACE(request);
    Raw c(port);
    ASSERT_TRUE(c.ok());
    c.Send(request);
    const std::string answer = c.Read(5s);
    EXPECT_EQ(StatusOf(answer), 400) << answer;
    EXPECT_PRED_FORMAT2(testing::Contains, answer, "{\"type\": \"failure\"");
    EXPECT_EQ(Count(answer, "\r\nContent-Type: "), 1) << "a second request was read";
  }
}

TEST_F(HttpHostile, MultipartUploadsAre415) {
  const int port = StartServe();
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  for (const std::string path : {"/v1/verify", "/v1/jobs"}) {
    Raw c(port);
    const std::string body =
        "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"g.pgn\"\r\n\r\n1. e4 *\r\n"
        "--b--\r\n";
    c.Send(absl::StrCat("POST ", path,
                        " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; "
                        "boundary=b\r\nContent-Length: ",
                        body.size(), "\r\nConnection: close\r\n\r\n", body));
    const std::string answer = c.Read(5s);
    EXPECT_EQ(StatusOf(answer), 415) << answer;
    EXPECT_PRED_FORMAT2(testing::Contains, answer, "--data-binary");
  }
}

// A job cancelled with a bodiless POST; its results end with a failure line.
TEST_F(HttpHostile, CancelNeedsNoBodyAndResultsSayCancelled) {
  const int port = StartServe({"--jobs", "1"});
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  std::string pgn;
  for (int i = 0; i < 100000; ++i)
    pgn += "[Event \"g\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1/2-1/2\n\n";
  Raw submit(port);
  submit.Send(absl::StrCat("POST /v1/jobs?name=many.pgn HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                           "Content-Length: ", pgn.size(), "\r\nConnection: close\r\n\r\n", pgn));
  const std::string job = submit.Read(60s);
  ASSERT_EQ(StatusOf(job), 201) << job;
  const size_t at = job.find("\"id\": \"");
  ASSERT_NE(at, std::string::npos);
  const std::string id = job.substr(at + 7, job.find('"', at + 7) - at - 7);
  Raw cancel(port);
  cancel.Send(absl::StrCat("POST /v1/jobs/", id,
                           "/cancel HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
  const std::string cancelled = cancel.Read(30s);
  ASSERT_EQ(StatusOf(cancelled), 200) << cancelled;
  EXPECT_PRED_FORMAT2(testing::Contains, cancelled, "\"state\": \"cancelled\"");
  Raw results(port);
  results.Send(absl::StrCat("GET /v1/jobs/", id,
                            "/results HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
  // Verdicts then a failure line (200); or, when it was cancelled before
  // its first verdict, the failure as the answer (409).
  const std::string lines = results.Read(60s);
  if (StatusOf(lines) == 200) {
    EXPECT_PRED_FORMAT2(testing::Contains, lines, "was cancelled\"}}\n\r\n0\r\n\r\n");
  } else {
    EXPECT_EQ(StatusOf(lines), 409) << lines.substr(0, 300);
    EXPECT_PRED_FORMAT2(testing::Contains, lines, "\"status\": \"ABORTED\"");
    EXPECT_PRED_FORMAT2(testing::Contains, lines, "was cancelled");
  }
  EXPECT_FALSE(absl::StrContains(lines, "\"type\": \"summary\""));
}

TEST_F(HttpHostile, ConnectionsPerAddressAreLimited) {
  const int port = StartServe({"--http-max-per-address", "5"});
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  std::vector<std::unique_ptr<Raw>> held;
  for (int i = 0; i < 5; ++i) held.push_back(std::make_unique<Raw>(port));
  std::this_thread::sleep_for(200ms);  // accepted
  Raw sixth(port);
  sixth.Send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  const std::string refused = sixth.Read(5s);
  EXPECT_EQ(StatusOf(refused), 503) << refused;
  held.pop_back();
  std::this_thread::sleep_for(200ms);  // closed
  EXPECT_EQ(Probe(port).first, 200);
}

// Without tokens, a Host or Origin that is not loopback is refused (DNS
// rebinding), unless allowed; the page may not be framed.
TEST_F(HttpHostile, TokenlessServerAnswersOnlyLoopbackNames) {
  for (const bool allowed : {false, true}) {
    SCOPED_TRACE(allowed ? "allowed" : "default");
    const int port = allowed ? StartServe({"--http-allow-host", "arbiter.example"}) : StartServe();
    ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
    auto get = [&](const std::string& fields) {
      Raw c(port);
      c.Send("GET /healthz HTTP/1.1\r\n" + fields + "Connection: close\r\n\r\n");
      return c.Read(5s);
    };
    for (const std::string host : {"localhost", "localhost:8080", "127.0.0.1:1", "[::1]:80"})
      EXPECT_EQ(StatusOf(get("Host: " + host + "\r\n")), 200) << host;
    const std::string other = get("Host: arbiter.example:8080\r\n");
    EXPECT_EQ(StatusOf(other), allowed ? 200 : 403) << other;
    if (!allowed) {
      EXPECT_PRED_FORMAT2(testing::Contains, other, "--http-allow-host");
    }
    EXPECT_EQ(StatusOf(get("Host: 127.0.0.1\r\nOrigin: http://localhost:3000\r\n")), 200);
    EXPECT_EQ(StatusOf(get("Host: 127.0.0.1\r\nOrigin: https://evil.example\r\n")), 403);
    EXPECT_EQ(StatusOf(get("Host: 127.0.0.1\r\nOrigin: http://arbiter.example\r\n")),
              allowed ? 200 : 403);
    Raw page(port);
    page.Send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    const std::string answer = page.ReadUntil("\r\n\r\n", 5s);
    EXPECT_PRED_FORMAT2(testing::Contains, answer, "frame-ancestors 'none'");
    EXPECT_PRED_FORMAT2(testing::Contains, answer, "X-Frame-Options: DENY");
    serve_.reset();
  }
}

// Ownership over HTTP (docs/security.md): the HTTP API passes each caller's
// token on to the service, so a job is its submitter's and an admin's only,
// as over gRPC; a reader rules games but runs no job.
TEST_F(HttpHostile, AJobIsItsSubmittersAndAnAdminsOnly) {
  ASSERT_TRUE(MakeTestCertificates("certs"));
  {
    std::ofstream tokens(Path("named-tokens"));
    tokens << "alice-secret-0123456789 alice submitter\n"
           << "bob-secret-0123456789 bob submitter\n"
           << "rita-secret-0123456789 rita reader\n"
           << "adam-secret-0123456789 adam admin\n";
  }
  tls_ = SSL_CTX_new(TLS_client_method());
  const int port = StartServe({"--tls-cert", Path("certs/coordinator.pem"), "--tls-key",
                               Path("certs/coordinator.key"), "--tokens", Path("named-tokens")});
  ASSERT_GT(port, 0) << ReadFile(Path("serve.log"));
  auto token = [](const std::string& who) { return who + "-secret-0123456789"; };
  const std::string sample = ReadFile(kSample);

  const std::string created = Ask(port, "POST", "/v1/jobs?name=mine.pgn", token("alice"), sample);
  ASSERT_EQ(StatusOf(created), 201) << created.substr(0, 400);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(created, m, std::regex("\"id\": \"([0-9a-f]+)\"")));
  const std::string id = m[1];
  EXPECT_PRED_FORMAT2(testing::Contains, created, "\"owner\": \"alice\"");
  EXPECT_PRED_FORMAT2(testing::Contains, Ask(port, "GET", "/v1/jobs", token("alice")), id);

  // Bob and Rita: 404 for each route of the job, and an empty list.
  for (const char* who : {"bob", "rita"}) {
    SCOPED_TRACE(who);
    for (const auto& [method, target] :
         std::vector<std::pair<std::string, std::string>>{{"GET", "/v1/jobs/" + id},
                                                          {"GET", "/v1/jobs/" + id + "/results"},
                                                          {"POST", "/v1/jobs/" + id + "/cancel"},
                                                          {"DELETE", "/v1/jobs/" + id}}) {
      const std::string answer = Ask(port, method, target, token(who));
      EXPECT_EQ(StatusOf(answer), 404) << method << " " << target << answer.substr(0, 300);
      EXPECT_PRED_FORMAT2(testing::Contains, answer, "no job " + id);
    }
    const std::string listed = Ask(port, "GET", "/v1/jobs", token(who));
    EXPECT_EQ(StatusOf(listed), 200);
    EXPECT_EQ(listed.find(id), std::string::npos) << listed;
  }
  const std::string refused = Ask(port, "POST", "/v1/jobs", token("rita"), sample);
  EXPECT_EQ(StatusOf(refused), 403) << refused.substr(0, 300);
  EXPECT_PRED_FORMAT2(testing::Contains, refused, "PERMISSION_DENIED");
  EXPECT_EQ(StatusOf(Ask(port, "POST", "/v1/verify", token("rita"), sample)), 200);

  // Adam sees it, reads it and deletes it once it is done.
  EXPECT_PRED_FORMAT2(testing::Contains, Ask(port, "GET", "/v1/jobs", token("adam")), id);
  const std::string results = Ask(port, "GET", "/v1/jobs/" + id + "/results", token("adam"));
  EXPECT_EQ(StatusOf(results), 200);
  EXPECT_PRED_FORMAT2(testing::Contains, results, "\"type\": \"summary\"");
  EXPECT_EQ(StatusOf(Ask(port, "DELETE", "/v1/jobs/" + id, token("adam"))), 200);
  EXPECT_EQ(StatusOf(Ask(port, "GET", "/v1/jobs/" + id, token("alice"))), 404);
}

}  // namespace
}  // namespace arbiter
