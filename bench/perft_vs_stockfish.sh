#!/usr/bin/env bash
# Perft speed of build/arbiter against Stockfish on the same positions and
# depths, single-threaded both. Node counts must agree (exit 1 otherwise).
#
# Usage: bench/perft_vs_stockfish.sh            (from the source tree)
#   ARBITER=path/to/arbiter   default: build/arbiter beside this script
#   STOCKFISH=path/to/engine  default: stockfish on PATH, else /usr/games
#   REPEATS=N                 default 3; the best (fastest) run counts
#
# Timing: Stockfish 15.1 prints no time for `go perft`, and process start-up
# (tables, NNUE) would swamp short runs, so one Stockfish process serves all
# positions and a Python driver times only from sending `go perft` to reading
# "Nodes searched". For arbiter the "seconds" of `perft --json` is used, which
# likewise covers the perft call alone. Both count leaves in bulk at depth 1.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${ARBITER:-$root/build/arbiter}
stockfish=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
repeats=${REPEATS:-3}

if [[ ! -x $arbiter ]]; then
  echo "perft_vs_stockfish: $arbiter not found; build first (ninja -C build)" >&2
  exit 2
fi
if [[ ! -x $stockfish ]]; then
  echo "perft_vs_stockfish: stockfish not found (apt-get install stockfish)" >&2
  exit 2
fi

exec /usr/bin/python3 - "$arbiter" "$stockfish" "$repeats" <<'PY'
import json
import subprocess
import sys
import time

arbiter, stockfish, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])

# The six chessprogramming wiki perft positions, at depths where each run
# takes about half a second or more (position 4 needs depth 6 for that).
POSITIONS = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
    ("position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
    ("position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6),
    ("position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5),
    ("position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5),
]


class Stockfish:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.version = self.wait_for("id name").split("id name ", 1)[1]
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")
        # Debian builds Stockfish for baseline x86-64 (SSE2, no POPCNT), which
        # matters for a bitboard perft; show it. Older versions lack
        # `compiler`, hence the isready fence instead of waiting for the line.
        self.settings = "unknown build settings"
        self.send("compiler")
        self.send("isready")
        while True:
            line = self.p.stdout.readline()
            if not line or line.startswith("readyok"):
                break
            if line.startswith("Compilation settings include:"):
                self.settings = line.split(":", 1)[1].strip()

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("perft_vs_stockfish: stockfish exited")
            if line.startswith(prefix):
                return line.strip()

    def perft(self, fen, depth):
        self.send("position fen " + fen)
        # Setting up the position is not part of the measurement.
        self.send("isready")
        self.wait_for("readyok")
        start = time.perf_counter()
        self.send("go perft %d" % depth)
        line = self.wait_for("Nodes searched:")
        seconds = time.perf_counter() - start
        return int(line.split(":")[1]), seconds

    def quit(self):
        self.send("quit")
        self.p.wait()


def arbiter_perft(fen, depth):
    out = subprocess.run([arbiter, "perft", "--fen", fen, "--depth", str(depth), "--json"],
                         check=True, capture_output=True, text=True).stdout
    result = json.loads(out)
    return result["nodes"], result["seconds"]


sf = Stockfish(stockfish)
print("arbiter:   %s" % arbiter)
print("stockfish: %s (%s; %s), Threads 1" % (sf.version, stockfish, sf.settings))
print("best of %d runs per engine and position\n" % repeats)
header = "%-10s %5s %13s %14s %14s %7s" % ("position", "depth", "nodes", "arbiter Mn/s",
                                          "stockfish Mn/s", "ratio")
print(header)
print("-" * len(header))

failed = False
total_nodes = 0
total_arbiter = 0.0
total_stockfish = 0.0
for name, fen, depth in POSITIONS:
    best_a = best_s = float("inf")
    nodes_a = nodes_s = None
    for _ in range(repeats):
        nodes_a, t = arbiter_perft(fen, depth)
        best_a = min(best_a, t)
        nodes_s, t = sf.perft(fen, depth)
        best_s = min(best_s, t)
    if nodes_a != nodes_s:
        print("%-10s %5d  NODE COUNTS DIFFER: arbiter %d, stockfish %d" %
              (name, depth, nodes_a, nodes_s))
        failed = True
        continue
    total_nodes += nodes_a
    total_arbiter += best_a
    total_stockfish += best_s
    print("%-10s %5d %13d %14.1f %14.1f %7.2f" %
          (name, depth, nodes_a, nodes_a / best_a / 1e6, nodes_s / best_s / 1e6, best_s / best_a))
sf.quit()

print("-" * len(header))
if total_nodes:
    print("%-10s %5s %13d %14.1f %14.1f %7.2f" %
          ("overall", "", total_nodes, total_nodes / total_arbiter / 1e6,
           total_nodes / total_stockfish / 1e6, total_stockfish / total_arbiter))
print("\nratio = arbiter speed / stockfish speed (> 1: arbiter faster); overall = total nodes /"
      " total best time")
sys.exit(1 if failed else 0)
PY
