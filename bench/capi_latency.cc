// What one arbiter_can_mate call costs a program that links libarbiter.so
// (a tournament manager ruling a flag fall): the engine's creation, the
// first call (which maps the retrograde tables it needs), then every call's
// latency on one thread, and the process's memory before and after the
// tables are touched. bench/embedding_cost.sh runs it beside
// `arbiter analyze -` on the same lines.
//
//   capi_latency FILE [--tables DIR] [--hold]
//
// FILE holds lines "FEN white|black": the side asked about. --hold: after
// the calls, print "ready" and wait for standard input to close, so that a
// script can read /proc/PID/smaps of two such processes at once (do they
// share the mapped tables?).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "arbiter/arbiter.h"

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point from) {
  return std::chrono::duration<double>(Clock::now() - from).count();
}

double CpuSeconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// A field of /proc/self/status or smaps_rollup, in kB.
long ProcField(const char* file, const char* field) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(field, 0) == 0) return std::atol(line.c_str() + std::strlen(field));
  return -1;
}

void PrintMemory(const char* when) {
  std::printf("memory %s: rss %ld kB, pss %ld kB\n", when, ProcField("/proc/self/status", "VmRSS:"),
              ProcField("/proc/self/smaps_rollup", "Pss:"));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: capi_latency FILE [--tables DIR] [--hold]\n");
    return 2;
  }
  arbiter_options options{};
  bool hold = false;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--tables") == 0 && i + 1 < argc) {
      options.tables_dir = argv[++i];
    } else if (std::strcmp(argv[i], "--hold") == 0) {
      hold = true;
    } else {
      std::fprintf(stderr, "capi_latency: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  struct Query {
    std::string fen;
    arbiter_color side;
  };
  std::vector<Query> queries;
  std::ifstream in(argv[1]);
  for (std::string line; std::getline(in, line);) {
    const size_t space = line.rfind(' ');
    if (space == std::string::npos) continue;
    const std::string side = line.substr(space + 1);
    queries.push_back({line.substr(0, space), side == "black" ? ARBITER_BLACK : ARBITER_WHITE});
  }
  if (queries.empty()) {
    std::fprintf(stderr, "capi_latency: no \"FEN white|black\" lines in %s\n", argv[1]);
    return 1;
  }

  PrintMemory("at start");
  arbiter_error error{};
  const Clock::time_point created = Clock::now();
  arbiter_engine* engine = arbiter_engine_new(&options, &error);
  if (engine == nullptr) {
    std::fprintf(stderr, "capi_latency: %s\n", error.message);
    return 1;
  }
  std::printf("engine_new: %.3f ms\n", Seconds(created) * 1e3);
  PrintMemory("after engine_new (no table touched)");

  std::vector<double> micros;
  micros.reserve(queries.size());
  long answers[3] = {0, 0, 0};
  const double cpu_start = CpuSeconds();
  const Clock::time_point start = Clock::now();
  for (const Query& q : queries) {
    arbiter_mate mate{};
    const Clock::time_point t = Clock::now();
    if (arbiter_can_mate(engine, q.fen.c_str(), q.side, &mate, &error) != ARBITER_OK) {
      std::fprintf(stderr, "capi_latency: %s: %s\n", q.fen.c_str(), error.message);
      return 1;
    }
    micros.push_back(Seconds(t) * 1e6);
    ++answers[mate.answer];
    arbiter_mate_clear(&mate);
  }
  const double wall = Seconds(start), cpu = CpuSeconds() - cpu_start;
  std::printf("first call (maps the tables it needs): %.3f ms\n", micros.front() / 1e3);
  std::vector<double> rest(micros.begin() + 1, micros.end());
  std::sort(rest.begin(), rest.end());
  auto at = [&](double q) {
    return rest.empty() ? 0.0 : rest[size_t(q * double(rest.size() - 1))];
  };
  std::printf(
      "calls: %zu (yes %ld, no %ld, unknown %ld); after the first: p50 %.1f us, p99 %.1f us, "
      "max %.1f us\n",
      micros.size(), answers[ARBITER_YES], answers[ARBITER_NO], answers[ARBITER_UNKNOWN], at(0.5),
      at(0.99), rest.empty() ? 0.0 : rest.back());
  std::printf("total: %.3f s wall, %.3f CPU-s, %.1f us per call (CPU)\n", wall, cpu,
              cpu / double(micros.size()) * 1e6);
  PrintMemory("after every call (tables touched)");
  std::fflush(stdout);
  if (hold) {
    std::printf("ready\n");
    std::fflush(stdout);
    std::string ignored;
    while (std::getline(std::cin, ignored)) {
    }
  }
  arbiter_engine_free(engine);
  return 0;
}
