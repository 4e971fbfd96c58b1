// Judging Chess 99 games (§5): every worked example E1–E17 of §6 as a game,
// the 99-move claim boundaries, and the other endings.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/chess99/endings.h"
#include "core/chess99/movegen.h"
#include "core/chess99/perft.h"
#include "core/chess99/position.h"
#include "gtest/gtest.h"
#include "tests/chess99_test_support.h"

namespace arbiter::chess99 {
namespace {

GamePly M(std::string move) { return {std::move(move), false, DrawCall::kNone}; }
GamePly Claim(std::string move) { return {std::move(move), false, DrawCall::kClaim}; }
GamePly Offer(std::string move) { return {std::move(move), false, DrawCall::kOffer}; }
GamePly Accept(std::string move = "") { return {std::move(move), true, DrawCall::kNone}; }

GameJudgement Judge(std::string_view fen, const std::vector<GamePly>& plies,
                    std::optional<GameEnding> ending = std::nullopt) {
  return JudgeGame(Pos(fen), plies, ending);
}

void ExpectOngoing(const GameJudgement& j) {
  EXPECT_EQ(j.result, GameResult::kUnfinished);
  EXPECT_EQ(j.rule, Rule::kUnfinished);
  EXPECT_EQ(j.ended_at_ply, -1);
  EXPECT_EQ(j.error, "");
}

TEST(Chess99Endings, E1FirstMoveCount) {
  Position pos = Position::Start();
  EXPECT_EQ(Perft(pos, 1), 26u);
  // Each of the 26 first moves is a game that goes on.
  for (const Move& m : GenerateMoves(pos)) {
    pos.MakeMove(m);
    EXPECT_TRUE(HasAnyMove(pos));
    pos.UnmakeMove(m);
  }
  ExpectOngoing(JudgeGame(pos, {M("e2e4"), M("Pc7"), M("e1f1")}));
}

TEST(Chess99Endings, E2PaladinRange) {
  Position pos = Pos("9/8k/9/9/4A4/9/9/K8/9 w - - 0 1");
  int paladin = 0;
  for (const Move& m : GenerateMoves(pos)) paladin += m.from == MakeSquare(4, 4);
  EXPECT_EQ(paladin, 24);
  // Pxa1? No: a game where the paladin walks to i8's neighbour and takes.
  const auto j = Judge("9/8k/9/9/4A4/9/9/K8/9 w - - 0 1", {M("e5g7"), M("i8h9"), M("g7h9")});
  EXPECT_EQ(j.result, GameResult::kWhiteWins);
  EXPECT_EQ(j.rule, Rule::kKingCapture);
}

TEST(Chess99Endings, E3EnPassantByBishop) {
  const auto j = Judge("4k4/5b3/9/9/9/9/1P7/9/4K4 w - - 0 20", {M("b35"), M("Bxb4*")});
  ExpectOngoing(j);
  EXPECT_EQ(j.end_fen, "4k4/9/9/9/9/1b7/9/9/4K4 w - - 0 21");
  // Any other move lets the right lapse: the e.p. capture is then illegal.
  const auto late =
      Judge("4k4/5b3/9/9/9/9/1P7/9/4K4 w - - 0 20", {M("b3b5"), M("e9d9"), M("e1d1"), M("f8b4*")});
  EXPECT_EQ(late.error_ply, 4);
  EXPECT_NE(late.error.find("illegal move 'f8b4*'"), std::string::npos);
}

TEST(Chess99Endings, E4DoubleStepPromotionThenEnPassant) {
  const auto j = Judge("2k6/9/1P7/9/9/9/9/9/4K4 w - - 0 40", {M("b79=B"), M("Kxb8(B*)")});
  EXPECT_EQ(j.end_fen, "9/1k7/9/9/9/9/9/9/4K4 w - - 0 41");
  // Taking the last white unit leaves two bare kings: drawn at once (D8).
  EXPECT_EQ(j.result, GameResult::kDraw);
  EXPECT_EQ(j.rule, Rule::kBareKings);
  EXPECT_EQ(j.ended_at_ply, 2);
}

TEST(Chess99Endings, E5EnPassantChoices) {
  const char* fen = "4k4/9/9/3pP4/9/2n6/9/9/4K4 b - e5 0 30";
  for (const char* m : {"d6e5*", "c4e5*", "c4e5"}) {
    const auto j = Judge(fen, {M(m)});
    ExpectOngoing(j);
    const Position end = Pos(j.end_fen);
    const bool took = std::string(m).back() == '*';
    EXPECT_EQ(end.piece_on(MakeSquare(4, 5)) == kNoPiece, took) << m;  // e6
  }
}

TEST(Chess99Endings, E6MidBoardPawn) {
  const auto j = Judge("4k4/9/2p6/9/2P6/9/9/9/4K4 w - - 0 12", {M("c5c7")});
  EXPECT_EQ(j.error_ply, 1);
  ExpectOngoing(Judge("4k4/9/2p6/9/2P6/9/9/9/4K4 w - - 0 12", {M("c6")}));
  ExpectOngoing(Judge("4k4/9/2p6/9/9/9/2P6/9/4K4 w - - 0 12", {M("c3c5")}));
}

TEST(Chess99Endings, E7CastlingOutOfCheck) {
  const char* fen = "4r2k1/9/9/9/9/9/9/9/R3KA3 w - - 0 25";
  const auto short_castle = Judge(fen, {M("e1f1")});
  ExpectOngoing(short_castle);
  EXPECT_FALSE(Pos(short_castle.end_fen).InCheck(kWhite));  // the paladin blocks on e1
  const auto long_castle = Judge(fen, {M("e1d1&a1")});
  ExpectOngoing(long_castle);
  EXPECT_EQ(long_castle.end_fen, "4r2k1/9/9/9/9/9/9/9/3KRA3 b - - 1 25");
  // Castling again and again is allowed: swap back and forth.
  ExpectOngoing(Judge(fen, {M("e1f1"), M("h9g9"), M("f1e1"), M("g9h9"), M("e1f1")}));
}

TEST(Chess99Endings, E8LongCastlingAndBlocking) {
  const char* fen = "3k5/9/9/9/9/9/9/9/4K1B1R w - - 0 25";
  const auto j = Judge(fen, {M("e1f1&g1")});
  ExpectOngoing(j);
  EXPECT_EQ(j.end_fen, "3k5/9/9/9/9/9/9/9/4BK2R b - - 1 25");
  EXPECT_EQ(Judge(fen, {M("e1f1&i1")}).error_ply, 1);
  EXPECT_EQ(Judge(fen, {M("e1f1")}).end_fen, "3k5/9/9/9/9/9/9/9/5KB1R b - - 1 25");
}

TEST(Chess99Endings, E9CleanWin) {
  const auto j = Judge("4k4/9/p8/9/9/4Q4/9/9/4K4 w - - 0 50", {M("Qxe9(K)")});
  EXPECT_EQ(j.result, GameResult::kWhiteWins);
  EXPECT_EQ(j.rule, Rule::kKingCapture);
  EXPECT_EQ(j.section, "§5.1");
  EXPECT_EQ(j.winner, kWhite);
  EXPECT_EQ(j.ended_at_ply, 1);
}

TEST(Chess99Endings, E10CapturingPieceDecides) {
  const char* fen = "9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60";
  const auto king = Judge(fen, {M("Kxe5")});
  EXPECT_EQ(king.result, GameResult::kDraw);
  EXPECT_EQ(king.rule, Rule::kDrawnKingCapture);
  EXPECT_EQ(king.section, "D4 §5.1");
  const auto knight = Judge(fen, {M("Nxe5")});
  EXPECT_EQ(knight.result, GameResult::kWhiteWins);
  EXPECT_EQ(knight.rule, Rule::kKingCapture);
  // White could also claim (D5) with any move, say a knight retreat.
  const auto claim = Judge(fen, {Claim("Nc6a7")});
  EXPECT_EQ(claim.result, GameResult::kDraw);
  EXPECT_EQ(claim.rule, Rule::kClaimKingCaptureAvailable);
  EXPECT_EQ(claim.section, "D5 §5.4");
  ASSERT_EQ(claim.claims.size(), 1u);
  EXPECT_TRUE(claim.claims[0].valid);
  EXPECT_TRUE(claim.claims[0].king_capture_available);
}

TEST(Chess99Endings, E11DiscoveredCheckStory) {
  const char* fen = "9/9/4q4/6k2/9/9/3p5/9/1B2K4 b - - 0 30";
  const auto j = Judge(fen, {M("Qe2"), M("Kxe2"), M("dxe2(K)")});
  EXPECT_EQ(j.result, GameResult::kDraw);
  EXPECT_EQ(j.rule, Rule::kDrawnKingCapture);
  EXPECT_EQ(j.ended_at_ply, 3);
  EXPECT_EQ(j.end_fen, "9/9/9/6k2/9/9/9/4p4/1B7 w - - 0 32");
  // The intermediate position is the one the spec shows.
  EXPECT_EQ(Judge(fen, {M("Qe2"), M("Kxe2")}).end_fen, "9/9/9/6k2/9/9/3p5/4K4/1B7 b - - 0 31");
  // Black could instead claim at once (D5).
  const auto claim = Judge(fen, {M("Qe2"), M("Kxe2"), Claim("Kg6g7")});
  EXPECT_EQ(claim.rule, Rule::kClaimKingCaptureAvailable);
  EXPECT_EQ(claim.result, GameResult::kDraw);
}

TEST(Chess99Endings, E12LoneKing) {
  const char* fen = "9/9/9/9/4k4/3K5/9/9/n8 w - - 0 70";
  const auto j = Judge(fen, {M("Kxe5")});
  EXPECT_EQ(j.result, GameResult::kDraw);
  EXPECT_EQ(j.rule, Rule::kLoneKing);
  EXPECT_EQ(j.section, "D7 §5.4");
  // Black, with K+N, can still win: the knight takes the king.
  const auto black = Judge(fen, {M("Kc3"), M("Kd5"), M("Kc2"), M("Nxc2(K)")});
  EXPECT_EQ(black.result, GameResult::kBlackWins);
  EXPECT_EQ(black.rule, Rule::kKingCapture);
  // White's king taking the knight instead leaves bare kings (D8).
  EXPECT_EQ(Judge(fen, {M("Kc3"), M("Kd5"), M("Kb2"), M("Ke5"), M("Kxa1")}).rule, Rule::kBareKings);
}

TEST(Chess99Endings, E13TwoBareKings) {
  const auto j = Judge("9/9/9/9/9/9/4k4/3n5/4K4 w - - 0 80", {M("Kxd2")});
  EXPECT_EQ(j.result, GameResult::kDraw);
  EXPECT_EQ(j.rule, Rule::kBareKings);
  EXPECT_EQ(j.section, "D8 §5.4");
  EXPECT_EQ(j.ended_at_ply, 1);
}

TEST(Chess99Endings, E14NoStalemate) {
  for (const char* king : {"Ka2", "Kb1", "Kb2"}) {
    const auto j = Judge("7k1/9/9/9/9/9/1q7/9/K8 w - - 0 45",
                         {M(king), M(std::string("Qx") + std::string(king).substr(1))});
    EXPECT_EQ(j.result, GameResult::kBlackWins) << king;
    EXPECT_EQ(j.rule, Rule::kKingCapture);
    EXPECT_EQ(j.winner, kBlack);
  }
}

TEST(Chess99Endings, E15DeferredPromotion) {
  const char* fen = "k8/9/9/9/9/9/9/9/1p6K b - - 0 60";
  ExpectOngoing(Judge(fen, {M("b1=Be4")}));
  ExpectOngoing(Judge(fen, {M("b=Be4")}));
  ExpectOngoing(Judge(fen, {M("b1=N")}));
  EXPECT_NE(Judge(fen, {M("b1=Q")}).error.find("only to a bishop or a knight"), std::string::npos);
  EXPECT_NE(Judge(fen, {M("b1=Ae4")}).error.find("only to a bishop or a knight"),
            std::string::npos);
}

// E16 with the 99-move claims. Rooks far from the kings; each side may shuffle.
constexpr char kRooks[] = "r3k4/9/9/9/9/9/9/9/R3K4";

std::string At(int fullmove, char side) {
  return absl::StrCat(kRooks, " ", std::string(1, side), " - - 0 ", fullmove);
}

TEST(Chess99Endings, E16BlackMove98Invalid99Valid) {
  // Black's 98th move: White has completed 98. Invalid, becomes an offer.
  const auto b98 = Judge(At(98, 'b'), {Claim("Ke8")});
  ExpectOngoing(b98);
  ASSERT_EQ(b98.claims.size(), 1u);
  EXPECT_FALSE(b98.claims[0].valid);
  EXPECT_TRUE(b98.claims[0].became_offer);
  EXPECT_EQ(b98.claims[0].opponent_moves_completed, 98);
  EXPECT_EQ(b98.pending_offer, kBlack);
  // Black's 99th move: White has completed 99; the king is safe on e8.
  const auto b99 = Judge(At(99, 'b'), {Claim("Ke8")});
  EXPECT_EQ(b99.result, GameResult::kDraw);
  EXPECT_EQ(b99.rule, Rule::kClaim99Moves);
  EXPECT_EQ(b99.section, "D6 §5.4");
  EXPECT_EQ(b99.claims[0].opponent_moves_completed, 99);
}

TEST(Chess99Endings, E16WhiteMove99Invalid100Valid) {
  const auto w99 = Judge(At(99, 'w'), {Claim("Ke2")});
  ExpectOngoing(w99);
  EXPECT_TRUE(w99.claims[0].became_offer);
  EXPECT_EQ(w99.claims[0].opponent_moves_completed, 98);
  const auto w100 = Judge(At(100, 'w'), {Claim("Ke2")});
  EXPECT_EQ(w100.rule, Rule::kClaim99Moves);
  // If nobody claims, play just goes on past move 99.
  ExpectOngoing(Judge(At(99, 'w'), {M("Ke2"), M("Ke8"), M("Ke1"), M("Ke9"), M("Ke2")}));
}

TEST(Chess99Endings, E16InCheckAfterMoveBecomesOffer) {
  // Black's 99th move walks onto the d-file of White's rook: in check.
  const char* fen = "4k4/9/9/9/9/9/9/9/3RK4 b - - 0 99";
  const auto declined = Judge(fen, {Claim("Kd8"), M("Ke2")});
  ExpectOngoing(declined);
  ASSERT_EQ(declined.claims.size(), 1u);
  EXPECT_TRUE(declined.claims[0].in_check_after_move);
  EXPECT_TRUE(declined.claims[0].became_offer);
  EXPECT_FALSE(declined.claims[0].accepted);
  EXPECT_FALSE(declined.pending_offer.has_value());  // the move declined it
  const auto accepted = Judge(fen, {Claim("Kd8"), Accept()});
  EXPECT_EQ(accepted.result, GameResult::kDraw);
  EXPECT_EQ(accepted.rule, Rule::kAgreement);
  EXPECT_EQ(accepted.section, "D1 §5.4");
  EXPECT_EQ(accepted.ended_at_ply, 1);
  EXPECT_TRUE(accepted.claims[0].accepted);
  // The offer does not outlive White's move: accepting later is an error.
  const auto late = Judge(fen, {Claim("Kd8"), M("Ke2"), M("Ke8"), Accept()});
  EXPECT_EQ(late.error_ply, 4);
  EXPECT_EQ(late.result, GameResult::kUnfinished);
}

// The draw-rules page's own line (seed 002): White's first chance is move
// 100, but every king move stays in check, so the claim fails and Black
// takes the king.
TEST(Chess99Endings, E16DrawRulesPageLine) {
  const auto j = Judge("9/9/9/9/9/1p7/6k2/4n4/7K1 b - - 0 96",
                       {M("b42"), M("Ki1"), M("b1"), M("Kh1"), M("b=Be4"), M("Ki1"), M("Ng1"),
                        Claim("Kh1"), M("Bxh1(K)")});
  EXPECT_EQ(j.result, GameResult::kBlackWins);
  EXPECT_EQ(j.rule, Rule::kKingCapture);
  EXPECT_EQ(j.ended_at_ply, 9);
  ASSERT_EQ(j.claims.size(), 1u);
  EXPECT_EQ(j.claims[0].opponent_moves_completed, 99);
  EXPECT_TRUE(j.claims[0].in_check_after_move);
  EXPECT_TRUE(j.claims[0].became_offer);
}

// A whole game of knight shuffles from the start position: Black's first
// valid 99-move claim is its 99th move, White's its 100th.
TEST(Chess99Endings, E16FromTheStartPosition) {
  std::vector<GamePly> plies;
  for (int move = 1; move <= 98; ++move) {
    plies.push_back(M(move % 2 ? "Na3" : "Nb1"));
    plies.push_back(M(move % 2 ? "Na7" : "Nb9"));
  }
  plies.push_back(M("Na3"));  // White's 99th
  auto black98 = plies;
  black98[195] = Claim("Nb9");  // Black's 98th move
  const auto j98 = JudgeGame(Position::Start(), black98);
  ExpectOngoing(j98);
  EXPECT_EQ(j98.claims[0].opponent_moves_completed, 98);
  auto black99 = plies;
  black99.push_back(Claim("Na7"));
  const auto j99 = JudgeGame(Position::Start(), black99);
  EXPECT_EQ(j99.rule, Rule::kClaim99Moves);
  EXPECT_EQ(j99.ended_at_ply, 198);
  auto white99 = plies;
  white99[196] = Claim("Na3");
  ExpectOngoing(JudgeGame(Position::Start(), white99));
  auto white100 = plies;
  white100.push_back(M("Na7"));
  white100.push_back(Claim("Nb1"));
  EXPECT_EQ(JudgeGame(Position::Start(), white100).rule, Rule::kClaim99Moves);
}

TEST(Chess99Endings, E17ErroneousKingCaptureClaim) {
  const char* fen = "4k4/9/p8/9/9/9/3Q5/9/4K4 w - - 0 50";  // no king capture for White
  const auto j = Judge(fen, {Claim("Qd3d4")});
  ExpectOngoing(j);
  ASSERT_EQ(j.claims.size(), 1u);
  EXPECT_FALSE(j.claims[0].king_capture_available);
  EXPECT_TRUE(j.claims[0].became_offer);
  EXPECT_EQ(j.pending_offer, kWhite);
  // The opponent may accept it.
  const auto accepted = Judge(fen, {Claim("Qd4"), Accept()});
  EXPECT_EQ(accepted.rule, Rule::kAgreement);
  EXPECT_TRUE(accepted.claims[0].accepted);
  // Or play on; the claim cannot be withdrawn, it just lapses.
  ExpectOngoing(Judge(fen, {Claim("Qd4"), M("a6")}));
}

TEST(Chess99Endings, ClaimWithKingCaptureIsDecidedByTheCapture) {
  // §5.4 order: the capture (check 1) comes before the claim (check 3).
  const auto j = Judge("4k4/9/p8/9/9/4Q4/9/9/4K4 w - - 0 50", {Claim("Qxe9")});
  EXPECT_EQ(j.result, GameResult::kWhiteWins);
  ASSERT_EQ(j.claims.size(), 1u);
  EXPECT_TRUE(j.claims[0].superseded);
}

TEST(Chess99Endings, OffersAndAgreement) {
  const char* fen = Position::kStartFen.data();
  const auto j = Judge(fen, {Offer("e4"), Accept()});
  EXPECT_EQ(j.rule, Rule::kAgreement);
  EXPECT_EQ(j.ended_at_ply, 1);
  const auto declined = Judge(fen, {Offer("e4"), M("e6")});
  ExpectOngoing(declined);
  EXPECT_FALSE(declined.pending_offer.has_value());
  EXPECT_EQ(Judge(fen, {Offer("e4")}).pending_offer, kWhite);
  // One cannot accept one's own offer, nor one that was never made.
  EXPECT_NE(Judge(fen, {Accept()}).error.find("has no offer pending"), std::string::npos);
  EXPECT_EQ(Judge(fen, {Offer("e4"), M("e6"), Accept()}).error_ply, 3);
  // Accepting and moving as well: the move comes after the end.
  const auto extra = Judge(fen, {Offer("e4"), Accept("e6")});
  EXPECT_EQ(extra.rule, Rule::kAgreement);
  EXPECT_EQ(extra.plies_after_end, 1);
}

TEST(Chess99Endings, MovesAfterTheEndAreReportedNotReplayed) {
  const auto j = Judge("4k4/9/p8/9/9/4Q4/9/9/4K4 w - - 0 50", {M("Qxe9"), M("a5"), M("Ke2")});
  EXPECT_EQ(j.result, GameResult::kWhiteWins);
  EXPECT_EQ(j.ended_at_ply, 1);
  EXPECT_EQ(j.plies_played, 1);
  EXPECT_EQ(j.plies_after_end, 2);
  EXPECT_EQ(j.error,
            "the game ended at ply 1 (king_capture) but the record has 2 more ply(s) after it");
  EXPECT_EQ(j.error_ply, 2);
  EXPECT_EQ(j.end_fen, "4Q4/9/p8/9/9/9/9/9/4K4 b - - 0 50");
  // A resignation after a decided game changes nothing.
  const auto r = Judge("4k4/9/p8/9/9/4Q4/9/9/4K4 w - - 0 50", {M("Qxe9")},
                       GameEnding{GameEnding::Kind::kResignation, kWhite});
  EXPECT_EQ(r.result, GameResult::kWhiteWins);
  EXPECT_TRUE(r.ending_after_end);
}

TEST(Chess99Endings, ResignationAndFlagFall) {
  const char* fen = "4k4/9/p8/9/9/4Q4/9/9/4K4 w - - 0 50";
  const auto resign = Judge(fen, {M("Qd4")}, GameEnding{GameEnding::Kind::kResignation, kBlack});
  EXPECT_EQ(resign.result, GameResult::kWhiteWins);
  EXPECT_EQ(resign.rule, Rule::kResignation);
  EXPECT_EQ(resign.section, "§5.2");
  EXPECT_EQ(resign.ended_at_ply, 1);
  const auto flag = Judge(fen, {}, GameEnding{GameEnding::Kind::kFlagFall, kWhite});
  EXPECT_EQ(flag.result, GameResult::kBlackWins);
  EXPECT_EQ(flag.rule, Rule::kTimeForfeit);
  EXPECT_EQ(flag.section, "§5.3");
  EXPECT_EQ(flag.ended_at_ply, 0);
  // Against a lone king both are draws: the lone king never wins.
  const char* lone = "4k4/9/9/9/9/4Q4/9/9/4K4 w - - 0 50";  // Black: king only
  const auto resign_lone = Judge(lone, {}, GameEnding{GameEnding::Kind::kResignation, kWhite});
  EXPECT_EQ(resign_lone.result, GameResult::kDraw);
  EXPECT_EQ(resign_lone.rule, Rule::kResignation);
  const auto flag_lone = Judge(lone, {}, GameEnding{GameEnding::Kind::kFlagFall, kWhite});
  EXPECT_EQ(flag_lone.result, GameResult::kDraw);
  EXPECT_EQ(flag_lone.rule, Rule::kTimeForfeit);
  // The lone king's own flag falling loses as usual.
  EXPECT_EQ(Judge(lone, {}, GameEnding{GameEnding::Kind::kFlagFall, kBlack}).result,
            GameResult::kWhiteWins);
}

TEST(Chess99Endings, LoneKingAgainstLoneKing) {
  // A record that starts with bare kings is drawn before its first move
  // (checks 2 and 5 of §5.4 also apply to the start position).
  const auto j = Judge("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1", {M("Ke2")});
  EXPECT_EQ(j.rule, Rule::kBareKings);
  EXPECT_EQ(j.ended_at_ply, 0);
  EXPECT_EQ(j.plies_after_end, 1);
  // King and rook against a lone king: the lone king's capture only draws,
  // the other side's wins, and taking the rook leaves bare kings.
  const char* fen = "9/9/9/9/4k4/3K5/9/9/r8 w - - 0 70";
  EXPECT_EQ(Judge(fen, {M("Kxe5")}).rule, Rule::kLoneKing);
  const auto wins = Judge(fen, {M("Kc3"), M("Ra3"), M("Kb3"), M("Rxb3(K)")});
  EXPECT_EQ(wins.result, GameResult::kBlackWins);
  EXPECT_EQ(wins.rule, Rule::kKingCapture);
  const auto bare = Judge(fen, {M("Kc3"), M("Ra3"), M("Kb3"), M("Kd5"), M("Kxa3")});
  EXPECT_EQ(bare.rule, Rule::kBareKings);
  EXPECT_EQ(bare.ended_at_ply, 5);
}

TEST(Chess99Endings, NoMoveLoses) {
  // §7.9: after Ke9-d9 every white unit is walled in: king a9 by a8 b8 b9,
  // knight b9 by a7 c7 d8, pawns blocked straight ahead with nothing to take.
  const auto j = Judge("KN2k4/PPpP5/P1P6/9/9/9/9/9/9 b - - 0 40", {M("Kd9")});
  EXPECT_EQ(j.result, GameResult::kBlackWins);
  EXPECT_EQ(j.rule, Rule::kNoMove);
  EXPECT_EQ(j.section, "§7.9");
  EXPECT_EQ(j.winner, kBlack);
}

// White is walled in completely: bishops on rank 9, pawns on ranks 2-8,
// the king on e2 behind Bd1 Re1 Bf1; nothing can move. Black's king a1 is
// out of reach of every white unit.
constexpr char kWalled[] =
    "BBBBBBBBB/PPPPPPPPP/PPPPPPPPP/PPPPPPPPP/PPPPPPPPP/PPPPPPPPP/PPPPPPPPP/PPPPKPPPP/k2BRB3";

TEST(Chess99Endings, NoMoveAgainstLoneKingIsDrawn) {
  const auto lone = Judge(absl::StrCat(kWalled, " w - - 0 1"), {});
  EXPECT_EQ(lone.result, GameResult::kDraw);
  EXPECT_EQ(lone.rule, Rule::kNoMove);
  EXPECT_EQ(lone.ended_at_ply, 0);
  // With a black pawn waiting on i1 Black is no lone king: White loses.
  std::string with_pawn = kWalled;
  with_pawn.back() = '2';  // rank 1: k2BRB2p
  with_pawn += "p w - - 0 1";
  const auto loses = Judge(with_pawn, {});
  EXPECT_EQ(loses.result, GameResult::kBlackWins);
  EXPECT_EQ(loses.winner, kBlack);
}

TEST(Chess99Endings, UnreadableAndIllegalMoves) {
  const char* fen = Position::kStartFen.data();
  const auto j = Judge(fen, {M("e4"), M("e6"), M("Qxe9")});
  EXPECT_EQ(j.error_ply, 3);
  EXPECT_NE(j.error.find("ply 3: illegal move 'Qxe9'"), std::string::npos);
  EXPECT_EQ(j.plies_played, 2);
  EXPECT_EQ(j.result, GameResult::kUnfinished);
  EXPECT_EQ(Judge(fen, {M("")}).error, "ply 1: no move");
}

}  // namespace
}  // namespace arbiter::chess99
