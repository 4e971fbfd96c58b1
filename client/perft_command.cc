// `arbiter perft`: counts the leaf nodes of the legal move tree (a move
// generator check).
#include <chrono>
#include <cstdio>
#include <memory>

#include "absl/strings/str_cat.h"
#include "client/commands.h"
#include "common/command_line.h"
#include "core/chess/notation.h"
#include "core/chess/perft.h"

namespace arbiter::cli {
namespace {

constexpr char kProgram[] = "arbiter perft";
constexpr char kDepthRequired[] = "--depth N is required, 0 <= N <= 20";

struct PerftOptions {
  std::string fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  int64_t depth = -1;  // required
  bool divide = false, json = false, chess960 = false;
};

common::ExitCode RunPerft(const PerftOptions& o) {
  if (o.depth < 0) return common::Fail(kProgram, absl::InvalidArgumentError(kDepthRequired));
  absl::StatusOr<Position> pos = Position::FromFen(o.fen, o.chess960);
  if (!pos.ok()) return common::Fail(kProgram, pos.status());

  const bool json = o.json;
  const int depth = int(o.depth);
  auto start = std::chrono::steady_clock::now();
  uint64_t nodes = 0;
  std::string divide_text;
  if (o.divide) {
    std::string sep;
    for (const auto& [move, count] : PerftDivide(*pos, depth)) {
      nodes += count;
      if (json) {
        absl::StrAppend(&divide_text, sep, "\"", ToUci(*pos, move), "\": ", count);
        sep = ", ";
      } else {
        absl::StrAppend(&divide_text, ToUci(*pos, move), ": ", count, "\n");
      }
    }
  } else {
    nodes = Perft(*pos, depth);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (json) {
    std::string moves = o.divide ? absl::StrCat(", \"moves\": {", divide_text, "}") : "";
    std::printf("{\"nodes\": %llu, \"seconds\": %.6f%s}\n", (unsigned long long)nodes, seconds,
                moves.c_str());
  } else {
    std::fputs(divide_text.c_str(), stdout);
    if (!divide_text.empty()) std::puts("");
    std::printf("Nodes: %llu\nTime: %.3f s\nNodes/s: %.0f\n", (unsigned long long)nodes, seconds,
                seconds > 0 ? nodes / seconds : 0.0);
  }
  return common::ExitCode::kSuccess;
}

}  // namespace

Command AddPerft(CLI::App& arbiter) {
  CLI::App* perft = arbiter.add_subcommand(
      "perft", "Count the leaf nodes of the legal move tree (move generator check).");
  auto o = std::make_shared<PerftOptions>();
  common::AddValue(*perft, "--fen", &o->fen, "FEN",
                   "The root position (default: the start position)");
  common::AddInteger(*perft, "--depth", &o->depth, 0, 20, kDepthRequired, "N",
                     "Plies to count (0..20)");
  common::AddFlag(*perft, "--divide", &o->divide,
                  "Print the count below each legal root move (UCI)");
  common::AddFlag(*perft, "--json", &o->json,
                  "Print {\"nodes\": N, \"seconds\": S} (with --divide, \"moves\" too)");
  common::AddFlag(*perft, "--chess960", &o->chess960,
                  "Write castling as king-takes-rook (FENs with Shredder or X-FEN castling\n"
                  "letters switch to Chess960 by themselves)");
  return {perft, [o] { return RunPerft(*o); }, /*takes_connection=*/false};
}

}  // namespace arbiter::cli
