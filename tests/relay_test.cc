// The coordinator's views (proto/arbiter/v1/relay.proto) against the public
// messages: a client's message read as a view and written again is the same
// bytes, and what the coordinator writes as a view reads as the public
// message with the verdicts the workers serialized. Suite name "Relay".
#include <gtest/gtest.h>

#include "arbiter/v1/arbiter.pb.h"
#include "arbiter/v1/relay.pb.h"
#include "arbiter/v1/worker.pb.h"

namespace arbiter {
namespace {

v1::GameRecord Record(int64_t index) {
  v1::GameRecord r;
  r.set_index(index);
  r.set_first_line(3 * index);
  v1::GameRecord::Tag* tag = r.add_tags();
  tag->set_name("Site");
  tag->set_value("https://lichess.org/é");
  r.set_moves("e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7# ");
  for (int i = 0; i < 7; ++i) r.add_move_lines(4 + i);
  r.set_result_token("1-0");
  return r;
}

v1::GameVerdict Verdict(int64_t game) {
  v1::GameVerdict v;
  v.set_game(game);
  v.set_site("https://lichess.org/x");
  v.set_declared("1-0");
  v.set_plies(7);
  v.mutable_ruling()->set_agrees(game % 2 == 0);
  v.mutable_ruling()->set_rule(v1::RULE_CHECKMATE);
  v.set_end_fen("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4");
  v.add_winner_line("f7e8");
  if (game == 3) v.set_error("unexpected token");
  return v;
}

TEST(Relay, ARequestReadAsAViewIsWrittenBackUnchanged) {
  v1::VerifyGamesRequest request;
  request.mutable_options()->set_budget(5000);
  request.mutable_options()->set_tablebase(true);
  for (int i = 1; i <= 3; ++i) {
    v1::GameInput* game = request.add_games();
    game->set_id(std::to_string(i));
    if (i == 2)
      game->set_pgn("[Result \"1-0\"]\n\n1. e4 1-0\n");
    else
      *game->mutable_record() = Record(i);
  }
  const std::string wire = request.SerializeAsString();
  v1::relay::VerifyGamesRequest view;
  ASSERT_TRUE(view.ParseFromString(wire));
  EXPECT_EQ(view.SerializeAsString(), wire);
  EXPECT_EQ(view.options().SerializeAsString(), request.options().SerializeAsString());
  ASSERT_EQ(view.games_size(), 3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(view.games(i).id(), request.games(i).id());
    EXPECT_EQ(view.games(i).has_pgn(), request.games(i).has_pgn());
    if (view.games(i).has_record())
      EXPECT_EQ(view.games(i).record(), request.games(i).record().SerializeAsString());
    else
      EXPECT_EQ(view.games(i).pgn(), request.games(i).pgn());
  }
}

TEST(Relay, AResponseWrittenAsAViewReadsAsThePublicMessage) {
  v1::relay::VerifyGamesResponse view;
  v1::VerifyGamesResponse expected;
  for (int i = 1; i <= 3; ++i) {
    v1::relay::IdentifiedVerdict* item = view.add_verdicts();
    item->set_id(std::to_string(i));
    item->set_verdict(Verdict(i).SerializeAsString());
    v1::IdentifiedVerdict* typed = expected.add_verdicts();
    typed->set_id(std::to_string(i));
    *typed->mutable_verdict() = Verdict(i);
  }
  const std::string wire = view.SerializeAsString();
  EXPECT_EQ(wire, expected.SerializeAsString());
  v1::VerifyGamesResponse read;
  ASSERT_TRUE(read.ParseFromString(wire));
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(read.verdicts(i).verdict().SerializeAsString(), Verdict(i + 1).SerializeAsString());
}

// Field 1, length-delimited: how an embedded message and a bytes field are
// both written.
std::string LengthDelimitedField1(const std::string& payload) {
  std::string out = "\x0a";
  for (size_t n = payload.size();; n >>= 7) {
    if (n < 0x80) {
      out += char(n);
      break;
    }
    out += char((n & 0x7F) | 0x80);
  }
  return out + payload;
}

TEST(Relay, AWorkersChunkOfBytesIsAChunkOfVerdicts) {
  // VerdictChunk's `repeated bytes verdicts = 1` is written as `repeated
  // GameVerdict verdicts = 1` was: what a worker of either kind sends.
  v1::VerdictChunk chunk;
  std::string as_messages;
  for (int i = 1; i <= 2; ++i) {
    const std::string verdict = Verdict(i).SerializeAsString();
    chunk.add_verdicts(verdict);
    as_messages += LengthDelimitedField1(verdict);
  }
  EXPECT_EQ(chunk.SerializeAsString(), as_messages);
  // And a long one, whose length takes two bytes.
  v1::GameVerdict big = Verdict(1);
  big.set_detail(std::string(300, 'x'));
  v1::VerdictChunk one;
  one.add_verdicts(big.SerializeAsString());
  EXPECT_EQ(one.SerializeAsString(), LengthDelimitedField1(big.SerializeAsString()));
}

TEST(Relay, TheFactsOfAVerdictAreItsErrorAndAgreement) {
  for (int i = 1; i <= 3; ++i) {
    v1::relay::VerdictFacts facts;
    ASSERT_TRUE(facts.ParseFromString(Verdict(i).SerializeAsString()));
    EXPECT_EQ(facts.error(), Verdict(i).error());
    EXPECT_TRUE(facts.has_ruling());
    EXPECT_EQ(facts.ruling().agrees(), Verdict(i).ruling().agrees());
  }
  v1::relay::VerdictFacts none;
  ASSERT_TRUE(none.ParseFromString(v1::GameVerdict().SerializeAsString()));
  EXPECT_FALSE(none.has_ruling());
}

TEST(Relay, ABatchGameCarriesARecordsBytesOrAText) {
  v1::BatchGame game;
  game.set_index(7);
  game.set_record(Record(7).SerializeAsString());
  v1::BatchGame back;
  ASSERT_TRUE(back.ParseFromString(game.SerializeAsString()));
  v1::GameRecord record;
  ASSERT_TRUE(record.ParseFromString(back.record()));
  EXPECT_EQ(record.SerializeAsString(), Record(7).SerializeAsString());
  game.set_pgn("[Result \"*\"]\n\n*\n");
  EXPECT_FALSE(game.has_record());
}

}  // namespace
}  // namespace arbiter
