#include <chrono>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "client/commands.h"
#include "common/args.h"
#include "core/chess/notation.h"
#include "core/chess/perft.h"

namespace arbiter::cli {

int RunPerft(const std::vector<std::string>& argv) {
  auto fail = [](const absl::Status& s) {
    std::fprintf(stderr, "arbiter perft: %s\n", std::string(s.message()).c_str());
    return 2;
  };
  absl::StatusOr<Args> args = Args::Parse(argv, {"fen", "depth"}, {"divide", "json", "chess960"});
  if (!args.ok()) return fail(args.status());
  if (!args->positional().empty())
    return fail(absl::InvalidArgumentError(
        absl::StrCat("unexpected argument \"", args->positional()[0], "\"")));
  absl::StatusOr<int64_t> depth = args->GetInt("depth", -1);
  if (!depth.ok()) return fail(depth.status());
  if (*depth < 0 || *depth > 20)
    return fail(absl::InvalidArgumentError("--depth N is required, 0 <= N <= 20"));
  std::string fen = args->Get("fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  absl::StatusOr<Position> pos = Position::FromFen(fen, args->Has("chess960"));
  if (!pos.ok()) return fail(pos.status());

  const bool json = args->Has("json");
  auto start = std::chrono::steady_clock::now();
  uint64_t nodes = 0;
  std::string divide_text;
  if (args->Has("divide")) {
    std::string sep;
    for (const auto& [move, count] : PerftDivide(*pos, int(*depth))) {
      nodes += count;
      if (json) {
        absl::StrAppend(&divide_text, sep, "\"", ToUci(*pos, move), "\": ", count);
        sep = ", ";
      } else {
        absl::StrAppend(&divide_text, ToUci(*pos, move), ": ", count, "\n");
      }
    }
  } else {
    nodes = Perft(*pos, int(*depth));
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (json) {
    std::string moves = args->Has("divide") ? absl::StrCat(", \"moves\": {", divide_text, "}") : "";
    std::printf("{\"nodes\": %llu, \"seconds\": %.6f%s}\n", (unsigned long long)nodes, seconds,
                moves.c_str());
  } else {
    std::fputs(divide_text.c_str(), stdout);
    if (!divide_text.empty()) std::puts("");
    std::printf("Nodes: %llu\nTime: %.3f s\nNodes/s: %.0f\n", (unsigned long long)nodes, seconds,
                seconds > 0 ? nodes / seconds : 0.0);
  }
  return 0;
}

}  // namespace arbiter::cli
