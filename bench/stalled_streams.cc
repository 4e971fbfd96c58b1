// What a coordinator holds for streams whose clients never read: opens N
// VerifyGames streams, one connection each, sends G games on each, reads
// nothing, and prints the coordinator's resident memory and thread count
// (from /proc/PID) every second while holding them, then how the streams
// ended (accepted and reaped, refused at once, or still open).
//
//   stalled_streams --coordinator HOST:PORT --pid PID --pgn FILE
//                   [--streams N (500)] [--games G (400)] [--seconds S (10)]
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "arbiter/v1/arbiter.grpc.pb.h"
#include "grpcpp/create_channel.h"

namespace {

long ProcStatus(int pid, const std::string& field) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(f, line);)
    if (line.rfind(field + ":", 0) == 0) return std::atol(line.c_str() + field.size() + 1);
  return -1;
}

std::string FirstGame(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(f)), {});
  const size_t next = text.find("\n[Event ", 1);
  return next == std::string::npos ? text : text.substr(0, next + 1);
}

}  // namespace

int main(int argc, char** argv) {
  std::string coordinator, pgn;
  int pid = 0, streams = 500, games = 400, seconds = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--coordinator")
      coordinator = value;
    else if (flag == "--pid")
      pid = std::atoi(value.c_str());
    else if (flag == "--pgn")
      pgn = value;
    else if (flag == "--streams")
      streams = std::atoi(value.c_str());
    else if (flag == "--games")
      games = std::atoi(value.c_str());
    else if (flag == "--seconds")
      seconds = std::atoi(value.c_str());
  }
  if (coordinator.empty() || pid <= 0 || pgn.empty()) {
    std::fputs(
        "usage: stalled_streams --coordinator HOST:PORT --pid PID --pgn FILE "
        "[--streams N] [--games G] [--seconds S]\n",
        stderr);
    return 2;
  }
  arbiter::v1::VerifyGamesRequest request;
  const std::string game = FirstGame(pgn);
  for (int i = 0; i < games; ++i) {
    arbiter::v1::GameInput* input = request.add_games();
    input->set_id(std::to_string(i));
    input->set_pgn(game);
  }
  std::printf("before: %ld MB resident, %ld threads\n", ProcStatus(pid, "VmRSS") >> 10,
              ProcStatus(pid, "Threads"));
  // A client that reads nothing: small receive window, no auto-tuning.
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_HTTP2_BDP_PROBE, 0);
  args.SetInt(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 8192);
  struct Stream {
    std::shared_ptr<grpc::Channel> channel;
    grpc::ClientContext ctx;
    std::unique_ptr<
        grpc::ClientReaderWriter<arbiter::v1::VerifyGamesRequest, arbiter::v1::VerifyGamesResponse>>
        call;
  };
  std::vector<std::unique_ptr<Stream>> open;
  for (int i = 0; i < streams; ++i) {
    auto s = std::make_unique<Stream>();
    args.SetInt("stalled_streams.connection", i);  // one connection each
    s->channel = grpc::CreateCustomChannel(coordinator, grpc::InsecureChannelCredentials(), args);
    // The client gives up a few seconds after the measurement.
    s->ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(seconds + 5));
    s->call = arbiter::v1::Arbiter::NewStub(s->channel)->VerifyGames(&s->ctx);
    s->call->Write(request);
    s->call->WritesDone();
    open.push_back(std::move(s));
  }
  long peak_rss = 0, peak_threads = 0;
  for (int t = 1; t <= seconds; ++t) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const long rss = ProcStatus(pid, "VmRSS") >> 10, threads = ProcStatus(pid, "Threads");
    peak_rss = std::max(peak_rss, rss);
    peak_threads = std::max(peak_threads, threads);
    std::printf("%3d s: %ld MB resident, %ld threads\n", t, rss, threads);
    std::fflush(stdout);
  }
  std::printf("peak while held: %ld MB resident, %ld threads\n", peak_rss, peak_threads);
  // How they ended, once this client reads what it held back: refused at
  // once (8, RESOURCE_EXHAUSTED), cancelled for stalling (1), or ruled to
  // the end (0).
  std::map<std::string, int> ends;
  for (auto& s : open) {
    arbiter::v1::VerifyGamesResponse unread;
    while (s->call->Read(&unread)) {
    }
    const grpc::Status status = s->call->Finish();
    ++ends["code " + std::to_string(int(status.error_code())) + " " +
           status.error_message().substr(0, 70)];
  }
  for (const auto& [end, n] : ends) std::printf("%5d streams: %s\n", n, end.c_str());
  return 0;
}
