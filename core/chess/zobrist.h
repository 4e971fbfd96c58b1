// Zobrist hashing keys (deterministic, so keys are stable across runs and
// machines and can be stored or compared between processes).
#pragma once

#include <cstdint>

#include "core/chess/types.h"

namespace arbiter::zobrist {

extern uint64_t piece_square[16][64];
extern uint64_t castling[16];
extern uint64_t ep_file[8];
extern uint64_t side;

void Init();

}  // namespace arbiter::zobrist
