// The C API (include/arbiter/arbiter.h) over core: each call is the one
// `arbiter analyze` or `arbiter verify` makes for the same question, so a
// program that links the library gets the command's answers, evidence and
// JSON records, byte for byte. Nothing of C++ crosses the boundary: every
// entry point catches what core could throw (std::bad_alloc, in practice)
// and turns absl::Status into a code and a message.
#include "include/arbiter/arbiter.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/build_info.h"
#include "core/chess/notation.h"
#include "core/io/byte_source.h"
#include "core/pgn/pgn_reader.h"
#include "core/pgn/variant.h"
#include "core/render/game_verdict_json.h"
#include "core/render/report.h"
#include "core/tablebase/retrograde.h"
#include "core/tablebase/syzygy.h"
#include "core/verdict/position_analysis.h"
#include "core/verdict/verify_games.h"

struct arbiter_engine {
  arbiter::MateSearchOptions search;  // with the engine's tables
  bool chess960 = false;
  int threads = 1;
  std::unique_ptr<arbiter::RetrogradeSolver> retrograde;
  std::shared_ptr<const arbiter::SyzygyTablebase> syzygy;
};

namespace {

using arbiter::Color;

// The C enums are core's, numbered alike, so that a value crosses by a cast.
static_assert(int(arbiter::MateProof::kLoneKing) == ARBITER_PROOF_LONE_KING);
static_assert(int(arbiter::MateProof::kRetrograde) == ARBITER_PROOF_RETROGRADE);
static_assert(int(arbiter::MateProof::kSeventyFiveMoveRule) == ARBITER_PROOF_SEVENTY_FIVE_MOVE);
static_assert(int(arbiter::GameStatus::kSeventyFiveMoves) == ARBITER_SEVENTY_FIVE_MOVES);
static_assert(int(arbiter::GameStatus::kDeadPosition) == ARBITER_DEAD_POSITION);
static_assert(int(arbiter::TbCategory::kLoss) + 1 == ARBITER_TB_LOSS);
static_assert(int(arbiter::TbCategory::kWin) + 1 == ARBITER_TB_WIN);
static_assert(int(arbiter::Ruleset::kChess99) == ARBITER_RULES_CHESS99);
static_assert(int(arbiter::Ruleset::kIccf) == ARBITER_RULES_ICCF);

arbiter_status StatusCode(const absl::Status& s) {
  switch (s.code()) {
    case absl::StatusCode::kOk:
      return ARBITER_OK;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
      return ARBITER_INVALID_ARGUMENT;
    case absl::StatusCode::kNotFound:
      return ARBITER_NOT_FOUND;
    case absl::StatusCode::kDataLoss:
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kUnknown:
      return ARBITER_IO_ERROR;
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kAlreadyExists:
      return ARBITER_FAILED_PRECONDITION;
    case absl::StatusCode::kCancelled:
      return ARBITER_CANCELLED;
    case absl::StatusCode::kResourceExhausted:
      return ARBITER_OUT_OF_MEMORY;
    default:
      return ARBITER_INTERNAL;
  }
}

arbiter_status Report(arbiter_error* error, arbiter_status status, std::string_view message) {
  if (error != nullptr) {
    error->status = status;
    const size_t n = std::min(message.size(), sizeof error->message - 1);
    std::memcpy(error->message, message.data(), n);
    error->message[n] = '\0';
  }
  return status;
}

arbiter_status Report(arbiter_error* error, const absl::Status& s) {
  return Report(error, StatusCode(s), std::string_view(s.message().data(), s.message().size()));
}

arbiter_status Ok(arbiter_error* error) { return Report(error, ARBITER_OK, ""); }

// Runs `body`, which returns a status; an exception becomes an error.
template <typename Body>
arbiter_status Guarded(arbiter_error* error, Body body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Report(error, ARBITER_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return Report(error, ARBITER_INTERNAL, e.what());
  } catch (...) {
    return Report(error, ARBITER_INTERNAL, "unexpected exception");
  }
}

// A string the caller frees with the result's *_clear (std::free).
char* Copy(std::string_view s) {
  char* out = static_cast<char*>(std::malloc(s.size() + 1));
  if (out == nullptr) throw std::bad_alloc();
  std::memcpy(out, s.data(), s.size());
  out[s.size()] = '\0';
  return out;
}

// Moves from `start`, in UCI, each spelled in the position it is played
// from; NULL for none.
char* CopiedUciLine(const arbiter::Position& start, const std::vector<arbiter::Move>& moves) {
  if (moves.empty()) return nullptr;
  return Copy(absl::StrJoin(arbiter::UciLine(start, moves), " "));
}

// Moves all played from `pos` (a claim's alternatives).
char* UciChoices(const arbiter::Position& pos, const std::vector<arbiter::Move>& moves) {
  if (moves.empty()) return nullptr;
  std::string out;
  for (arbiter::Move m : moves) absl::StrAppend(&out, out.empty() ? "" : " ", ToUci(pos, m));
  return Copy(out);
}

arbiter_answer Answer(arbiter::CanMate a) {
  switch (a) {
    case arbiter::CanMate::kYes:
      return ARBITER_YES;
    case arbiter::CanMate::kNo:
      return ARBITER_NO;
    case arbiter::CanMate::kUnknown:
      break;
  }
  return ARBITER_UNKNOWN;
}

arbiter_answer Answer(std::optional<bool> a) {
  if (!a) return ARBITER_UNKNOWN;
  return *a ? ARBITER_YES : ARBITER_NO;
}

void FillMate(const arbiter::Position& pos, const arbiter::MateAbility& m, arbiter_mate* out) {
  *out = arbiter_mate{};
  out->answer = Answer(m.answer);
  out->proof = static_cast<arbiter_proof>(m.proof);
  if (m.answer != arbiter::CanMate::kYes) return;
  out->line_uci = CopiedUciLine(pos, m.line);
  out->line_san = m.line_san.empty() ? nullptr : Copy(absl::StrJoin(m.line_san, " "));
  out->line_plies = int(m.line.size());
}

void FillTablebase(const arbiter::TablebaseProbe& probe, arbiter_tablebase* out) {
  *out = arbiter_tablebase{};
  if (!probe.root) return;
  const arbiter::RootResult& r = *probe.root;
  out->category = static_cast<arbiter_tb_category>(int(r.category) + 1);
  out->dtz = r.precise_dtz.value_or(r.dtz);
  out->win_within_50 = Answer(r.win_within_50);
  out->retrograde = probe.source == arbiter::TablebaseSource::kRetrograde;
}

absl::Status CheckRules(const arbiter_engine& engine) {
  if (engine.search.rules == arbiter::Ruleset::kChess99)
    return absl::InvalidArgumentError(
        "ARBITER_RULES_CHESS99 rules game records (arbiter_verify_*), not single positions");
  return absl::OkStatus();
}

std::vector<std::string> SplitMoves(const char* moves) {
  if (moves == nullptr) return {};
  return absl::StrSplit(moves, absl::ByAnyChar(" \t\n"), absl::SkipEmpty());
}

// Rules every game `reader` yields, handing each record to `callback`.
arbiter_status Verify(arbiter_engine* engine, std::unique_ptr<arbiter::ByteSource> source,
                      arbiter_verdict_callback callback, void* user_data,
                      arbiter_verify_summary* summary, arbiter_error* error) {
  arbiter::PgnReaderOptions read_options;
  read_options.keep_comments = false;
  if (engine->search.rules == arbiter::Ruleset::kChess99)
    read_options.untagged_variant = arbiter::kChess99Variant;
  arbiter::PgnReader reader(std::move(source), read_options);
  arbiter::VerifyGamesOptions options;
  options.threads = engine->threads;
  options.search = engine->search;
  options.tables = engine->syzygy.get();
  arbiter_verify_summary counts{};
  const bool finished = arbiter::VerifyGames(
      options, [&](arbiter::RawGame* game) { return reader.Next(game); },
      [&](arbiter::GameVerdict& v) {
        ++counts.games;
        if (v.is_error()) {
          ++counts.errors;
        } else if (v.ruling && !v.ruling->agrees) {
          ++counts.disagreements;
        }
        const std::string json = arbiter::GameVerdictJson(v);
        return callback == nullptr || callback(user_data, json.c_str(), json.size()) == 0;
      });
  if (summary != nullptr) *summary = counts;
  if (!finished)
    return Report(error, ARBITER_CANCELLED,
                  absl::StrCat("the verdict callback stopped the run after game ", counts.games));
  if (!reader.input_error().ok()) return Report(error, reader.input_error());
  return Ok(error);
}

}  // namespace

extern "C" {

int arbiter_api_version(void) { return ARBITER_API_VERSION; }

const char* arbiter_version(void) {
  static const std::string version =
      absl::StrCat(arbiter::common::BuildVersion(), " (", arbiter::common::BuildCommit(), ")");
  return version.c_str();
}

const char* arbiter_status_name(arbiter_status status) {
  switch (status) {
    case ARBITER_OK:
      return "ok";
    case ARBITER_INVALID_ARGUMENT:
      return "invalid_argument";
    case ARBITER_NOT_FOUND:
      return "not_found";
    case ARBITER_IO_ERROR:
      return "io_error";
    case ARBITER_FAILED_PRECONDITION:
      return "failed_precondition";
    case ARBITER_CANCELLED:
      return "cancelled";
    case ARBITER_OUT_OF_MEMORY:
      return "out_of_memory";
    case ARBITER_INTERNAL:
      return "internal";
  }
  return "unknown_status";
}

const char* arbiter_proof_name(arbiter_proof proof) {
  if (proof < ARBITER_PROOF_NONE || proof > ARBITER_PROOF_LONE_KING) return "";
  return arbiter::ToString(static_cast<arbiter::MateProof>(proof));
}

arbiter_engine* arbiter_engine_new(const arbiter_options* options, arbiter_error* error) {
  arbiter_engine* made = nullptr;
  Guarded(error, [&]() -> arbiter_status {
    const arbiter_options defaults{};
    const arbiter_options& o = options ? *options : defaults;
    if (o.rules < ARBITER_RULES_FIDE || o.rules > ARBITER_RULES_CHESS99)
      return Report(error, ARBITER_INVALID_ARGUMENT,
                    absl::StrCat("options.rules: no rule set numbered ", int(o.rules)));
    if (o.table_mb < 0 || o.table_mb > 65536)
      return Report(error, ARBITER_INVALID_ARGUMENT, "options.table_mb must be 0..65536");
    if (o.threads < 0 || o.threads > 4096)
      return Report(error, ARBITER_INVALID_ARGUMENT, "options.threads must be 0..4096");
    auto engine = std::make_unique<arbiter_engine>();
    if (o.budget != 0) engine->search.node_budget = o.budget;
    if (o.table_mb != 0) engine->search.table_bytes = size_t(o.table_mb) << 20;
    engine->search.rules = static_cast<arbiter::Ruleset>(o.rules);
    engine->threads = o.threads == 0 ? 1 : o.threads;
    engine->chess960 = o.chess960 != 0;

    // The tables directory as the command line finds it.
    absl::StatusOr<std::unique_ptr<arbiter::RetrogradeSolver>> solver =
        arbiter::RetrogradeSolverFor(
            o.tables_dir == nullptr ? std::nullopt : std::optional<std::string>(o.tables_dir),
            "options.tables_dir");
    if (!solver.ok()) return Report(error, solver.status());
    engine->retrograde = std::move(*solver);
    engine->search.retrograde = engine->retrograde.get();

    if (o.syzygy_path != nullptr && *o.syzygy_path != '\0') {
      absl::StatusOr<std::shared_ptr<const arbiter::SyzygyTablebase>> tables =
          arbiter::SyzygyTablebase::Open({o.syzygy_path});
      if (!tables.ok())
        return Report(error, StatusCode(tables.status()),
                      absl::StrCat("options.syzygy_path: ", tables.status().message()));
      engine->syzygy = *std::move(tables);
      engine->search.syzygy = engine->syzygy.get();
    }
    made = engine.release();
    return Ok(error);
  });
  return made;
}

void arbiter_engine_free(arbiter_engine* engine) { delete engine; }

arbiter_status arbiter_can_mate(arbiter_engine* engine, const char* fen, arbiter_color side,
                                arbiter_mate* out, arbiter_error* error) {
  return Guarded(error, [&]() -> arbiter_status {
    if (engine == nullptr || fen == nullptr || out == nullptr)
      return Report(error, ARBITER_INVALID_ARGUMENT, "engine, fen and out must not be NULL");
    *out = arbiter_mate{};
    if (side != ARBITER_WHITE && side != ARBITER_BLACK)
      return Report(
          error, ARBITER_INVALID_ARGUMENT,
          absl::StrCat("side: ", int(side), " is neither ARBITER_WHITE nor ARBITER_BLACK"));
    if (absl::Status s = CheckRules(*engine); !s.ok()) return Report(error, s);
    const Color color = side == ARBITER_WHITE ? arbiter::kWhite : arbiter::kBlack;
    // The question `arbiter analyze` answers for a line "FEN white".
    absl::StatusOr<arbiter::PositionAnalysis> a =
        arbiter::AnalyzePosition(fen, engine->chess960, {}, engine->search, nullptr, color);
    if (!a.ok()) return Report(error, a.status());
    FillMate(a->position, color == arbiter::kWhite ? a->assessment.white : a->assessment.black,
             out);
    return Ok(error);
  });
}

void arbiter_mate_clear(arbiter_mate* mate) {
  if (mate == nullptr) return;
  std::free(mate->line_uci);
  std::free(mate->line_san);
  *mate = arbiter_mate{};
}

arbiter_status arbiter_assess(arbiter_engine* engine, const char* fen, const char* moves,
                              arbiter_assessment* out, arbiter_error* error) {
  return Guarded(error, [&]() -> arbiter_status {
    if (engine == nullptr || fen == nullptr || out == nullptr)
      return Report(error, ARBITER_INVALID_ARGUMENT, "engine, fen and out must not be NULL");
    *out = arbiter_assessment{};
    if (absl::Status s = CheckRules(*engine); !s.ok()) return Report(error, s);
    absl::StatusOr<arbiter::PositionAnalysis> a = arbiter::AnalyzePosition(
        fen, engine->chess960, SplitMoves(moves), engine->search, engine->syzygy.get());
    if (!a.ok()) return Report(error, a.status());
    const arbiter::Assessment& as = a->assessment;
    out->status = static_cast<arbiter_game_status>(as.status);
    out->dead = Answer(as.dead);
    FillMate(a->position, as.white, &out->white);
    FillMate(a->position, as.black, &out->black);
    out->threefold_now = as.claims.threefold_now;
    out->threefold_moves = UciChoices(a->position, as.claims.threefold_moves);
    out->fifty_now = as.claims.fifty_now;
    out->fifty_moves = UciChoices(a->position, as.claims.fifty_moves);
    if (a->tablebase) FillTablebase(*a->tablebase, &out->tablebase);
    out->json = Copy(arbiter::AssessmentJson(*a));
    return Ok(error);
  });
}

void arbiter_assessment_clear(arbiter_assessment* assessment) {
  if (assessment == nullptr) return;
  arbiter_mate_clear(&assessment->white);
  arbiter_mate_clear(&assessment->black);
  std::free(assessment->threefold_moves);
  std::free(assessment->fifty_moves);
  std::free(assessment->json);
  *assessment = arbiter_assessment{};
}

arbiter_status arbiter_verify_pgn(arbiter_engine* engine, const char* data, size_t size,
                                  arbiter_verdict_callback callback, void* user_data,
                                  arbiter_verify_summary* summary, arbiter_error* error) {
  return Guarded(error, [&]() -> arbiter_status {
    if (engine == nullptr || (data == nullptr && size != 0))
      return Report(error, ARBITER_INVALID_ARGUMENT, "engine and data must not be NULL");
    std::unique_ptr<arbiter::ByteSource> source = arbiter::ByteSource::Decoding(
        arbiter::ByteSource::FromString(std::string(data ? data : "", size)), "the PGN data");
    return Verify(engine, std::move(source), callback, user_data, summary, error);
  });
}

arbiter_status arbiter_verify_file(arbiter_engine* engine, const char* path,
                                   arbiter_verdict_callback callback, void* user_data,
                                   arbiter_verify_summary* summary, arbiter_error* error) {
  return Guarded(error, [&]() -> arbiter_status {
    if (engine == nullptr || path == nullptr)
      return Report(error, ARBITER_INVALID_ARGUMENT, "engine and path must not be NULL");
    absl::StatusOr<std::unique_ptr<arbiter::ByteSource>> source = arbiter::ByteSource::Open(path);
    if (!source.ok()) return Report(error, source.status());
    return Verify(engine, *std::move(source), callback, user_data, summary, error);
  });
}

}  // extern "C"
