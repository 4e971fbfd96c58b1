// A bounded load test of a running coordinator: C concurrent clients, each
// with its own channel, for a fixed time, alternating Analyze (a real final
// position) and VerifyGame (a real game record), one request at a time
// each. Prints throughput, p50/p99 latency, and the resident memory of the
// processes given with --pid sampled every second (it should stay flat).
//
//   load_test --coordinator HOST:PORT --pgn FILE [--clients C] [--seconds S]
//             [--pid PID]...
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "arbiter/v1/arbiter.grpc.pb.h"
#include "core/io/byte_source.h"
#include "core/pgn/game_replay.h"
#include "core/pgn/pgn_reader.h"
#include "grpcpp/create_channel.h"
#include "proto/convert.h"

namespace {

using Clock = std::chrono::steady_clock;

long ResidentKb(int pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string coordinator, pgn;
  int clients = 16, seconds = 20;
  std::vector<int> pids;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--coordinator")) coordinator = argv[i + 1];
    if (!std::strcmp(argv[i], "--pgn")) pgn = argv[i + 1];
    if (!std::strcmp(argv[i], "--clients")) clients = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--seconds")) seconds = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--pid")) pids.push_back(std::atoi(argv[i + 1]));
  }
  if (coordinator.empty() || pgn.empty()) {
    std::fprintf(stderr,
                 "usage: %s --coordinator HOST:PORT --pgn FILE [--clients C] [--seconds S] "
                 "[--pid PID]...\n",
                 argv[0]);
    return 2;
  }
  // Requests: the first 500 games of the file, and their final positions.
  std::vector<arbiter::v1::GameRecord> games;
  std::vector<std::string> fens;
  {
    auto source = arbiter::ByteSource::Open(pgn);
    if (!source.ok()) return std::fprintf(stderr, "%s\n", source.status().ToString().c_str()), 1;
    arbiter::PgnReader reader(std::move(*source), {.keep_comments = false});
    arbiter::RawGame raw;
    arbiter::ReplayedGame replayed;
    while (games.size() < 500 && reader.Next(&raw)) {
      games.push_back(arbiter::wire::ToProto(raw));
      arbiter::ReplayGame(raw, &replayed);
      if (replayed.error.ok()) fens.push_back(replayed.end.Fen());
    }
  }
  std::mutex mu;
  std::vector<double> latencies_ms;
  std::atomic<long> failures{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      grpc::ChannelArguments args;
      args.SetInt("grpc.channel_id", c);  // a connection of its own
      auto stub = arbiter::v1::Arbiter::NewStub(
          grpc::CreateCustomChannel(coordinator, grpc::InsecureChannelCredentials(), args));
      std::vector<double> mine;
      for (size_t i = size_t(c); !stop; i += size_t(clients)) {
        grpc::ClientContext ctx;
        ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
        const auto start = Clock::now();
        grpc::Status s;
        if (i % 2 == 0) {
          arbiter::v1::AnalyzeRequest request;
          request.set_fen(fens[i / 2 % fens.size()]);
          arbiter::v1::Assessment reply;
          s = stub->Analyze(&ctx, request, &reply);
        } else {
          arbiter::v1::VerifyGameRequest request;
          *request.mutable_record() = games[i / 2 % games.size()];
          arbiter::v1::GameVerdict reply;
          s = stub->VerifyGame(&ctx, request, &reply);
        }
        mine.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        if (!s.ok()) ++failures;
      }
      std::lock_guard<std::mutex> lock(mu);
      latencies_ms.insert(latencies_ms.end(), mine.begin(), mine.end());
    });
  }
  std::printf("%d clients for %d s against %s\n", clients, seconds, coordinator.c_str());
  for (int t = 1; t <= seconds; ++t) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    if (pids.empty() || (t != 1 && t % 5 != 0 && t != seconds)) continue;
    std::printf("t=%2d s  resident:", t);
    for (int pid : pids) std::printf(" %d=%ld MB", pid, ResidentKb(pid) / 1024);
    std::printf("\n");
  }
  stop = true;
  for (std::thread& t : threads) t.join();
  std::sort(latencies_ms.begin(), latencies_ms.end());
  auto at = [&](double q) {
    return latencies_ms[std::min(latencies_ms.size() - 1, size_t(q * latencies_ms.size()))];
  };
  if (latencies_ms.empty()) return 1;
  std::printf(
      "%zu requests (%ld failed): %.0f requests/s; p50 %.2f ms, p99 %.2f ms, worst %.2f ms\n",
      latencies_ms.size(), failures.load(), latencies_ms.size() / double(seconds), at(0.5),
      at(0.99), latencies_ms.back());
  return failures ? 1 : 0;
}
