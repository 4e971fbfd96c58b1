// The developer tools in tools/, run as built. Both stand on the packed
// breadth-first search of tools/packed_search.h, which these tests hold to
// the FEN-keyed search of test_support.h (the two share no code).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <random>
#include <sstream>

#include "core/chess/notation.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

testing::CommandResult Tool(const std::string& name, const std::string& args) {
  return testing::RunCommand(std::string(ARBITER_BINARY_DIR) + "/tools/" + name + " " + args +
                             " 2>/dev/null");
}

testing::CommandResult Composer(const std::string& args) {
  return Tool("helpmate_composer", "--seconds 0 " + args);
}

// The line it prints for the 49-ply composition replays to mate in 49 plies.
TEST(HelpmateComposer, PrintsAShortestLineThatMates) {
  const std::string fen = "8/1p5p/1Pp5/k1P2p2/1pP2p2/KPp2p1P/2P2P1P/1B6 w - - 0 1";
  const testing::CommandResult r = Composer("--line '" + fen + "'");
  ASSERT_EQ(r.exit_code, 0);
  const std::vector<std::string> lines = testing::Lines(r.out);
  ASSERT_GE(lines.size(), 2u) << r.out;
  EXPECT_EQ(lines[0].rfind("seed 49 ", 0), 0u) << lines[0];
  ASSERT_EQ(lines[1].rfind("line ", 0), 0u) << lines[1];
  Position pos = testing::FromFen(fen);
  std::vector<Move> moves;
  std::istringstream words(lines[1].substr(5));
  for (std::string uci; words >> uci;) {
    absl::StatusOr<Move> m = ParseUci(pos, uci);
    ASSERT_TRUE(m.ok()) << uci << ": " << m.status();
    moves.push_back(*m);
    pos.DoMove(*m);
  }
  EXPECT_EQ(moves.size(), 49u);
  testing::ExpectMatingLine(testing::FromFen(fen), kWhite, moves);
}

// A search that would pass its cap gives up: -1, not a guess.
TEST(HelpmateComposer, GivesUpPastItsCap) {
  const testing::CommandResult r =
      Composer("--cap 50000 '8/1p5p/1Pp5/2P2p2/1pP2p2/KPp2p1P/2P2P1P/1B4k1 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("seed -1 ", 0), 0u) << r.out;
}

// On random positions behind pawn walls (double steps, e.p. captures and
// promotions included) its length equals the independent search's.
TEST(HelpmateComposer, AgreesWithTheFenKeyedSearch) {
  const int size = testing::SampleSize(100, 300, "random positions behind pawn walls");
  std::mt19937 rng(testing::DiffSeed(20261126));
  constexpr size_t kCap = 100000;
  std::string args = "--cap " + std::to_string(kCap);
  std::vector<std::string> fens;
  while (fens.size() < size_t(size)) {
    const std::string fen = testing::RandomWallFen(rng);
    if (!Position::FromFen(fen).ok()) continue;
    fens.push_back(fen);
    args += " '" + fen + "'";
  }
  const testing::CommandResult r = Composer(args);
  ASSERT_EQ(r.exit_code, 0);
  int compared = 0, mates = 0;
  for (const std::string& line : testing::Lines(r.out)) {
    if (line.rfind("seed ", 0) != 0) continue;
    std::istringstream words(line.substr(5));
    int plies = 0;
    size_t states = 0;
    words >> plies >> states;
    std::string fen;
    std::getline(words >> std::ws, fen);
    // -1 also stands for a position the composer's legality filter refuses,
    // so only its lengths are compared.
    if (plies < 0) continue;
    const testing::Exhaustive reference =
        testing::ShortestHelpmateByFen(testing::FromFen(fen), kWhite, 2 * kCap);
    ASSERT_TRUE(reference.complete) << fen;
    ASSERT_TRUE(reference.plies.has_value()) << fen;
    EXPECT_EQ(plies, *reference.plies) << fen;
    ++compared;
    mates += plies > 0;
  }
  std::printf("compared %d lengths, %d of them mates\n", compared, mates);
  // 40 and 20 of the full 300.
  EXPECT_GE(compared, size * 2 / 15) << r.out.substr(0, 2000);
  EXPECT_GE(mates, size / 15);
}

// The sweep confirms the analysis's "no" answers on a small sample; its
// exit code would be 1 on a mate the analysis denied.
TEST(MateAbilitySweep, ConfirmsTheAnswersNoOnASmallSample) {
  const testing::CommandResult r = Tool("mate_ability_sweep", "--seed 2 --positions 60");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_PRED_FORMAT2(testing::Contains, r.out, "seed 2, family plain: 60 positions, ");
  EXPECT_PRED_FORMAT2(testing::Contains, r.out, ", 0 disagreements\n");
  EXPECT_PRED_FORMAT2(testing::Contains, r.out, "\n  confirmed ");  // some "no" was searched
  EXPECT_EQ(Tool("mate_ability_sweep", "--bad").exit_code, 2);
  EXPECT_EQ(Tool("mate_ability_sweep", "--family nonesuch").exit_code, 2);
}

// The adversarial families (one precondition of the "no" proofs broken per
// family: e.p., castling, Chess960 castling, free and promoting pawns, the
// 75-move limit, a king shut in with nothing else to move), a fixed-seed slice of what the sweep
// does at scale. With the e.p. precondition dropped from the fortress proof, 300 positions of the
// e.p. family find a dozen wrong "no" answers (docs/research/can-mate-evidence.md).
TEST(MateAbilitySweep, AdversarialFamiliesSlice) {
  const testing::CommandResult r =
      Tool("mate_ability_sweep", "--seed 3 --positions 100 --family all");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  for (const char* family : {"plain", "en_passant", "castling", "chess960_castling", "free_pawn",
                             "promotion", "near_move_limit", "king_pocket"})
    EXPECT_PRED_FORMAT2(testing::Contains, r.out,
                        std::string("seed 3, family ") + family + ": 100 positions, ");
  EXPECT_EQ(r.out.find("DISAGREE"), std::string::npos) << r.out;
  std::printf("%s", r.out.c_str());
}

}  // namespace
}  // namespace arbiter
