// Holds the analysis's "cannot mate" answers to an exhaustive search, at a
// scale the test suite cannot afford. A wrong "no" is the worst ruling
// Arbiter can give (a won game scored as a draw on time), and the tests'
// exhaustive checks stop at tens of thousands of positions; this one goes
// to millions. For random positions behind pawn walls
// (RandomWallFen), every "no" of AnalyzeMateAbility at the default budget
// is searched breadth-first (tools/packed_search.h) for each side: a mate
// found is printed as DISAGREE and makes the exit code 1.
//
//   build/tools/mate_ability_sweep [--seed N] [--positions N] [--cap STATES]
//                                  [--family NAME|all]...
//
// --family picks the generators (AdversarialWallFen, tools/wall_positions.h:
// plain, en_passant, castling, chess960_castling, free_pawn, promotion,
// near_move_limit, king_pocket); each gets --positions positions and its own summary.
//
// Prints one line per disagreement, then a summary: positions, "unknown"
// answers, "no" answers confirmed (the search ended without a mate), left
// open (the search passed its cap) and disagreements, and the confirmed
// ones by proof kind. The search ignores the move-count rules, so on a
// position with a fresh clock a mate it finds is one the Laws allow unless
// it is longer than 150 plies without a capture or pawn move (the line
// printed says).
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "core/mate/mate_ability.h"
#include "tools/packed_search.h"
#include "tools/wall_positions.h"

namespace arbiter {
namespace {

using tools::AdversarialWallFen;
using tools::kAllWallFamilies;
using tools::WallFamily;

// The exhaustive check of a "no": breadth-first over every reachable
// position, ignoring the move-count rules. With the halfmove clock running
// (the near-limit family), the lines before the clock restarts are played
// out first under the 75-move rule, and each position a capture or pawn
// move leads to is searched as above: a mate found either way refutes the
// "no". `line` gets the moves of the refutation. `searched` keeps the
// verdict of each position already searched without a mate (by Zobrist key
// and clock): the lines before the limit transpose all the time.
using Searched = std::unordered_map<uint64_t, tools::HelpmateSearch>;
tools::HelpmateSearch CheckNo(Position& pos, Color side, size_t cap, std::string* line,
                              Searched& searched) {
  const uint64_t key = pos.key() ^ (uint64_t(pos.halfmove_clock()) * 0x9E3779B97F4A7C15ull);
  if (auto it = searched.find(key); it != searched.end()) return it->second;
  if (pos.halfmove_clock() == 0) {
    const tools::HelpmateSearch verdict = tools::ShortestHelpmate(pos, side, cap, line);
    if (verdict.plies < 0) searched[key] = verdict;
    return verdict;
  }
  tools::HelpmateSearch verdict{-1, true, 0};
  if (pos.halfmove_clock() >= 150) return verdict;  // drawn by 9.6.2
  for (Move m : MoveList(pos)) {
    const std::string uci = ToUci(pos, m);
    pos.DoMove(m);
    tools::HelpmateSearch after{-1, true, 0};
    if (pos.in_check() && pos.side_to_move() != side && !HasLegalMove(pos)) {
      after = {0, true, 1};
    } else {
      after = CheckNo(pos, side, cap, line, searched);  // a zeroing move restarts the clock
    }
    pos.UndoMove(m);
    verdict.states += after.states;
    if (after.plies >= 0) {
      if (line) *line = uci + (line->empty() ? "" : " " + *line);
      return {after.plies + 1, true, verdict.states};
    }
    verdict.complete = verdict.complete && after.complete;
  }
  searched[key] = verdict;
  return verdict;
}

struct Counts {
  int positions = 0, unknown = 0, no = 0, confirmed = 0, open = 0, disagree = 0;
  std::map<std::string, int> confirmed_by_proof;
};

int Run(int argc, char** argv) {
  uint64_t seed = 1;
  int wanted = 1000;
  size_t cap = 3000000;
  std::vector<WallFamily> families;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--positions" && i + 1 < argc) {
      wanted = std::atoi(argv[++i]);
    } else if (arg == "--cap" && i + 1 < argc) {
      cap = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--family" && i + 1 < argc) {
      const std::string_view name = argv[++i];
      for (WallFamily f : kAllWallFamilies)
        if (name == "all" || name == ToString(f)) families.push_back(f);
      if (families.empty()) {
        std::fprintf(stderr, "mate_ability_sweep: unknown family %s\n", argv[i]);
        return 2;
      }
    } else {
      std::fprintf(stderr,
                   "usage: mate_ability_sweep [--seed N] [--positions N] [--cap STATES] "
                   "[--family NAME|all]...\n");
      return 2;
    }
  }
  if (families.empty()) families.push_back(WallFamily::kPlain);
  std::mt19937 rng{uint32_t(seed)};
  // Arbiter's answers come with its retrograde tables, as the programs run
  // them ($ARBITER_TABLES, else generated in memory).
  const char* tables = std::getenv("ARBITER_TABLES");
  RetrogradeSolver solver(tables ? tables : "");
  MateSearchOptions options;
  options.retrograde = &solver;
  int disagreements = 0;
  for (WallFamily family : families) {
    Counts n;
    while (n.positions < wanted) {
      absl::StatusOr<Position> pos = Position::FromFen(AdversarialWallFen(family, rng));
      if (!pos.ok()) continue;
      ++n.positions;
      for (Color side : {kWhite, kBlack}) {
        const MateAbility answer = AnalyzeMateAbility(*pos, side, options);
        if (answer.answer == CanMate::kUnknown) ++n.unknown;
        if (answer.answer != CanMate::kNo) continue;
        ++n.no;
        std::string line;
        Position work = *pos;
        Searched searched;
        const tools::HelpmateSearch search = CheckNo(work, side, cap, &line, searched);
        if (search.plies >= 0) {
          ++n.disagree;
          std::printf("DISAGREE %s %s: proof %s, yet mate in %d plies: %s\n", pos->Fen().c_str(),
                      side == kWhite ? "white" : "black", ToString(answer.proof), search.plies,
                      line.c_str());
        } else if (search.complete) {
          ++n.confirmed;
          ++n.confirmed_by_proof[ToString(answer.proof)];
        } else {
          ++n.open;
        }
      }
    }
    std::printf(
        "seed %llu, family %s: %d positions, %d unknown answers, %d \"no\": %d confirmed by "
        "exhaustive search, %d past the cap of %zu, %d disagreements\n",
        (unsigned long long)seed, ToString(family), n.positions, n.unknown, n.no, n.confirmed,
        n.open, cap, n.disagree);
    for (const auto& [proof, count] : n.confirmed_by_proof)
      std::printf("  confirmed %s: %d\n", proof.c_str(), count);
    disagreements += n.disagree;
  }
  return disagreements == 0 ? 0 : 1;
}

}  // namespace
}  // namespace arbiter

int main(int argc, char** argv) { return arbiter::Run(argc, argv); }
