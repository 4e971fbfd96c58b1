// SAN to Move for bulk game replay. Same results as ParseSan (notation.h),
// but the common spellings ("Nf3", "exd5", "Rad1", "e8=Q+") are resolved from
// attack tables without generating every legal move; anything else
// (castling, en passant, unusual spellings, illegal or ambiguous moves) goes
// through ParseSan, which also supplies the error messages.
#pragma once

#include <string_view>

#include "absl/status/statusor.h"
#include "core/chess/position.h"

namespace arbiter {

absl::StatusOr<Move> ResolveSan(const Position& pos, std::string_view san);

}  // namespace arbiter
