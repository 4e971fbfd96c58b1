// The cluster with real processes on 127.0.0.1 and ephemeral ports: a
// coordinator and workers are started as the binaries users run, the
// `arbiter` client talks to them, and the output must equal the embedded
// run's byte for byte (the summary's timing aside). Workers are killed with
// SIGKILL mid-run and restarted.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/arbiter.grpc.pb.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/support/byte_buffer.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

const std::string kBin = ARBITER_BINARY_DIR;

// Retrograde tables shared by every process of these tests (and kept
// between runs): generated once, then loaded, so that no worker spends its
// start regenerating them.
const std::string kTables = kBin + "/test-retrograde-tables";

std::string Address(int port) { return absl::StrCat("127.0.0.1:", port); }

// A child process with stderr (and stdout, unless `out` is given) sent to
// `log`.
class Process {
 public:
  Process(std::vector<std::string> argv, const std::string& log, const std::string& out = "")
      : argv_(std::move(argv)) {
    pid_ = fork();
    if (pid_ == 0) {
      int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      int out_fd = out.empty() ? fd : open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(out_fd, 1);
      dup2(fd, 2);
      std::vector<char*> args;
      for (std::string& a : argv_) args.push_back(a.data());
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
  }
  ~Process() { Kill(SIGKILL); }
  // Sends `sig` and waits for the exit; returns the wait status.
  int Kill(int sig) {
    if (pid_ <= 0) return 0;
    kill(pid_, sig);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = 0;
    return status;
  }
  void Signal(int sig) {
    if (pid_ > 0) kill(pid_, sig);
  }
  // Waits for the process to exit on its own; false on timeout.
  bool Wait(milliseconds timeout, int* status) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
      if (waitpid(pid_, status, WNOHANG) == pid_) {
        pid_ = 0;
        return true;
      }
      std::this_thread::sleep_for(milliseconds(20));
    }
    return false;
  }

 private:
  std::vector<std::string> argv_;
  pid_t pid_ = 0;
};

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// The port a daemon wrote to its --port-file, or 0 on timeout.
int WaitForPort(const std::string& port_file) {
  for (int i = 0; i < 500; ++i) {
    std::string text = ReadFile(port_file);
    if (!text.empty() && text.back() == '\n') return std::stoi(text);
    std::this_thread::sleep_for(milliseconds(20));
  }
  return 0;
}

size_t CountLines(const std::string& path) {
  std::string text = ReadFile(path);
  return size_t(std::count(text.begin(), text.end(), '\n'));
}

// JSONL output without the one timing-dependent field of the summary.
std::string WithoutTiming(std::string jsonl) {
  return std::regex_replace(jsonl, std::regex("\"seconds\": [0-9.e+-]+"), "\"seconds\": T");
}

// Each of `cases` (arbiter arguments) run embedded and through a
// coordinator: both succeed, with the same output (the summary's timing
// aside).
void ExpectSameAsEmbedded(const std::string& embedded, const std::string& remote,
                          const std::vector<std::string>& cases) {
  for (const std::string& args : cases) {
    testing::CommandResult local = testing::RunCommand(embedded + args);
    testing::CommandResult far = testing::RunCommand(remote + args);
    EXPECT_EQ(local.exit_code, 0) << args;
    EXPECT_EQ(far.exit_code, local.exit_code) << args;
    EXPECT_EQ(WithoutTiming(far.out), WithoutTiming(local.out)) << args;
  }
}

// A port free now (bound, read, released): for the Prometheus endpoints,
// which take no ephemeral port.
int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  close(fd);
  return port;
}

// GET http://127.0.0.1:port/metrics, the whole response ("" on failure).
std::string Metrics(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(uint16_t(port));
  std::string out;
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
    const std::string request = "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    if (write(fd, request.data(), request.size()) == ssize_t(request.size())) {
      char buf[4096];
      for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
    }
  }
  close(fd);
  return out;
}

// Waits (up to 60 s) until the coordinator whose metrics are on `port`
// counts `n` workers up; false on timeout.
bool WaitForWorkersUp(int port, int n) {
  const std::string line = absl::StrCat("\narbiter_coordinator_workers_up ", n, "\n");
  for (int i = 0; i < 6000; ++i) {
    if (Metrics(port).find(line) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

const std::string kSample = std::string(ARBITER_SOURCE_DIR) + "/examples/lichess_sample.pgn";

// `arbiter verify FILE --format jsonl` through the coordinator on `port`,
// and embedded (with the tests' retrograde tables), without Syzygy tables.
testing::CommandResult VerifyRemote(int port, const std::string& file) {
  return testing::RunCommand(absl::StrCat("env -u ARBITER_SYZYGY ", kBin, "/arbiter --coordinator ",
                                          Address(port), " verify ", file, " --format jsonl"));
}
testing::CommandResult VerifyEmbedded(const std::string& file) {
  return testing::RunCommand(absl::StrCat("env -u ARBITER_SYZYGY -u ARBITER_COORDINATOR ", kBin,
                                          "/arbiter verify ", file, " --tables ", kTables,
                                          " --format jsonl"));
}

// Calls a unary method by name with a serialized request (GenericStub), so
// that health and reflection are checked from the wire, as any client sees
// them, without generated stubs.
std::string CallRaw(const std::string& address, const std::string& method,
                    const std::string& request, grpc::Status* status) {
  auto channel = grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
  grpc::GenericStub stub(channel);
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  grpc::Slice slice(request);
  grpc::ByteBuffer in(&slice, 1), out;
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  stub.UnaryCall(&ctx, method, grpc::StubOptions(), &in, &out, [&](grpc::Status s) {
    std::lock_guard<std::mutex> lock(mu);
    *status = s;
    done = true;
    cv.notify_one();
  });
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return done; });
  std::vector<grpc::Slice> slices;
  out.Dump(&slices);
  std::string bytes;
  for (const grpc::Slice& s : slices)
    bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
  return bytes;
}

// grpc.health.v1.Health/Check for the whole server: true when SERVING
// (HealthCheckResponse field 1 = 1, encoded 08 01).
bool Serving(int port) {
  grpc::Status status;
  std::string reply = CallRaw(Address(port), "/grpc.health.v1.Health/Check", "", &status);
  return status.ok() && reply == std::string("\x08\x01", 2);
}

std::vector<std::string> Concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

class Cluster : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("arbiter-cluster-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    coordinator_.reset();
    workers_.clear();
    if (!HasFailure()) fs::remove_all(dir_);
  }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  // Starts worker `i` on `port` (0: a free one); returns its port.
  int StartWorker(size_t i, int port = 0, std::vector<std::string> extra = {}) {
    const std::string port_file = Path("worker" + std::to_string(i) + ".port");
    fs::remove(port_file);
    if (workers_.size() <= i) workers_.resize(i + 1);
    workers_[i] = std::make_unique<Process>(
        Concat({kBin + "/arbiter-worker", "--listen", Address(port), "--threads", "1", "--tables",
                kTables, "--port-file", port_file},
               extra),
        Path("worker" + std::to_string(i) + ".log"));
    return WaitForPort(port_file);
  }

  int StartCoordinator(const std::vector<int>& worker_ports, std::vector<std::string> extra = {}) {
    std::string list;
    for (int p : worker_ports) list += absl::StrCat(list.empty() ? "" : ",", Address(p));
    return StartCoordinatorFor(list, std::move(extra));
  }

  // `workers` as --workers takes it.
  int StartCoordinatorFor(const std::string& workers, std::vector<std::string> extra = {}) {
    const std::string port_file = Path("coordinator.port");
    fs::remove(port_file);
    coordinator_ = std::make_unique<Process>(
        Concat({kBin + "/arbiter-coordinator", "--listen", "127.0.0.1:0", "--workers", workers,
                "--job-dir", Path("jobs"), "--batch", "16", "--port-file", port_file},
               extra),
        Path("coordinator.log"));
    return WaitForPort(port_file);
  }

  // One worker and a coordinator; `remote` and `embedded` are the command
  // prefixes that run the client through them and in this machine's process.
  bool StartSmallCluster(std::string* remote, std::string* embedded) {
    const int w = StartWorker(0);
    if (w <= 0) return false;
    const int c = StartCoordinator({w});
    if (c <= 0) return false;
    *remote = absl::StrCat(kBin, "/arbiter --coordinator ", Address(c), " ");
    *embedded = "env -u ARBITER_COORDINATOR " + kBin + "/arbiter ";
    return true;
  }

  fs::path dir_;
  std::unique_ptr<Process> coordinator_;
  std::vector<std::unique_ptr<Process>> workers_;
};

TEST_F(Cluster, AnalyzeThroughTheCoordinatorEqualsEmbedded) {
  std::string remote, embedded;
  ASSERT_TRUE(StartSmallCluster(&remote, &embedded));
  // A mate line, a dead position, a fortress, a claim by move, text output.
  const std::vector<std::string> cases = {
      "analyze --json --fen '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1'",
      "analyze --json --fen '8/8/8/4k3/8/8/2B5/K7 w - - 0 1'",
      "analyze --json --fen '8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1'",
      "analyze --json --fen 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 99 80'",
      "analyze --fen '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1' --moves g1f1 g8f8 f1g1 f8g8",
  };
  ExpectSameAsEmbedded(embedded, remote, cases);
  // Bad input: the same error, from the worker, through the coordinator.
  testing::CommandResult bad = testing::RunCommand(remote + "analyze --fen 'bad fen' 2>&1");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_PRED_FORMAT2(testing::Contains, bad.out, "FEN must have 6 fields");
}

// Chess 99 (issue 8): the ruleset travels with the request (analyze) and
// with the records (verify), and the answers are the embedded run's bytes.
TEST_F(Cluster, Chess99ThroughTheCoordinatorEqualsEmbedded) {
  std::string remote, embedded;
  ASSERT_TRUE(StartSmallCluster(&remote, &embedded));
  const std::string games = std::string(ARBITER_SOURCE_DIR) + "/examples/chess99_games.pgn";
  // The same games without their [Variant] tags: Chess 99 only by --rules.
  const std::string untagged = ::testing::TempDir() + "/chess99_untagged.pgn";
  ASSERT_EQ(testing::RunCommand("grep -v '^\\[Variant ' " + games + " > " + untagged).exit_code, 0);
  const std::vector<std::string> cases = {
      "analyze --rules chess99 --json --fen '9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60'",
      "analyze --rules chess99 --fen '4k4/9/p8/9/9/9/9/P8/4K4 b - - 0 99'",
      "analyze --rules chess99 --json --fen '9/9/9/9/4k4/9/9/9/n3K4 w - - 0 70' --moves Kd2 Nb3",
      "verify --format jsonl " + games,
      "verify --rules chess99 --format jsonl " + untagged,
  };
  ExpectSameAsEmbedded(embedded, remote, cases);
  // Untagged and read as chess, the same games are errors; with the rules
  // given, they are the tagged games' verdicts.
  testing::CommandResult tagged = testing::RunCommand(embedded + "verify --format jsonl " + games);
  testing::CommandResult as_chess =
      testing::RunCommand(embedded + "verify --format jsonl " + untagged);
  testing::CommandResult as_chess99 =
      testing::RunCommand(remote + "verify --rules chess99 --format jsonl " + untagged);
  EXPECT_EQ(WithoutTiming(as_chess99.out), WithoutTiming(tagged.out));
  EXPECT_PRED_FORMAT2(testing::Contains, as_chess.out, "\"errors\": 8");
  testing::CommandResult bad = testing::RunCommand(
      remote + "analyze --rules chess99 --fen '9/9/9/9/9/9/9/9/9 w - - 0 1' 2>&1");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_PRED_FORMAT2(testing::Contains, bad.out, "exactly one per side");
}

TEST_F(Cluster, HealthAndReflectionOnBothDaemons) {
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w});
  ASSERT_GT(c, 0);
  EXPECT_TRUE(Serving(w));
  EXPECT_TRUE(Serving(c));
  // ServerReflectionRequest{list_services: ""} is field 7, empty: 3a 00.
  // Reflection is a bidirectional stream; a unary call sends one message and
  // reads one reply, which is all list_services needs.
  for (auto [port, service] : {std::pair{w, "arbiter.v1.Worker"}, {c, "arbiter.v1.Arbiter"}}) {
    grpc::Status status;
    std::string reply =
        CallRaw(Address(port), "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
                std::string("\x3a\x00", 2), &status);
    EXPECT_TRUE(status.ok()) << status.error_message();
    EXPECT_PRED_FORMAT2(testing::Contains, reply, service);
    EXPECT_PRED_FORMAT2(testing::Contains, reply, "grpc.health.v1.Health");
  }
}

// The fault test: coordinator + 3 workers verify >= 10,000 real
// games; one worker is killed with SIGKILL mid-run and restarted on its
// port; the records equal the embedded run's, none missing, none twice;
// the restarted worker gets work again.
TEST_F(Cluster, VerifySurvivesAKilledWorkerAndTheRestartedOneRejoins) {
  const std::string shared = testing::SharedDir();
  const std::string lichess = shared + "/games/lichess_jishanshaikh4_37221.pgn.zst";
  if (shared.empty() || !fs::exists(lichess))
    GTEST_SKIP() << "../shared/games/lichess_jishanshaikh4_37221.pgn.zst is absent "
                    "(set ARBITER_SHARED): the 10,000-game fault test cannot run";
  const std::string zstd = testing::FindProgram("zstd");
  ASSERT_FALSE(zstd.empty()) << "zstd (Debian package zstd) is needed to cut the game file";
  // The first 10,000 games, as plain PGN.
  const std::string games = Path("games.pgn");
  ASSERT_EQ(testing::RunCommand(zstd + " -dc " + lichess +
                                " | awk '/^\\[Event /{n++} n<=10000' > " + games)
                .exit_code,
            0);
  const std::string embedded = Path("embedded.jsonl");
  ASSERT_EQ(testing::RunCommand("env -u ARBITER_COORDINATOR -u ARBITER_SYZYGY " + kBin +
                                "/arbiter verify " + games + " --tables " + kTables +
                                " --format jsonl > " + embedded)
                .exit_code,
            0);
  ASSERT_EQ(CountLines(embedded), 10001u) << "10,000 records and a summary";

  std::vector<int> ports;
  for (size_t i = 0; i < 3; ++i) ports.push_back(StartWorker(i));
  for (int p : ports) ASSERT_GT(p, 0);
  const int c = StartCoordinator(ports);
  ASSERT_GT(c, 0);
  const std::string remote_out = Path("remote.jsonl");
  Process client({"/usr/bin/env", "-u", "ARBITER_SYZYGY", kBin + "/arbiter", "--coordinator",
                  Address(c), "verify", games, "--format", "jsonl"},
                 Path("client.log"), remote_out);
  // Kill worker 1 once the run is well under way (verdicts arrive in input
  // order, so 1,000 lines means at least that many games are done).
  int status = 0;
  for (int i = 0; i < 30000 && CountLines(remote_out) < 1000; ++i)
    std::this_thread::sleep_for(milliseconds(10));
  ASSERT_FALSE(client.Wait(milliseconds(1), &status)) << "the run ended before the kill";
  ASSERT_LT(CountLines(remote_out), 9000u) << "too late for a mid-run kill";
  workers_[1]->Kill(SIGKILL);
  std::this_thread::sleep_for(milliseconds(500));
  ASSERT_EQ(StartWorker(1, ports[1]), ports[1]) << "restart on the same port";
  ASSERT_TRUE(client.Wait(milliseconds(600000), &status)) << "the run did not finish";
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << ReadFile(Path("client.log"));
  EXPECT_EQ(WithoutTiming(ReadFile(remote_out)), WithoutTiming(ReadFile(embedded)));

  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("coordinator.log")), "failed");

  // The restarted worker serves: with the other two stopped, a run through
  // the coordinator still completes, on it alone, with the embedded output.
  workers_[0]->Kill(SIGTERM);
  workers_[2]->Kill(SIGTERM);
  testing::CommandResult alone = VerifyRemote(c, kSample);
  testing::CommandResult local = VerifyEmbedded(kSample);
  EXPECT_EQ(alone.exit_code, 0);
  EXPECT_EQ(WithoutTiming(alone.out), WithoutTiming(local.out));
  workers_[1]->Kill(SIGTERM);
  std::smatch m;
  const std::string log = ReadFile(Path("worker1.log"));
  ASSERT_TRUE(std::regex_search(log, m, std::regex("stopped after ([0-9]+) batches"))) << log;
  EXPECT_GT(std::stoll(m[1]), 0) << "the restarted worker got no work";
}

// A worker that stops answering (SIGSTOP: connected, silent) holds its
// batches until their lease ends; they go to the other worker and the run
// completes with every record, in order.
TEST_F(Cluster, ABatchPastItsDeadlineGoesToAnotherWorker) {
  const std::string shared = testing::SharedDir();
  const std::string otb = shared + "/games/otb_kasparov_2128.pgn.zst";
  if (shared.empty() || !fs::exists(otb))
    GTEST_SKIP() << "../shared/games/otb_kasparov_2128.pgn.zst is absent (set ARBITER_SHARED)";
  std::vector<int> ports = {StartWorker(0), StartWorker(1)};
  for (int p : ports) ASSERT_GT(p, 0);
  const int metrics = FreePort();
  const int c =
      StartCoordinator(ports, {"--batch-deadline-ms", "1500", "--metrics", Address(metrics)});
  ASSERT_GT(c, 0);
  // Worker 1 is stopped once the coordinator counts it up (connected), and
  // before the run: every batch the coordinator gives it is then held until
  // its lease ends. (Stopping it at the first verdict raced on a loaded
  // machine: the client reads verdicts late, and by then worker 1 could
  // have finished its last batch.)
  ASSERT_TRUE(WaitForWorkersUp(metrics, 2)) << Metrics(metrics);
  workers_[1]->Signal(SIGSTOP);
  const std::string out = Path("remote.jsonl");
  Process client(
      {kBin + "/arbiter", "--coordinator", Address(c), "verify", otb, "--format", "jsonl"},
      Path("client.log"), out);
  int status = 0;
  ASSERT_TRUE(client.Wait(milliseconds(300000), &status)) << "the run did not finish";
  workers_[1]->Signal(SIGCONT);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << ReadFile(Path("client.log"));
  testing::CommandResult local = VerifyEmbedded(otb);
  EXPECT_EQ(WithoutTiming(ReadFile(out)), WithoutTiming(local.out));
  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("coordinator.log")), "Deadline Exceeded");
}

// A game that no worker finishes within its lease (here: a lease far too
// short) cannot stall the run: after kMaxGameFailures broken calls it gets
// an error verdict, and the other games theirs.
TEST_F(Cluster, AGameNoWorkerFinishesGetsAnErrorVerdict) {
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w}, {"--batch-deadline-ms", "1"});
  ASSERT_GT(c, 0);
  testing::CommandResult far = VerifyRemote(c, kSample);
  testing::CommandResult local = VerifyEmbedded(kSample);
  EXPECT_EQ(far.exit_code, 0);
  std::vector<std::string> got = testing::Lines(far.out), want = testing::Lines(local.out);
  ASSERT_EQ(got.size(), want.size());
  int errors = 0;
  for (size_t i = 0; i + 1 < got.size(); ++i) {
    if (got[i] == want[i]) continue;
    ++errors;
    EXPECT_PRED_FORMAT2(testing::Contains, got[i], "no worker could rule on this game: 3 calls");
    EXPECT_PRED_FORMAT2(testing::Contains, got[i], absl::StrCat("\"game\": ", i + 1, ","));
  }
  EXPECT_GT(errors, 0) << "a 1 ms lease should have expired at least once";
}

// SIGTERM while a client streams games: the coordinator ends the run (the
// client hears UNAVAILABLE, never a shortened success) and exits.
TEST_F(Cluster, ShutdownDuringARunEndsItCleanly) {
  const std::string shared = testing::SharedDir();
  const std::string otb = shared + "/games/otb_blackmar_diemer_3768.pgn.zst";
  if (shared.empty() || !fs::exists(otb))
    GTEST_SKIP() << "../shared/games/otb_blackmar_diemer_3768.pgn.zst is absent";
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w});
  ASSERT_GT(c, 0);
  const std::string out = Path("remote.jsonl");
  Process client(
      {kBin + "/arbiter", "--coordinator", Address(c), "verify", otb, "--format", "jsonl"},
      Path("client.log"), out);
  for (int i = 0; i < 30000 && CountLines(out) < 100; ++i)
    std::this_thread::sleep_for(milliseconds(10));
  int status = 0;
  ASSERT_FALSE(client.Wait(milliseconds(1), &status)) << "the run ended before the signal";
  coordinator_->Signal(SIGTERM);
  ASSERT_TRUE(coordinator_->Wait(milliseconds(15000), &status)) << "the coordinator hangs";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ASSERT_TRUE(client.Wait(milliseconds(15000), &status)) << "the client hangs";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0);
  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("client.log")), "coordinator");
}

// Workers found through a DNS name (as a Kubernetes headless Service gives
// them), and the Prometheus endpoints of both daemons counting the work.
TEST_F(Cluster, WorkersFromADnsNameAndMetrics) {
  const int worker_metrics = FreePort(), coordinator_metrics = FreePort();
  const int w = StartWorker(0, 0, {"--metrics", Address(worker_metrics)});
  ASSERT_GT(w, 0);
  const int c = StartCoordinatorFor(absl::StrCat("dns:///localhost:", w),
                                    {"--metrics", Address(coordinator_metrics)});
  ASSERT_GT(c, 0);
  testing::CommandResult far = VerifyRemote(c, kSample);
  testing::CommandResult local = VerifyEmbedded(kSample);
  EXPECT_EQ(far.exit_code, 0);
  EXPECT_EQ(WithoutTiming(far.out), WithoutTiming(local.out));
  const std::string cm = Metrics(coordinator_metrics), wm = Metrics(worker_metrics);
  EXPECT_PRED_FORMAT2(testing::Contains, cm, "arbiter_coordinator_verdicts_total 5");
  EXPECT_PRED_FORMAT2(testing::Contains, cm, "arbiter_coordinator_workers_up");
  EXPECT_PRED_FORMAT2(testing::Contains, cm, "arbiter_coordinator_batch_seconds_bucket");
  EXPECT_PRED_FORMAT2(testing::Contains, wm, "arbiter_worker_verdicts_total 5");
  EXPECT_PRED_FORMAT2(testing::Contains, wm, "arbiter_worker_game_seconds_count 5");
}

// TLS everywhere: clients need the CA and a bearer token; workers take only
// the coordinator (mutual TLS with a CA that signed nothing else); probes
// use the plain-text health port.
TEST_F(Cluster, TlsTokensAndWorkersThatAcceptOnlyTheCoordinator) {
  const std::string openssl = testing::FindProgram("openssl");
  ASSERT_FALSE(openssl.empty()) << "openssl (Debian package openssl) makes the test certificates";
  const std::string certs = Path("certs");
  ASSERT_EQ(testing::RunCommand(absl::StrCat(ARBITER_SOURCE_DIR, "/scripts/make-test-certs.sh ",
                                             certs, " > /dev/null"))
                .exit_code,
            0);
  auto cert = [&](const std::string& name) { return absl::StrCat(certs, "/", name); };
  const int w = StartWorker(0, 0,
                            {"--tls-cert", cert("worker.pem"), "--tls-key", cert("worker.key"),
                             "--client-ca", cert("client-ca.pem")});
  ASSERT_GT(w, 0);
  const int c = StartCoordinator(
      {w}, {"--tls-cert", cert("coordinator.pem"), "--tls-key", cert("coordinator.key"), "--tokens",
            cert("tokens"), "--worker-ca", cert("ca.pem"), "--worker-cert",
            cert("coordinator-client.pem"), "--worker-key", cert("coordinator-client.key"),
            "--health", "127.0.0.1:0"});
  ASSERT_GT(c, 0);
  const std::string client = absl::StrCat("env -u ARBITER_SYZYGY -u ARBITER_TLS_CA -u ",
                                          "ARBITER_TOKEN_FILE ", kBin, "/arbiter --coordinator ");
  const std::string verify = absl::StrCat(" verify ", kSample, " --format jsonl 2>&1");

  testing::CommandResult good = testing::RunCommand(absl::StrCat(
      client, Address(c), " --tls-ca ", cert("ca.pem"), " --token-file ", cert("token"), verify));
  testing::CommandResult local = testing::RunCommand(
      absl::StrCat("env -u ARBITER_SYZYGY -u ARBITER_COORDINATOR ", kBin, "/arbiter", verify));
  EXPECT_EQ(good.exit_code, 0) << good.out;
  EXPECT_EQ(WithoutTiming(good.out), WithoutTiming(local.out));

  testing::CommandResult no_token =
      testing::RunCommand(absl::StrCat(client, Address(c), " --tls-ca ", cert("ca.pem"), verify));
  EXPECT_EQ(no_token.exit_code, 2);
  EXPECT_PRED_FORMAT2(testing::Contains, no_token.out, "a valid bearer token is required");

  std::ofstream(Path("wrong-token")) << "not-the-token\n";
  testing::CommandResult wrong =
      testing::RunCommand(absl::StrCat(client, Address(c), " --tls-ca ", cert("ca.pem"),
                                       " --token-file ", Path("wrong-token"), verify));
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_PRED_FORMAT2(testing::Contains, wrong.out, "a valid bearer token is required");

  testing::CommandResult plain = testing::RunCommand(absl::StrCat(client, Address(c), verify));
  EXPECT_EQ(plain.exit_code, 2);
  EXPECT_PRED_FORMAT2(testing::Contains, plain.out, "UNAVAILABLE");

  // A client that reaches a worker directly, even with the CA and a token,
  // has no certificate from the coordinator's client CA: refused.
  testing::CommandResult direct = testing::RunCommand(
      absl::StrCat(client, Address(w), " --tls-ca ", cert("ca.pem"), " --token-file ",
                   cert("token"), " analyze --fen '8/8/8/8/8/8/8/K6k w - - 0 1' 2>&1"));
  EXPECT_EQ(direct.exit_code, 2);
  EXPECT_PRED_FORMAT2(testing::Contains, direct.out, "UNAVAILABLE");

  // Kubernetes probes: plain-text health on its own port.
  const int health = WaitForPort(Path("coordinator.port.health"));
  ASSERT_GT(health, 0);
  EXPECT_TRUE(Serving(health));
}

// Durable jobs: the coordinator is killed with SIGKILL mid-job and started
// again on the same job directory; it resumes the job, the client
// re-attaches by id, and the verdicts equal the embedded run's — none lost,
// none twice.
TEST_F(Cluster, AJobSurvivesACoordinatorKilledMidJob) {
  const std::string shared = testing::SharedDir();
  const std::string lichess = shared + "/games/lichess_jishanshaikh4_37221.pgn.zst";
  if (shared.empty() || !fs::exists(lichess))
    GTEST_SKIP() << "../shared/games/lichess_jishanshaikh4_37221.pgn.zst is absent";
  const std::string& games = lichess;  // 37,221 games: long enough to kill mid-job
  std::vector<int> ports = {StartWorker(0), StartWorker(1)};
  for (int p : ports) ASSERT_GT(p, 0);
  int c = StartCoordinator(ports);
  ASSERT_GT(c, 0);
  auto client = [&](int port) {
    return absl::StrCat("env -u ARBITER_SYZYGY ", kBin, "/arbiter --coordinator ", Address(port),
                        " job ");
  };
  testing::CommandResult submit = testing::RunCommand(client(c) + "submit " + games);
  ASSERT_EQ(submit.exit_code, 0) << submit.out;
  const std::string id = submit.out.substr(0, submit.out.find('\n'));
  // Kill once a good part, but not all, is committed.
  const std::regex done_re(" ([0-9]+) games ruled");
  int64_t done = 0;
  for (int i = 0; i < 3000 && done < 1000; ++i) {
    std::this_thread::sleep_for(milliseconds(10));
    testing::CommandResult state = testing::RunCommand(client(c) + "watch " + id + " | head -1");
    std::smatch m;
    if (std::regex_search(state.out, m, done_re)) done = std::stoll(m[1]);
  }
  ASSERT_GE(done, 1000);
  ASSERT_LT(done, 37221) << "the job ended before the kill";
  coordinator_->Kill(SIGKILL);
  c = StartCoordinator(ports);
  ASSERT_GT(c, 0);
  testing::CommandResult watch = testing::RunCommand(client(c) + "watch " + id);
  EXPECT_EQ(watch.exit_code, 0) << watch.out;
  testing::CommandResult results =
      testing::RunCommand(client(c) + "results " + id + " --format jsonl");
  ASSERT_EQ(results.exit_code, 0);
  testing::CommandResult local = VerifyEmbedded(games);
  EXPECT_EQ(testing::Lines(results.out).size(), 37222u);
  EXPECT_TRUE(WithoutTiming(results.out) == WithoutTiming(local.out))
      << "the resumed job's verdicts differ from the embedded run's";
  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("coordinator.log")), "resuming job " + id);
}

// SIGTERM mid-job while the workers keep up with the reader (the input
// trickles in through a FIFO): the job must stay running and resume at the
// next start, never be marked done with games missing.
TEST_F(Cluster, AJobStoppedBySigtermResumesWithEveryGame) {
  auto game = [](int i) {
    return absl::StrCat("[Event \"e", i, "\"]\n[Site \"s", i,
                        "\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n");
  };
  const std::string games = Path("games.pgn");
  ASSERT_EQ(mkfifo(games.c_str(), 0600), 0);
  signal(SIGPIPE, SIG_IGN);
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  int c = StartCoordinator({w});
  ASSERT_GT(c, 0);
  auto client = [&](int port) {
    return absl::StrCat("env -u ARBITER_SYZYGY ", kBin, "/arbiter --coordinator ", Address(port),
                        " job ");
  };
  // Submitting opens the FIFO once to check it: that opening reads nothing.
  std::thread check_open([&] { close(open(games.c_str(), O_WRONLY)); });
  testing::CommandResult submit = testing::RunCommand(client(c) + "submit " + games);
  check_open.join();
  ASSERT_EQ(submit.exit_code, 0) << submit.out;
  const std::string id = submit.out.substr(0, submit.out.find('\n'));
  // A game every 5 ms, until the job's reader goes away.
  std::atomic<int> written{0};
  std::thread writer([&] {
    const int fifo = open(games.c_str(), O_WRONLY);
    if (fifo < 0) return;
    for (int i = 1; i <= 400; ++i) {
      const std::string g = game(i);
      if (write(fifo, g.data(), g.size()) != ssize_t(g.size())) break;
      written = i;
      std::this_thread::sleep_for(milliseconds(5));
    }
    close(fifo);
  });
  for (int i = 0; i < 3000 && written < 100; ++i) std::this_thread::sleep_for(milliseconds(2));
  coordinator_->Signal(SIGTERM);
  int status = 0;
  const bool exited = coordinator_->Wait(milliseconds(15000), &status);
  writer.join();
  ASSERT_TRUE(exited) << "the coordinator hangs";
  ASSERT_LT(written, 400) << "the input ended before the signal";
  // The next start reads the same path again: now a plain file.
  fs::remove(games);
  {
    std::ofstream all(games);
    for (int i = 1; i <= 400; ++i) all << game(i);
  }
  c = StartCoordinator({w});
  ASSERT_GT(c, 0);
  testing::CommandResult watch = testing::RunCommand("timeout 60 " + client(c) + "watch " + id);
  EXPECT_EQ(watch.exit_code, 0) << watch.out;
  EXPECT_PRED_FORMAT2(testing::Contains, watch.out, " 400 games ruled");
  testing::CommandResult results =
      testing::RunCommand(client(c) + "results " + id + " --format jsonl");
  ASSERT_EQ(results.exit_code, 0);
  EXPECT_EQ(testing::Lines(results.out).size(), 401u);  // 400 verdicts and the summary
}

// A job database truncated to nothing, or overwritten, is an error at start
// that names it: never an empty job list.
TEST_F(Cluster, AnEmptyOrDamagedJobDatabaseStopsTheStart) {
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  ASSERT_GT(StartCoordinator({w}), 0);
  coordinator_->Kill(SIGTERM);
  const std::string db = Path("jobs/jobs.sqlite");
  ASSERT_TRUE(fs::exists(db));
  for (const std::string& content : {std::string(), std::string(8192, 'x')}) {
    fs::remove(db + "-wal");
    fs::remove(db + "-shm");
    std::ofstream(db, std::ios::trunc) << content;
    EXPECT_LE(StartCoordinator({w}), 0) << "started on a damaged database";
    int status = 0;
    ASSERT_TRUE(coordinator_->Wait(milliseconds(10000), &status));
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0);
    EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("coordinator.log")), db);
  }
}

// Limits: a request asking too much is refused with RESOURCE_EXHAUSTED and
// a message; in a stream, the one over-long record gets an error verdict and
// the others theirs.
TEST_F(Cluster, RequestsOverTheLimitsAreRefusedClearly) {
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w}, {"--max-budget", "1000000", "--max-message-mb", "1"});
  ASSERT_GT(c, 0);
  testing::CommandResult budget = testing::RunCommand(
      absl::StrCat(kBin, "/arbiter --coordinator ", Address(c),
                   " analyze --fen '8/8/8/4k3/8/8/2B5/K7 w - - 0 1' --budget 2000000 2>&1"));
  EXPECT_EQ(budget.exit_code, 2);
  EXPECT_PRED_FORMAT2(testing::Contains, budget.out, "exceeds this coordinator's 1000000");

  auto stub =
      v1::Arbiter::NewStub(grpc::CreateChannel(Address(c), grpc::InsecureChannelCredentials()));
  v1::GameRecord longest;
  longest.set_index(1);
  for (int i = 0; i < 10001; ++i) {
    longest.mutable_moves()->append(i % 4 < 2 ? (i % 2 ? "Nf6 " : "Nf3 ")
                                              : (i % 2 ? "Ng8 " : "Ng1 "));
    longest.add_move_lines(1);
  }
  {
    v1::VerifyGameRequest request;
    *request.mutable_record() = longest;
    v1::GameVerdict reply;
    grpc::ClientContext ctx;
    grpc::Status s = stub->VerifyGame(&ctx, request, &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_PRED_FORMAT2(testing::Contains, s.error_message(), "10001 plies, more than 10000");
  }
  {
    v1::VerifyGameRequest request;
    request.set_pgn(std::string(2 << 20, ' '));  // 2 MB, over --max-message-mb 1
    v1::GameVerdict reply;
    grpc::ClientContext ctx;
    EXPECT_EQ(stub->VerifyGame(&ctx, request, &reply).error_code(),
              grpc::StatusCode::RESOURCE_EXHAUSTED);
  }
  {
    grpc::ClientContext ctx;
    auto stream = stub->VerifyGames(&ctx);
    v1::VerifyGamesRequest request;
    for (int i = 0; i < 3; ++i) {
      v1::GameInput* game = request.add_games();
      game->set_id(absl::StrCat("g", i));
      if (i == 1) {
        v1::GameRecord shorter = longest;
        shorter.set_index(2);
        *game->mutable_record() = shorter;
      } else {
        game->set_pgn("[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n");
      }
    }
    ASSERT_TRUE(stream->Write(request));
    stream->WritesDone();
    std::vector<v1::IdentifiedVerdict> got;
    v1::VerifyGamesResponse response;
    while (stream->Read(&response))
      for (const v1::IdentifiedVerdict& v : response.verdicts()) got.push_back(v);
    EXPECT_TRUE(stream->Finish().ok());
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0].verdict().ruling().rule(), "checkmate");
    EXPECT_PRED_FORMAT2(testing::Contains, got[1].verdict().error(), "more than 10000");
    EXPECT_EQ(got[2].id(), "g2");
    EXPECT_EQ(got[2].verdict().ruling().rule(), "checkmate");
  }
}

TEST_F(Cluster, JobOverAFileOnSharedStorage) {
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w});
  ASSERT_GT(c, 0);
  const std::string remote = absl::StrCat(kBin, "/arbiter --coordinator ", Address(c), " ");
  testing::CommandResult submit = testing::RunCommand(remote + "job submit " + kSample);
  ASSERT_EQ(submit.exit_code, 0) << submit.out;
  const std::string id = submit.out.substr(0, submit.out.find('\n'));
  ASSERT_EQ(id.size(), 16u) << submit.out;
  testing::CommandResult watch = testing::RunCommand(remote + "job watch " + id);
  EXPECT_EQ(watch.exit_code, 0) << watch.out;
  EXPECT_PRED_FORMAT2(testing::Contains, watch.out, "done");
  testing::CommandResult results =
      testing::RunCommand(remote + "job results " + id + " --format jsonl");
  ASSERT_EQ(results.exit_code, 0);
  testing::CommandResult local = VerifyEmbedded(kSample);
  EXPECT_EQ(WithoutTiming(results.out), WithoutTiming(local.out));
  // From game 3 on: the same records, fewer of them.
  testing::CommandResult tail =
      testing::RunCommand(remote + "job results " + id + " --format jsonl --from 3");
  std::vector<std::string> all = testing::Lines(results.out), some = testing::Lines(tail.out);
  ASSERT_EQ(some.size() + 2, all.size());
  EXPECT_EQ(some[0], all[2]);
  // Unknown job, missing file: clear errors.
  testing::CommandResult unknown = testing::RunCommand(remote + "job watch 0123456789abcdef 2>&1");
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_PRED_FORMAT2(testing::Contains, unknown.out, "no job 0123456789abcdef");
  testing::CommandResult missing = testing::RunCommand(remote + "job submit /nonexistent.pgn 2>&1");
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_PRED_FORMAT2(testing::Contains, missing.out, "/nonexistent.pgn");
}

}  // namespace
}  // namespace arbiter
