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
int magic_searches = 0;

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

// The multipliers the trial search below finds from kMagicSeeds, kept so
// that start-up only fills the tables: the search cost ~30 ms per process,
// as much as answering a thousand positions. Each is checked while its
// table is filled; one that does not fit (an edited table) is searched for
// again, so a wrong entry costs time, never a wrong attack.
constexpr uint64_t kStoredRookMagics[64] = {
    0x0200108042002100ULL, 0x0200108042002100ULL, 0x2080200080081000ULL, 0x4500100008052100ULL,
    0x0200020020040810ULL, 0x0100010004000802ULL, 0x1300090000840200ULL, 0x4080002040800100ULL,
    0x0080802040008000ULL, 0x0006802000804008ULL, 0x0805801004a00380ULL, 0x6003002300100008ULL,
    0x0042001004082200ULL, 0x8012000830020025ULL, 0x04c0800200800100ULL, 0x100280010000c380ULL,
    0x020a060020408100ULL, 0x020a060020408100ULL, 0x2348410020010010ULL, 0x2000828010000800ULL,
    0x2009010010080004ULL, 0x9000808004000200ULL, 0x4410010100020004ULL, 0x0400020001006084ULL,
    0x4280064440022002ULL, 0x0290400500290082ULL, 0x0288100880200080ULL, 0x0044200900100100ULL,
    0x2000040080080080ULL, 0x0002000200080410ULL, 0x0805100c00010228ULL, 0x2111040200008041ULL,
    0xb0804000918000a0ULL, 0x08a0400080802000ULL, 0x8000801000802000ULL, 0x1000180081801000ULL,
    0x0008800400800800ULL, 0x000a000402000810ULL, 0x410a020104001008ULL, 0x00cc304882000904ULL,
    0x2000400080028020ULL, 0x16004201008a0020ULL, 0x8090002000410100ULL, 0x4048100008008080ULL,
    0x44a8020004004040ULL, 0x8000020004008080ULL, 0x420600d40b020008ULL, 0x00087085630a0004ULL,
    0x0804502607008200ULL, 0x8020008020400080ULL, 0x0230802008100080ULL, 0x040820400a001200ULL,
    0x0080cc0008008180ULL, 0x8300020080040080ULL, 0x00020021a4080200ULL, 0x0200004902840600ULL,
    0x0008430011608001ULL, 0x04c0400028110085ULL, 0x0100804008201202ULL, 0x0122e10018041001ULL,
    0x10aa002008041002ULL, 0x801a000441104802ULL, 0x00001a0088100904ULL, 0x4014004620850406ULL,
};
constexpr uint64_t kStoredBishopMagics[64] = {
    0x0082781041060020ULL, 0x842908010c10204cULL, 0x0010008200480144ULL, 0x2104043081003020ULL,
    0x0204050400000340ULL, 0x0100880441085400ULL, 0x498b88080807084cULL, 0x0040402208024010ULL,
    0x1082086001842100ULL, 0x000c200845046180ULL, 0x0880840104010801ULL, 0x2200882080208910ULL,
    0x0007020210800080ULL, 0x0a00010420050280ULL, 0x1000020804420804ULL, 0x80000300b0842000ULL,
    0x0440002002c40140ULL, 0x211008200200c110ULL, 0x0170001220204500ULL, 0x1c00800802084100ULL,
    0x0801044820080006ULL, 0x0005008201008280ULL, 0x1003101201412000ULL, 0x0005008201008280ULL,
    0x1002400221080240ULL, 0x0201208008082108ULL, 0x9008010410840080ULL, 0x20b4802008020020ULL,
    0x8811010006104000ULL, 0x0010088001008080ULL, 0x4408008401008800ULL, 0x80041020028e0120ULL,
    0x8010082040880200ULL, 0x0038040218110200ULL, 0x0002108800500041ULL, 0x0082e02020080081ULL,
    0x00140100109c0040ULL, 0x4001013100020040ULL, 0x800a080630810084ULL, 0x4000840840008200ULL,
    0x0446101007040802ULL, 0x1044308808000411ULL, 0x0088802088084040ULL, 0x400003420082080bULL,
    0x00b0010202000420ULL, 0x4040080080200900ULL, 0x601082008400410aULL, 0x8242281044810508ULL,
    0x0051010120200040ULL, 0x1000212822100402ULL, 0x04a0108048083200ULL, 0x0400480520884812ULL,
    0x81828491020200a0ULL, 0x81828491020200a0ULL, 0x0210600240820004ULL, 0x81828491020200a0ULL,
    0x0221410070022000ULL, 0x800290540a011000ULL, 0x2c00360704011104ULL, 0x010882c000841100ULL,
    0x0040440040082201ULL, 0x0102222014090a02ULL, 0x0c000930b0020440ULL, 0x0021025000410040ULL,
};

// Finds a magic multiplier per square by trial (the approach popularised by
// Stockfish), where the stored one does not fit.
// PRNG seeds per rank that find all magics after few trials (chosen by
// timing the search over candidate seeds; any seed works, only slower).
constexpr uint64_t kMagicSeeds[8] = {
    0x86b6a9743bb32f91ULL, 0x3887a75813ba023cULL, 0x282e9bfe670e8b67ULL, 0x60c19af9a2f419aaULL,
    0x94fadba8415f4ee9ULL, 0x134bc656cd6d1184ULL, 0xd06e3b718a5e68d9ULL, 0xdf7df54df624bc61ULL,
};

void InitMagics(Magic* magics, Bitboard* table, const int (*dirs)[2], const uint64_t* stored) {
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
    bool first_try = true;
    for (int i = 0; i < size;) {
      if (first_try) {
        m.magic = stored[si];
        first_try = false;
      } else {
        ++bb_internal::magic_searches;
        do {
          m.magic = prng.Sparse();
        } while (PopCount((m.mask * m.magic) >> 56) < 6);
      }
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
  InitMagics(rook_magics, rook_table, kRookDirs, kStoredRookMagics);
  InitMagics(bishop_magics, bishop_table, kBishopDirs, kStoredBishopMagics);
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
