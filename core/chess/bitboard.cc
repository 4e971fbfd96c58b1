#include "core/chess/bitboard.h"

#include <cstdlib>
#include <mutex>

namespace arbiter {
namespace bb_internal {

Magic rook_magics[64];
Magic bishop_magics[64];
Bitboard pawn_attacks[2][64];
Bitboard knight_attacks[64];
Bitboard king_attacks[64];
Bitboard between[64][64];
Bitboard line[64][64];

}  // namespace bb_internal

namespace {

using bb_internal::Magic;

// Table sizes: sum over squares of 2^(relevant occupancy bits).
Bitboard rook_table[0x19000];
Bitboard bishop_table[0x1480];

// Walks rays from `s` in the given directions until blocked (inclusive).
Bitboard SlidingAttacks(Square s, Bitboard occupied, const int (*dirs)[2]) {
  Bitboard attacks = 0;
  for (int d = 0; d < 4; ++d) {
    int f = FileOf(s) + dirs[d][0], r = RankOf(s) + dirs[d][1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      Bitboard b = SquareBB(MakeSquare(f, r));
      attacks |= b;
      if (occupied & b) break;
      f += dirs[d][0];
      r += dirs[d][1];
    }
  }
  return attacks;
}

constexpr int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// xorshift64* — deterministic, so magic search gives the same tables each run.
struct Prng {
  uint64_t s;
  uint64_t Next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
  uint64_t Sparse() { return Next() & Next() & Next(); }
};

// Finds a magic multiplier per square by trial (the approach popularised by
// Stockfish); takes a few milliseconds at start-up.
// PRNG seeds per rank that find all magics after few trials (chosen by
// timing the search over candidate seeds; any seed works, only slower).
constexpr uint64_t kMagicSeeds[8] = {
    0x86b6a9743bb32f91ULL, 0x3887a75813ba023cULL, 0x282e9bfe670e8b67ULL, 0x60c19af9a2f419aaULL,
    0x94fadba8415f4ee9ULL, 0x134bc656cd6d1184ULL, 0xd06e3b718a5e68d9ULL, 0xdf7df54df624bc61ULL,
};

void InitMagics(Magic* magics, Bitboard* table, const int (*dirs)[2]) {
  Bitboard occupancy[4096], reference[4096];
  int epoch[4096] = {}, current = 0;
  Bitboard* next_table = table;
  for (int si = 0; si < 64; ++si) {
    Prng prng{kMagicSeeds[si / 8]};
    Square s = Square(si);
    Bitboard edges = ((RankBB(0) | RankBB(7)) & ~RankBB(RankOf(s))) |
                     ((FileBB(0) | FileBB(7)) & ~FileBB(FileOf(s)));
    Magic& m = magics[si];
    m.mask = SlidingAttacks(s, 0, dirs) & ~edges;
    m.shift = 64 - PopCount(m.mask);
    m.attacks = next_table;
    // Carry-Rippler enumeration of all subsets of the mask.
    int size = 0;
    Bitboard b = 0;
    do {
      occupancy[size] = b;
      reference[size] = SlidingAttacks(s, b, dirs);
      ++size;
      b = (b - m.mask) & m.mask;
    } while (b);
    Bitboard* entries = next_table;
    for (int i = 0; i < size;) {
      do {
        m.magic = prng.Sparse();
      } while (PopCount((m.mask * m.magic) >> 56) < 6);
      ++current;
      for (i = 0; i < size; ++i) {
        unsigned idx = m.Index(occupancy[i]);
        if (epoch[idx] < current) {
          epoch[idx] = current;
          entries[idx] = reference[i];
        } else if (entries[idx] != reference[i]) {
          break;
        }
      }
    }
    next_table += size;
  }
}

void InitAll() {
  using namespace bb_internal;
  for (int si = 0; si < 64; ++si) {
    Square s = Square(si);
    Bitboard b = SquareBB(s);
    pawn_attacks[kWhite][s] = Shift<7>(b) | Shift<9>(b);
    pawn_attacks[kBlack][s] = Shift<-7>(b) | Shift<-9>(b);
    knight_attacks[s] = 0;
    king_attacks[s] = 0;
    constexpr int kKnightSteps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                        {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    for (auto& d : kKnightSteps) {
      int f = FileOf(s) + d[0], r = RankOf(s) + d[1];
      if (f >= 0 && f < 8 && r >= 0 && r < 8) knight_attacks[s] |= SquareBB(MakeSquare(f, r));
    }
    for (int df = -1; df <= 1; ++df)
      for (int dr = -1; dr <= 1; ++dr) {
        int f = FileOf(s) + df, r = RankOf(s) + dr;
        if ((df || dr) && f >= 0 && f < 8 && r >= 0 && r < 8)
          king_attacks[s] |= SquareBB(MakeSquare(f, r));
      }
  }
  InitMagics(rook_magics, rook_table, kRookDirs);
  InitMagics(bishop_magics, bishop_table, kBishopDirs);
  for (int a = 0; a < 64; ++a) {
    for (int b = 0; b < 64; ++b) {
      Square sa = Square(a), sb = Square(b);
      line[a][b] = 0;
      between[a][b] = SquareBB(sb);
      if (a == b) continue;
      for (PieceType t : {kBishop, kRook}) {
        if (Attacks(t, sa, 0) & SquareBB(sb)) {
          line[a][b] = (Attacks(t, sa, 0) & Attacks(t, sb, 0)) | SquareBB(sa) | SquareBB(sb);
          between[a][b] |= Attacks(t, sa, SquareBB(sb)) & Attacks(t, sb, SquareBB(sa));
        }
      }
    }
  }
}

}  // namespace

void InitBitboards() {
  static std::once_flag once;
  std::call_once(once, InitAll);
}

}  // namespace arbiter
