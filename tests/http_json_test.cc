// The HTTP API's JSON writer (http/api_json.h) against protobuf's own JSON
// parser: every message the API sends — assessments, verdicts of real
// records, jobs — is written as JSON that parses back to the same message,
// with the mapping's conventions (64-bit integers as strings, enums by name,
// fields with presence only when set, empty lists shown).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>

#include "arbiter/v1/arbiter.pb.h"
#include "core/io/byte_source.h"
#include "core/pgn/pgn_reader.h"
#include "core/verdict/game_verdict.h"
#include "core/verdict/position_analysis.h"
#include "google/protobuf/util/message_differencer.h"
#include "google/protobuf/util/time_util.h"
#include "http/api_json.h"
#include "proto/convert.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

template <typename M>
void ExpectRoundTrip(const M& message) {
  const std::string json = http::ToJson(message);
  M back;
  absl::Status s = http::FromJson(json, "written", &back);
  ASSERT_TRUE(s.ok()) << s << "\n" << json;
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(message, back)) << json;
}

TEST(HttpJson, AssessmentsParseBackAndFollowTheMapping) {
  for (const char* fen :
       {"8/8/8/8/8/4k3/8/4K2Q w - - 0 1", "4k3/8/8/8/8/8/8/4K1N1 b - - 0 1",
        "4k3/8/8/p1p1p3/P1P1Pp1p/1B3P1P/8/4K3 b - e3 0 1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}) {
    absl::StatusOr<PositionAnalysis> a =
        AnalyzePosition(fen, false, {}, testing::WithTables(), nullptr);
    ASSERT_TRUE(a.ok()) << a.status();
    const v1::Assessment message = wire::ToProto(*a);
    ExpectRoundTrip(message);
    const std::string json = http::ToJson(message);
    EXPECT_PRED_FORMAT2(testing::Contains, json, "\"claims\":{\"threefold_now\":false,");
    EXPECT_PRED_FORMAT2(testing::Contains, json, "\"threefold_moves\":[]");
    EXPECT_PRED_FORMAT2(testing::Contains, json, "\"status\":\"GAME_STATUS_");
  }
  // `optional` fields: absent when unset, shown when set, even to false.
  v1::Assessment unknown;
  EXPECT_EQ(http::ToJson(unknown).find("\"dead\""), std::string::npos);
  unknown.set_dead(false);
  EXPECT_PRED_FORMAT2(testing::Contains, http::ToJson(unknown), "\"dead\":false");
}

TEST(HttpJson, VerdictsOfRealRecordsParseBack) {
  const std::string shared = testing::SharedDir();
  ASSERT_FALSE(shared.empty()) << "the shared material ($ARBITER_SHARED or ../shared) is absent";
  for (const std::string& file : {std::string(ARBITER_SOURCE_DIR) + "/examples/lichess_sample.pgn",
                                  shared + "/games/otb_kasparov_2128.pgn.zst"}) {
    absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(file);
    ASSERT_TRUE(source.ok()) << source.status();
    PgnReader reader(*std::move(source));
    ReplayedGame scratch;
    int games = 0;
    for (RawGame game; reader.Next(&game) && games < 400; ++games) {
      GameVerdict verdict;
      VerifyGame(game, testing::WithTables(), &scratch, &verdict, nullptr);
      const v1::GameVerdict message = wire::ToProto(verdict);
      ExpectRoundTrip(message);
      ExpectRoundTrip(wire::ToProto(game));  // records carry tags, clocks, comments
      EXPECT_PRED_FORMAT2(testing::Contains, http::ToJson(message),
                          absl::StrCat("\"game\":\"", verdict.game, "\""));
    }
    EXPECT_GT(games, 4);
  }
}

TEST(HttpJson, JobsTimesBytesAndOddValues) {
  v1::Job job;
  job.set_id("0123456789abcdef");
  job.set_state(v1::Job::STATE_DONE);
  job.set_games_done(int64_t(1) << 60);  // beyond what a JavaScript number holds
  job.set_seconds(0.1 + 0.2);
  *job.mutable_created() = google::protobuf::util::TimeUtil::NanosecondsToTimestamp(
      int64_t(1764300000) * 1000000000 + 123456789);
  job.set_error("quote \" backslash \\ newline \n tab \t control \x01 é");
  ExpectRoundTrip(job);
  const std::string json = http::ToJson(job);
  EXPECT_PRED_FORMAT2(testing::Contains, json, "\"games_done\":\"1152921504606846976\"");
  EXPECT_PRED_FORMAT2(testing::Contains, json, "\"seconds\":0.30000000000000004");
  EXPECT_PRED_FORMAT2(testing::Contains, json, "\"created\":\"2025-11-28T03:20:00.123456789Z\"");
  EXPECT_EQ(json.find("\"finished\""), std::string::npos);  // an unset message

  v1::UploadJobRequest upload;  // bytes: base64
  upload.set_data(std::string("\0\xff PGN", 6));
  ExpectRoundTrip(upload);
  EXPECT_PRED_FORMAT2(testing::Contains, http::ToJson(upload), "\"data\":\"AP8gUEdO\"");

  v1::Job odd;
  odd.set_seconds(std::numeric_limits<double>::infinity());
  EXPECT_PRED_FORMAT2(testing::Contains, http::ToJson(odd), "\"seconds\":\"Infinity\"");
  odd.set_seconds(std::nan(""));
  EXPECT_PRED_FORMAT2(testing::Contains, http::ToJson(odd), "\"seconds\":\"NaN\"");
  odd.set_state(static_cast<v1::Job::State>(42));  // a value this build does not know
  EXPECT_PRED_FORMAT2(testing::Contains, http::ToJson(odd), "\"state\":42");
}

}  // namespace
}  // namespace arbiter
