// Conversions between core's verdict types and the arbiter.v1 messages.
// Lossless both ways for everything the CLI prints: a front end that
// receives a message renders it with the same code as the embedded run, and
// the output is identical. Moves travel as UCI and are parsed back in the
// position they are played from.
#pragma once

#include <optional>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter.pb.h"
#include "arbiter/v1/verdict.pb.h"
#include "core/pgn/pgn_reader.h"
#include "core/verdict/chess99_analysis.h"
#include "core/verdict/game_verdict.h"
#include "core/verdict/position_analysis.h"

namespace arbiter::wire {

v1::GameRecord ToProto(const RawGame& game);
// A record of more than PgnReader::kMaxPlies plies (PliesIn) converts to a
// game with that error and no moves, whichever field holds them.
RawGame FromProto(const v1::GameRecord& record);
// The plies a record holds: its SAN tokens, or its per-move fields if they
// are longer (a record from a client may disagree with itself).
size_t PliesIn(const v1::GameRecord& record);

v1::GameVerdict ToProto(const GameVerdict& verdict);
// INVALID_ARGUMENT when a line or FEN in the message does not parse.
absl::StatusOr<GameVerdict> FromProto(const v1::GameVerdict& verdict);

v1::Assessment ToProto(const PositionAnalysis& analysis);
absl::StatusOr<PositionAnalysis> FromProto(const v1::Assessment& assessment);

// Search options: zero fields take core's defaults. INVALID_ARGUMENT for
// values out of range (the same bounds as the CLI's --budget / --table-mb).
// Chess 99 analyses (core/verdict/chess99_analysis.h) travel in
// Assessment.chess99, with Assessment.fen in FEN-9.
v1::Assessment ToProto(const Chess99Report& report);
absl::StatusOr<Chess99Report> Chess99FromProto(const v1::Assessment& assessment);

absl::StatusOr<MateSearchOptions> FromProto(const v1::SearchOptions& options);
// How a server reads the PGN a request names or holds: without comment text
// (Chess 99 games keep theirs), untagged games under `options.rules`.
PgnReaderOptions ReaderOptionsFor(const v1::SearchOptions& options);
v1::SearchOptions ToProto(const MateSearchOptions& options, bool tablebase);

// SearchOptions.rules: UNSPECIFIED and CHESS are the FIDE Laws; a value
// this build does not know is INVALID_ARGUMENT, never read as chess.
v1::Ruleset ToProto(Ruleset rules);
absl::StatusOr<Ruleset> FromProto(v1::Ruleset rules);

// AnalyzeRequest.claim under `rules`: nullopt when no claim is asked (kind
// unspecified); INVALID_ARGUMENT for a claim of another rule set, or a win
// claimed by a draw claim.
absl::StatusOr<std::optional<ClaimQuestion>> FromProto(const v1::Claim& claim, Ruleset rules);
void ToProto(const ClaimQuestion& claim, v1::Claim* out);

// The side an analysis is restricted to (AnalyzeRequest.side): unspecified
// means both.
v1::Color SideToProto(std::optional<Color> side);
std::optional<Color> SideFromProto(v1::Color side);

}  // namespace arbiter::wire
