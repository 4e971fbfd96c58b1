// FIDE Laws (2023) endings and claims, article by article.
#include <gtest/gtest.h>

#include "core/chess/notation.h"
#include "core/verdict/assessment.h"
#include "core/verdict/ruling.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

using arbiter::testing::FromFen;
using arbiter::testing::TestTables;
using arbiter::testing::WithTables;

// Plays space-separated UCI moves on a game.
void Play(Game& game, const std::string& uci_moves) {
  for (size_t p = 0; p < uci_moves.size();) {
    size_t q = uci_moves.find(' ', p);
    if (q == std::string::npos) q = uci_moves.size();
    absl::StatusOr<Move> m = ParseUci(game.position(), uci_moves.substr(p, q - p));
    ASSERT_TRUE(m.ok()) << m.status();
    game.Play(*m);
    p = q + 1;
  }
}

std::vector<Move> Moves(const Position& start, const std::string& uci_moves) {
  Game game(start);
  std::vector<Move> out;
  for (size_t p = 0; p < uci_moves.size();) {
    size_t q = uci_moves.find(' ', p);
    if (q == std::string::npos) q = uci_moves.size();
    absl::StatusOr<Move> m = ParseUci(game.position(), uci_moves.substr(p, q - p));
    EXPECT_TRUE(m.ok()) << m.status();
    if (!m.ok()) break;
    out.push_back(*m);
    game.Play(*m);
    p = q + 1;
  }
  return out;
}

GameStatus StatusOf(const std::string& fen, const std::string& moves = "") {
  Game game(FromFen(fen));
  Play(game, moves);
  return Assess(game, WithTables()).status;
}

constexpr char kKnightShuffle[] = "b1c3 b8c6 c3b1 c6b8";

TEST(Article5, CheckmateAndStalemate) {
  EXPECT_EQ(StatusOf("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"), GameStatus::kCheckmate);
  EXPECT_EQ(StatusOf("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), GameStatus::kStalemate);
  EXPECT_EQ(ArticleOf(GameStatus::kCheckmate), std::string("5.1.1"));
  EXPECT_EQ(ArticleOf(GameStatus::kStalemate), std::string("5.2.1"));
}

TEST(Article5, DeadPositionByMaterial) {
  EXPECT_EQ(StatusOf("8/8/8/4k3/8/8/8/4K3 w - - 0 1"), GameStatus::kDeadPosition);
  EXPECT_EQ(StatusOf("8/8/8/4k3/8/8/8/2B1K3 w - - 0 1"), GameStatus::kDeadPosition);
  EXPECT_EQ(StatusOf("8/8/8/4k3/8/8/8/1N2K3 b - - 0 1"), GameStatus::kDeadPosition);
  // Same-coloured bishops (c1 and f8 are both dark): dead.
  EXPECT_EQ(StatusOf("5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1"), GameStatus::kDeadPosition);
  // Opposite colours: a helpmate exists, not dead.
  EXPECT_EQ(StatusOf("2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1"), GameStatus::kOngoing);
  // K+N+N v K can mate with help.
  EXPECT_EQ(StatusOf("8/8/8/4k3/8/8/8/1N2KN2 w - - 0 1"), GameStatus::kOngoing);
}

TEST(Article5, DeadPositionsFoundAfterEveryMove) {
  // Game 6412 of the shared Lichess file, after 53.Rh7: black's only
  // move is ...h4+, and every white reply is stalemate. Neither side can
  // mate, so the game ended here (5.2.2), two plies before the stalemate.
  Game trap(FromFen("8/5Q1R/8/6kp/8/6KP/6P1/8 b - - 4 53"));
  EXPECT_EQ(AutomaticEnding(trap, kClosedPositionBudget, &TestTables()), GameStatus::kDeadPosition);
  // The only legal move takes the last piece: bare kings (forced line).
  Game forced(FromFen("k7/1R6/8/2K5/8/8/8/8 b - - 0 1"));
  EXPECT_EQ(AutomaticEnding(forced, kClosedPositionBudget, &TestTables()),
            GameStatus::kDeadPosition);
  // A locked pawn wall the kings cannot cross.
  Game wall(FromFen("8/8/1k6/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1"));
  EXPECT_EQ(AutomaticEnding(wall, kClosedPositionBudget, &TestTables()), GameStatus::kDeadPosition);
}

TEST(Article5, PerSideMateAbility) {
  // K+N v K+Q: no mate position with these men exists (enumerated), so the
  // knight side cannot mate; the queen side may.
  Game game(FromFen("8/8/8/4k3/8/8/3q4/1N2K3 w - - 0 1"));
  Assessment a = Assess(game, WithTables());
  EXPECT_EQ(a.white.answer, CanMate::kNo);
  EXPECT_EQ(a.white.proof, MateProof::kMaterial);
  EXPECT_EQ(a.black.answer, CanMate::kYes);
  EXPECT_FALSE(a.black.line.empty());
  EXPECT_EQ(a.dead, false);
  // K+N v K+R: the rook can block a flight square; the knight side may mate.
  EXPECT_FALSE(HasInsufficientMaterial(FromFen("8/8/8/4k3/8/8/3r4/1N2K3 w - - 0 1"), kWhite));
  // K+B v K+P: the pawn can block.
  EXPECT_FALSE(HasInsufficientMaterial(FromFen("8/8/8/4k3/8/3p4/8/2B1K3 w - - 0 1"), kWhite));
  // K+B v K+R: the rook always interferes.
  EXPECT_TRUE(HasInsufficientMaterial(FromFen("8/8/8/4k3/8/8/3r4/2B1K3 w - - 0 1"), kWhite));
}

TEST(Article9, ThreefoldCountsEnPassantOnlyWhenLegal) {
  // After ...d5 the e5 pawn is pinned on the e-file, so exd6 is illegal and
  // the position equals the later ones without an e.p. square (9.2.3.1).
  Game pinned(FromFen("1n2r2k/3p4/8/4P3/8/8/8/1N2K3 b - - 0 1"));
  Play(pinned, "d7d5");
  EXPECT_EQ(pinned.Occurrences(), 1);
  Play(pinned, kKnightShuffle);
  EXPECT_EQ(pinned.Occurrences(), 2);
  Play(pinned, kKnightShuffle);
  EXPECT_EQ(pinned.Occurrences(), 3);
  EXPECT_TRUE(Assess(pinned, WithTables()).claims.threefold_now);

  // Without the pin the first position had a legal e.p. capture: different.
  Game free(FromFen("rn5k/3p4/8/4P3/8/8/8/1N2K3 b - - 0 1"));
  Play(free, "d7d5");
  Play(free, kKnightShuffle);
  EXPECT_EQ(free.Occurrences(), 1);
  Play(free, kKnightShuffle);
  EXPECT_EQ(free.Occurrences(), 2);
  EXPECT_FALSE(Assess(free, WithTables()).claims.threefold_now);
}

TEST(Article9, CastlingRightLostBreaksRepetition) {
  // The white king walks away and back: same squares, but the right to
  // castle is gone, so the first position does not count (9.2.3.2).
  Game game(FromFen("r3k3/8/8/8/8/8/8/4K2R w K - 0 1"));
  Play(game, "e1f1 a8b8 f1e1 b8a8");
  EXPECT_EQ(game.Occurrences(), 1);
  Play(game, "e1f1 a8b8 f1e1 b8a8");
  EXPECT_EQ(game.Occurrences(), 2);
}

TEST(Article9, ThreefoldByWrittenMove) {
  Game game(FromFen("1n5k/8/8/8/8/8/8/1N2K3 w - - 0 1"));
  Play(game, std::string(kKnightShuffle) + " b1c3 b8c6 c3b1");
  // Black to move: ...Nb8 would produce the start position a third time.
  Assessment a = Assess(game, WithTables());
  EXPECT_FALSE(a.claims.threefold_now);
  ASSERT_EQ(a.claims.threefold_moves.size(), 1u);
  EXPECT_EQ(ToUci(game.position(), a.claims.threefold_moves[0]), "c6b8");
}

TEST(Article9, FiftyMoveClaims) {
  Game now(FromFen("4k3/4p3/8/8/8/8/4P3/4K2R w - - 100 90"));
  EXPECT_TRUE(Assess(now, WithTables()).claims.fifty_now);
  Game by_move(FromFen("4k3/4p3/8/8/8/8/4P3/4K2R w - - 99 90"));
  Assessment a = Assess(by_move, WithTables());
  EXPECT_FALSE(a.claims.fifty_now);
  // Every move but the pawn moves completes the 50 moves (9.3.1).
  std::vector<std::string> uci;
  for (Move m : a.claims.fifty_moves) uci.push_back(ToUci(by_move.position(), m));
  EXPECT_EQ(std::count(uci.begin(), uci.end(), "e2e3"), 0);
  EXPECT_EQ(std::count(uci.begin(), uci.end(), "e2e4"), 0);
  EXPECT_EQ(std::count(uci.begin(), uci.end(), "h1h8"), 1);
  EXPECT_EQ(uci.size(), 13u);  // 4 king moves + 9 rook moves
  Game early(FromFen("4k3/4p3/8/8/8/8/4P3/4K2R w - - 98 90"));
  EXPECT_TRUE(Assess(early, WithTables()).claims.fifty_moves.empty());
}

TEST(Article9, FivefoldEndsTheGame) {
  Game game(FromFen("1n5k/8/8/8/8/8/8/1N2K3 w - - 0 1"));
  for (int i = 0; i < 3; ++i) Play(game, kKnightShuffle);
  EXPECT_EQ(Assess(game, WithTables()).status, GameStatus::kOngoing);
  Play(game, kKnightShuffle);
  EXPECT_EQ(game.Occurrences(), 5);
  EXPECT_EQ(Assess(game, WithTables()).status, GameStatus::kFivefold);
}

TEST(Article9, SeventyFiveMovesButMateStands) {
  // The 150th ply without capture or pawn move is a mate: the mate stands.
  EXPECT_EQ(StatusOf("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 120", "a1a8"), GameStatus::kCheckmate);
  EXPECT_EQ(StatusOf("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 120", "a1a2"),
            GameStatus::kSeventyFiveMoves);
  EXPECT_EQ(StatusOf("6k1/5ppp/8/8/8/8/8/R5K1 w - - 148 120", "a1a2"), GameStatus::kOngoing);
  // Stalemate on the 150th ply: stalemate (5.2.1) takes precedence.
  EXPECT_EQ(StatusOf("7k/5Q2/8/6K1/8/8/8/8 w - - 149 120", "g5g6"), GameStatus::kStalemate);
}

Ruling Rule(const std::string& fen, const std::string& moves, const std::string& result,
            const std::string& termination) {
  Position start = FromFen(fen);
  return RuleGame(start, Moves(start, moves), {result, termination}, WithTables());
}

TEST(Ruling, CheckmateAndWrongDeclaredResult) {
  Ruling r = Rule("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "1-0", "Normal");
  EXPECT_EQ(r.rule, Rule::kCheckmate);
  EXPECT_EQ(r.ruling, GameResult::kWhiteWins);
  EXPECT_EQ(r.article, "5.1.1");
  EXPECT_EQ(r.ended_at_ply, 1);
  EXPECT_TRUE(r.agrees);
  r = Rule("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "1/2-1/2", "Normal");
  EXPECT_FALSE(r.agrees);
}

TEST(Ruling, GameRuledWhereItEnded) {
  // White takes the last black piece: dead position after ply 1; two more
  // plies were played after the end.
  Ruling r = Rule("8/8/8/4k3/8/8/3n4/2B1K3 w - - 0 1", "e1d2 e5e4 d2e2", "1-0", "Time forfeit");
  EXPECT_EQ(r.rule, Rule::kDeadPosition);
  EXPECT_EQ(r.ruling, GameResult::kDraw);
  EXPECT_EQ(r.ended_at_ply, 1);
  EXPECT_EQ(r.moves_after_end, 2);
  EXPECT_FALSE(r.agrees);
}

TEST(Ruling, FlagFallNeedsAMatingPossibility) {
  // Black (K+N) wins on time against K+Q? The knight cannot mate: draw.
  Ruling r = Rule("8/8/8/4k3/8/8/3Q4/1n2K3 w - - 0 1", "", "0-1", "Time forfeit");
  EXPECT_EQ(r.rule, Rule::kFlagFallCannotMate);
  EXPECT_EQ(r.article, "6.9");
  EXPECT_EQ(r.ruling, GameResult::kDraw);
  EXPECT_FALSE(r.agrees);
  ASSERT_TRUE(r.winner_side.has_value());
  EXPECT_EQ(*r.winner_side, kBlack);
  EXPECT_EQ(r.winner_can_mate.answer, CanMate::kNo);
  // The queen side wins on time: the win stands (not proven impossible).
  r = Rule("8/8/8/4k3/8/8/3Q4/1n2K3 b - - 0 1", "", "1-0", "Time forfeit");
  EXPECT_EQ(r.rule, Rule::kFlagFall);
  EXPECT_EQ(r.ruling, GameResult::kWhiteWins);
  EXPECT_TRUE(r.agrees);
  EXPECT_TRUE(r.certain);
  EXPECT_EQ(r.winner_can_mate.answer, CanMate::kYes);
  // Drawn on time: the side to move flagged; the opponent K+N v K+Q cannot mate.
  r = Rule("8/8/8/4k3/8/8/3Q4/1n2K3 w - - 0 1", "", "1/2-1/2", "Time forfeit");
  EXPECT_EQ(r.rule, Rule::kFlagFallCannotMate);
  EXPECT_TRUE(r.agrees);
}

TEST(Ruling, ResignationNeedsAMatingPossibility) {
  Ruling r = Rule("8/8/8/4k3/8/8/3Q4/1n2K3 w - - 0 1", "", "0-1", "Normal");
  EXPECT_EQ(r.rule, Rule::kResignationCannotMate);
  EXPECT_EQ(r.article, "5.1.2");
  EXPECT_EQ(r.ruling, GameResult::kDraw);
  r = Rule("8/8/8/4k3/8/8/3Q4/1n2K3 w - - 0 1", "", "1-0", "");
  EXPECT_EQ(r.rule, Rule::kResignation);
  EXPECT_EQ(r.ruling, GameResult::kWhiteWins);
}

TEST(Ruling, DoubleForfeitAndForfeitsWithoutException) {
  Ruling r = Rule("8/8/8/4k3/8/8/3Q4/1n2K3 w - - 0 1", "", "0-0", "Rules infraction");
  EXPECT_EQ(r.rule, Rule::kDoubleForfeit);
  EXPECT_EQ(r.ruling, GameResult::kDoubleForfeit);
  EXPECT_TRUE(r.agrees);
  // A rules infraction (12.9.6) has no "cannot mate" exception: the lone
  // knight's side still wins.
  r = Rule("8/8/8/4k3/8/8/3Q4/1n2K3 w - - 0 1", "", "0-1", "Rules infraction");
  EXPECT_EQ(r.rule, Rule::kForfeit);
  EXPECT_EQ(r.article, "12.9.6");
  EXPECT_EQ(r.ruling, GameResult::kBlackWins);
  // An illegal move (7.5.5) has it.
  r = Rule("8/8/8/4k3/8/8/3Q4/1n2K3 w - - 0 1", "", "0-1", "illegal move");
  EXPECT_EQ(r.rule, Rule::kForfeitCannotMate);
  EXPECT_EQ(r.article, "7.5.5");
  EXPECT_EQ(r.ruling, GameResult::kDraw);
}

TEST(Ruling, ClockAtZeroNamesTheFlag) {
  const Position start = FromFen("4k3/3q4/8/8/8/8/4P3/4K3 w - - 0 40");
  const std::vector<Move> moves = Moves(start, "e2e4 d7d5");
  // White's last clock reads 0: White's flag fell, whatever the result says.
  const std::vector<int> clocks{0, 700};
  Ruling r = RuleGame(start, moves,
                      {.result = "1-0", .termination = "Time forfeit", .clock_centis = clocks},
                      WithTables());
  EXPECT_EQ(r.flag_fallen_by, kWhite);
  EXPECT_EQ(r.flag_evidence, FlagEvidence::kClock);
  EXPECT_EQ(r.clock_contradicts_result, true);
  EXPECT_EQ(r.ruling, GameResult::kBlackWins);
  // Both at zero: no evidence either way; the declared loser's flag.
  const std::vector<int> both{0, 0};
  r = RuleGame(start, moves, {.result = "1-0", .termination = "Time forfeit", .clock_centis = both},
               WithTables());
  EXPECT_EQ(r.flag_fallen_by, kBlack);
  EXPECT_EQ(r.flag_evidence, FlagEvidence::kResult);
  EXPECT_FALSE(r.clock_contradicts_result.has_value());
}

TEST(Ruling, NamedGroundsAreChecked) {
  const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  Ruling r =
      Rule(start, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "1/2-1/2", "Game drawn by repetition");
  EXPECT_EQ(r.declared_ending.grounds, EndingGrounds::kThreefoldRepetition);
  EXPECT_EQ(r.declared_grounds_hold, true);
  r = Rule(start, "g1f3 g8f6", "1/2-1/2", "Game drawn by repetition");
  EXPECT_EQ(r.declared_grounds_hold, false);
  EXPECT_EQ(r.ruling, GameResult::kDraw);  // an accepted offer (9.1.2.3) still
  r = Rule(start, "g1f3 g8f6", "1/2-1/2", "Game drawn by stalemate");
  EXPECT_EQ(r.declared_grounds_hold, false);
  r = Rule(start, "g1f3 g8f6", "1/2-1/2", "Normal");
  EXPECT_FALSE(r.declared_grounds_hold.has_value());
}

TEST(Ruling, AgreedDrawReportsClaimGrounds) {
  Ruling r = Rule("1n5k/8/8/8/8/8/8/1N2K3 w - - 0 1",
                  std::string(kKnightShuffle) + " " + kKnightShuffle, "1/2-1/2", "Normal");
  EXPECT_EQ(r.rule, Rule::kDrawAgreedOrClaimed);
  EXPECT_EQ(r.article, "5.2.3");
  // The start position stands a third time, and Nc3 would repeat a third time.
  EXPECT_EQ(r.claim_grounds, (std::vector<std::string>{"threefold_now", "threefold_by_move"}));
  r = Rule("1n5k/8/8/8/8/8/8/1N2K3 w - - 0 1", "", "*", "");
  EXPECT_EQ(r.rule, Rule::kUnfinished);
  EXPECT_EQ(r.ruling, GameResult::kUnfinished);
  EXPECT_FALSE(r.ended_at_ply.has_value());
  EXPECT_TRUE(r.agrees);
}

}  // namespace
}  // namespace arbiter
