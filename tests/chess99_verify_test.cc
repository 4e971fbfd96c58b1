// Chess 99 games through the common pipeline: the PGN reader's Chess 99
// movetext, the verdict of every ending (core/verdict/chess99_verdict.h) and
// its JSON record, and `analyze --rules chess99` (chess99_analysis.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/chess99/endings.h"
#include "core/io/byte_source.h"
#include "core/pgn/pgn_reader.h"
#include "core/pgn/variant.h"
#include "core/render/chess99_report.h"
#include "core/render/game_verdict_json.h"
#include "core/verdict/chess99_analysis.h"
#include "core/verdict/chess99_verdict.h"
#include "core/verdict/game_verdict.h"

namespace arbiter {
namespace {

std::vector<RawGame> Read(std::string text, PgnReaderOptions options = {}) {
  PgnReader reader(ByteSource::FromString(std::move(text)), options);
  std::vector<RawGame> games;
  RawGame g;
  while (reader.Next(&g)) games.push_back(g);
  return games;
}

std::vector<std::string> Sans(const RawGame& g) {
  std::vector<std::string> out;
  for (const RawMove& m : g.moves) out.push_back(m.san);
  return out;
}

GameVerdict Verify(const std::string& pgn) {
  std::vector<RawGame> games = Read(pgn, PgnReaderOptions{.keep_comments = false});
  EXPECT_EQ(games.size(), 1u);
  ReplayedGame scratch;
  GameVerdict v;
  VerifyGame(games.at(0), MateSearchOptions{}, &scratch, &v);
  return v;
}

// A Chess 99 game record: tags, then the movetext.
std::string Game(const std::string& fen, const std::string& result, const std::string& movetext,
                 const std::string& extra_tags = "") {
  std::string pgn = "[Variant \"Chess 99\"]\n[Result \"" + result + "\"]\n" + extra_tags;
  if (!fen.empty()) pgn += "[FEN \"" + fen + "\"]\n";
  return pgn + "\n" + movetext + "\n";
}

TEST(Chess99Pgn, ReadsTheVariantsNotationWhereChessWouldStop) {
  const std::string pgn =
      "[Variant \"Chess 99\"]\n[Result \"*\"]\n\n"
      "1.e24 Kxb8(B*) 2. Bxb4* {[%draw offer]} Kf1&i1!? 3. b=Be4 Qe4×e9(K) *\n\n"
      "[Event \"chess after it\"]\n[Result \"1-0\"]\n\n1. e4 e5 (1... c5) 2. Qh5 1-0\n";
  std::vector<RawGame> games = Read(pgn, PgnReaderOptions{.keep_comments = false});
  ASSERT_EQ(games.size(), 2u);
  ASSERT_TRUE(games[0].error.ok()) << games[0].error;
  EXPECT_EQ(Sans(games[0]),
            (std::vector<std::string>{"e24", "Kxb8(B*)", "Bxb4*", "Kf1&i1", "b=Be4", "Qe4×e9(K)"}));
  EXPECT_EQ(games[0].result_token, "*");
  // The draw offer's comment is kept although comments are off.
  EXPECT_EQ(games[0].moves[2].comment, "[%draw offer]");
  EXPECT_EQ(games[0].moves[3].nags, std::vector<int>{5});
  // Chess again: its variation skipped, its moves as usual.
  ASSERT_TRUE(games[1].error.ok()) << games[1].error;
  EXPECT_EQ(Sans(games[1]), (std::vector<std::string>{"e4", "e5", "Qh5"}));
}

TEST(Chess99Pgn, UntaggedGamesTakeTheGivenVariantTaggedOnesKeepTheirs) {
  const std::string pgn =
      "[Result \"*\"]\n\n1. e24 *\n\n[Variant \"Standard\"]\n[Result \"*\"]\n\n1. e4 *\n";
  std::vector<RawGame> games =
      Read(pgn, PgnReaderOptions{.untagged_variant = std::string(kChess99Variant)});
  ASSERT_EQ(games.size(), 2u);
  ASSERT_NE(games[0].Tag("Variant"), nullptr);
  EXPECT_TRUE(IsChess99Game(games[0]));
  EXPECT_FALSE(IsChess99Game(games[1]));
  EXPECT_TRUE(IsChess99Variant("chess99") && IsChess99Variant("Chess-99"));
  EXPECT_FALSE(IsChess99Variant("Chess 9") || IsChess99Variant("Chess 990"));
}

struct Case {
  const char* what;
  std::string pgn;
  const char* ruling;
  const char* rule;
  const char* section;
  bool agrees;
};

TEST(Chess99Verdict, EveryEndingWithItsSection) {
  const Case kCases[] = {
      {"E9 clean win", Game("4k4/9/p8/9/9/4Q4/9/9/4K4 w - - 0 50", "1-0", "50. Qxe9(K) 1-0"), "1-0",
       "king_capture", "§5.1", true},
      {"E10 the king takes but stands attacked",
       Game("9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60", "1-0", "60. Kxe5(K) 1-0"), "1/2-1/2",
       "drawn_king_capture", "D4 §5.1", false},
      {"E10 the knight takes instead",
       Game("9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60", "1-0", "60. Nxe5(K) 1-0"), "1-0", "king_capture",
       "§5.1", true},
      {"E12 a lone king takes the king",
       Game("9/9/9/9/4k4/3K5/9/9/n8 w - - 0 70", "1-0", "70. Kxe5 1-0"), "1/2-1/2", "lone_king",
       "D7 §5.4", false},
      {"E13 two bare kings",
       Game("9/9/9/9/9/9/4k4/3n5/4K4 w - - 0 80", "1/2-1/2", "80. Kxd2 1/2-1/2"), "1/2-1/2",
       "bare_kings", "D8 §5.4", true},
      {"D5 claim while a king capture is available",
       Game("9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60", "1/2-1/2", "60. Kc4 {[%draw claim]} 1/2-1/2"),
       "1/2-1/2", "claim_king_capture_available", "D5 §5.4", true},
      {"D6 on Black's 99th move",
       Game("4k4/9/p8/9/9/9/9/P8/4K4 b - - 0 99", "1/2-1/2", "99... Kd9 {[%draw claim]} 1/2-1/2"),
       "1/2-1/2", "claim_99_moves", "D6 §5.4", true},
      {"D6 on White's 99th move is early: an offer, accepted",
       Game("4k4/9/p8/9/9/9/9/P8/4K4 w - - 0 99", "1/2-1/2", "99. Kd1 {[%draw claim]} 1/2-1/2"),
       "1/2-1/2", "agreement", "D1 §5.4", true},
      {"an offer declined by moving: the draw is agreed off the record",
       Game("", "1/2-1/2", "1. e24 {[%draw offer]} e86 1/2-1/2"), "1/2-1/2", "agreement", "D1 §5.4",
       true},
      {"a draw with no offer recorded", Game("", "1/2-1/2", "1. e24 e86 1/2-1/2"), "1/2-1/2",
       "agreement", "D1 §5.4", true},
      {"a game going on", Game("", "*", "1. e24 e86 *"), "*", "unfinished", "", true},
      {"an offer accepted", Game("", "1/2-1/2", "1. e24 {[%draw offer]} {[%draw accept]} 1/2-1/2"),
       "1/2-1/2", "agreement", "D1 §5.4", true},
      {"resignation", Game("", "0-1", "1. e24 e86 0-1"), "0-1", "resignation", "§5.2", true},
      {"flag fall", Game("", "1-0", "1. e24 e86 1-0", "[Termination \"Time forfeit\"]\n"), "1-0",
       "time_forfeit", "§5.3", true},
      {"Black's flag falls, but White has a lone king",
       Game("9/9/9/9/4k4/9/9/9/n3K4 w - - 0 70", "1-0", "70. Kd2 1-0",
            "[Termination \"Time forfeit\"]\n"),
       "1/2-1/2", "time_forfeit", "§5.3", false},
      {"E14 no stalemate: the king must walk into the queen",
       Game("7k1/9/9/9/9/9/1q7/9/K8 w - - 0 45", "0-1", "45. Kb1 Qxb1(K) 0-1"), "0-1",
       "king_capture", "§5.1", true},
  };
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.what);
    GameVerdict v = Verify(c.pgn);
    ASSERT_TRUE(v.error.empty()) << v.error;
    ASSERT_TRUE(v.ruling.has_value());
    EXPECT_EQ(v.rules, Ruleset::kChess99);
    EXPECT_EQ(ToString(v.ruling->ruling), std::string(c.ruling));
    EXPECT_EQ(ToString(v.ruling->rule), std::string(c.rule));
    EXPECT_EQ(v.ruling->article, c.section);
    EXPECT_EQ(v.ruling->agrees, c.agrees);
    EXPECT_EQ(v.ruling->ruling == GameResult::kUnfinished, v.detail.empty());
  }
}

TEST(Chess99Verdict, ClaimsAreEvidenceInvalidOnesBecomeOffers) {
  GameVerdict v = Verify(
      Game("4k4/9/p8/9/9/9/9/P8/4K4 w - - 0 99", "1/2-1/2", "99. Kd1 {[%draw claim]} Kd9 1/2-1/2"));
  ASSERT_TRUE(v.ruling.has_value()) << v.error;
  // The early claim became an offer, which Black declined by moving; the
  // declared draw is then an agreement made off the record, and the 99-move
  // ground is open at the end (Black has now completed 99 moves too).
  EXPECT_EQ(v.ruling->rule, Rule::kAgreement);
  EXPECT_EQ(v.ruling->claim_grounds,
            (std::vector<std::string>{"99_moves_now", "invalid_claim_became_offer@ply1"}));
  v = Verify(
      Game("4k4/9/p8/9/9/9/9/P8/4K4 b - - 0 99", "1/2-1/2", "99... Kd9 {[%draw claim]} 1/2-1/2"));
  EXPECT_EQ(v.ruling->claim_grounds, std::vector<std::string>{"99_moves_claimed@ply1"});
}

// A claim made with a move that captures the king is superseded by the
// capture (§5.4, order of checks 1): the game is won, and the claim is
// evidence of nothing, although a king capture was available when it was
// made (an independent check against ../shared/rules/chess99.md found it
// reported as a valid claim beside the 1-0).
TEST(Chess99Verdict, AClaimWithAKingCaptureIsSuperseded) {
  GameVerdict v =
      Verify(Game("4k4/9/p8/9/9/4Q4/9/9/4K4 w - - 0 50", "1-0", "50. Qxe9 {[%draw claim]} 1-0"));
  ASSERT_TRUE(v.ruling.has_value()) << v.error;
  EXPECT_EQ(v.ruling->ruling, GameResult::kWhiteWins);
  EXPECT_EQ(v.ruling->claim_grounds, std::vector<std::string>{"claim_superseded@ply1"});
}

TEST(Chess99Verdict, BadMovesAreErrorsWithTheirLineMovesAfterTheEndAreCounted) {
  GameVerdict v = Verify(Game("", "*", "1. e24 e86\n2. Kxe9 *"));
  EXPECT_FALSE(v.ruling.has_value());
  EXPECT_NE(v.error.find("illegal"), std::string::npos) << v.error;
  EXPECT_EQ(v.error_line, 5);
  EXPECT_GT(v.error_column, 0);
  v = Verify(Game("4k4/9/p8/9/9/4Q4/9/9/4K4 w - - 0 50", "1-0", "50. Qxe9(K) a6 1-0"));
  ASSERT_TRUE(v.ruling.has_value()) << v.error;
  EXPECT_EQ(v.ruling->rule, Rule::kKingCapture);
  EXPECT_EQ(v.ruling->moves_after_end, 1);
  v = Verify(Game("9/9/9/9/9/9/9/9/9 w - - 0 1", "*", "*"));
  EXPECT_NE(v.error.find("FEN-9"), std::string::npos) << v.error;
}

TEST(Chess99Verdict, JsonSaysTheRulesAndWhy) {
  const std::string json = GameVerdictJson(
      Verify(Game("9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60", "1-0", "60. Kxe5(K) 1-0")));
  EXPECT_NE(json.find("\"rules\": \"chess99\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"article\": \"D4 §5.1\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"detail\": \"White captured the king, but its own king is then in check\""),
            std::string::npos)
      << json;
  // A chess record says its rules, and has no detail.
  GameVerdict chess = Verify("[Result \"*\"]\n\n1. e4 *\n");
  EXPECT_NE(GameVerdictJson(chess).find("\"rules\": \"fide\""), std::string::npos);
  EXPECT_NE(GameVerdictJson(chess).find("\"detail\": null"), std::string::npos);
}

TEST(Chess99Analysis, ReportsWinsDrawsAndClaims) {
  absl::StatusOr<Chess99Report> r =
      AnalyzeChess99Position("9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60", {}, 200000);
  ASSERT_TRUE(r.ok()) << r.status();
  const chess99::PositionAnalysis& a = r->analysis;
  EXPECT_TRUE(a.d5_claim_available);
  ASSERT_EQ(a.king_captures.size(), 2u);
  int wins = 0;
  for (const chess99::KingCaptureNow& k : a.king_captures) wins += k.wins;
  EXPECT_EQ(wins, 1);  // the knight's capture wins, the king's only draws (E10)
  // Every "yes" line is a game the judge scores as that side's clean win.
  for (chess99::Color side : {chess99::kWhite, chess99::kBlack}) {
    const chess99::SideWinAbility& s = a.can_win[side];
    ASSERT_EQ(s.answer, chess99::WinAbility::kYes);
    std::vector<chess99::GamePly> plies;
    for (const std::string& m : s.line) plies.push_back(chess99::GamePly{m, false, {}});
    chess99::GameJudgement j = chess99::JudgeGame(
        *chess99::Position::FromFen("9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60"), plies);
    EXPECT_EQ(j.rule, Rule::kKingCapture);
    EXPECT_EQ(j.winner, side);
  }
  const std::string json = Chess99ReportJson(*r);
  EXPECT_NE(json.find("\"king_capture_available\": true"), std::string::npos) << json;

  // A lone king cannot win (D7); moves are played first; errors say where.
  r = AnalyzeChess99Position("9/9/9/9/4k4/9/9/9/n3K4 w - - 0 70", {"Kd2", "Nb3"}, 200000);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->analysis.can_win[chess99::kWhite].answer, chess99::WinAbility::kNo);
  EXPECT_EQ(r->analysis.can_win[chess99::kWhite].proof, MateProof::kLoneKing);
  EXPECT_EQ(r->fen, "9/9/9/9/4k4/9/1n7/3K5/9 w - - 2 71");
  absl::StatusOr<Chess99Report> bad =
      AnalyzeChess99Position("9/9/9/9/4k4/9/9/9/n3K4 w - - 0 70", {"Kd2", "Qh5"}, 200000);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.status().message()).find("move 2"), std::string::npos) << bad.status();
}

}  // namespace
}  // namespace arbiter
