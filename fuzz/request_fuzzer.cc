// The gRPC messages of arbiter.v1 as the worker (and the client) handle
// them. The first byte picks the message the rest is parsed as:
//   0 VerifyBatchRequest, 2 VerifyGamesRequest, 3 VerifyGameRequest: the
//     options are checked (out-of-range values rejected, as the CLI does),
//     each record converted (FromProto of ToProto of it is the same record)
//     and verified with a tiny budget; the verdict must survive the wire
//     (ToProto, serialize, parse, FromProto: the same JSON). A game sent as
//     PGN text is read as the coordinator reads it.
//   1 AnalyzeRequest: AnalyzePosition with a tiny budget and no tables (or,
//     for RULESET_CHESS99, AnalyzeChess99Position, as the worker does); the
//     assessment must survive the wire and render the same JSON.
//   4 GameVerdict, 5 Assessment (what a client receives): FromProto must
//     reject what does not parse and convert the rest, which renders and
//     converts back to the same thing.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/worker.pb.h"
#include "core/io/byte_source.h"
#include "core/render/chess99_report.h"
#include "core/render/game_verdict_json.h"
#include "core/render/report.h"
#include "core/verdict/chess99_analysis.h"
#include "core/verdict/position_analysis.h"
#include "fuzz/fuzz_support.h"
#include "google/protobuf/stubs/logging.h"
#include "proto/convert.h"

namespace arbiter::fuzz {
namespace {

// Per message, to keep each input fast: games verified, moves analysed.
constexpr int kMaxGames = 16;
constexpr int kMaxMoves = 64;
// Nodes of a Chess 99 analysis (the chess99 target's budget).
constexpr int64_t kChess99Budget = 300;

MateSearchOptions TinySearch() {
  return MateSearchOptions{.node_budget = 200, .retrograde = nullptr};
}

template <typename M>
M Reparsed(const M& message) {
  M out;
  ARBITER_FUZZ_CHECK(out.ParseFromString(message.SerializeAsString()),
                     "a serialized message does not parse back");
  return out;
}

// wire::FromProto(SearchOptions) accepts exactly the CLI's ranges and the
// rule sets this build knows.
void CheckOptions(const v1::SearchOptions& o) {
  absl::StatusOr<MateSearchOptions> options = wire::FromProto(o);
  const bool in_range =
      o.budget() <= (uint64_t(1) << 40) && o.table_mb() <= 65536 && v1::Ruleset_IsValid(o.rules());
  ARBITER_FUZZ_CHECK(options.ok() == in_range,
                     absl::StrCat("budget ", o.budget(), " table_mb ", o.table_mb(), " rules ",
                                  int(o.rules()), ": ", options.status().ToString()));
  if (!options.ok()) return;
  ARBITER_FUZZ_CHECK(
      options->node_budget == (o.budget() ? o.budget() : 200000) &&
          options->table_bytes == (o.table_mb() ? size_t(o.table_mb()) << 20 : size_t(16) << 20),
      absl::StrCat("budget ", o.budget(), " table_mb ", o.table_mb()));
}

bool SameGame(const RawGame& a, const RawGame& b) {
  if (a.index != b.index || a.first_line != b.first_line || a.tags != b.tags ||
      a.result_token != b.result_token || a.error != b.error || a.moves.size() != b.moves.size())
    return false;
  for (size_t i = 0; i < a.moves.size(); ++i) {
    const RawMove& x = a.moves[i];
    const RawMove& y = b.moves[i];
    if (x.san != y.san || x.line != y.line || x.clock_centis != y.clock_centis ||
        x.comment != y.comment || x.nags != y.nags)
      return false;
  }
  return true;
}

// What a worker does with one record.
void VerifyRecord(const v1::GameRecord& record) {
  const RawGame raw = wire::FromProto(record);
  ARBITER_FUZZ_CHECK(SameGame(wire::FromProto(Reparsed(wire::ToProto(raw))), raw),
                     absl::StrCat("record of game ", raw.index, " changes through the wire"));
  ReplayedGame scratch;
  GameVerdict verdict;
  VerifyGame(raw, TinySearch(), &scratch, &verdict);
  absl::StatusOr<GameVerdict> back = wire::FromProto(Reparsed(wire::ToProto(verdict)));
  ARBITER_FUZZ_CHECK(back.ok(), back.status().ToString());
  ARBITER_FUZZ_CHECK(GameVerdictJson(*back) == GameVerdictJson(verdict), GameVerdictJson(verdict));
}

// What a worker does with one game of a batch: a record, or a PGN text.
void VerifyBatchGame(const v1::BatchGame& game, const v1::SearchOptions& options) {
  if (game.has_pgn()) {
    VerifyRecord(
        wire::ToProto(ReadFirstGame(game.pgn(), game.index(), wire::ReaderOptionsFor(options))));
    return;
  }
  v1::GameRecord record;
  if (record.ParseFromString(game.record())) VerifyRecord(record);
}

void VerifyInput(const v1::GameInput& game, const v1::SearchOptions& options) {
  VerifyRecord(game.has_record()
                   ? game.record()
                   : wire::ToProto(ReadFirstGame(game.pgn(), 1, wire::ReaderOptionsFor(options))));
}

// A Chess 99 analysis, as the worker answers it: through the wire, the
// same report.
void AnalyzeChess99(const v1::AnalyzeRequest& request) {
  absl::StatusOr<Chess99Report> r = AnalyzeChess99Position(
      request.fen(), {request.moves().begin(), request.moves().end()}, kChess99Budget);
  if (!r.ok()) return;
  const v1::Assessment sent = wire::ToProto(*r);
  absl::StatusOr<Chess99Report> back = wire::Chess99FromProto(Reparsed(sent));
  ARBITER_FUZZ_CHECK(back.ok(), back.status().ToString());
  ARBITER_FUZZ_CHECK(Chess99ReportJson(*back) == Chess99ReportJson(*r), Chess99ReportJson(*r));
  ARBITER_FUZZ_CHECK(wire::ToProto(*back).SerializeAsString() == sent.SerializeAsString(),
                     sent.ShortDebugString());
}

void Analyze(const v1::AnalyzeRequest& request) {
  CheckOptions(request.options());
  if (request.moves_size() > kMaxMoves) return;
  if (request.options().rules() == v1::RULESET_CHESS99) return AnalyzeChess99(request);
  // The rules and the claim, read as the worker reads them.
  absl::StatusOr<Ruleset> rules = wire::FromProto(request.options().rules());
  if (!rules.ok()) return;
  absl::StatusOr<std::optional<ClaimQuestion>> claim = wire::FromProto(request.claim(), *rules);
  if (!claim.ok()) return;
  MateSearchOptions search = TinySearch();
  search.rules = *rules;
  absl::StatusOr<PositionAnalysis> a = AnalyzePosition(
      request.fen(), request.chess960(), {request.moves().begin(), request.moves().end()}, search,
      nullptr, std::nullopt, *claim);
  if (!a.ok()) return;
  ARBITER_FUZZ_CHECK(a->claim.has_value() == claim->has_value(), request.ShortDebugString());
  const v1::Assessment sent = wire::ToProto(*a);
  absl::StatusOr<PositionAnalysis> back = wire::FromProto(Reparsed(sent));
  ARBITER_FUZZ_CHECK(back.ok(), back.status().ToString());
  ARBITER_FUZZ_CHECK(AssessmentJson(*back) == AssessmentJson(*a), AssessmentJson(*a));
  ARBITER_FUZZ_CHECK(wire::ToProto(*back).SerializeAsString() == sent.SerializeAsString(),
                     sent.ShortDebugString());
}

// A verdict from the wire: converted, rendered, and stable through the wire.
void ReceiveVerdict(const v1::GameVerdict& message) {
  absl::StatusOr<GameVerdict> v = wire::FromProto(message);
  if (!v.ok()) return;
  const std::string json = GameVerdictJson(*v);
  absl::StatusOr<GameVerdict> again = wire::FromProto(Reparsed(wire::ToProto(*v)));
  ARBITER_FUZZ_CHECK(again.ok(), again.status().ToString());
  ARBITER_FUZZ_CHECK(GameVerdictJson(*again) == json, json);
}

void ReceiveAssessment(const v1::Assessment& message) {
  absl::StatusOr<PositionAnalysis> a = wire::FromProto(message);
  if (!a.ok()) return;
  const std::string json = AssessmentJson(*a);
  const v1::Assessment sent = wire::ToProto(*a);
  absl::StatusOr<PositionAnalysis> again = wire::FromProto(Reparsed(sent));
  ARBITER_FUZZ_CHECK(again.ok(), again.status().ToString());
  ARBITER_FUZZ_CHECK(AssessmentJson(*again) == json, json);
  ARBITER_FUZZ_CHECK(wire::ToProto(*again).SerializeAsString() == sent.SerializeAsString(),
                     sent.ShortDebugString());
}

template <typename M>
bool Parse(std::string_view data, M* message) {
  return message->ParseFromArray(data.data(), int(data.size()));
}

}  // namespace

void RequestTarget(std::string_view input) {
  // Strings that are not UTF-8 make the parse fail, and protobuf logs each.
  google::protobuf::LogSilencer quiet;
  if (input.empty()) return;
  const std::string_view data = input.substr(1);
  switch (uint8_t(input[0]) % 6) {
    case 0: {
      v1::VerifyBatchRequest m;
      if (!Parse(data, &m)) return;
      CheckOptions(m.options());
      for (int i = 0; i < m.games_size() && i < kMaxGames; ++i)
        VerifyBatchGame(m.games(i), m.options());
      break;
    }
    case 1: {
      v1::AnalyzeRequest m;
      if (Parse(data, &m)) Analyze(m);
      break;
    }
    case 2: {
      v1::VerifyGamesRequest m;
      if (!Parse(data, &m)) return;
      CheckOptions(m.options());
      for (int i = 0; i < m.games_size() && i < kMaxGames; ++i)
        VerifyInput(m.games(i), m.options());
      break;
    }
    case 3: {
      v1::VerifyGameRequest m;
      if (!Parse(data, &m)) return;
      CheckOptions(m.options());
      VerifyRecord(m.has_record() ? m.record()
                                  : wire::ToProto(ReadFirstGame(
                                        m.pgn(), 1, wire::ReaderOptionsFor(m.options()))));
      break;
    }
    case 4: {
      v1::GameVerdict m;
      if (Parse(data, &m)) ReceiveVerdict(m);
      break;
    }
    case 5: {
      v1::Assessment m;
      if (Parse(data, &m)) ReceiveAssessment(m);
      break;
    }
  }
}

}  // namespace arbiter::fuzz

#ifndef ARBITER_FUZZ_REGRESSION_TEST  // the regression test calls RequestTarget by name
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  arbiter::fuzz::RequestTarget(arbiter::fuzz::AsText(data, size));
  return 0;
}
#endif
