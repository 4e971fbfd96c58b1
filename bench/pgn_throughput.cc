// Measures PGN reading speed end to end: open (and decompress), tokenize,
// and replay every game with every move checked legal.
//
//   pgn_throughput FILE [--no-comments] [--no-replay]
//
// FILE may be .pgn, .pgn.zst or "-" (stdin). MB are 10^6 bytes of
// decompressed PGN.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/io/byte_source.h"
#include "core/pgn/game_replay.h"
#include "core/pgn/pgn_reader.h"

namespace {

double CpuSeconds() {
  struct rusage usage;
  ::getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

}  // namespace

int main(int argc, char** argv) {
  using arbiter::ByteSource;
  using arbiter::PgnReader;
  using arbiter::PgnReaderOptions;
  using arbiter::RawGame;
  using arbiter::ReplayedGame;
  std::string path;
  PgnReaderOptions options;
  bool replay = true;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--no-comments") == 0) {
      options.keep_comments = false;
    } else if (std::strcmp(argv[i], "--no-replay") == 0) {
      replay = false;
    } else if (path.empty()) {
      path = argv[i];
    } else {
      path.clear();
      break;
    }
  }
  if (path.empty()) {
    std::fprintf(stderr, "usage: %s FILE.pgn[.zst]|- [--no-comments] [--no-replay]\n", argv[0]);
    return 2;
  }

  // One-time set-up (attack tables) is timed apart from the per-byte work.
  auto init_start = std::chrono::steady_clock::now();
  ReplayedGame game;
  const double init_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - init_start).count();

  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = CpuSeconds();
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
  if (!source.ok()) {
    std::fprintf(stderr, "%s\n", std::string(source.status().message()).c_str());
    return 1;
  }
  PgnReader reader(std::move(*source), options);
  RawGame raw;
  int64_t games = 0, errors = 0, moves = 0;
  while (reader.Next(&raw)) {
    ++games;
    absl::Status status = raw.error;
    if (replay) {
      arbiter::ReplayGame(raw, &game);
      status = game.error;
      moves += int64_t(game.moves.size());
    } else {
      moves += int64_t(raw.moves.size());
    }
    if (status.ok()) continue;
    ++errors;
    // The first few game errors, and always an I/O error (it ends the input).
    if (errors <= 5 || status.code() != absl::StatusCode::kInvalidArgument)
      std::fprintf(stderr, "%s\n", std::string(status.message()).c_str());
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // CPU time of all threads (zstd decompresses on its own thread): a figure
  // that other load on the machine disturbs less than wall time.
  const double cpu_seconds = CpuSeconds() - cpu_start;
  const double mb = double(reader.bytes_read()) / 1e6;

  std::printf("file          %s\n", path.c_str());
  std::printf("mode          %s, comments %s\n", replay ? "read + replay" : "read only",
              options.keep_comments ? "kept" : "skipped");
  std::printf("games         %lld (%lld with errors, incl. unsupported variants)\n",
              static_cast<long long>(games), static_cast<long long>(errors));
  std::printf("moves         %lld\n", static_cast<long long>(moves));
  std::printf("PGN bytes     %.1f MB in %.3f s (plus %.3f s one-time table set-up)\n", mb, seconds,
              init_seconds);
  std::printf("throughput    %.1f MB/s, %.0f games/s, %.0f moves/s\n", mb / seconds,
              double(games) / seconds, double(moves) / seconds);
  std::printf("CPU time      %.3f s (user + system, all threads) = %.1f MB per CPU second\n",
              cpu_seconds, mb / cpu_seconds);
  return 0;
}
