// Unary latency of `Analyze` through a coordinator, next to the same
// analyses embedded (in this process), for the same positions; with --http,
// also GET /v1/analyze of the coordinator's HTTP API (one kept-alive
// connection, as a platform's client would hold).
//
//   analyze_latency --coordinator HOST:PORT --fens FILE [--rounds N] [--tables DIR]
//                   [--http HOST:PORT]
//
// FILE holds one FEN per line. Each round asks every position once, one
// request at a time (latency, not throughput). Prints p50, p99 and the
// worst, in milliseconds, for both. --tables DIR: the retrograde tables the
// embedded side uses, loaded before timing as a worker loads them before it
// serves (without them, the first analyses would time table builds).
#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "arbiter/v1/arbiter.grpc.pb.h"
#include "core/mate/mate_ability.h"
#include "core/verdict/position_analysis.h"
#include "grpcpp/create_channel.h"

namespace {

using Clock = std::chrono::steady_clock;

void Report(const char* what, std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  auto at = [&](double q) { return ms[std::min(ms.size() - 1, size_t(q * ms.size()))]; };
  std::printf("%-24s %6zu requests: p50 %.3f ms, p99 %.3f ms, worst %.3f ms\n", what, ms.size(),
              at(0.5), at(0.99), ms.back());
}

}  // namespace

int main(int argc, char** argv) {
  std::string coordinator, fens, tables, http_address;
  int rounds = 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--coordinator")) coordinator = argv[i + 1];
    if (!std::strcmp(argv[i], "--fens")) fens = argv[i + 1];
    if (!std::strcmp(argv[i], "--rounds")) rounds = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--tables")) tables = argv[i + 1];
    if (!std::strcmp(argv[i], "--http")) http_address = argv[i + 1];
  }
  std::vector<std::string> positions;
  std::ifstream in(fens);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) positions.push_back(line);
  if (coordinator.empty() || positions.empty()) {
    std::fprintf(stderr,
                 "usage: %s --coordinator HOST:PORT --fens FILE [--rounds N] [--tables DIR]\n",
                 argv[0]);
    return 2;
  }
  // The embedded side runs as `arbiter analyze` does, with retrograde tables.
  arbiter::RetrogradeSolver solver(tables);
  arbiter::MateSearchOptions options;
  options.retrograde = &solver;
  if (!tables.empty()) {
    absl::StatusOr<size_t> loaded = solver.LoadStoredTables();
    if (!loaded.ok()) {
      std::fprintf(stderr, "%s\n", std::string(loaded.status().message()).c_str());
      return 2;
    }
  }
  auto stub = arbiter::v1::Arbiter::NewStub(
      grpc::CreateChannel(coordinator, grpc::InsecureChannelCredentials()));
  std::unique_ptr<httplib::Client> http;
  if (!http_address.empty()) {
    const size_t colon = http_address.rfind(':');
    http = std::make_unique<httplib::Client>(http_address.substr(0, colon),
                                             std::atoi(http_address.c_str() + colon + 1));
    http->set_keep_alive(true);
    http->set_tcp_nodelay(true);
  }
  std::vector<double> remote, embedded, over_http;
  for (int r = 0; r < rounds; ++r) {
    for (const std::string& fen : positions) {
      if (http) {
        const auto start = Clock::now();
        auto reply =
            http->Get(("/v1/analyze?fen=" + httplib::detail::encode_query_param(fen)).c_str());
        over_http.push_back(
            std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        if (!reply || reply->status != 200) {
          std::fprintf(stderr, "%s: HTTP %d\n", fen.c_str(), reply ? reply->status : -1);
          return 1;
        }
      }
      arbiter::v1::AnalyzeRequest request;
      request.set_fen(fen);
      arbiter::v1::Assessment reply;
      grpc::ClientContext ctx;
      auto start = Clock::now();
      grpc::Status s = stub->Analyze(&ctx, request, &reply);
      remote.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      if (!s.ok()) {
        std::fprintf(stderr, "%s: %s\n", fen.c_str(), s.error_message().c_str());
        return 1;
      }
      start = Clock::now();
      auto local = arbiter::AnalyzePosition(fen, false, {}, options, nullptr);
      embedded.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      if (!local.ok()) return 1;
    }
  }
  Report("through the coordinator", remote);
  if (http) Report("over HTTP (coordinator)", over_http);
  Report("embedded", embedded);
  return 0;
}
