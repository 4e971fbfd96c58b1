// Measures the dead-position / flag-fall analysis on real games: positions
// per second on one core, the share of "unknown" answers, and the slowest
// position.
//
//   mate_ability_bench FILE.pgn[.zst] [--budget N] [--all] [--show-unknown] [--max-games N]
//                      [--no-retrograde] [--tables DIR] [--slowest N] [--repeat N]
//   mate_ability_bench --fens FILE [--budget N]    (lines "FEN|w" or "FEN|b")
//
// Default: (a) the final position of every decisive "Time forfeit" game, for
// the side that won on time (the 6.9 question). With --all: (b) every
// position of those games, both sides (the 5.2.2 question). Games with an
// unsupported variant or an illegal move are skipped and counted.
// --tables DIR loads the retrograde tables from DIR (arbiter tables build
// DIR; missing ones are generated and saved there), so that the figures
// leave out the one-time generation; tables stored there are loaded before
// timing starts (as a worker does before serving). --slowest N lists the N
// slowest analyses. --repeat N analyses the same positions N times and
// reports every pass, the best and the median (this VM's speed varies by
// a third from run to run); the details printed are the median pass's.
// Positions are analysed as an Analyze request gives them: rebuilt from
// their FEN, without the game's move history.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/io/byte_source.h"
#include "core/mate/mate_ability.h"
#include "core/pgn/game_replay.h"
#include "core/pgn/pgn_reader.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Tally {
  long positions = 0, yes = 0, no = 0, unknown = 0;
  double seconds = 0, worst_seconds = 0;
  std::string worst_fen;
  std::vector<double> times;
  // The slowest analyses, slowest first (--slowest N).
  std::vector<std::pair<double, std::string>> slowest;
  size_t keep_slowest = 0;

  void Print(const std::string& what, const arbiter::MateSearchOptions& o) const {
    std::printf("%s: %ld analyses, budget %llu\n", what.c_str(), positions,
                (unsigned long long)o.node_budget);
    std::printf("yes %ld, no %ld, unknown %ld (%.3f%%)\n", yes, no, unknown,
                positions ? 100.0 * unknown / positions : 0.0);
    std::printf("%.0f analyses/s on one core (%.2f s); worst %.1f ms: %s\n", positions / seconds,
                seconds, worst_seconds * 1e3, worst_fen.c_str());
    if (times.empty()) return;
    // Where the time goes: per-position percentiles and the tail's share.
    std::vector<double> t = times;
    std::sort(t.begin(), t.end());
    auto at = [&](double q) { return t[std::min(t.size() - 1, size_t(q * t.size()))] * 1e6; };
    double tail = 0;
    for (size_t i = t.size() - t.size() / 100; i < t.size(); ++i) tail += t[i];
    std::printf(
        "per position: p50 %.0f us, p90 %.0f us, p99 %.0f us; slowest 1%% take %.0f%% of the "
        "time\n",
        at(0.5), at(0.9), at(0.99), 100.0 * tail / seconds);
    for (const auto& [t_s, what] : slowest)
      std::printf("  %8.2f ms  %s\n", t_s * 1e3, what.c_str());
  }

  void Add(const arbiter::Position& pos, arbiter::Color side, const arbiter::MateSearchOptions& o,
           bool show_unknown) {
    auto start = Clock::now();
    arbiter::MateAbility m = arbiter::AnalyzeMateAbility(pos, side, o);
    double s = std::chrono::duration<double>(Clock::now() - start).count();
    ++positions;
    seconds += s;
    times.push_back(s);
    if (s > worst_seconds) {
      worst_seconds = s;
      worst_fen = pos.Fen() + (side == arbiter::kWhite ? " (white)" : " (black)");
    }
    if (keep_slowest > 0 && (slowest.size() < keep_slowest || s > slowest.back().first)) {
      slowest.emplace_back(s, pos.Fen() + (side == arbiter::kWhite ? "|w " : "|b ") +
                                  arbiter::ToString(m.answer) + " " + arbiter::ToString(m.proof));
      std::sort(slowest.begin(), slowest.end(), std::greater<>());
      if (slowest.size() > keep_slowest) slowest.pop_back();
    }
    if (m.answer == arbiter::CanMate::kYes) ++yes;
    if (m.answer == arbiter::CanMate::kNo) ++no;
    if (m.answer == arbiter::CanMate::kUnknown) {
      ++unknown;
      if (show_unknown)
        std::printf("unknown: %s %s\n", pos.Fen().c_str(), side == arbiter::kWhite ? "w" : "b");
    }
  }
};

// Where the retrograde tables came from: a run that generated some also
// timed their generation.
void PrintTableSources(const arbiter::RetrogradeSolver& solver) {
  std::printf("retrograde tables: %zu loaded, %zu generated%s%s\n", solver.tables_loaded(),
              solver.tables_generated(), solver.cache_dir().empty() ? "" : " in ",
              solver.cache_dir().c_str());
  for (const absl::Status& s : {solver.last_load_error(), solver.last_store_error()})
    if (!s.ok()) std::fprintf(stderr, "warning: %s\n", std::string(s.message()).c_str());
}

// One analysis to time: a position (as FEN) and the side asked about.
struct Work {
  std::string fen;
  arbiter::Color side;
};

// Analyses `work` `repeat` times; prints every pass's rate and the median
// pass's details.
int Run(const std::vector<Work>& work, const std::string& what,
        const arbiter::MateSearchOptions& options, int repeat, size_t keep_slowest,
        bool show_unknown) {
  std::vector<Tally> passes(repeat);
  for (Tally& tally : passes) {
    tally.keep_slowest = keep_slowest;
    for (const Work& w : work) {
      absl::StatusOr<arbiter::Position> pos = arbiter::Position::FromFen(w.fen);
      if (!pos.ok()) continue;
      tally.Add(*pos, w.side, options, show_unknown && &tally == &passes.front());
    }
  }
  std::vector<const Tally*> by_speed;
  for (const Tally& t : passes) by_speed.push_back(&t);
  std::sort(by_speed.begin(), by_speed.end(),
            [](const Tally* a, const Tally* b) { return a->seconds < b->seconds; });
  if (repeat > 1) {
    std::printf("%d passes, analyses/s:", repeat);
    for (const Tally& t : passes) std::printf(" %.0f", t.positions / t.seconds);
    std::printf("; best %.0f, median %.0f\n",
                by_speed.front()->positions / by_speed.front()->seconds,
                by_speed[repeat / 2]->positions / by_speed[repeat / 2]->seconds);
  }
  by_speed[repeat / 2]->Print(what, options);
  if (options.retrograde) PrintTableSources(*options.retrograde);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path, fens;
  arbiter::MateSearchOptions options;
  // Retrograde tables from --tables DIR, else $ARBITER_TABLES, else built in
  // memory; --no-retrograde times the searches without them.
  const char* tables_env = std::getenv("ARBITER_TABLES");
  std::string tables_dir = tables_env ? tables_env : "";
  bool retrograde = true;
  bool all = false, show_unknown = false;
  size_t keep_slowest = 0;
  int repeat = 1;
  long max_games = -1;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--budget") && i + 1 < argc) {
      options.node_budget = std::strtoull(argv[++i], nullptr, 10);
    } else if (!std::strcmp(argv[i], "--fens") && i + 1 < argc) {
      fens = argv[++i];
    } else if (!std::strcmp(argv[i], "--max-games") && i + 1 < argc) {
      max_games = std::strtol(argv[++i], nullptr, 10);
    } else if (!std::strcmp(argv[i], "--tables") && i + 1 < argc) {
      // Retrograde tables from a directory (arbiter tables build DIR): the
      // throughput then excludes the one-time table generation.
      tables_dir = argv[++i];
    } else if (!std::strcmp(argv[i], "--no-retrograde")) {
      retrograde = false;  // time the searches without table builds
    } else if (!std::strcmp(argv[i], "--all")) {
      all = true;
    } else if (!std::strcmp(argv[i], "--show-unknown")) {
      show_unknown = true;
    } else if (!std::strcmp(argv[i], "--slowest") && i + 1 < argc) {
      keep_slowest = std::strtoul(argv[++i], nullptr, 10);
    } else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else {
      path = argv[i];
    }
  }
  arbiter::RetrogradeSolver solver(tables_dir);
  if (retrograde) options.retrograde = &solver;
  // Stored tables are loaded before the clock starts, as a worker loads
  // them before it serves; the load is timed on its own.
  {
    auto start = Clock::now();
    absl::StatusOr<size_t> loaded = solver.LoadStoredTables();
    if (!loaded.ok()) {
      std::fprintf(stderr, "%s\n", std::string(loaded.status().message()).c_str());
      return 1;
    }
    if (*loaded > 0)
      std::printf("%zu retrograde tables loaded in %.2f s (not timed below)\n", *loaded,
                  std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::vector<Work> work;
  if (!fens.empty()) {
    // Lines "FEN|w" or "FEN|b": the side whose mating ability is asked.
    std::FILE* f = std::fopen(fens.c_str(), "r");
    if (!f) return 1;
    char buf[512];
    while (std::fgets(buf, sizeof buf, f)) {
      std::string text(buf);
      size_t bar = text.find('|');
      if (bar == std::string::npos || bar + 1 >= text.size()) continue;
      work.push_back(
          {text.substr(0, bar), text[bar + 1] == 'w' ? arbiter::kWhite : arbiter::kBlack});
    }
    std::fclose(f);
    return Run(work, "positions from " + fens, options, repeat, keep_slowest, show_unknown);
  }
  if (path.empty()) {
    std::fprintf(stderr,
                 "usage: %s FILE.pgn[.zst] [--budget N] [--all] [--show-unknown] [--max-games N]\n"
                 "          [--tables DIR] [--no-retrograde] [--slowest N]\n",
                 argv[0]);
    return 2;
  }
  auto source = arbiter::ByteSource::Open(path);
  if (!source.ok()) {
    std::fprintf(stderr, "%s\n", std::string(source.status().message()).c_str());
    return 1;
  }
  arbiter::PgnReader reader(std::move(*source), {.keep_comments = false});
  arbiter::RawGame raw;
  arbiter::ReplayedGame game;
  long games = 0, skipped = 0;
  while ((max_games < 0 || games < max_games) && reader.Next(&raw)) {
    const std::string* termination = raw.Tag("Termination");
    if (!termination || *termination != "Time forfeit") continue;
    if (raw.result_token != "1-0" && raw.result_token != "0-1") continue;
    arbiter::ReplayGame(raw, &game);
    if (!game.error.ok()) {
      ++skipped;
      continue;
    }
    ++games;
    const arbiter::Color winner = raw.result_token == "1-0" ? arbiter::kWhite : arbiter::kBlack;
    if (!all) {
      work.push_back({game.end.Fen(), winner});
      continue;
    }
    arbiter::Position pos = game.start;
    for (size_t i = 0;; ++i) {
      const std::string fen = pos.Fen();
      work.push_back({fen, arbiter::kWhite});
      work.push_back({fen, arbiter::kBlack});
      if (i == game.moves.size()) break;
      pos.DoMove(game.moves[i]);
    }
  }
  std::printf("games %ld (skipped %ld)\n", games, skipped);
  return Run(work, all ? "all positions, both sides" : "final positions, winner's side", options,
             repeat, keep_slowest, show_unknown);
}
