// Claims decided on the position (core/verdict/claim_verdict.h): the FIDE
// quickplay-finish claim (Guidelines III.5), US Chess insufficient losing
// chances (14H) and ICCF tablebase claims, each upheld, rejected and left to
// the arbiter on the evidence that decides it; the same claims recorded in
// games (verify), and US Chess 14E flag falls. Tablebase evidence comes from
// Arbiter's retrograde tables (at most 4 men) and, for the cursed win, from
// the shared Syzygy tables (../shared/syzygy).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/pgn/pgn_reader.h"
#include "core/verdict/claim_verdict.h"
#include "core/verdict/game_verdict.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

using testing::FromFen;
using testing::WithTables;

ClaimRuling Judge(const std::string& fen, ClaimKind kind, Ruleset rules,
                  std::optional<Color> claimant = std::nullopt,
                  ClaimedOutcome claimed = ClaimedOutcome::kDraw,
                  const MateSearchOptions& options = WithTables(),
                  const ClaimConditions& conditions = {}) {
  const Position pos = FromFen(fen);
  const Claim claim{
      .kind = kind, .claimant = claimant.value_or(pos.side_to_move()), .claimed = claimed};
  return JudgeClaim(pos, claim, rules, options, conditions);
}

// White, to move with K+R+P against a bare king, claims (low on time): a
// lone king cannot mate. (Against K+B it could: a helpmate exists, and the
// claim goes to the arbiter, as LeftToTheArbiter... shows.)
constexpr char kBareKingCannotMate[] = "8/8/4k3/8/8/8/3PK3/7R w - - 0 40";
// Black, to move with a bare king against K+Q: lost within fifty moves.
constexpr char kQueenWins[] = "8/8/8/4k3/8/8/8/K6Q b - - 0 50";
// A locked wall: White's extra bishop cannot get through (fortress_test).
constexpr char kFortress[] = "8/8/1k6/p1p1p1p1/P1P1P1P1/3B4/3K4/8 b - - 0 1";
constexpr char kStart[] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

TEST(QuickplayFinish, UpheldWhenTheOpponentCannotMate) {
  const ClaimRuling r = Judge(kBareKingCannotMate, ClaimKind::kQuickplayFinish, Ruleset::kFide);
  EXPECT_EQ(r.answer, ClaimAnswer::kUpheld) << r.reason;
  EXPECT_EQ(r.basis, ClaimBasis::kOpponentCannotMate);
  ASSERT_TRUE(r.opponent_can_mate);
  EXPECT_EQ(r.opponent_can_mate->answer, CanMate::kNo);
  EXPECT_EQ(r.opponent_can_mate->proof, MateProof::kMaterial);
  EXPECT_EQ(r.result, GameResult::kDraw);
  EXPECT_EQ(r.article, "FIDE Guidelines III.5");
}

TEST(QuickplayFinish, UpheldInAFortressAlthoughMaterialIsUnequal) {
  const ClaimRuling r = Judge(kFortress, ClaimKind::kQuickplayFinish, Ruleset::kFide);
  EXPECT_EQ(r.answer, ClaimAnswer::kUpheld) << r.reason;
  EXPECT_EQ(r.basis, ClaimBasis::kOpponentCannotMate);
  ASSERT_TRUE(r.opponent_can_mate);
  EXPECT_EQ(r.opponent_can_mate->proof, MateProof::kFortress) << r.reason;
  EXPECT_NE(r.reason.find("fortress"), std::string::npos) << r.reason;
}

TEST(QuickplayFinish, RejectedWhenTheTablesGiveTheOpponentAWin) {
  const ClaimRuling r = Judge(kQueenWins, ClaimKind::kQuickplayFinish, Ruleset::kFide);
  EXPECT_EQ(r.answer, ClaimAnswer::kRejected) << r.reason;
  EXPECT_EQ(r.basis, ClaimBasis::kTablebaseOpponentWins);
  ASSERT_TRUE(r.tablebase && r.tablebase->root);
  EXPECT_EQ(r.tablebase->source, TablebaseSource::kRetrograde);
  EXPECT_EQ(r.tablebase->root->category, TbCategory::kLoss);
  EXPECT_FALSE(r.result);
}

TEST(QuickplayFinish, LeftToTheArbiterWhenNothingDecides) {
  // A bishop against K+R+P can still mate with help: not a proof, and five
  // men are beyond Arbiter's own tables.
  const ClaimRuling bishop =
      Judge("8/8/4k3/8/2b5/8/3PK3/7R w - - 0 40", ClaimKind::kQuickplayFinish, Ruleset::kFide);
  EXPECT_EQ(bishop.answer, ClaimAnswer::kArbiterJudgment) << bishop.reason;
  EXPECT_EQ(bishop.opponent_can_mate->answer, CanMate::kYes);
  const ClaimRuling r = Judge(kStart, ClaimKind::kQuickplayFinish, Ruleset::kFide);
  EXPECT_EQ(r.answer, ClaimAnswer::kArbiterJudgment) << r.reason;
  EXPECT_EQ(r.basis, ClaimBasis::kNoDecisiveEvidence);
  ASSERT_TRUE(r.opponent_can_mate);
  EXPECT_EQ(r.opponent_can_mate->answer, CanMate::kYes);
  EXPECT_FALSE(r.opponent_can_mate->line.empty());
  EXPECT_NE(r.reason.find("arbiter's judgment"), std::string::npos) << r.reason;
  EXPECT_FALSE(r.result);
}

TEST(QuickplayFinish, RejectedOffTheMoveUnderOtherRulesAndWithAnIncrement) {
  EXPECT_EQ(Judge(kStart, ClaimKind::kQuickplayFinish, Ruleset::kFide, kBlack).basis,
            ClaimBasis::kNotOnMove);
  const ClaimRuling uscf = Judge(kBareKingCannotMate, ClaimKind::kQuickplayFinish, Ruleset::kUscf);
  EXPECT_EQ(uscf.answer, ClaimAnswer::kRejected);
  EXPECT_EQ(uscf.basis, ClaimBasis::kNotUnderTheseRules) << uscf.reason;
  const ClaimRuling increment = Judge(
      kBareKingCannotMate, ClaimKind::kQuickplayFinish, Ruleset::kFide, std::nullopt,
      ClaimedOutcome::kDraw, WithTables(), ClaimConditions{.adds_time = true, .blitz = false});
  EXPECT_EQ(increment.answer, ClaimAnswer::kRejected);
  EXPECT_EQ(increment.basis, ClaimBasis::kClockConditions);
  // A finished game has nothing to claim.
  EXPECT_EQ(
      Judge("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", ClaimKind::kQuickplayFinish, Ruleset::kFide).basis,
      ClaimBasis::kGameOver);
}

TEST(InsufficientLosingChances, JudgedAsUSChess14H) {
  const ClaimRuling upheld =
      Judge(kBareKingCannotMate, ClaimKind::kInsufficientLosingChances, Ruleset::kUscf);
  EXPECT_EQ(upheld.answer, ClaimAnswer::kUpheld) << upheld.reason;
  EXPECT_EQ(upheld.article, "US Chess 14H");
  EXPECT_EQ(Judge(kQueenWins, ClaimKind::kInsufficientLosingChances, Ruleset::kUscf).answer,
            ClaimAnswer::kRejected);
  EXPECT_EQ(Judge(kStart, ClaimKind::kInsufficientLosingChances, Ruleset::kUscf).answer,
            ClaimAnswer::kArbiterJudgment);
  EXPECT_EQ(Judge(kBareKingCannotMate, ClaimKind::kInsufficientLosingChances, Ruleset::kFide).basis,
            ClaimBasis::kNotUnderTheseRules);
}

// Two plies before the 75-move limit, K+N+N cannot mate in time: a proof
// under FIDE (9.6.2), none under US Chess, which has no such rule; there
// the tables decide (K+N+N v K is a draw).
TEST(InsufficientLosingChances, NoProofFromFidesSeventyFiveMoveRule) {
  const std::string fen = "8/8/8/4k3/8/8/8/1N2KN2 b - - 148 200";
  const ClaimRuling fide = Judge(fen, ClaimKind::kQuickplayFinish, Ruleset::kFide);
  EXPECT_EQ(fide.answer, ClaimAnswer::kUpheld) << fide.reason;
  EXPECT_EQ(fide.basis, ClaimBasis::kOpponentCannotMate);
  EXPECT_EQ(fide.opponent_can_mate->proof, MateProof::kSeventyFiveMoveRule);
  const ClaimRuling uscf = Judge(fen, ClaimKind::kInsufficientLosingChances, Ruleset::kUscf);
  EXPECT_EQ(uscf.answer, ClaimAnswer::kUpheld) << uscf.reason;
  EXPECT_EQ(uscf.basis, ClaimBasis::kTablebaseDraw) << uscf.reason;
}

TEST(TablebaseClaim, TheTablesResultWithoutTheFiftyMoveRule) {
  // White to move wins K+Q v K.
  const std::string fen = "8/8/8/4k3/8/8/8/K6Q w - - 0 50";
  const ClaimRuling win =
      Judge(fen, ClaimKind::kTablebaseClaim, Ruleset::kIccf, kWhite, ClaimedOutcome::kWin);
  EXPECT_EQ(win.answer, ClaimAnswer::kUpheld) << win.reason;
  EXPECT_EQ(win.result, GameResult::kWhiteWins);
  EXPECT_EQ(win.basis, ClaimBasis::kTablebaseResult);
  const ClaimRuling draw = Judge(fen, ClaimKind::kTablebaseClaim, Ruleset::kIccf, kWhite);
  EXPECT_EQ(draw.answer, ClaimAnswer::kRejected) << draw.reason;
  // The loser cannot claim the win.
  EXPECT_EQ(
      Judge(fen, ClaimKind::kTablebaseClaim, Ruleset::kIccf, kBlack, ClaimedOutcome::kWin).answer,
      ClaimAnswer::kRejected);
  // K+B v K+N: a draw.
  const ClaimRuling drawn =
      Judge("8/8/3k4/8/3n4/8/2B5/4K3 w - - 0 1", ClaimKind::kTablebaseClaim, Ruleset::kIccf);
  EXPECT_EQ(drawn.answer, ClaimAnswer::kUpheld) << drawn.reason;
  EXPECT_EQ(drawn.result, GameResult::kDraw);
}

// The tables' preconditions: no castling rights (not covered, so the
// director decides), and an e.p. capture valued as the move it is.
TEST(TablebaseClaim, CastlingRightsAndEnPassant) {
  const ClaimRuling castling =
      Judge("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1", ClaimKind::kTablebaseClaim, Ruleset::kIccf, kWhite);
  EXPECT_EQ(castling.answer, ClaimAnswer::kArbiterJudgment) << castling.reason;
  EXPECT_EQ(castling.basis, ClaimBasis::kNotCovered);
  // Black wins only by taking e.p.: the same men without the right draw.
  const ClaimRuling ep = Judge("8/8/8/8/3pP3/8/8/K6k b - e3 0 1", ClaimKind::kTablebaseClaim,
                               Ruleset::kIccf, kBlack, ClaimedOutcome::kWin);
  EXPECT_EQ(ep.answer, ClaimAnswer::kUpheld) << ep.reason;
  ASSERT_TRUE(ep.tablebase && ep.tablebase->root);
  EXPECT_EQ(ep.tablebase->root->moves.front().uci, "d4e3");
  EXPECT_EQ(Judge("8/8/8/8/3pP3/8/8/K6k b - - 0 1", ClaimKind::kTablebaseClaim, Ruleset::kIccf,
                  kBlack, ClaimedOutcome::kWin)
                .answer,
            ClaimAnswer::kRejected);
}

TEST(TablebaseClaim, BeyondTheTablesAtHand) {
  const ClaimRuling many = Judge(kStart, ClaimKind::kTablebaseClaim, Ruleset::kIccf);
  EXPECT_EQ(many.answer, ClaimAnswer::kRejected);
  EXPECT_EQ(many.basis, ClaimBasis::kTooManyMen);
  // Five men and no Syzygy tables: the director decides.
  const ClaimRuling five = Judge("8/5B2/8/2R5/8/4K3/8/3r3k w - - 0 1", ClaimKind::kTablebaseClaim,
                                 Ruleset::kIccf, kWhite, ClaimedOutcome::kWin);
  EXPECT_EQ(five.answer, ClaimAnswer::kArbiterJudgment) << five.reason;
  EXPECT_EQ(five.basis, ClaimBasis::kNotCovered);
}

// ---- with the shared Syzygy tables: a cursed win -----------------------------

std::shared_ptr<const SyzygyTablebase> SharedSyzygy(std::string* why) {
  const std::string shared = testing::SharedDir();
  const std::string dir = shared.empty() ? "" : shared + "/syzygy";
  if (dir.empty() || !std::filesystem::is_directory(dir)) {
    *why = "no Syzygy tables: set ARBITER_SHARED or put them in ../shared/syzygy";
    return nullptr;
  }
  absl::StatusOr<std::shared_ptr<const SyzygyTablebase>> tb = SyzygyTablebase::Open({dir});
  if (!tb.ok()) *why = tb.status().ToString();
  return tb.ok() ? *tb : nullptr;
}

// KRB v KR, White to move: won only beyond the fifty-move rule (the
// shared set has no KNN v KP table, the example; any cursed win
// separates the two rule sets the same way).
constexpr char kCursedWin[] = "8/5B2/8/2R5/8/4K3/8/3r3k w - - 0 1";

TEST(CursedWin, ADrawUnderFideAndAWinUnderIccf) {
  std::string why;
  std::shared_ptr<const SyzygyTablebase> tb = SharedSyzygy(&why);
  ASSERT_TRUE(tb) << why;
  MateSearchOptions options = WithTables();
  options.syzygy = tb.get();

  const ClaimRuling iccf = Judge(kCursedWin, ClaimKind::kTablebaseClaim, Ruleset::kIccf, kWhite,
                                 ClaimedOutcome::kWin, options);
  EXPECT_EQ(iccf.answer, ClaimAnswer::kUpheld) << iccf.reason;
  EXPECT_EQ(iccf.result, GameResult::kWhiteWins);
  ASSERT_TRUE(iccf.tablebase && iccf.tablebase->root);
  const RootResult& root = *iccf.tablebase->root;
  EXPECT_EQ(root.category, TbCategory::kCursedWin);
  EXPECT_EQ(WithFiftyMoveRule(root.category), TbOutcome::kDraw);
  EXPECT_EQ(WithoutFiftyMoveRule(root.category), TbOutcome::kWin);
  EXPECT_EQ(MoveWinningWithin50(root), nullptr);  // no move wins inside fifty
  EXPECT_NE(iccf.reason.find("over the board"), std::string::npos) << iccf.reason;

  // Over the board, after a White move that keeps the cursed win, Black
  // (short of time) claims a quickplay finish: upheld on the tables.
  const TablebaseMove* keeps = nullptr;
  for (const TablebaseMove& m : root.moves)
    if (m.category == TbCategory::kBlessedLoss) keeps = &m;
  ASSERT_NE(keeps, nullptr);
  Position after = FromFen(kCursedWin);
  after.DoMove(keeps->move);
  const ClaimRuling fide = JudgeClaim(
      after, {.kind = ClaimKind::kQuickplayFinish, .claimant = kBlack}, Ruleset::kFide, options);
  EXPECT_EQ(fide.answer, ClaimAnswer::kUpheld) << fide.reason;
  EXPECT_EQ(fide.basis, ClaimBasis::kTablebaseDraw);
  EXPECT_NE(fide.reason.find("cursed win"), std::string::npos) << fide.reason;
  ASSERT_TRUE(fide.tablebase);
  EXPECT_EQ(fide.tablebase->source, TablebaseSource::kSyzygy);
}

// ---- claims recorded in games (verify) ---------------------------------------

GameVerdict Verify(const std::string& pgn, Ruleset rules) {
  const RawGame raw = ReadFirstGame(pgn, 1, {});
  ReplayedGame scratch;
  GameVerdict v;
  MateSearchOptions options = WithTables();
  options.rules = rules;
  VerifyGame(raw, options, &scratch, &v);
  return v;
}

std::string Game(const std::string& fen, const std::string& tags, const std::string& moves) {
  return "[Event \"t\"]\n[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n" + tags + "\n" + moves + "\n";
}

TEST(RecordedClaims, AQuickplayClaimNamedByTheTerminationIsTheEnding) {
  // Black's last move leaves White (to move) with K+R+P against a bare king.
  const std::string fen = "8/8/4k3/8/8/8/3PK3/7R b - - 0 40";
  const GameVerdict upheld =
      Verify(Game(fen, "[Result \"1/2-1/2\"]\n[Termination \"quickplay finish claim\"]",
                  "40... Kd5 1/2-1/2"),
             Ruleset::kFide);
  ASSERT_TRUE(upheld.ruling) << upheld.error;
  EXPECT_EQ(upheld.ruling->rule, Rule::kQuickplayFinishClaim);
  EXPECT_EQ(upheld.ruling->ruling, GameResult::kDraw);
  EXPECT_TRUE(upheld.ruling->agrees);
  EXPECT_TRUE(upheld.ruling->certain);
  EXPECT_EQ(upheld.ruling->declared_grounds_hold, true);
  ASSERT_EQ(upheld.ruling->claims.size(), 1u);
  EXPECT_EQ(upheld.ruling->claims[0].claim.claimant, kWhite);
  EXPECT_EQ(upheld.ruling->claims[0].ply, 1);
}

TEST(RecordedClaims, ARejectedClaimDoesNotEndTheGame) {
  // Black, with a bare king against K+Q, claims on the move: the tables
  // give White the win, so the draw does not stand.
  const GameVerdict v = Verify(Game("8/8/8/4k3/8/8/8/K6Q w - - 0 50", "[Result \"1/2-1/2\"]",
                                    "50. Qh2+ {[%claim quickplay_finish]} 1/2-1/2"),
                               Ruleset::kFide);
  ASSERT_TRUE(v.ruling) << v.error;
  ASSERT_EQ(v.ruling->claims.size(), 1u);
  EXPECT_EQ(v.ruling->claims[0].answer, ClaimAnswer::kRejected);
  EXPECT_EQ(v.ruling->claims[0].claim.claimant, kBlack);
  EXPECT_EQ(v.ruling->ruling, GameResult::kUnfinished);
  EXPECT_FALSE(v.ruling->agrees);
}

TEST(RecordedClaims, AnUpheldClaimBeforeTheEndEndsTheGameThere) {
  // White claims after Black's first move, cannot be beaten by a bare
  // king, yet the game goes on to a 0-1 by resignation: the draw stood.
  const GameVerdict v = Verify(Game("8/8/4k3/8/8/8/3PK3/7R b - - 0 40", "[Result \"0-1\"]",
                                    "40... Kd5 {[%claim quickplay_finish]} 41. Rh5+ Kd4 0-1"),
                               Ruleset::kFide);
  ASSERT_TRUE(v.ruling) << v.error;
  EXPECT_EQ(v.ruling->rule, Rule::kQuickplayFinishClaim);
  EXPECT_EQ(v.ruling->ruling, GameResult::kDraw);
  EXPECT_EQ(v.ruling->ended_at_ply, 1);
  EXPECT_EQ(v.ruling->moves_after_end, 2);
  EXPECT_FALSE(v.ruling->agrees);
}

TEST(RecordedClaims, AnIccfTablebaseClaimAndTheSameRecordUnderFide) {
  const std::string pgn = Game("8/8/8/4k3/8/8/8/K6Q w - - 0 50", "[Result \"1-0\"]",
                               "50. Qh2+ Ke4 51. Kb2 {[%claim tablebase_claim win white]} 1-0");
  const GameVerdict iccf = Verify(pgn, Ruleset::kIccf);
  ASSERT_TRUE(iccf.ruling) << iccf.error;
  EXPECT_EQ(iccf.rules, Ruleset::kIccf);
  EXPECT_EQ(iccf.ruling->rule, Rule::kTablebaseClaim);
  EXPECT_EQ(iccf.ruling->ruling, GameResult::kWhiteWins);
  EXPECT_TRUE(iccf.ruling->certain);
  ASSERT_EQ(iccf.ruling->claims.size(), 1u);
  EXPECT_EQ(iccf.ruling->claims[0].answer, ClaimAnswer::kUpheld);
  // Under FIDE the claim is not one of the rules: listed, rejected, and the
  // 1-0 is ruled as a resignation would be.
  const GameVerdict fide = Verify(pgn, Ruleset::kFide);
  ASSERT_TRUE(fide.ruling);
  EXPECT_EQ(fide.ruling->rule, Rule::kResignation);
  ASSERT_EQ(fide.ruling->claims.size(), 1u);
  EXPECT_EQ(fide.ruling->claims[0].basis, ClaimBasis::kNotUnderTheseRules);
}

TEST(RecordedClaims, AnIncrementOrADelayRulesOutTheDrawClaims) {
  // The same claim, in a game with the given TimeControl tag.
  auto claim_under = [](const std::string& time_control) {
    const GameVerdict v =
        Verify(Game("8/8/4k3/8/8/8/3PK3/7R b - - 0 40",
                    "[Result \"1/2-1/2\"]\n[TimeControl \"" + time_control + "\"]",
                    "40... Kd5 {[%claim quickplay_finish]} 1/2-1/2"),
               Ruleset::kFide);
    EXPECT_TRUE(v.ruling) << v.error;
    EXPECT_EQ(v.ruling ? v.ruling->claims.size() : 0u, 1u) << time_control;
    return v.ruling && !v.ruling->claims.empty() ? v.ruling->claims[0] : ClaimRuling{};
  };
  for (const char* time_control : {"900+10", "G/30;d5", "40/5400+30:1800+30"})
    EXPECT_EQ(claim_under(time_control).basis, ClaimBasis::kClockConditions) << time_control;
  for (const char* time_control : {"900", "900+0", "G/30;d0", "-", "40/7200:3600", "601"})
    EXPECT_EQ(claim_under(time_control).answer, ClaimAnswer::kUpheld) << time_control;
  // III.2.2: Guidelines III are for standard and rapid games; blitz is 10
  // minutes or less per player.
  for (const char* time_control : {"300", "180", "600", "*300"}) {
    const ClaimRuling blitz = claim_under(time_control);
    EXPECT_EQ(blitz.answer, ClaimAnswer::kRejected) << time_control;
    EXPECT_EQ(blitz.basis, ClaimBasis::kClockConditions) << time_control;
    EXPECT_NE(blitz.reason.find("III.2.2"), std::string::npos) << blitz.reason;
  }
}

TEST(RecordedClaims, AClaimWhereTheBoardEndedTheGameIsMoot) {
  // 1. Kxd2 leaves two bare kings: a dead position (5.2.2) at ply 1, before
  // any claim made there.
  const GameVerdict v = Verify(Game("8/8/4k3/8/8/8/3nK3/8 w - - 0 1", "[Result \"1/2-1/2\"]",
                                    "1. Kxd2 {[%claim quickplay_finish]} 1/2-1/2"),
                               Ruleset::kFide);
  ASSERT_TRUE(v.ruling) << v.error;
  EXPECT_EQ(v.ruling->rule, Rule::kDeadPosition);
  EXPECT_TRUE(v.ruling->claims.empty());
}

TEST(RecordedClaims, ReadsTheCommand) {
  const std::optional<RecordedClaim> c =
      ReadClaimCommand("{x} [%claim tablebase_claim win black]", 7);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->ply, 7);
  EXPECT_EQ(c->kind, ClaimKind::kTablebaseClaim);
  EXPECT_EQ(c->claimant, kBlack);
  EXPECT_EQ(c->claimed, ClaimedOutcome::kWin);
  EXPECT_FALSE(ReadClaimCommand("[%claim perpetual_check]", 1));
  EXPECT_FALSE(ReadClaimCommand("[%claim quickplay_finish soon]", 1));
  EXPECT_FALSE(ReadClaimCommand("[%clk 0:00:09]", 1));
}

// ---- US Chess 14E: insufficient material to win on time ----------------------

TEST(UscfFlagFall, AKnightCannotWinOnTimeWithoutAForcedWin) {
  // Black's flag falls with K+P against K+N: FIDE 6.9 gives White the game
  // (a mate exists); US Chess 14E2 draws it, the tables showing no forced win.
  const std::string pgn = Game("8/p7/8/8/8/8/8/K1N4k w - - 0 60",
                               "[Result \"1-0\"]\n[Termination \"Time forfeit\"]", "60. Nd3 1-0");
  const GameVerdict fide = Verify(pgn, Ruleset::kFide);
  ASSERT_TRUE(fide.ruling) << fide.error;
  EXPECT_EQ(fide.ruling->rule, Rule::kFlagFall);
  EXPECT_EQ(fide.ruling->ruling, GameResult::kWhiteWins);
  const GameVerdict uscf = Verify(pgn, Ruleset::kUscf);
  ASSERT_TRUE(uscf.ruling);
  EXPECT_EQ(uscf.ruling->rule, Rule::kFlagFallInsufficientMaterial);
  EXPECT_EQ(uscf.ruling->article, "US Chess 14E2");
  EXPECT_EQ(uscf.ruling->ruling, GameResult::kDraw);
  EXPECT_TRUE(uscf.ruling->certain);
  EXPECT_FALSE(uscf.ruling->agrees);
  // With a rook, 14E does not apply: the win on time stands.
  const GameVerdict rook =
      Verify(Game("8/p7/8/8/8/8/2R5/K6k w - - 0 60",
                  "[Result \"1-0\"]\n[Termination \"Time forfeit\"]", "60. Rc3 1-0"),
             Ruleset::kUscf);
  ASSERT_TRUE(rook.ruling) << rook.error;
  EXPECT_EQ(rook.ruling->rule, Rule::kFlagFall);
}

// US Chess has no automatic fivefold draw (repetition is a claim, 14C):
// the game goes on, and a checkmate after the fifth occurrence stands.
TEST(UscfFlagFall, AFivefoldRepetitionDoesNotEndAUsChessGame) {
  const std::string moves =
      "30. Kf1 Kf8 31. Kg1 Kg8 32. Kf1 Kf8 33. Kg1 Kg8 34. Kf1 Kf8 35. Kg1 Kg8 36. Kf1 Kf8 37. "
      "Kg1 Kg8 ";
  const std::string drawn =
      Game("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30", "[Result \"1/2-1/2\"]", moves + "1/2-1/2");
  const GameVerdict fide = Verify(drawn, Ruleset::kFide);
  ASSERT_TRUE(fide.ruling) << fide.error;
  EXPECT_EQ(fide.ruling->rule, Rule::kFivefold);
  EXPECT_TRUE(fide.ruling->certain);
  const GameVerdict uscf = Verify(drawn, Ruleset::kUscf);
  ASSERT_TRUE(uscf.ruling);
  EXPECT_NE(uscf.ruling->rule, Rule::kFivefold);
  EXPECT_EQ(uscf.ruling->ruling, GameResult::kDraw);

  const std::string mated =
      Game("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30", "[Result \"1-0\"]", moves + "38. Ra8# 1-0");
  const GameVerdict fide_mate = Verify(mated, Ruleset::kFide);
  ASSERT_TRUE(fide_mate.ruling);
  EXPECT_EQ(fide_mate.ruling->rule, Rule::kFivefold);
  EXPECT_EQ(fide_mate.ruling->moves_after_end, 1);
  const GameVerdict uscf_mate = Verify(mated, Ruleset::kUscf);
  ASSERT_TRUE(uscf_mate.ruling);
  EXPECT_EQ(uscf_mate.ruling->rule, Rule::kCheckmate);
  EXPECT_EQ(uscf_mate.ruling->ruling, GameResult::kWhiteWins);
  EXPECT_TRUE(uscf_mate.ruling->agrees);
}

// A draw on time with nothing naming the player: the fallback is the player
// to move, but the last mover's clock at zero points to the other flag.
// Where the two readings rule differently (here 1-0 against a draw: Black
// has a bare king), the ruling is uncertain.
TEST(FlagEvidence, AClockThatPointsElsewhereMakesTheRulingUncertain) {
  const std::string tags = "[Result \"1/2-1/2\"]\n[Termination \"Time forfeit\"]";
  const GameVerdict conflicting =
      Verify(Game("8/8/4k3/8/8/8/3PK3/7R w - - 0 40", tags, "40. Kd3 {[%clk 0:00:00]} 1/2-1/2"),
             Ruleset::kFide);
  ASSERT_TRUE(conflicting.ruling) << conflicting.error;
  EXPECT_EQ(conflicting.ruling->flag_evidence, FlagEvidence::kSideToMove);
  EXPECT_EQ(conflicting.ruling->flag_fallen_by, kBlack);
  EXPECT_FALSE(conflicting.ruling->certain);
  // The same with the last mover's clock above zero: nothing conflicts.
  const GameVerdict plain =
      Verify(Game("8/8/4k3/8/8/8/3PK3/7R w - - 0 40", tags, "40. Kd3 {[%clk 0:00:05]} 1/2-1/2"),
             Ruleset::kFide);
  ASSERT_TRUE(plain.ruling) << plain.error;
  EXPECT_EQ(plain.ruling->flag_evidence, FlagEvidence::kSideToMove);
  EXPECT_TRUE(plain.ruling->certain);
}

}  // namespace
}  // namespace arbiter
