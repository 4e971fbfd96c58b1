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

#include "core/chess/random_placement.h"
#include "core/rules/mate_ability.h"
#include "tools/packed_search.h"

namespace arbiter {
namespace {

int Run(int argc, char** argv) {
  uint64_t seed = 1;
  int wanted = 1000;
  size_t cap = 3000000;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--positions" && i + 1 < argc) {
      wanted = std::atoi(argv[++i]);
    } else if (arg == "--cap" && i + 1 < argc) {
      cap = std::strtoull(argv[++i], nullptr, 10);
    } else {
      std::fprintf(stderr, "usage: mate_ability_sweep [--seed N] [--positions N] [--cap STATES]\n");
      return 2;
    }
  }
  std::mt19937 rng{uint32_t(seed)};
  int positions = 0, unknown = 0, no = 0, confirmed = 0, open = 0, disagree = 0;
  std::map<std::string, int> confirmed_by_proof;
  while (positions < wanted) {
    absl::StatusOr<Position> pos = Position::FromFen(RandomWallFen(rng));
    if (!pos.ok()) continue;
    ++positions;
    for (Color side : {kWhite, kBlack}) {
      const MateAbility answer = AnalyzeMateAbility(*pos, side);
      if (answer.answer == CanMate::kUnknown) ++unknown;
      if (answer.answer != CanMate::kNo) continue;
      ++no;
      std::string line;
      const tools::HelpmateSearch search = tools::ShortestHelpmate(*pos, side, cap, &line);
      if (search.plies >= 0) {
        ++disagree;
        std::printf("DISAGREE %s %s: proof %s, yet mate in %d plies: %s\n", pos->Fen().c_str(),
                    side == kWhite ? "white" : "black", answer.proof.c_str(), search.plies,
                    line.c_str());
      } else if (search.complete) {
        ++confirmed;
        ++confirmed_by_proof[answer.proof];
      } else {
        ++open;
      }
    }
  }
  std::printf(
      "seed %llu: %d positions, %d unknown answers, %d \"no\": %d confirmed by exhaustive "
      "search, %d past the cap of %zu, %d disagreements\n",
      (unsigned long long)seed, positions, unknown, no, confirmed, open, cap, disagree);
  for (const auto& [proof, count] : confirmed_by_proof)
    std::printf("  confirmed %s: %d\n", proof.c_str(), count);
  return disagree == 0 ? 0 : 1;
}

}  // namespace
}  // namespace arbiter

int main(int argc, char** argv) { return arbiter::Run(argc, argv); }
