// How a game ended, read from each source's own words (declared_ending.h).
#include "core/rules/declared_ending.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace arbiter {
namespace {

DeclaredEnding FromTag(const std::string& tag, const PlayerNames& players = {}) {
  return ReadDeclaredEnding(&tag, "", players);
}
DeclaredEnding FromComment(const std::string& comment, const PlayerNames& players = {}) {
  return ReadDeclaredEnding(nullptr, comment, players);
}

void ExpectFlag(const DeclaredEnding& e, std::optional<Color> flag_of,
                EndingGrounds grounds = EndingGrounds::kNone) {
  EXPECT_EQ(e.kind, EndingKind::kFlagFall) << e.text;
  EXPECT_EQ(e.flag_of, flag_of) << e.text;
  EXPECT_EQ(e.grounds, grounds) << e.text;
}
void ExpectClaim(const DeclaredEnding& e, EndingGrounds grounds) {
  EXPECT_EQ(e.kind, EndingKind::kClaim) << e.text;
  EXPECT_EQ(e.grounds, grounds) << e.text;
}
void ExpectForfeit(const DeclaredEnding& e, ForfeitReason reason, std::optional<Color> loser) {
  EXPECT_EQ(e.kind, EndingKind::kForfeit) << e.text;
  EXPECT_EQ(e.forfeit, reason) << e.text;
  EXPECT_EQ(e.loser, loser) << e.text;
}

TEST(DeclaredEnding, PgnStandardTerminationValues) {
  ExpectFlag(FromTag("time forfeit"), std::nullopt);
  ExpectForfeit(FromTag("abandoned"), ForfeitReason::kAbandoned, std::nullopt);
  ExpectForfeit(FromTag("rules infraction"), ForfeitReason::kRulesInfraction, std::nullopt);
  ExpectForfeit(FromTag("death"), ForfeitReason::kUnspecified, std::nullopt);
  EXPECT_EQ(FromTag("adjudication").kind, EndingKind::kAdjudication);
  EXPECT_EQ(FromTag("emergency").kind, EndingKind::kAdjudication);
  EXPECT_EQ(FromTag("unterminated").kind, EndingKind::kUnterminated);
  EXPECT_EQ(FromTag("normal").kind, EndingKind::kNone);
  EXPECT_EQ(FromTag("normal").source, EndingSource::kTerminationTag);
}

// Claims an arbiter rules on, in the words arbiters and servers write;
// a claim is read before the time words around it.
TEST(DeclaredEnding, ClaimsDecidedOnThePosition) {
  ExpectClaim(FromTag("quickplay finish claim"), EndingGrounds::kQuickplayFinish);
  ExpectClaim(FromTag("Draw claimed under Guidelines III.5"), EndingGrounds::kQuickplayFinish);
  ExpectClaim(FromComment("Rapidplay finish: White claimed, flag about to fall"),
              EndingGrounds::kQuickplayFinish);
  ExpectClaim(FromTag("Insufficient losing chances"), EndingGrounds::kInsufficientLosingChances);
  ExpectClaim(FromTag("14H claim upheld"), EndingGrounds::kInsufficientLosingChances);
  ExpectClaim(FromTag("tablebase claim"), EndingGrounds::kTablebaseClaim);
  ExpectClaim(FromComment("Game claimed by tablebase"), EndingGrounds::kTablebaseClaim);
  // "tablebase" alone names no claim.
  EXPECT_NE(FromTag("tablebase").grounds, EndingGrounds::kTablebaseClaim);
}

TEST(DeclaredEnding, Lichess) {
  ExpectFlag(FromTag("Time forfeit"), std::nullopt);
  EXPECT_EQ(FromTag("Time forfeit").source, EndingSource::kTerminationTag);
  EXPECT_EQ(FromTag("Normal").kind, EndingKind::kNone);
  ExpectForfeit(FromTag("Abandoned"), ForfeitReason::kAbandoned, std::nullopt);
  ExpectForfeit(FromTag("Rules infraction"), ForfeitReason::kRulesInfraction, std::nullopt);
  EXPECT_EQ(FromTag("Unterminated").kind, EndingKind::kUnterminated);
}

TEST(DeclaredEnding, ChessCom) {
  const PlayerNames players{"alice", "Bob_99"};
  ExpectFlag(FromTag("alice won on time", players), kBlack);
  ExpectFlag(FromTag("Bob_99 won on time", players), kWhite);
  ExpectFlag(FromTag("Game drawn by timeout vs insufficient material", players), std::nullopt,
             EndingGrounds::kTimeoutVsInsufficientMaterial);
  DeclaredEnding resigned = FromTag("Bob_99 won by resignation", players);
  EXPECT_EQ(resigned.kind, EndingKind::kResignation);
  EXPECT_EQ(resigned.loser, kWhite);
  EXPECT_EQ(FromTag("alice won by checkmate", players).kind, EndingKind::kCheckmate);
  ExpectForfeit(FromTag("alice won - game abandoned", players), ForfeitReason::kAbandoned, kBlack);
  EXPECT_EQ(FromTag("Game drawn by agreement", players).kind, EndingKind::kAgreement);
  ExpectClaim(FromTag("Game drawn by repetition", players), EndingGrounds::kThreefoldRepetition);
  ExpectClaim(FromTag("Game drawn by stalemate", players), EndingGrounds::kStalemate);
  ExpectClaim(FromTag("Game drawn by insufficient material", players),
              EndingGrounds::kInsufficientMaterial);
  ExpectClaim(FromTag("Game drawn by 50-move rule", players), EndingGrounds::kFiftyMoves);
}

TEST(DeclaredEnding, FicsAndIccClosingComments) {
  ExpectFlag(FromComment("Black forfeits on time"), kBlack);
  ExpectFlag(FromComment("White forfeits on time"), kWhite);
  ExpectFlag(FromComment("White ran out of time and Black has no material to mate"), kWhite,
             EndingGrounds::kTimeoutVsInsufficientMaterial);
  ExpectClaim(FromComment("Game drawn because both players ran out of time"),
              EndingGrounds::kBothFlagsFell);
  DeclaredEnding resigns = FromComment("White resigns");
  EXPECT_EQ(resigns.kind, EndingKind::kResignation);
  EXPECT_EQ(resigns.loser, kWhite);
  EXPECT_EQ(resigns.source, EndingSource::kClosingComment);
  EXPECT_EQ(FromComment("Black checkmated").kind, EndingKind::kCheckmate);
  EXPECT_EQ(FromComment("Game drawn by mutual agreement").kind, EndingKind::kAgreement);
  ExpectClaim(FromComment("Game drawn by repetition"), EndingGrounds::kThreefoldRepetition);
  ExpectClaim(FromComment("Game drawn by the 50 move rule"), EndingGrounds::kFiftyMoves);
  ExpectClaim(FromComment("Neither player has mating material"),
              EndingGrounds::kInsufficientMaterial);
  ExpectClaim(FromComment("Game drawn by stalemate"), EndingGrounds::kStalemate);
  ExpectForfeit(FromComment("Black forfeits by disconnection"), ForfeitReason::kAbandoned, kBlack);
  ExpectForfeit(FromComment("White lost connection and forfeits"), ForfeitReason::kAbandoned,
                kWhite);
  EXPECT_EQ(FromComment("Game aborted on move 1").kind, EndingKind::kUnterminated);
  EXPECT_EQ(FromComment("Game adjourned by mutual agreement").kind, EndingKind::kUnterminated);
  // Adjourned, then resigned without resuming (a real database's closing
  // comment for Kasparov-Karpov 1984, game 32).
  const DeclaredEnding adjourned = FromComment("Game adjourned. Black resigned without resuming");
  EXPECT_EQ(adjourned.kind, EndingKind::kResignation);
}

TEST(DeclaredEnding, EngineMatches) {
  // cutechess-cli and fastchess: a Termination tag and a closing comment.
  const std::string time_forfeit = "time forfeit";
  // The tag names the ending, the comment the player.
  ExpectFlag(ReadDeclaredEnding(&time_forfeit, "White loses on time", {}), kWhite);
  EXPECT_EQ(ReadDeclaredEnding(&time_forfeit, "White loses on time", {}).source,
            EndingSource::kTerminationTag);
  ExpectFlag(FromComment("White loses on time"), kWhite);
  ExpectFlag(FromTag("timeout"), std::nullopt);
  ExpectForfeit(FromComment("Black makes an illegal move: e7e4"), ForfeitReason::kIllegalMove,
                kBlack);
  ExpectForfeit(FromTag("illegal move"), ForfeitReason::kIllegalMove, std::nullopt);
  ExpectForfeit(FromComment("White's connection stalls"), ForfeitReason::kAbandoned, kWhite);
  ExpectForfeit(FromTag("stalled connection"), ForfeitReason::kAbandoned, std::nullopt);
  ExpectForfeit(FromComment("Black disconnects"), ForfeitReason::kAbandoned, kBlack);
  ExpectClaim(FromComment("Draw by 3-fold repetition"), EndingGrounds::kThreefoldRepetition);
  ExpectClaim(FromComment("Draw by fifty moves rule"), EndingGrounds::kFiftyMoves);
  ExpectClaim(FromComment("Draw by insufficient mating material"),
              EndingGrounds::kInsufficientMaterial);
  ExpectClaim(FromComment("Draw by stalemate"), EndingGrounds::kStalemate);
  EXPECT_EQ(FromComment("Black mates").kind, EndingKind::kCheckmate);
  EXPECT_EQ(FromComment("White wins by adjudication: SyzygyTB").kind, EndingKind::kAdjudication);
  EXPECT_EQ(FromTag("adjudication").kind, EndingKind::kAdjudication);
}

TEST(DeclaredEnding, TablebaseAdjudicationsAndTimeForfeiture) {
  // TCEC's GUI adjudicates on the tablebases.
  ExpectClaim(FromTag("GUI TB Mate in 23"), EndingGrounds::kTablebaseClaim);
  ExpectClaim(FromTag("TB draw"), EndingGrounds::kTablebaseClaim);
  // A time forfeit, not a forfeit on other grounds.
  EXPECT_EQ(FromTag("Time forfeiture").kind, EndingKind::kFlagFall);
  EXPECT_EQ(FromComment("White forfeited on time").kind, EndingKind::kFlagFall);
}

TEST(DeclaredEnding, CcrlAndArena) {
  ExpectFlag(FromComment("White wins on time"), kBlack);
  ExpectFlag(FromComment("Black loses on time"), kBlack);
  EXPECT_EQ(FromComment("Xboard adjudication: Black resigns").kind, EndingKind::kResignation);
  ExpectClaim(FromComment("3-Fold repetition"), EndingGrounds::kThreefoldRepetition);
  ExpectClaim(FromComment("50 moves rule"), EndingGrounds::kFiftyMoves);
  ExpectClaim(FromComment("Insufficient material"), EndingGrounds::kInsufficientMaterial);
  EXPECT_EQ(FromComment("White mates").kind, EndingKind::kCheckmate);
}

TEST(DeclaredEnding, OtherSpellingsOfTime) {
  for (const char* tag : {"Time", "timeout", "time-forfeit", "Lost on time", "flag fall",
                          "TIME FORFEIT", "Won on time"})
    EXPECT_EQ(FromTag(tag).kind, EndingKind::kFlagFall) << tag;
}

TEST(DeclaredEnding, OtbFilesAndUnknownWordsAreNotGuessed) {
  // No tag, no comment: the result alone.
  DeclaredEnding none = ReadDeclaredEnding(nullptr, "", {});
  EXPECT_EQ(none.kind, EndingKind::kNone);
  EXPECT_EQ(none.source, EndingSource::kNone);
  // A tag nobody writes: kept as unrecognised, with the words.
  DeclaredEnding odd = FromTag("Game ended by dragon");
  EXPECT_EQ(odd.kind, EndingKind::kUnrecognised);
  EXPECT_EQ(odd.text, "Game ended by dragon");
  // An annotator's last comment is not an ending.
  EXPECT_EQ(FromComment("White was short on time and blundered").kind, EndingKind::kNone);
  EXPECT_EQ(FromComment("White mates in 3").kind, EndingKind::kNone);
  EXPECT_EQ(FromComment("[%clk 0:00:00]").kind, EndingKind::kNone);
  // "Normal" leaves the closing comment its say.
  const std::string normal = "Normal";
  ExpectFlag(ReadDeclaredEnding(&normal, "Black forfeits on time", {}), kBlack);
  // A player called like a colour is a name first.
  ExpectFlag(FromTag("White Knight won on time", {"White Knight", "Ann"}), kBlack);
}

}  // namespace
}  // namespace arbiter
