#include "core/pgn/game_replay.h"

#include <string>
#include <string_view>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "core/pgn/san_resolver.h"

namespace arbiter {
namespace {

constexpr std::string_view kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

enum class Variant { kStandard, kChess960, kUnsupported };

Variant ClassifyVariant(const std::string* tag) {
  if (tag == nullptr) return Variant::kStandard;
  std::string v = absl::AsciiStrToLower(absl::StripAsciiWhitespace(*tag));
  // "From Position" is Lichess' name for standard chess from a set-up FEN.
  if (v.empty() || v == "standard" || v == "chess" || v == "from position" || v == "normal")
    return Variant::kStandard;
  if (v == "chess960" || v == "chess 960" || v == "fischerandom" || v == "fischer random" ||
      v == "fischerrandom")
    return Variant::kChess960;
  return Variant::kUnsupported;
}

absl::Status GameError(std::string_view message) {
  return absl::InvalidArgumentError(std::string(message));
}

// Sets up out->start, out->end and out->chess960 from the tags.
absl::Status SetUpStart(const RawGame& raw, ReplayedGame* out) {
  const std::string* variant = raw.Tag("Variant");
  Variant kind = ClassifyVariant(variant);
  if (kind == Variant::kUnsupported)
    return GameError(absl::StrCat("unsupported variant ", *variant));
  const std::string* fen = raw.Tag("FEN");
  const std::string* setup = raw.Tag("SetUp");
  if (fen == nullptr && setup != nullptr && *setup == "1")
    return GameError("[SetUp \"1\"] without a [FEN] tag");
  if (fen == nullptr && kind == Variant::kStandard) {
    // The common case: parsing the start FEN for every game shows up in bulk
    // replay, copying a ready position does not.
    static const Position* const kStart = new Position(Position::Start());
    out->start = *kStart;
    out->end = out->start;
    out->chess960 = false;
    return absl::OkStatus();
  }
  // A Chess960 game without a FEN starts from the standard array (#518).
  absl::StatusOr<Position> start = Position::FromFen(
      fen != nullptr ? std::string_view(*fen) : kStartFen, kind == Variant::kChess960);
  if (!start.ok())
    return GameError(
        absl::StrCat("bad FEN \"", fen != nullptr ? *fen : "", "\": ", start.status().message()));
  out->start = *std::move(start);
  out->end = out->start;
  out->chess960 = out->start.chess960();
  return absl::OkStatus();
}

}  // namespace

std::optional<std::string> UnsupportedVariant(const RawGame& raw) {
  const std::string* variant = raw.Tag("Variant");
  if (ClassifyVariant(variant) != Variant::kUnsupported) return std::nullopt;
  return std::string(absl::StripAsciiWhitespace(*variant));
}

void ReplayGame(const RawGame& raw, ReplayedGame* out) {
  out->moves.clear();
  out->clock_centis.clear();
  out->chess960 = false;
  out->bad_move = -1;
  out->error = raw.error;
  out->error_line = raw.error_line;
  out->error_column = raw.error_column;
  if (!out->error.ok()) {
    // A variant's moves ("e7e5/H" in Seirawan chess, drops elsewhere) may
    // not even read as PGN: the variant is what the user needs to hear.
    if (const std::string* variant = raw.Tag("Variant");
        ClassifyVariant(variant) == Variant::kUnsupported) {
      out->error = GameError(absl::StrCat("unsupported variant ", *variant));
      out->error_line = raw.first_line;
      out->error_column = 0;
    }
    return;
  }
  out->error = SetUpStart(raw, out);
  if (!out->error.ok()) {
    out->error_line = raw.first_line;
    return;
  }

  Position& pos = out->end;
  out->moves.reserve(raw.moves.size());
  out->clock_centis.reserve(raw.moves.size());
  for (const RawMove& raw_move : raw.moves) {
    absl::StatusOr<Move> move = ResolveSan(pos, raw_move.san);
    if (!move.ok()) {
      // ParseSan's message starts with the quoted SAN; it is already named.
      std::string reason(move.status().message());
      std::string quoted = absl::StrCat("\"", raw_move.san, "\": ");
      if (reason.starts_with(quoted)) reason.erase(0, quoted.size());
      out->error = absl::InvalidArgumentError(
          absl::StrCat("move ", pos.fullmove_number(), pos.side_to_move() == kWhite ? ". " : "... ",
                       raw_move.san, ": ", reason));
      out->error_line = raw_move.line;
      out->error_column = raw_move.column;
      out->bad_move = int(out->moves.size());
      return;
    }
    pos.DoMove(*move);
    out->moves.push_back(*move);
    out->clock_centis.push_back(raw_move.clock_centis);
  }
}

ReplayedGame ReplayGame(const RawGame& raw) {
  ReplayedGame out;
  ReplayGame(raw, &out);
  return out;
}

}  // namespace arbiter
