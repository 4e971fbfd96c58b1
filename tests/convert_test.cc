// core <-> arbiter.v1 conversions (proto/convert.h) are lossless for
// everything the CLI prints: records, verdicts and assessments survive a
// round trip through their serialized messages unchanged.
#include "proto/convert.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "core/io/byte_source.h"
#include "core/render/claim_text.h"
#include "core/render/game_verdict_json.h"
#include "core/render/report.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

template <typename M>
M Reparsed(const M& message) {
  M out;
  EXPECT_TRUE(out.ParseFromString(message.SerializeAsString()));
  return out;
}

void ExpectSameGame(const RawGame& a, const RawGame& b) {
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.first_line, b.first_line);
  EXPECT_EQ(a.tags, b.tags);
  ASSERT_EQ(a.moves.size(), b.moves.size());
  for (size_t i = 0; i < a.moves.size(); ++i) {
    EXPECT_EQ(a.moves[i].san, b.moves[i].san);
    EXPECT_EQ(a.moves[i].line, b.moves[i].line);
    EXPECT_EQ(a.moves[i].column, b.moves[i].column);
    EXPECT_EQ(a.moves[i].clock_centis, b.moves[i].clock_centis);
    EXPECT_EQ(a.moves[i].comment, b.moves[i].comment);
    EXPECT_EQ(a.moves[i].nags, b.moves[i].nags);
  }
  EXPECT_EQ(a.result_token, b.result_token);
  EXPECT_EQ(a.closing_comment, b.closing_comment);
  EXPECT_EQ(a.encoding, b.encoding);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.error_line, b.error_line);
  EXPECT_EQ(a.error_column, b.error_column);
}

// Every game of a file: the record, and its verdict, through the wire.
void RoundTripFile(const std::string& path, bool keep_comments, int64_t max_games) {
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
  ASSERT_TRUE(source.ok()) << source.status();
  PgnReader reader(*std::move(source), PgnReaderOptions{.keep_comments = keep_comments});
  RawGame raw;
  ReplayedGame scratch;
  GameVerdict verdict;
  int64_t games = 0;
  while (games < max_games && reader.Next(&raw)) {
    ++games;
    ExpectSameGame(raw, wire::FromProto(Reparsed(wire::ToProto(raw))));
    VerifyGame(raw, MateSearchOptions{.node_budget = 2000, .retrograde = nullptr}, &scratch,
               &verdict);
    absl::StatusOr<GameVerdict> back = wire::FromProto(Reparsed(wire::ToProto(verdict)));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(GameVerdictJson(*back), GameVerdictJson(verdict)) << path << " game " << games;
    if (verdict.ruling) {
      EXPECT_EQ(back->ruling->winner_can_mate.line, verdict.ruling->winner_can_mate.line);
      EXPECT_EQ(back->ruling->winner_can_mate.line_san, verdict.ruling->winner_can_mate.line_san);
    }
    EXPECT_EQ(back->winner_line_san, verdict.winner_line_san);
  }
  EXPECT_GT(games, 0);
}

TEST(Convert, SampleGamesWithCommentsAndClocks) {
  RoundTripFile(std::string(ARBITER_SOURCE_DIR) + "/examples/lichess_sample.pgn", true, 1000);
}

// Every way a record may say how it ended, every field of the ruling.
TEST(Convert, DialectFixtures) {
  const std::string dir = std::string(ARBITER_SOURCE_DIR) + "/tests/fixtures/dialects";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".pgn") continue;
    RoundTripFile(entry.path().string(), true, 1000);
    ++files;
  }
  EXPECT_GE(files, 7);
}

// The ply limit holds whichever field carries the moves: a record whose
// `moves` holds more SANs than its per-move fields (a hostile client) is
// refused before it is split.
TEST(Convert, PlyLimitCountsTheMovesField) {
  v1::GameRecord record;
  record.set_index(7);
  std::string moves;
  for (size_t i = 0; i < PgnReader::kMaxPlies; ++i) moves += i % 2 ? "Ng8 " : "Nf6 ";
  record.set_moves(moves);
  EXPECT_EQ(wire::PliesIn(record), PgnReader::kMaxPlies);
  EXPECT_TRUE(wire::FromProto(record).error.ok());
  EXPECT_EQ(wire::FromProto(record).moves.size(), PgnReader::kMaxPlies);
  record.set_moves(moves + "Nf6");  // one more, without its trailing space
  EXPECT_EQ(wire::PliesIn(record), PgnReader::kMaxPlies + 1);
  RawGame refused = wire::FromProto(record);
  EXPECT_EQ(refused.error.code(), absl::StatusCode::kResourceExhausted) << refused.error;
  EXPECT_TRUE(refused.moves.empty());
  EXPECT_PRED_FORMAT2(testing::Contains, std::string(refused.error.message()), "game 7");
}

TEST(Convert, SharedGameFiles) {
  const std::string shared = testing::SharedDir();
  if (shared.empty()) GTEST_SKIP() << "../shared is absent (set ARBITER_SHARED)";
  // Latin-1 tags (the OTB files) and Lichess clocks; 2,000 games each.
  for (const char* f : {"otb_kasparov_2128.pgn.zst", "otb_blackmar_diemer_3768.pgn.zst",
                        "lichess_jishanshaikh4_37221.pgn.zst"})
    RoundTripFile(shared + "/games/" + f, true, 2000);
}

TEST(Convert, UnreadableRecordKeepsItsError) {
  RawGame raw;
  raw.index = 7;
  raw.error = absl::InvalidArgumentError("unexpected token \"Ke9!!!?\"");
  raw.error_line = 12;
  raw.error_column = 31;
  RawGame back = wire::FromProto(Reparsed(wire::ToProto(raw)));
  EXPECT_EQ(back.index, 7);
  EXPECT_EQ(back.error, raw.error);
  EXPECT_EQ(back.error_line, 12);
  EXPECT_EQ(back.error_column, 31);
}

// An illegal move's place, from the reader through the wire to the record.
TEST(Convert, AnIllegalMoveKeepsItsLineAndColumn) {
  PgnReader reader(ByteSource::FromString("[Event \"x\"]\n\n1. e4 e5\n2. Nf3 Ke7 3. Ke3 *\n"));
  RawGame raw;
  ASSERT_TRUE(reader.Next(&raw));
  const RawGame game = wire::FromProto(Reparsed(wire::ToProto(raw)));
  ReplayedGame scratch;
  GameVerdict verdict;
  VerifyGame(game, MateSearchOptions{.node_budget = 2000, .retrograde = nullptr}, &scratch,
             &verdict);
  absl::StatusOr<GameVerdict> back = wire::FromProto(Reparsed(wire::ToProto(verdict)));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->error_line, 4);
  EXPECT_EQ(back->error_column, 15);  // "2. Nf3 Ke7 3. Ke3": K of Ke3
  EXPECT_PRED_FORMAT2(testing::Contains, GameVerdictJson(*back),
                      "\"error\": {\"message\": \"move 3. Ke3: not a legal move");
  EXPECT_PRED_FORMAT2(testing::Contains, GameVerdictJson(*back),
                      "\"game\": 1, \"line\": 4, \"column\": 15}");
}

TEST(Convert, AssessmentsRenderTheSameAfterTheWire) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", {}},
      {"8/8/8/4k3/8/8/2B5/K7 w - - 0 1", {}},
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 99 80", {}},
      {"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", {"g1f1", "g8f8", "f1g1", "f8g8"}},
  };
  for (const auto& [fen, moves] : cases) {
    absl::StatusOr<PositionAnalysis> a = AnalyzePosition(fen, false, moves, {}, nullptr);
    ASSERT_TRUE(a.ok()) << a.status();
    absl::StatusOr<PositionAnalysis> back = wire::FromProto(Reparsed(wire::ToProto(*a)));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(AssessmentJson(*back), AssessmentJson(*a)) << fen;
    EXPECT_EQ(back->assessment.white.line_san, a->assessment.white.line_san);
    EXPECT_EQ(back->assessment.black.line_san, a->assessment.black.line_san);
  }
}

// Claims and their evidence (opponent's line, tablebase moves from
// Arbiter's retrograde tables) render the same after the wire, in analyze
// records and in verify records, under each rule set.
TEST(Convert, ClaimsRenderTheSameAfterTheWire) {
  MateSearchOptions options = testing::WithTables();
  const std::vector<std::pair<std::string, ClaimQuestion>> cases = {
      {"8/8/8/4k3/8/8/8/K6Q b - - 0 50",
       {ClaimKind::kQuickplayFinish, std::nullopt, ClaimedOutcome::kDraw, Ruleset::kFide}},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
       {ClaimKind::kInsufficientLosingChances, kWhite, ClaimedOutcome::kDraw, Ruleset::kUscf}},
      {"8/8/8/4k3/8/8/8/K6Q w - - 0 50",
       {ClaimKind::kTablebaseClaim, std::nullopt, ClaimedOutcome::kWin, Ruleset::kIccf}},
  };
  for (const auto& [fen, claim] : cases) {
    options.rules = claim.rules;
    absl::StatusOr<PositionAnalysis> a =
        AnalyzePosition(fen, false, {}, options, nullptr, std::nullopt, claim);
    ASSERT_TRUE(a.ok()) << a.status();
    ASSERT_TRUE(a->claim);
    absl::StatusOr<PositionAnalysis> back = wire::FromProto(Reparsed(wire::ToProto(*a)));
    ASSERT_TRUE(back.ok()) << back.status();
    ASSERT_TRUE(back->claim);
    EXPECT_EQ(ClaimRulingJson(*back->claim), ClaimRulingJson(*a->claim)) << fen;
    // The request's claim survives the wire too.
    v1::Claim request;
    wire::ToProto(claim, &request);
    absl::StatusOr<std::optional<ClaimQuestion>> asked = wire::FromProto(request, claim.rules);
    ASSERT_TRUE(asked.ok() && *asked) << asked.status();
    EXPECT_EQ((*asked)->kind, claim.kind);
    EXPECT_EQ((*asked)->claimed, claim.claimed);
    // ... and is refused under another rule set.
    EXPECT_FALSE(wire::FromProto(request, Ruleset::kChess99).ok());
  }
  options.rules = Ruleset::kIccf;
  RawGame raw = ReadFirstGame(
      "[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/4k3/8/8/8/K6Q w - - 0 50\"]\n\n"
      "50. Qh2+ {[%claim tablebase_claim win]} Ke4 {[%claim quickplay_finish]} 1-0\n",
      1, {.keep_comments = false});
  ReplayedGame scratch;
  GameVerdict verdict;
  VerifyGame(raw, options, &scratch, &verdict);
  ASSERT_TRUE(verdict.ruling) << verdict.error;
  ASSERT_EQ(verdict.ruling->claims.size(), 2u);
  absl::StatusOr<GameVerdict> back = wire::FromProto(Reparsed(wire::ToProto(verdict)));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(GameVerdictJson(*back), GameVerdictJson(verdict));
  EXPECT_EQ(back->rules, Ruleset::kIccf);
}

// A worker from before line_san / winner_line_san sends UCI only: the
// client spells the SAN itself, and prints what a new worker's answer
// prints.
TEST(Convert, SanFromASenderWithoutIt) {
  absl::StatusOr<PositionAnalysis> a =
      AnalyzePosition("6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 12", false, {}, {}, nullptr);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_EQ(a->assessment.white.line_san, (std::vector<std::string>{"Kh8", "Ra8#"}));
  v1::Assessment old = wire::ToProto(*a);
  old.mutable_white()->clear_line_san();
  old.mutable_black()->clear_line_san();
  absl::StatusOr<PositionAnalysis> back = wire::FromProto(Reparsed(old));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->assessment.white.line_san, a->assessment.white.line_san);
  EXPECT_EQ(back->assessment.black.line_san, a->assessment.black.line_san);

  RawGame raw = ReadFirstGame(
      "[Result \"1/2-1/2\"]\n[Termination \"Time forfeit\"]\n[SetUp \"1\"]\n"
      "[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30\"]\n\n30. Kf1 1/2-1/2\n",
      1, {});
  ReplayedGame scratch;
  GameVerdict verdict;
  VerifyGame(raw, {}, &scratch, &verdict);
  ASSERT_FALSE(verdict.winner_line_san.empty());
  v1::GameVerdict old_verdict = wire::ToProto(verdict);
  EXPECT_EQ(old_verdict.winner_line_san_size(), old_verdict.winner_line_size());
  old_verdict.clear_winner_line_san();
  absl::StatusOr<GameVerdict> spelled = wire::FromProto(Reparsed(old_verdict));
  ASSERT_TRUE(spelled.ok()) << spelled.status();
  EXPECT_EQ(spelled->winner_line_san, verdict.winner_line_san);
  EXPECT_EQ(GameVerdictJson(*spelled), GameVerdictJson(verdict));
}

// The wire's enums name core's values: every rule, result, proof, rule set
// and encoding travels as the proto value of the same name (core's text
// form in capitals, after the enum's prefix), and comes back as itself.
std::string WireName(std::string_view prefix, std::string_view text) {
  std::string out(prefix);
  for (char c : text) out += c == '-' ? '_' : char(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

TEST(Convert, EnumsTravelByName) {
  const auto reparsed = [](const GameVerdict& v) {
    absl::StatusOr<GameVerdict> back = wire::FromProto(Reparsed(wire::ToProto(v)));
    EXPECT_TRUE(back.ok()) << back.status();
    return back.ok() ? *back : GameVerdict{};
  };
  GameVerdict v;
  v.ruling.emplace();
  v.ruling->winner_side = kWhite;
  for (int i = 0; i <= int(Rule::kFlagFallInsufficientMaterial); ++i) {
    v.ruling->rule = Rule(i);
    EXPECT_EQ(v1::Rule_Name(wire::ToProto(v).ruling().rule()),
              WireName("RULE_", ToString(Rule(i))));
    EXPECT_EQ(reparsed(v).ruling->rule, Rule(i));
  }
  const std::pair<GameResult, const char*> results[] = {
      {GameResult::kUnfinished, "UNFINISHED"},
      {GameResult::kWhiteWins, "WHITE_WINS"},
      {GameResult::kBlackWins, "BLACK_WINS"},
      {GameResult::kDraw, "DRAW"},
      {GameResult::kDoubleForfeit, "DOUBLE_FORFEIT"}};
  for (const auto& [result, name] : results) {
    v.ruling->ruling = result;
    EXPECT_EQ(v1::GameResult_Name(wire::ToProto(v).ruling().ruling()),
              absl::StrCat("GAME_RESULT_", name));
    EXPECT_EQ(reparsed(v).ruling->ruling, result);
  }
  for (int i = 0; i <= int(MateProof::kLoneKing); ++i) {
    v.ruling->winner_can_mate.proof = MateProof(i);
    const std::string text = i == 0 ? "none" : ToString(MateProof(i));
    EXPECT_EQ(v1::MateProof_Name(wire::ToProto(v).ruling().winner_can_mate().proof()),
              WireName("MATE_PROOF_", text));
    EXPECT_EQ(reparsed(v).ruling->winner_can_mate.proof, MateProof(i));
  }
  for (Ruleset rules : {Ruleset::kFide, Ruleset::kUscf, Ruleset::kIccf, Ruleset::kChess99}) {
    v.rules = rules;
    EXPECT_EQ(v1::Ruleset_Name(wire::ToProto(v).rules()),
              rules == Ruleset::kFide ? "RULESET_CHESS" : WireName("RULESET_", ToString(rules)));
    EXPECT_EQ(reparsed(v).rules, rules);
  }
  v.encoding = RecordEncoding::kWindows1252;
  EXPECT_EQ(wire::ToProto(v).encoding(), v1::TEXT_ENCODING_WINDOWS_1252);
  EXPECT_EQ(reparsed(v).encoding, RecordEncoding::kWindows1252);
  // A value this build does not know is refused, not read as another.
  v1::GameVerdict unknown = wire::ToProto(v);
  unknown.mutable_ruling()->set_rule(v1::Rule(999));
  EXPECT_FALSE(wire::FromProto(unknown).ok());
  unknown.mutable_ruling()->set_rule(v1::RULE_UNSPECIFIED);
  EXPECT_FALSE(wire::FromProto(unknown).ok());
}

TEST(Convert, SearchOptionsOutOfRangeAreRefused) {
  v1::SearchOptions o;
  o.set_table_mb(70000);
  EXPECT_EQ(wire::FromProto(o).status().code(), absl::StatusCode::kInvalidArgument);
  o.set_table_mb(0);
  o.set_budget((uint64_t(1) << 40) + 1);
  EXPECT_EQ(wire::FromProto(o).status().code(), absl::StatusCode::kInvalidArgument);
  o.set_budget(0);
  o.set_rules(v1::Ruleset(999));  // a value from no version of the API
  EXPECT_EQ(wire::FromProto(o).status().code(), absl::StatusCode::kInvalidArgument);
  o.set_rules(v1::RULESET_CHESS99);
  EXPECT_TRUE(wire::FromProto(o).ok());
  absl::StatusOr<MateSearchOptions> defaults = wire::FromProto(v1::SearchOptions());
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->node_budget, MateSearchOptions{}.node_budget);
}

}  // namespace
}  // namespace arbiter
