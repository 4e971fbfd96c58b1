// Shared by the cluster tests: real coordinator and worker processes on
// 127.0.0.1 with ephemeral ports, started as the binaries users run, and the
// helpers that talk to them from the wire.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
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

namespace fs = std::filesystem;
using std::chrono::milliseconds;

inline const std::string kBin = ARBITER_BINARY_DIR;

// Retrograde tables shared by every process of these tests (and kept
// between runs): generated once, then loaded, so that no worker spends its
// start regenerating them. $ARBITER_TABLES when set (scripts/test.sh: the
// directory every test shares, filled before the tests start), else a
// directory of their own in the build tree.
inline const std::string kTables = [] {
  const char* env = std::getenv("ARBITER_TABLES");
  return env && *env ? std::string(env) : kBin + "/test-retrograde-tables";
}();

inline std::string Address(int port) { return absl::StrCat("127.0.0.1:", port); }

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
  pid_t pid() const { return pid_; }
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

inline std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// The port a daemon wrote to its --port-file, or 0 on timeout.
inline int WaitForPort(const std::string& port_file) {
  for (int i = 0; i < 500; ++i) {
    std::string text = ReadFile(port_file);
    if (!text.empty() && text.back() == '\n') return std::stoi(text);
    std::this_thread::sleep_for(milliseconds(20));
  }
  return 0;
}

inline size_t CountLines(const std::string& path) {
  std::string text = ReadFile(path);
  return size_t(std::count(text.begin(), text.end(), '\n'));
}

// JSONL output without the one timing-dependent field of the summary.
inline std::string WithoutTiming(std::string jsonl) {
  return std::regex_replace(jsonl, std::regex("\"seconds\": [0-9.e+-]+"), "\"seconds\": T");
}

// Each of `cases` (arbiter arguments) run embedded and through a
// coordinator: both succeed, with the same output (the summary's timing
// aside).
inline void ExpectSameAsEmbedded(const std::string& embedded, const std::string& remote,
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
inline int FreePort() {
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
inline std::string Metrics(int port) {
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
inline bool WaitForWorkersUp(int port, int n) {
  const std::string line = absl::StrCat("\narbiter_coordinator_workers_up ", n, "\n");
  for (int i = 0; i < 6000; ++i) {
    if (Metrics(port).find(line) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

inline const std::string kSample = std::string(ARBITER_SOURCE_DIR) + "/examples/lichess_sample.pgn";

// `arbiter verify FILE --format jsonl` through the coordinator on `port`,
// and embedded (with the tests' retrograde tables), without Syzygy tables.
inline testing::CommandResult VerifyRemote(int port, const std::string& file) {
  return testing::RunCommand(absl::StrCat("env -u ARBITER_SYZYGY ", kBin, "/arbiter --coordinator ",
                                          Address(port), " verify ", file, " --format jsonl"));
}
inline testing::CommandResult VerifyEmbedded(const std::string& file) {
  return testing::RunCommand(absl::StrCat("env -u ARBITER_SYZYGY -u ARBITER_COORDINATOR ", kBin,
                                          "/arbiter verify ", file, " --tables ", kTables,
                                          " --format jsonl"));
}

// Calls a unary method by name with a serialized request (GenericStub), so
// that health and reflection are checked from the wire, as any client sees
// them, without generated stubs.
inline std::string CallRaw(const std::string& address, const std::string& method,
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
inline bool Serving(int port) {
  grpc::Status status;
  std::string reply = CallRaw(Address(port), "/grpc.health.v1.Health/Check", "", &status);
  return status.ok() && reply == std::string("\x08\x01", 2);
}

// A line of /proc/PID/status as a number ("Threads", "VmRSS" in kB); -1 if
// absent.
inline int64_t ProcStatus(pid_t pid, const std::string& field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind(field + ":", 0) == 0) return std::stoll(line.substr(field.size() + 1));
  return -1;
}

inline std::vector<std::string> Concat(std::vector<std::string> a,
                                       const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

class Cluster : public ::testing::Test {
 public:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("arbiter-cluster-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    serve_.reset();
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
                tables_, "--port-file", port_file},
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

  // `arbiter serve` (the HTTP tests) on a free port with `extra` flags; its port, or 0.
  int StartServe(std::vector<std::string> extra = {}) {
    const std::string port_file = Path("serve.port");
    fs::remove(port_file);
    serve_ = std::make_unique<Process>(
        Concat({kBin + "/arbiter", "serve", "--http", "127.0.0.1:0", "--port-file", port_file,
                "--tables", tables_, "--jobs", "2", "--job-dir", Path("serve-jobs")},
               extra),
        Path("serve.log"));
    return WaitForPort(port_file);
  }

  // A table directory at Path(name) holding every table but `left_out`
  // (copies of kTables' files), for a server that must build those first.
  std::string TablesWithout(const std::string& name, const std::vector<std::string>& left_out) {
    const std::string dir = Path(name);
    fs::create_directories(dir);
    for (const auto& entry : fs::directory_iterator(kTables)) {
      const std::string file = entry.path().filename().string();
      if (entry.path().extension() != ".arbt") continue;
      if (std::find(left_out.begin(), left_out.end(), entry.path().stem().string()) !=
          left_out.end())
        continue;
      fs::copy_file(entry.path(), dir + "/" + file, fs::copy_options::overwrite_existing);
    }
    return dir;
  }

  // scripts/make-test-certs.sh into Path(set); false when it fails.
  bool MakeTestCertificates(const std::string& set) {
    return testing::RunCommand(absl::StrCat(ARBITER_SOURCE_DIR, "/scripts/make-test-certs.sh ",
                                            Path(set), " > /dev/null"))
               .exit_code == 0;
  }

  // Copies `names` from Path(set) into Path("live") as a deployment replaces
  // files: a new file renamed over the old one.
  void InstallCertificates(const std::string& set, const std::vector<std::string>& names) {
    const std::string live = Path("live");
    fs::create_directories(live);
    for (const std::string& name : names) {
      fs::copy_file(Path(set + "/" + name), live + "/" + name + ".tmp",
                    fs::copy_options::overwrite_existing);
      fs::rename(live + "/" + name + ".tmp", live + "/" + name);
    }
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
  std::unique_ptr<Process> serve_;
  std::vector<std::unique_ptr<Process>> workers_;
  // The --tables of the workers and serve started next (every table built).
  std::string tables_ = kTables;
};
}  // namespace arbiter
