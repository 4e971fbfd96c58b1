// Writes the request_fuzzer seed corpus: serialized arbiter.v1 messages, each
// behind the byte that tells request_fuzzer.cc which message it is.
//   request_seeds OUT_DIR GAMES.pgn
// The games (a few short real ones) go into the game-carrying requests and,
// verified, into verdicts; a few positions into analysis requests and, once
// analysed, into assessments.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/worker.pb.h"
#include "core/chess99/position.h"
#include "core/io/byte_source.h"
#include "core/pgn/pgn_reader.h"
#include "core/verdict/chess99_analysis.h"
#include "core/verdict/position_analysis.h"
#include "proto/convert.h"

namespace arbiter {
namespace {

enum Selector : char {
  kBatch = 0,
  kAnalyze = 1,
  kGames = 2,
  kGame = 3,
  kVerdict = 4,
  kAssessment = 5,
};

void Write(const std::string& dir, const std::string& name, Selector selector,
           const google::protobuf::Message& message) {
  std::ofstream out(dir + "/" + name, std::ios::binary);
  out << std::string(1, selector) << message.SerializeAsString();
  if (!out) std::fprintf(stderr, "cannot write %s/%s\n", dir.c_str(), name.c_str());
}

v1::SearchOptions Options(uint64_t budget, uint32_t table_mb) {
  v1::SearchOptions o;
  o.set_budget(budget);
  o.set_table_mb(table_mb);
  return o;
}

struct AnalyzeSeed {
  const char* fen;
  std::vector<std::string> moves;
  bool chess960;
};

int Main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: request_seeds OUT_DIR GAMES.pgn\n");
    return 2;
  }
  const std::string dir = argv[1];
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(argv[2]);
  if (!source.ok()) {
    std::fprintf(stderr, "%s\n", source.status().ToString().c_str());
    return 1;
  }
  // The PGN text of each game too, for requests that carry text.
  std::vector<RawGame> games;
  {
    PgnReader reader(*std::move(source));
    for (RawGame raw; reader.Next(&raw);) games.push_back(raw);
  }
  std::string text;
  {
    std::ifstream in(argv[2], std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }

  const MateSearchOptions search{.node_budget = 2000, .retrograde = nullptr};
  for (size_t i = 0; i < games.size(); ++i) {
    v1::VerifyBatchRequest batch;
    v1::BatchGame* game = batch.add_games();
    game->set_index(int64_t(i + 1));
    game->set_record(wire::ToProto(games[i]).SerializeAsString());
    *batch.mutable_options() = Options(i == 0 ? 0 : 1000 * i, i == 1 ? 1 : 0);
    Write(dir, absl::StrCat("batch_", i + 1), kBatch, batch);

    ReplayedGame scratch;
    GameVerdict verdict;
    VerifyGame(games[i], search, &scratch, &verdict);
    Write(dir, absl::StrCat("verdict_", i + 1), kVerdict, wire::ToProto(verdict));
  }
  // Options out of range, a record with a reader error.
  v1::VerifyBatchRequest bad;
  *bad.mutable_options() = Options(uint64_t(1) << 41, 70000);
  bad.add_games()->set_record(wire::ToProto(games.at(0)).SerializeAsString());
  RawGame broken = games.at(0);
  broken.error = absl::InvalidArgumentError("game 1, line 3: unexpected '}'");
  bad.add_games()->set_record(wire::ToProto(broken).SerializeAsString());
  v1::BatchGame* batch_text = bad.add_games();
  batch_text->set_index(3);
  batch_text->set_pgn("[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n");
  Write(dir, "batch_out_of_range", kBatch, bad);

  v1::VerifyGamesRequest stream;
  *stream.mutable_options() = Options(500, 0);
  v1::GameInput* as_text = stream.add_games();
  as_text->set_id("1");
  const size_t first = text.find("[Event");
  as_text->set_pgn(text.substr(first, text.find("[Event", first + 1) - first));
  v1::GameInput* as_record = stream.add_games();
  as_record->set_id("2");
  *as_record->mutable_record() = wire::ToProto(games.at(4));
  Write(dir, "games_text_and_record", kGames, stream);

  v1::VerifyGameRequest one;
  one.set_pgn("[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n");
  Write(dir, "game_pgn", kGame, one);
  *one.mutable_record() = wire::ToProto(games.at(0));
  Write(dir, "game_record", kGame, one);

  const std::vector<AnalyzeSeed> positions = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"e2e4", "e7e5"}, false},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
       {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"},
       false},
      {"8/8/8/8/8/2k5/8/K6Q w - - 0 1", {}, false},
      {"8/8/8/4k3/8/8/8/4K1N1 w - - 0 1", {}, false},
      {"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", {}, false},
      {"4k3/8/8/8/8/8/8/R3K2R w KQ - 99 80", {"e1g1"}, false},
      {"rkr5/pppppppp/8/8/8/8/PPPPPPPP/RKR5 w CAca - 0 1", {"b1c1", "b8c8"}, true},
      {"8/8/8/8/8/8/6k1/4K2R w K - 0 1", {}, false},
  };
  for (size_t i = 0; i < positions.size(); ++i) {
    const AnalyzeSeed& p = positions[i];
    v1::AnalyzeRequest request;
    request.set_fen(p.fen);
    for (const std::string& m : p.moves) request.add_moves(m);
    request.set_chess960(p.chess960);
    *request.mutable_options() = Options(i % 2 ? 3000 : 0, 0);
    Write(dir, absl::StrCat("analyze_", i + 1), kAnalyze, request);

    absl::StatusOr<PositionAnalysis> a =
        AnalyzePosition(p.fen, p.chess960, p.moves, search, nullptr);
    if (!a.ok()) {
      std::fprintf(stderr, "%s: %s\n", p.fen, a.status().ToString().c_str());
      return 1;
    }
    v1::Assessment assessment = wire::ToProto(*a);
    if (i == 2) {
      // A tablebase section as a worker with Syzygy tables sends it.
      v1::TablebaseProbe* probe = assessment.mutable_tablebase();
      probe->set_side_to_move(v1::COLOR_WHITE);
      v1::TablebaseRoot* root = probe->mutable_root();
      root->set_category(v1::TABLEBASE_CATEGORY_WIN);
      root->set_dtz(3);
      root->set_precise_dtz(3);
      root->set_win_within_50(true);
      v1::TablebaseMove* m = root->add_moves();
      m->set_uci("h1h3");
      m->set_san("Qh3+");
      m->set_category(v1::TABLEBASE_CATEGORY_LOSS);
      m->set_dtz(-2);
    }
    Write(dir, absl::StrCat("assessment_", i + 1), kAssessment, assessment);
  }

  // Claims under each chess rule set, and the assessments that answer them.
  const std::vector<std::pair<std::string, ClaimQuestion>> claims = {
      {"8/8/8/4k3/8/8/8/K6Q b - - 0 50",
       {ClaimKind::kQuickplayFinish, std::nullopt, ClaimedOutcome::kDraw, Ruleset::kFide}},
      {"8/8/4k3/8/8/8/3PK3/7R w - - 0 40",
       {ClaimKind::kInsufficientLosingChances, kWhite, ClaimedOutcome::kDraw, Ruleset::kUscf}},
      {"8/8/8/4k3/8/8/8/K6Q w - - 0 50",
       {ClaimKind::kTablebaseClaim, std::nullopt, ClaimedOutcome::kWin, Ruleset::kIccf}},
  };
  for (size_t i = 0; i < claims.size(); ++i) {
    const auto& [fen, claim] = claims[i];
    v1::AnalyzeRequest request;
    request.set_fen(fen);
    *request.mutable_options() = Options(300, 0);
    request.mutable_options()->set_rules(wire::ToProto(claim.rules));
    wire::ToProto(claim, request.mutable_claim());
    Write(dir, absl::StrCat("analyze_claim_", i + 1), kAnalyze, request);
    MateSearchOptions with_rules = search;
    with_rules.rules = claim.rules;
    absl::StatusOr<PositionAnalysis> a =
        AnalyzePosition(fen, false, {}, with_rules, nullptr, std::nullopt, claim);
    if (!a.ok()) {
      std::fprintf(stderr, "%s: %s\n", fen.c_str(), a.status().ToString().c_str());
      return 1;
    }
    Write(dir, absl::StrCat("assessment_claim_", i + 1), kAssessment, wire::ToProto(*a));
  }

  // Chess 99 analyses (SearchOptions.rules), and the reports workers send.
  const std::vector<std::string> chess99 = {
      std::string(chess99::Position::kStartFen),
      "4k4/9/9/3pP4/9/2n6/9/9/4K4 b - e5 0 30",
  };
  for (size_t i = 0; i < chess99.size(); ++i) {
    v1::AnalyzeRequest request;
    request.set_fen(chess99[i]);
    *request.mutable_options() = Options(300, 0);
    request.mutable_options()->set_rules(v1::RULESET_CHESS99);
    Write(dir, absl::StrCat("analyze_chess99_", i + 1), kAnalyze, request);
    absl::StatusOr<Chess99Report> r = AnalyzeChess99Position(chess99[i], {}, 300);
    if (!r.ok()) {
      std::fprintf(stderr, "%s: %s\n", chess99[i].c_str(), r.status().ToString().c_str());
      return 1;
    }
    Write(dir, absl::StrCat("assessment_chess99_", i + 1), kAssessment, wire::ToProto(*r));
  }
  return 0;
}

}  // namespace
}  // namespace arbiter

int main(int argc, char** argv) { return arbiter::Main(argc, argv); }
