#include "core/chess/zobrist.h"

#include <mutex>

namespace arbiter::zobrist {

uint64_t piece_square[16][64];
uint64_t castling[16];
uint64_t ep_file[8];
uint64_t side;

namespace {

// splitmix64: simple, well-distributed, fixed seed.
uint64_t Next(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

void InitKeys() {
  uint64_t state = 0x41524249544552ULL;  // "ARBITER"
  for (auto& row : piece_square)
    for (auto& k : row) k = Next(state);
  // Castling keys are the XOR of one key per right, so that any subset of
  // rights has a well-defined key.
  uint64_t right_keys[4];
  for (auto& k : right_keys) k = Next(state);
  for (int mask = 0; mask < 16; ++mask) {
    castling[mask] = 0;
    for (int r = 0; r < 4; ++r)
      if (mask & (1 << r)) castling[mask] ^= right_keys[r];
  }
  for (auto& k : ep_file) k = Next(state);
  side = Next(state);
}

}  // namespace

void Init() {
  static std::once_flag once;
  std::call_once(once, InitKeys);
}

}  // namespace arbiter::zobrist
