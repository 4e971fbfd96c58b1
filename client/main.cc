// `arbiter`: the command line. Without --coordinator every subcommand runs the
// engine embedded, in this process.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "client/commands.h"

namespace {

constexpr char kUsage[] =
    "arbiter - rules, with evidence, on how chess games end\n"
    "\n"
    "Usage: arbiter <command> [options]\n"
    "\n"
    "Commands:\n"
    "  perft --fen FEN --depth N [--divide] [--json] [--chess960]\n"
    "        Count the leaf nodes of the legal move tree (move generator check).\n"
    "        --divide prints the count below each legal root move (UCI).\n"
    "        --json prints {\"nodes\": N, \"seconds\": S} (with --divide, \"moves\" too).\n"
    "        --chess960 writes castling as king-takes-rook; FENs with Shredder or\n"
    "        X-FEN castling letters switch to Chess960 by themselves.\n"
    "\n"
    "  analyze --fen FEN [--moves UCI...] [--json] [--chess960] [--budget N] [--table-mb M]\n"
    "          [--syzygy DIR]...\n"
    "  analyze FILE|- [--chess960] [--budget N] [--table-mb M] [--syzygy DIR]...\n"
    "        How the position stands under the FIDE Laws: checkmate, stalemate,\n"
    "        dead position, fivefold, 75 moves; whether each side can still mate\n"
    "        (yes/no/unknown, with proof); threefold and fifty-move claims now\n"
    "        and by which moves. --moves are played from FEN first (they are the\n"
    "        history for repetitions). With FILE, one FEN per line in, one JSON\n"
    "        line per position out, in input order. --budget bounds the search per\n"
    "        side (positions, default 200000); --table-mb its table (default 16).\n"
    "        --syzygy adds \"tablebase\": the Syzygy value under the 50-move rule\n"
    "        (category, dtz, win_within_50) and every move, best first; null when\n"
    "        the tables do not cover the position.\n"
    "\n"
    "  verify PATH|- [--format text|jsonl|csv] [--jobs N] [--budget N] [--table-mb M]\n"
    "         [--syzygy DIR]...\n"
    "        Rule on every game of a PGN file (.pgn or .pgn.zst; - reads stdin):\n"
    "        the correct result under the FIDE Laws, the rule and article that\n"
    "        decide it, and whether the declared result agrees. One record per\n"
    "        game in input order, then a summary. --jobs defaults to all cores;\n"
    "        --budget (default 200000) bounds each mate search. --syzygy adds the\n"
    "        final position's tablebase value and flags declared results that\n"
    "        contradict it (tablebase_contradiction).\n"
    "\n"
    "  --syzygy DIR   Syzygy tables (repeatable, or DIR:DIR...); default\n"
    "                 $ARBITER_SYZYGY. Without either, no tablebase fields.\n"
    "\n"
    "  help, --help   Show this text.\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") ||
      !std::strcmp(argv[1], "help")) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  std::string command = argv[1];
  std::vector<std::string> rest(argv + 2, argv + argc);
  if (command == "perft") return arbiter::cli::RunPerft(rest);
  if (command == "analyze") return arbiter::cli::RunAnalyze(rest);
  if (command == "verify") return arbiter::cli::RunVerify(rest);
  std::fprintf(stderr, "arbiter: unknown command \"%s\" (see arbiter --help)\n", command.c_str());
  return 2;
}
