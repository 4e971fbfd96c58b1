// Move generation speed: legal move generation on positions of different
// character, perft (generation + make/unmake in a tree), and DoMove/UndoMove
// alone. Items/s is moves generated, leaf nodes, or move pairs made+unmade.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "core/chess/movegen.h"
#include "core/chess/perft.h"

namespace arbiter {
namespace {

struct NamedFen {
  const char* name;
  const char* fen;
  bool chess960;
};

// Openings, a crowded middle game, an endgame with few pieces, a position
// in check and a Chess960 one: generation cost depends on all of these.
constexpr NamedFen kPositions[] = {
    {"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    {"position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},
    {"endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false},
    {"in_check", "4r1k1/8/8/8/8/3n4/2Q5/R3K2R w KQ - 0 1", false},
    {"chess960", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
};

Position Load(const NamedFen& p) {
  absl::StatusOr<Position> pos = Position::FromFen(p.fen, p.chess960);
  if (!pos.ok()) {
    // A broken FEN here is a programming error; fail loudly, not silently.
    std::fprintf(stderr, "%s: %s\n", p.fen, pos.status().ToString().c_str());
    std::abort();
  }
  return *pos;
}

void BM_GenerateLegalMoves(benchmark::State& state) {
  const NamedFen& p = kPositions[state.range(0)];
  state.SetLabel(p.name);
  Position pos = Load(p);
  Move moves[kMaxMoves];
  int64_t generated = 0;
  for (auto _ : state) {
    Move* end = GenerateLegalMoves(pos, moves);
    benchmark::DoNotOptimize(end);
    benchmark::ClobberMemory();
    generated += end - moves;
  }
  state.SetItemsProcessed(generated);
}
BENCHMARK(BM_GenerateLegalMoves)->DenseRange(0, std::size(kPositions) - 1);

void BM_Perft(benchmark::State& state) {
  const NamedFen& p = kPositions[state.range(0)];
  const int depth = int(state.range(1));
  state.SetLabel(p.name);
  Position pos = Load(p);
  uint64_t nodes = 0;
  for (auto _ : state) {
    uint64_t n = Perft(pos, depth);
    benchmark::DoNotOptimize(n);
    nodes += n;
  }
  state.SetItemsProcessed(int64_t(nodes));
}
// Start and Kiwipete at depths 4 and 5 (bulk-counted leaves).
BENCHMARK(BM_Perft)->Args({0, 4})->Args({0, 5})->Args({1, 4})->Args({1, 5})->Unit(
    benchmark::kMillisecond);

void BM_DoUndoMove(benchmark::State& state) {
  const NamedFen& p = kPositions[state.range(0)];
  state.SetLabel(p.name);
  Position pos = Load(p);
  const MoveList moves(pos);
  for (auto _ : state) {
    for (Move m : moves) {
      pos.DoMove(m);
      pos.UndoMove(m);
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(moves.size()));
}
BENCHMARK(BM_DoUndoMove)->DenseRange(0, std::size(kPositions) - 1);

}  // namespace
}  // namespace arbiter
