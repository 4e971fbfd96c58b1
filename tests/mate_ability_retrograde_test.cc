// The search methods of the can-mate analysis against the exact retrograde
// solver: on random positions of small endgames, with retrograde analysis
// switched off, every "yes" and every "no" the searches give must be the
// solver's answer. (The retrograde step itself is then exact by
// construction; its own tests compare it with Syzygy.)
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

#include "core/chess/movegen.h"
#include "core/chess/random_placement.h"
#include "core/mate/mate_ability.h"
#include "core/tablebase/retrograde.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

// A random legal placement of `men` ("KBvKN": white gets the first side),
// either side to move.
std::optional<Position> RandomPosition(const std::string& men, std::mt19937_64& rng) {
  return RandomPlacement(men, rng() % 2 ? kWhite : kBlack, rng);
}

TEST(MateAbilityVsRetrograde, SearchAnswersAreExact) {
  const char* signatures[] = {"KBvKB", "KNvKN", "KBvKN", "KNNvK", "KRvKB", "KPvK",
                              "KPvKP", "KBvKP", "KNvKP", "KQvKR", "KRvKN", "KBNvK"};
  RetrogradeSolver& solver = testing::TestTables();
  std::mt19937_64 rng(testing::DiffSeed(5222));
  const int per_signature = testing::SampleSize(30, 100, "random positions per signature");
  int compared = 0, yes = 0, no = 0, unknown = 0;
  for (const char* signature : signatures) {
    for (int i = 0; i < per_signature; ++i) {
      std::optional<Position> pos = RandomPosition(signature, rng);
      ASSERT_TRUE(pos) << signature;
      for (Color side : {kWhite, kBlack}) {
        absl::StatusOr<bool> exact = solver.CanMate(*pos, side);
        ASSERT_TRUE(exact.ok()) << exact.status();
        MateAbility m =
            AnalyzeMateAbility(*pos, side, {.node_budget = 20000, .retrograde = nullptr});
        SCOPED_TRACE(pos->Fen() + (side == kWhite ? " white" : " black"));
        ++compared;
        if (m.answer == CanMate::kYes) {
          ++yes;
          EXPECT_TRUE(*exact) << "search found a mate the solver denies";
        } else if (m.answer == CanMate::kNo) {
          ++no;
          EXPECT_FALSE(*exact) << "search denied a mate (proof " << ToString(m.proof) << ")";
        } else {
          ++unknown;
        }
      }
    }
  }
  std::printf("%d answers compared with the retrograde solver: %d yes, %d no, %d unknown\n",
              compared, yes, no, unknown);
  EXPECT_GT(yes, compared / 2);
}

// With the retrograde step on, every small-endgame "cannot mate" is proven,
// however little the searches may spend. The interesting cases are those
// material alone does not settle (forced captures, stalemate traps), rare
// among random positions (about one in 10,000 needs the retrograde step):
// scan many, analyse those, and scan on until enough of them needed the
// retrograde step, so that any seed exercises it.
TEST(MateAbilityVsRetrograde, EveryCannotMateIsProven) {
  RetrogradeSolver& solver = testing::TestTables();
  std::mt19937_64 rng(testing::DiffSeed(77));
  constexpr int kMinRounds = 20000, kMaxRounds = 80000, kWantRetrograde = 12;
  int cannot = 0, rounds = 0;
  std::map<std::string, int> by_proof;
  for (; rounds < kMaxRounds && (rounds < kMinRounds || by_proof["retrograde"] < kWantRetrograde);
       ++rounds) {
    for (const char* signature : {"KBvKP", "KNvKP", "KPvKP", "KRvKP", "KNvKB"}) {
      std::optional<Position> pos = RandomPosition(signature, rng);
      ASSERT_TRUE(pos) << signature;
      for (Color side : {kWhite, kBlack}) {
        if (*solver.CanMate(*pos, side)) continue;
        if (MaterialMateAbility(*pos, side).answer == CanMate::kNo) continue;
        ++cannot;
        // A budget of 1: the searches prove nothing here.
        MateAbility m = AnalyzeMateAbility(*pos, side, testing::WithTables({.node_budget = 1}));
        EXPECT_EQ(ToString(m.answer), std::string("no"))
            << pos->Fen() << (side == kWhite ? " white" : " black");
        ++by_proof[ToString(m.proof)];
      }
    }
  }
  std::printf("%d rounds of 5 positions, %d where a side with mating material cannot mate; proofs:",
              rounds, cannot);
  for (const auto& [proof, count] : by_proof) std::printf(" %s %d", proof.c_str(), count);
  std::printf("\n");
  EXPECT_GE(by_proof["retrograde"], kWantRetrograde) << "after " << rounds << " rounds";
}

}  // namespace
}  // namespace arbiter
