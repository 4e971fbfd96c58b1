// Syzygy WDL probe rate through our wrapper (SyzygyTablebase::ProbeWdl: checks
// for castling rights, piece count and legality, Position -> Fathom
// bitboards) beside raw Fathom tb_probe_wdl, on the same random legal
// positions of every table found. Target: wrapper / raw >= 0.9.
//
// Tables: $ARBITER_SYZYGY (':'-separated), else ../shared/syzygy.
// The ratio: bench/syzygy_vs_raw.sh (runs this with repetitions and divides
// the median items/s of BM_ProbeWdl_Arbiter by that of BM_ProbeWdl_Raw).
#include <benchmark/benchmark.h>
#include <tbprobe.h>  // raw Fathom, for the baseline only
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "common/tablebase_options.h"
#include "core/chess/movegen.h"
#include "core/chess/random_placement.h"
#include "core/tablebase/syzygy.h"

namespace arbiter {
namespace {

struct RawPos {
  uint64_t white, black, kings, queens, rooks, bishops, knights, pawns;
  unsigned ep;
  bool turn;
};

struct Fixture {
  std::shared_ptr<const SyzygyTablebase> tb;
  std::vector<Position> positions;
  std::vector<RawPos> raw;
};

std::string Placement(const std::string& white, const std::string& black, std::mt19937_64& rng) {
  const arbiter::Color stm = rng() % 2 ? arbiter::kWhite : arbiter::kBlack;
  std::optional<arbiter::Position> pos = arbiter::RandomPlacement(white + "v" + black, stm, rng);
  return pos ? pos->Fen() : std::string();
}

// 4096 positions, the same number from each table that both probes answer.
const Fixture& GetFixture() {
  static const Fixture* fixture = [] {
    auto* f = new Fixture();
    std::vector<std::string> dirs = common::SyzygyDirsFromEnv();
    if (dirs.empty()) dirs = {"../shared/syzygy"};
    auto tb = SyzygyTablebase::Open(dirs);
    if (!tb.ok()) {
      std::fprintf(stderr, "syzygy_bench: %s (set ARBITER_SYZYGY)\n",
                   tb.status().ToString().c_str());
      std::exit(2);
    }
    f->tb = *tb;
    std::vector<std::string> names;
    for (const std::string& dir : f->tb->dirs())
      for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".rtbw") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    std::mt19937_64 rng(12345);
    const size_t per_table = 4096 / names.size() + 1;
    for (const std::string& name : names) {
      std::string white = name.substr(0, name.find('v')), black = name.substr(name.find('v') + 1);
      for (size_t n = 0, tries = 0; n < per_table && tries < 100000; ++tries) {
        absl::StatusOr<Position> pos = Position::FromFen(Placement(white, black, rng));
        if (!pos.ok() || !f->tb->ProbeWdl(*pos).ok()) continue;
        f->positions.push_back(*pos);
        ++n;
      }
    }
    if (f->positions.size() > 4096)
      f->positions.erase(f->positions.begin() + 4096, f->positions.end());
    std::shuffle(f->positions.begin(), f->positions.end(), rng);
    for (const Position& p : f->positions)
      f->raw.push_back({p.pieces(kWhite), p.pieces(kBlack), p.pieces(kKing), p.pieces(kQueen),
                        p.pieces(kRook), p.pieces(kBishop), p.pieces(kKnight), p.pieces(kPawn),
                        p.ep_square() == kNoSquare ? 0u : unsigned(p.ep_square()),
                        p.side_to_move() == kWhite});
    return f;
  }();
  return *fixture;
}

void BM_ProbeWdl_Raw(benchmark::State& state) {
  const Fixture& f = GetFixture();
  size_t i = 0;
  for (auto _ : state) {
    const RawPos& r = f.raw[i];
    unsigned wdl = tb_probe_wdl(r.white, r.black, r.kings, r.queens, r.rooks, r.bishops, r.knights,
                                r.pawns, 0, 0, r.ep, r.turn);
    benchmark::DoNotOptimize(wdl);
    if (++i == f.raw.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ProbeWdl_Raw);

void BM_ProbeWdl_Arbiter(benchmark::State& state) {
  const Fixture& f = GetFixture();
  size_t i = 0;
  for (auto _ : state) {
    absl::StatusOr<WdlResult> wdl = f.tb->ProbeWdl(f.positions[i]);
    benchmark::DoNotOptimize(wdl);
    if (++i == f.positions.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ProbeWdl_Arbiter);

// Both in alternating batches of all positions, timed by thread CPU time, so
// that load from other processes hits both alike; counter `ratio` = wrapper
// rate / raw rate (what bench/syzygy_vs_raw.sh reports).
double ThreadSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

void BM_ProbeWdl_Interleaved(benchmark::State& state) {
  const Fixture& f = GetFixture();
  double raw_seconds = 0, ours_seconds = 0;
  unsigned sink = 0;
  for (auto _ : state) {
    double t0 = ThreadSeconds();
    for (const RawPos& r : f.raw)
      sink += tb_probe_wdl(r.white, r.black, r.kings, r.queens, r.rooks, r.bishops, r.knights,
                           r.pawns, 0, 0, r.ep, r.turn);
    double t1 = ThreadSeconds();
    for (const Position& p : f.positions) sink += unsigned(f.tb->ProbeWdl(p)->wdl);
    double t2 = ThreadSeconds();
    raw_seconds += t1 - t0;
    ours_seconds += t2 - t1;
  }
  benchmark::DoNotOptimize(sink);
  const double probes = double(state.iterations()) * double(f.raw.size());
  state.counters["raw_per_s"] = probes / raw_seconds;
  state.counters["ours_per_s"] = probes / ours_seconds;
  state.counters["ratio"] = raw_seconds / ours_seconds;
}
BENCHMARK(BM_ProbeWdl_Interleaved)->Unit(benchmark::kMillisecond);

// For scale: a full root probe (DTZ, every move with SAN, categories).
void BM_ProbeRoot_Arbiter(benchmark::State& state) {
  const Fixture& f = GetFixture();
  size_t i = 0;
  for (auto _ : state) {
    absl::StatusOr<RootResult> root = f.tb->ProbeRoot(f.positions[i]);
    benchmark::DoNotOptimize(root);
    if (++i == f.positions.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ProbeRoot_Arbiter);

}  // namespace
}  // namespace arbiter
