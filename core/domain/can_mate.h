// The answer to "can this side still checkmate (Chess 99: still win) by
// some series of legal moves?", and for "no" the kind of proof behind it
// (docs/can-mate.md).
#pragma once

#include <optional>
#include <string_view>

namespace arbiter {

enum class CanMate : uint8_t { kYes, kNo, kUnknown };
const char* ToString(CanMate c);  // "yes", "no", "unknown"
std::optional<CanMate> ParseCanMate(std::string_view text);

enum class MateProof : uint8_t {
  kNone,                 // not a "no"
  kMaterial,             // the material classes
  kSeventyFiveMoveRule,  // every line reaches the automatic draw first
  kFortress,             // blocked pawns no piece can pass
  kForcedLine,           // only moves, followed to the end
  kExhaustiveSearch,     // every reachable position explored
  kRetrograde,           // the exact tables (at most 4 men)
  kBareKings,            // Chess 99: only the two kings
  kLoneKing,             // Chess 99: a lone king cannot win
};
const char* ToString(MateProof p);  // "" for kNone, else "material", ...
// What the proof shows, in words for a person reading a ruling: "too little
// material for any series of legal moves to mate", ...; "" for kNone.
const char* ProofWords(MateProof p);
std::optional<MateProof> ParseMateProof(std::string_view text);

}  // namespace arbiter
