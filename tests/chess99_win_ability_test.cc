// Chess 99 position analysis: can each side still win (cooperative search
// with proofs for "no"), king captures now, and the D5 / D6 claims.
#include <random>
#include <string>
#include <vector>

#include "core/chess99/endings.h"
#include "core/chess99/movegen.h"
#include "core/chess99/win_ability.h"
#include "gtest/gtest.h"
#include "tests/chess99_test_support.h"

namespace arbiter::chess99 {
namespace {

// A "yes" line, replayed by the game judge, ends with `side` capturing the
// king and winning at its last ply.
void ExpectLineWins(const Position& pos, Color side, const SideWinAbility& w) {
  ASSERT_EQ(w.answer, WinAbility::kYes);
  ASSERT_FALSE(w.line.empty());
  std::vector<GamePly> plies;
  for (const std::string& m : w.line) plies.push_back({m, false, DrawCall::kNone});
  const GameJudgement j = JudgeGame(pos, plies);
  EXPECT_EQ(j.error, "") << pos.Fen();
  EXPECT_EQ(j.rule, Rule::kKingCapture) << pos.Fen();
  EXPECT_EQ(j.winner, side) << pos.Fen();
  EXPECT_EQ(j.ended_at_ply, static_cast<int>(w.line.size())) << pos.Fen();
}

TEST(Chess99WinAbility, CleanCaptureIsAOneMoveLine) {
  const Position pos = Pos("4k4/9/p8/9/9/4Q4/9/9/4K4 w - - 0 50");  // E9
  const SideWinAbility w = CanWin(pos, kWhite);
  ExpectLineWins(pos, kWhite, w);
  EXPECT_EQ(w.line, std::vector<std::string>{"e4e9"});
}

TEST(Chess99WinAbility, LoneKingAndBareKingsAreProvedNo) {
  const Position e12 = Pos("9/9/9/9/4k4/3K5/9/9/n8 w - - 0 70");
  const SideWinAbility white = CanWin(e12, kWhite);
  EXPECT_EQ(white.answer, WinAbility::kNo);
  EXPECT_EQ(white.proof, MateProof::kLoneKing);
  EXPECT_EQ(white.section, "D7 §5.4");
  ExpectLineWins(e12, kBlack, CanWin(e12, kBlack));  // K+N still wins
  const Position bare = Pos("9/9/9/9/9/9/4k4/3K5/9 b - - 0 80");
  for (Color c : {kWhite, kBlack}) {
    const SideWinAbility w = CanWin(bare, c);
    EXPECT_EQ(w.answer, WinAbility::kNo);
    EXPECT_EQ(w.proof, MateProof::kBareKings);
    EXPECT_EQ(w.section, "D8 §5.4");
  }
  EXPECT_EQ(AnalyzePosition(bare).status, PositionStatus::kBareKings);
}

TEST(Chess99WinAbility, LongerCooperativeLines) {
  for (const char* fen : {
           "9/9/9/9/4k4/9/9/9/R3K4 w - - 0 1",  // K+R vs K, White to move
           "9/9/9/9/4k4/9/9/9/R3K4 b - - 0 1",  // ... Black to move first
           "k8/9/9/9/9/9/9/9/1N6K w - - 0 1",   // K+N vs K, far corners
           "k8/9/9/9/9/9/9/9/2B5K w - - 0 1",   // bishop on the other colour
           "4k4/9/9/9/9/9/9/P8/4K4 w - - 0 1",  // a pawn that must promote or walk
           "4k4/9/9/9/9/9/9/9/A3K4 b - - 0 1",  // the paladin
       }) {
    const Position pos = Pos(fen);
    const SideWinAbility w = CanWin(pos, kWhite);
    EXPECT_EQ(w.answer, WinAbility::kYes) << fen << " nodes " << w.nodes;
    if (w.answer == WinAbility::kYes) ExpectLineWins(pos, kWhite, w);
    EXPECT_EQ(CanWin(pos, kBlack).answer, WinAbility::kNo) << fen;  // Black: lone king
  }
}

TEST(Chess99WinAbility, StartPosition) {
  // White: c2c4, the queen to a4, and the e-pawn out of the way; found
  // within the default budget. Lines are checked by the judge.
  const Position pos = Position::Start();
  const SideWinAbility w = CanWin(pos, kWhite);
  ASSERT_EQ(w.answer, WinAbility::kYes);
  ExpectLineWins(pos, kWhite, w);
  EXPECT_EQ(w.line.size(), 5u);
}

TEST(Chess99WinAbility, BudgetExhaustedIsUnknown) {
  const Position pos = Position::Start();
  SearchLimits tiny;
  tiny.node_budget = 10;
  const SideWinAbility w = CanWin(pos, kWhite, tiny);
  EXPECT_EQ(w.answer, WinAbility::kUnknown);
  EXPECT_TRUE(w.line.empty());
  SearchLimits shallow;
  shallow.max_plies = 1;  // no capture in one ply from the start
  const SideWinAbility s = CanWin(pos, kWhite, shallow);
  EXPECT_EQ(s.answer, WinAbility::kUnknown);
  EXPECT_EQ(s.depth_completed, 1);
}

TEST(Chess99WinAbility, KingCapturesNowAndClaims) {
  // E10: Kxe5 only draws (D4), Nxe5 wins; a D5 claim is available.
  const PositionAnalysis a = AnalyzePosition(Pos("9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60"));
  EXPECT_EQ(a.status, PositionStatus::kOngoing);
  ASSERT_EQ(a.king_captures.size(), 2u);
  for (const KingCaptureNow& k : a.king_captures) {
    if (k.move == "d5e5") {
      EXPECT_FALSE(k.wins);
      EXPECT_EQ(k.rule, Rule::kDrawnKingCapture);
      EXPECT_EQ(k.site, "Kxe5(K)");
    } else {
      EXPECT_EQ(k.move, "c6e5");
      EXPECT_TRUE(k.wins);
      EXPECT_EQ(k.rule, Rule::kKingCapture);
    }
  }
  EXPECT_TRUE(a.d5_claim_available);
  EXPECT_FALSE(a.d6_window_open);
  EXPECT_FALSE(a.d6_claim_available);
  EXPECT_EQ(a.can_win[kWhite].answer, WinAbility::kYes);
  // E12: the lone king's capture only draws (D7).
  const PositionAnalysis e12 = AnalyzePosition(Pos("9/9/9/9/4k4/3K5/9/9/n8 w - - 0 70"));
  ASSERT_EQ(e12.king_captures.size(), 1u);
  EXPECT_EQ(e12.king_captures[0].rule, Rule::kLoneKing);
  EXPECT_FALSE(e12.king_captures[0].wins);
}

TEST(Chess99WinAbility, NinetyNineMoveClaimNow) {
  // White to move at fullmove 100: Black has completed 99. The rook d9
  // watches the d-file, so Kd1 and Kd2 would leave White's king in check.
  const PositionAnalysis w100 = AnalyzePosition(Pos("3rk4/9/9/9/9/9/9/9/4K4 w - - 0 100"));
  EXPECT_EQ(w100.opponent_moves_completed, 99);
  EXPECT_TRUE(w100.d6_window_open);
  EXPECT_TRUE(w100.d6_claim_available);
  EXPECT_EQ(w100.d6_claim_moves, (std::vector<std::string>{"e1e2", "e1f1", "e1f2"}));
  const PositionAnalysis w99 = AnalyzePosition(Pos("3rk4/9/9/9/9/9/9/9/4K4 w - - 0 99"));
  EXPECT_EQ(w99.opponent_moves_completed, 98);
  EXPECT_FALSE(w99.d6_claim_available);
  // Black at fullmove 99 may claim already.
  const PositionAnalysis b99 = AnalyzePosition(Pos("3rk4/9/9/9/9/9/9/9/4K4 b - - 0 99"));
  EXPECT_EQ(b99.opponent_moves_completed, 99);
  EXPECT_TRUE(b99.d6_claim_available);
  // The draw-rules page's move 100: every White move stays in check.
  const PositionAnalysis page = AnalyzePosition(Pos("9/9/9/9/9/4b4/6k2/9/6n1K w - - 0 100"));
  EXPECT_TRUE(page.d6_window_open);
  EXPECT_FALSE(page.d6_claim_available);
}

TEST(Chess99WinAbility, NoMoveStatus) {
  const PositionAnalysis a = AnalyzePosition(Pos(
      "BBBBBBBBB/PPPPPPPPP/PPPPPPPPP/PPPPPPPPP/PPPPPPPPP/PPPPPPPPP/PPPPPPPPP/PPPPKPPPP/k2BRB3 w - "
      "- 0 1"));
  EXPECT_EQ(a.status, PositionStatus::kNoMove);
  EXPECT_EQ(a.section, "§7.9");
  EXPECT_EQ(a.can_win[kBlack].answer, WinAbility::kNo);  // lone king
}

// Every "yes" in positions from random games replays to a winning capture.
TEST(Chess99WinAbility, EveryYesLineReplaysToAWin) {
  std::mt19937 rng(5);
  SearchLimits limits;
  limits.node_budget = 20000;
  limits.max_plies = 7;
  int yes = 0;
  for (int game = 0; game < 12; ++game) {
    Position pos = Position::Start();
    for (int ply = 0; ply < 160; ++ply) {
      const std::vector<Move> moves = GenerateMoves(pos);
      if (moves.empty()) break;
      if (ply % 20 == 19 && pos.king_square(kWhite) != kNoSquare &&
          pos.king_square(kBlack) != kNoSquare) {
        for (Color c : {kWhite, kBlack}) {
          const SideWinAbility w = CanWin(pos, c, limits);
          if (w.answer == WinAbility::kYes) {
            ++yes;
            ExpectLineWins(pos, c, w);
          }
        }
      }
      pos.MakeMove(moves[rng() % moves.size()]);
    }
  }
  EXPECT_GT(yes, 10);
}

}  // namespace
}  // namespace arbiter::chess99
