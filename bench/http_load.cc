// A bounded HTTP/1.1 load client for one route of a running server (by
// default GET /v1/analyze of a real final position): C clients for S seconds,
// each on its own kept-alive connection, one request at a time. Prints one
// line: answers with status 200 per second, their p50/p99/max latency, the
// errors (any other status, timeouts, broken or unparsable answers) and the
// connections opened.
//
//   http_load --port PORT [--host 127.0.0.1] [--clients 16] [--seconds 8]
//             [--path '/v1/analyze?fen=...'] [--token-file FILE]
//
// Plain POSIX sockets and std::thread, no Arbiter or HTTP library, so that the
// same client measures any two builds of the server alike (an older one among
// them). Exit status: 0 if every request was answered 200, 1 if any failed, 2
// on a usage error.
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// Every socket read and write gives up after this long, and a connect too
// (Linux applies SO_SNDTIMEO to connect), so that a server that stops
// answering ends the run at most this late after --seconds, never hangs it.
constexpr int kSocketTimeoutSeconds = 5;
// Longest status, header, chunk-size or trailer line accepted: an answer
// without a line end within this is not HTTP, and must not grow the buffer.
constexpr size_t kMaxLineBytes = 64 * 1024;
// A client that cannot connect waits this long before it tries again, so that
// a refused port does not turn the run into a busy loop of connects.
constexpr auto kConnectBackoff = std::chrono::milliseconds(10);

constexpr char kDefaultPath[] =
    "/v1/analyze?fen=8%2F8%2F8%2F8%2F8%2F4k3%2F8%2F4K2Q%20w%20-%20-%200%201";

struct Options {
  std::string host = "127.0.0.1";
  int port = 0;
  int clients = 16;
  double seconds = 8;
  std::string path = kDefaultPath;
  std::string token;  // from --token-file; empty sends no Authorization
};

constexpr char kUsage[] =
    "usage: %s --port PORT [--host 127.0.0.1] [--clients 16] [--seconds 8]\n"
    "       [--path '/v1/analyze?fen=...'] [--token-file FILE]\n";

[[noreturn]] void UsageError(const char* argv0, const std::string& why) {
  std::fprintf(stderr, "%s: %s\n", argv0, why.c_str());
  std::fprintf(stderr, kUsage, argv0);
  std::exit(2);
}

// The whole of `text` as a number in [low, high], else false (no atoi: "16x"
// or "" must be refused, not read as 16 or 0).
template <typename T>
bool ParseNumber(std::string_view text, T low, T high, T* out) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < low || value > high)
    return false;
  *out = value;
  return true;
}

Options ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string_view flag = argv[i];
    if (flag == "-h" || flag == "--help") {
      std::printf(kUsage, argv[0]);
      std::exit(0);
    }
    if (i + 1 >= argc) UsageError(argv[0], std::string(flag) + " needs a value");
    std::string_view value = argv[++i];
    if (flag == "--port") {
      if (!ParseNumber(value, 1, 65535, &options.port))
        UsageError(argv[0], "--port: not a port: " + std::string(value));
    } else if (flag == "--host") {
      options.host = value;
    } else if (flag == "--clients") {
      if (!ParseNumber(value, 1, 4096, &options.clients))
        UsageError(argv[0], "--clients: not a number in 1..4096: " + std::string(value));
    } else if (flag == "--seconds") {
      if (!ParseNumber(value, 0.001, 86400.0, &options.seconds))
        UsageError(argv[0], "--seconds: not a duration in seconds: " + std::string(value));
    } else if (flag == "--path") {
      // It goes into the request line as it is: a space or a line end would
      // split it, so the caller must encode them.
      if (value.empty() || value[0] != '/' || value.find_first_of(" \t\r\n") != value.npos)
        UsageError(argv[0], "--path: must start with / and hold no space or line end");
      options.path = value;
    } else if (flag == "--token-file") {
      // The first line of the file, as `arbiter serve --tokens` reads a file of tokens.
      std::ifstream file{std::string(value)};
      std::getline(file, options.token);
      while (!options.token.empty() &&
             std::isspace(static_cast<unsigned char>(options.token.back())))
        options.token.pop_back();
      if (!file && !file.eof())
        UsageError(argv[0], "--token-file: cannot read " + std::string(value));
      if (options.token.empty())
        UsageError(argv[0], "--token-file: no token in " + std::string(value));
    } else {
      UsageError(argv[0], "unknown option " + std::string(flag));
    }
  }
  if (options.port == 0) UsageError(argv[0], "--port is required");
  return options;
}

// The first failure of the run, written to stderr at the end: the counts say
// how many, this says why.
std::mutex first_error_mu;
std::string first_error;

void NoteError(const std::string& what) {
  std::lock_guard lock(first_error_mu);
  if (first_error.empty()) first_error = what;
}

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() &&
         strncasecmp(text.data(), prefix.data(), prefix.size()) == 0;
}

// Whether the comma-separated header value holds `token` (case-insensitive),
// as "Connection: keep-alive, close" holds "close".
bool HasToken(std::string_view value, std::string_view token) {
  while (!value.empty()) {
    size_t comma = value.find(',');
    std::string_view item = value.substr(0, comma);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (item.size() == token.size() && StartsWithNoCase(item, token)) return true;
    if (comma == value.npos) break;
    value.remove_prefix(comma + 1);
  }
  return false;
}

// One client's connection: a socket and the bytes read from it but not yet
// consumed (a read may end inside an answer or hold the start of the next).
class Connection {
 public:
  enum class Read {
    kOk,          // a whole answer was read
    kClosedIdle,  // the server had closed the connection before any byte of the answer
    kFailed,      // timed out, closed mid-answer or not HTTP; the cause went to NoteError
  };

  explicit Connection(const addrinfo& address) : address_(address) {}
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection() { Close(); }

  bool is_open() const { return fd_ >= 0; }

  bool Open() {
    Close();
    fd_ = socket(address_.ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return Fail("socket");
    // Small requests and answers: without TCP_NODELAY, Nagle's algorithm and
    // delayed ACKs could add tens of milliseconds to an exchange.
    int one = 1;
    timeval timeout{.tv_sec = kSocketTimeoutSeconds, .tv_usec = 0};
    if (setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0 ||
        setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout) != 0 ||
        setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout) != 0)
      return Fail("setsockopt");
    if (connect(fd_, address_.ai_addr, address_.ai_addrlen) != 0) return Fail("connect");
    return true;
  }

  void Close() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
    in_.clear();
  }

  // 0 once every byte is sent, else the errno (EPIPE or ECONNRESET: the
  // server had closed the connection).
  int SendAll(std::string_view data) {
    while (!data.empty()) {
      // MSG_NOSIGNAL: a closed connection is an error to count, not a SIGPIPE
      // that would end the program.
      ssize_t n = send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return errno;
      data.remove_prefix(static_cast<size_t>(n));
    }
    return 0;
  }

  // Reads one whole answer, framed by Content-Length, chunked encoding or the
  // end of the connection (RFC 9112 §6.3), and skips any 1xx interim answers.
  // Sets *status and *keep_alive (false: the server will close, or closed).
  Read ReadAnswer(int* status, bool* keep_alive) {
    if (in_.empty()) {
      // A kept-alive connection the server closed while idle shows up here,
      // at the first read, as an end of file or a reset.
      switch (Fill()) {
        case Filled::kData:
          break;
        case Filled::kEnd:
          return Read::kClosedIdle;
        case Filled::kError:
          if (errno == ECONNRESET) return Read::kClosedIdle;
          Fail("recv");
          return Read::kFailed;
      }
    }
    auto refuse = [this](const std::string& what) {
      Malformed(what);
      return Read::kFailed;
    };
    for (;;) {
      std::string line;
      if (!ReadLine(&line)) return Read::kFailed;
      // "HTTP/1.x NNN reason"
      if (line.size() < 12 || !StartsWithNoCase(line, "HTTP/1.") || line[8] != ' ' ||
          !ParseNumber(std::string_view(line).substr(9, 3), 100, 999, status))
        return refuse("status line: " + line.substr(0, 80));
      *keep_alive = line[7] != '0';  // HTTP/1.0 closes unless it says keep-alive
      bool chunked = false, has_length = false;
      unsigned long long length = 0;
      for (;;) {
        if (!ReadLine(&line)) return Read::kFailed;
        if (line.empty()) break;
        size_t colon = line.find(':');
        if (colon == line.npos) return refuse("header line: " + line.substr(0, 80));
        std::string_view name = std::string_view(line).substr(0, colon);
        std::string_view value = std::string_view(line).substr(colon + 1);
        while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
          value.remove_prefix(1);
        while (!value.empty() && (value.back() == ' ' || value.back() == '\t'))
          value.remove_suffix(1);
        auto is = [&](std::string_view header) {
          return name.size() == header.size() && StartsWithNoCase(name, header);
        };
        if (is("Content-Length")) {
          unsigned long long parsed;
          if (!ParseNumber(value, 0ULL, ~0ULL, &parsed) || (has_length && parsed != length))
            return refuse("Content-Length: " + std::string(value));
          has_length = true;
          length = parsed;
        } else if (is("Transfer-Encoding")) {
          chunked = HasToken(value, "chunked");
        } else if (is("Connection")) {
          if (HasToken(value, "close")) *keep_alive = false;
          if (HasToken(value, "keep-alive")) *keep_alive = true;
        }
      }
      if (*status < 200) continue;  // 1xx: the real answer follows
      if (*status == 204 || *status == 304) return Read::kOk;
      if (chunked) return ReadChunkedBody() ? Read::kOk : Read::kFailed;
      if (has_length) return Skip(length) ? Read::kOk : Read::kFailed;
      *keep_alive = false;  // no framing: the body ends with the connection
      for (;;) {
        in_.clear();
        Filled filled = Fill();
        if (filled == Filled::kEnd) return Read::kOk;
        if (filled == Filled::kError) {
          Fail("recv");
          return Read::kFailed;
        }
      }
    }
  }

 private:
  enum class Filled { kData, kEnd, kError };

  // One recv appended to in_. kError leaves errno set (EAGAIN: the timeout).
  Filled Fill() {
    char buffer[16 * 1024];
    for (;;) {
      ssize_t n = recv(fd_, buffer, sizeof buffer, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Filled::kError;
      if (n == 0) return Filled::kEnd;
      in_.append(buffer, static_cast<size_t>(n));
      return Filled::kData;
    }
  }

  // The next line without its CRLF (a bare LF is taken too).
  bool ReadLine(std::string* line) {
    size_t scanned = 0;  // no need to search the same bytes again after a read
    for (;;) {
      size_t lf = in_.find('\n', scanned);
      if (lf != in_.npos) {
        size_t end = lf > 0 && in_[lf - 1] == '\r' ? lf - 1 : lf;
        line->assign(in_, 0, end);
        in_.erase(0, lf + 1);
        return true;
      }
      if (in_.size() > kMaxLineBytes) {
        Malformed("a line longer than 64 KiB");
        return false;
      }
      scanned = in_.size();
      if (!FillOrFail()) return false;
    }
  }

  // Consumes n body bytes without keeping them: the benchmark times the
  // answer, it does not look at it.
  bool Skip(unsigned long long n) {
    for (;;) {
      size_t take = static_cast<size_t>(std::min<unsigned long long>(n, in_.size()));
      in_.erase(0, take);
      n -= take;
      if (n == 0) return true;
      if (!FillOrFail()) return false;
    }
  }

  bool ReadChunkedBody() {
    std::string line;
    for (;;) {
      if (!ReadLine(&line)) return false;
      // "SIZE[;extensions]", SIZE in hex.
      std::string_view size_text = std::string_view(line).substr(0, line.find(';'));
      while (!size_text.empty() && (size_text.back() == ' ' || size_text.back() == '\t'))
        size_text.remove_suffix(1);
      unsigned long long size = 0;
      auto [end, ec] =
          std::from_chars(size_text.data(), size_text.data() + size_text.size(), size, 16);
      if (size_text.empty() || ec != std::errc() || end != size_text.data() + size_text.size()) {
        Malformed("chunk size: " + line.substr(0, 80));
        return false;
      }
      if (size == 0) break;
      if (!Skip(size) || !ReadLine(&line)) return false;
      if (!line.empty()) {
        Malformed("no line end after a chunk");
        return false;
      }
    }
    // Trailer fields, up to an empty line.
    do {
      if (!ReadLine(&line)) return false;
    } while (!line.empty());
    return true;
  }

  // More bytes in the middle of an answer: an end of file here is a failure.
  bool FillOrFail() {
    switch (Fill()) {
      case Filled::kData:
        return true;
      case Filled::kEnd:
        NoteError("the server closed the connection in the middle of an answer");
        return false;
      case Filled::kError:
        return Fail("recv");
    }
    return false;
  }

  bool Fail(const char* call) {
    NoteError(std::string(call) + ": " +
              (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINPROGRESS
                   ? "timed out after " + std::to_string(kSocketTimeoutSeconds) + " s"
                   : std::strerror(errno)));
    return false;
  }

  void Malformed(const std::string& what) { NoteError("not an HTTP/1.1 answer: " + what); }

  const addrinfo& address_;
  int fd_ = -1;
  std::string in_;
};

struct ClientResult {
  std::vector<double> latencies_ms;  // of the answers with status 200
  long errors = 0;
  long connections = 0;
};

// One request on `connection`, opening it first if needed. Returns the status,
// or 0 if no answer came. A kept-alive connection the server closed (cpp-httplib
// closes one after 5 requests, any server may close an idle one) is not an
// error: the request is sent again once, on a new connection. The same on a
// connection opened for this request is.
int Exchange(Connection& connection, const std::string& request, ClientResult& result) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    bool fresh = !connection.is_open();
    if (fresh) {
      if (!connection.Open()) {
        connection.Close();
        std::this_thread::sleep_for(kConnectBackoff);
        return 0;
      }
      ++result.connections;
    }
    int status = 0;
    bool keep_alive = true;
    Connection::Read read = Connection::Read::kFailed;
    if (int error = connection.SendAll(request); error == 0) {
      read = connection.ReadAnswer(&status, &keep_alive);
    } else if (error == EPIPE || error == ECONNRESET) {
      read = Connection::Read::kClosedIdle;
    } else {
      errno = error;
      NoteError(std::string("send: ") + std::strerror(error));
    }
    if (read == Connection::Read::kOk) {
      if (!keep_alive) connection.Close();
      return status;
    }
    connection.Close();
    if (read == Connection::Read::kFailed) return 0;
    if (fresh) {
      NoteError("the server closed a new connection without an answer");
      return 0;
    }
  }
  return 0;
}

// The latency at quantile q (nearest rank) of sorted latencies.
double Quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  size_t rank = static_cast<size_t>(q * static_cast<double>(sorted.size()) + 0.999999);
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

}  // namespace

int main(int argc, char** argv) {
  Options options = ParseOptions(argc, argv);

  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* addresses = nullptr;
  std::string port = std::to_string(options.port);
  if (int error = getaddrinfo(options.host.c_str(), port.c_str(), &hints, &addresses); error != 0)
    UsageError(argv[0], "--host " + options.host + ": " + gai_strerror(error));

  // An IPv6 literal is bracketed in the Host field. The server may check Host
  // (arbiter serve answers only localhost and 127.0.0.1 by default).
  std::string host_field = options.host.find(':') != std::string::npos
                               ? "[" + options.host + "]:" + port
                               : options.host + ":" + port;
  std::string request = "GET " + options.path + " HTTP/1.1\r\nHost: " + host_field + "\r\n";
  if (!options.token.empty()) request += "Authorization: Bearer " + options.token + "\r\n";
  request += "\r\n";

  std::vector<ClientResult> results(options.clients);
  std::vector<std::thread> threads;
  Clock::time_point start = Clock::now();
  Clock::time_point deadline = start + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(options.seconds));
  for (int c = 0; c < options.clients; ++c) {
    threads.emplace_back([&, c] {
      ClientResult& result = results[c];
      // Enough room for a fast server, so that growing the vector does not
      // fall inside a timed exchange often.
      result.latencies_ms.reserve(1 << 16);
      Connection connection(*addresses);
      // A request that starts before the deadline runs to its end: the run
      // lasts at most a socket timeout (twice, with one retry) past it.
      while (Clock::now() < deadline) {
        Clock::time_point sent = Clock::now();
        int status = Exchange(connection, request, result);
        double ms = std::chrono::duration<double, std::milli>(Clock::now() - sent).count();
        if (status == 200) {
          result.latencies_ms.push_back(ms);
        } else {
          ++result.errors;
          if (status != 0) NoteError("status " + std::to_string(status));
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  // Rates over the time the clients actually ran, which ends after the
  // deadline by the last answers' time.
  double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  freeaddrinfo(addresses);

  std::vector<double> all;
  long errors = 0, connections = 0;
  for (const ClientResult& result : results) {
    all.insert(all.end(), result.latencies_ms.begin(), result.latencies_ms.end());
    errors += result.errors;
    connections += result.connections;
  }
  std::sort(all.begin(), all.end());
  std::printf(
      "%.0f requests/s, p50 %.3f ms, p99 %.3f ms, max %.3f ms, errors %ld, connections %ld "
      "(%zu answered 200, %d clients, %.2f s)\n",
      static_cast<double>(all.size()) / elapsed, Quantile(all, 0.50), Quantile(all, 0.99),
      all.empty() ? 0.0 : all.back(), errors, connections, all.size(), options.clients, elapsed);
  if (!first_error.empty()) std::fprintf(stderr, "first error: %s\n", first_error.c_str());
  return errors == 0 && !all.empty() ? 0 : 1;
}
