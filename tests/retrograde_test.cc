// The retrograde solver (core/tablebase/retrograde.h) against the real
// Syzygy tables through Debian's Fathom, against the project's own move
// generator, and against brute-force searches for helpmates.
//
// DTZ accounting. Syzygy DTZ files store, per table and per outcome class,
// either exact plies or full moves; in the latter case a stored n stands
// for 2n + 1 plies, so the value Fathom returns is the true DTZ or one ply
// less ("DTZ can be off by one unless the table has positions with DTZ =
// 100", Fathom's probe_dtz comment; the generator's default, used for the
// official files and for ../shared/syzygy). Positions of the side a DTZ file
// does not store are answered by a one-ply search over stored ones, which
// carries the same rounding. So we require |ours| == |Syzygy's| or
// |ours| == |Syzygy's| + 1, same sign, and count both cases.
#include "core/tablebase/retrograde.h"

#include <gtest/gtest.h>
#include <tbprobe.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/chess/bitboard.h"
#include "core/chess/movegen.h"
#include "core/chess/random_placement.h"
#include "core/mate/helpmate_search.h"
#include "tests/test_support.h"

namespace arbiter::tablebase {
namespace {

using ::arbiter::testing::FromFen;

// The 35 tables of the Syzygy 3-4-man set (../shared/syzygy/README.md).
const char* const kSyzygy345[] = {
    "KBvK",  "KNvK",  "KPvK",  "KQvK",  "KRvK",  "KBBvK", "KBNvK", "KBPvK", "KBvKB",
    "KBvKN", "KBvKP", "KNNvK", "KNPvK", "KNvKN", "KNvKP", "KPPvK", "KPvKP", "KQBvK",
    "KQNvK", "KQPvK", "KQQvK", "KQRvK", "KQvKB", "KQvKN", "KQvKP", "KQvKQ", "KQvKR",
    "KRBvK", "KRNvK", "KRPvK", "KRRvK", "KRvKB", "KRvKN", "KRvKP", "KRvKR",
};

// The tables every test shares (tests/test_support.h): read from
// $ARBITER_TABLES, where ctest's retrograde_tables_setup has generated them
// once with this build (`arbiter tables build`), else generated in memory.
// RetrogradeStore.RoundTripKeepsEveryEntryAndLine holds a table read back
// to the one generated, and RetrogradeSolver.SharedTablesAreThisBuilds the
// shared tables to a generation in this process.
RetrogradeSolver& Solver() { return ::arbiter::testing::TestTables(); }

std::shared_ptr<const RetrogradeTable> TableOf(const std::string& signature) {
  absl::StatusOr<std::shared_ptr<const RetrogradeTable>> t = Solver().Table(signature);
  EXPECT_TRUE(t.ok()) << signature << ": " << t.status();
  return t.ok() ? *t : nullptr;
}

// ---- Fathom ---------------------------------------------------------------

// Fathom keeps global state and this Debian build has no locking: it is
// initialised once and only ever called from the test's main thread.
bool SyzygyReady(std::string* why) {
  static int state = 0;  // 0 unknown, 1 ready, 2 absent
  static std::string reason;
  if (state == 0) {
    std::string shared = ::arbiter::testing::SharedDir();
    std::string dir = shared.empty() ? "" : shared + "/syzygy";
    if (dir.empty() || !std::filesystem::exists(dir + "/KQvK.rtbw")) {
      reason = "no Syzygy tables (set ARBITER_SHARED or put them in ../shared/syzygy)";
      state = 2;
    } else if (!tb_init(dir.c_str()) || TB_LARGEST < 4) {
      reason = "tb_init(" + dir + ") found no 4-man tables";
      state = 2;
    } else {
      state = 1;
    }
  }
  *why = reason;
  return state == 1;
}

struct FathomBoards {
  uint64_t white = 0, black = 0, kings = 0, queens = 0, rooks = 0, bishops = 0, knights = 0,
           pawns = 0;
  bool white_to_move = true;

  void Put(Piece p, Square s) {
    const uint64_t bb = uint64_t{1} << s;
    (ColorOf(p) == kWhite ? white : black) |= bb;
    switch (TypeOf(p)) {
      case kKing:
        kings |= bb;
        break;
      case kQueen:
        queens |= bb;
        break;
      case kRook:
        rooks |= bb;
        break;
      case kBishop:
        bishops |= bb;
        break;
      case kKnight:
        knights |= bb;
        break;
      default:
        pawns |= bb;
        break;
    }
  }
  unsigned Wdl(unsigned ep = 0) const {
    return tb_probe_wdl(white, black, kings, queens, rooks, bishops, knights, pawns, 0, 0, ep,
                        white_to_move);
  }
  unsigned Root() const {
    return tb_probe_root(white, black, kings, queens, rooks, bishops, knights, pawns, 0, 0, 0,
                         white_to_move, nullptr);
  }
};

FathomBoards BoardsOf(const RetrogradeTable::Entry& e) {
  FathomBoards b;
  for (int i = 0; i < e.men; ++i) b.Put(e.piece[i], e.square[i]);
  b.white_to_move = e.side_to_move == kWhite;
  return b;
}

FathomBoards BoardsOf(const Position& pos) {
  FathomBoards b;
  for (Bitboard all = pos.pieces(); all;) {
    Square s = PopLsb(all);
    b.Put(pos.piece_on(s), s);
  }
  b.white_to_move = pos.side_to_move() == kWhite;
  return b;
}

// ---- positions ------------------------------------------------------------

std::string FenOf(const RetrogradeTable::Entry& e) {
  char board[64];
  std::fill(board, board + 64, '.');
  const char* letters = " PNBRQK  pnbrqk";
  for (int i = 0; i < e.men; ++i) board[e.square[i]] = letters[e.piece[i]];
  std::string fen = FenPlacement(std::string_view(board, 64));
  fen += e.side_to_move == kWhite ? " w - - 0 1" : " b - - 0 1";
  return fen;
}

// The same position seen through a board symmetry and/or with the colours
// swapped (ranks mirrored): symmetry bit 0 mirrors files, bit 1 ranks, bit 2
// transposes; pawns allow only the file mirror.
RetrogradeTable::Entry Transformed(RetrogradeTable::Entry e, int symmetry, bool swap_colours) {
  for (int i = 0; i < e.men; ++i) {
    Square s = e.square[i];
    if (symmetry & 1) s = Square(s ^ 7);
    if (symmetry & 2) s = Square(s ^ 56);
    if (symmetry & 4) s = Layout::Transpose(s);
    if (swap_colours) {
      s = Flip(s);
      e.piece[i] = MakePiece(~ColorOf(e.piece[i]), TypeOf(e.piece[i]));
    }
    e.square[i] = s;
  }
  if (swap_colours) e.side_to_move = ~e.side_to_move;
  return e;
}

// ---- signatures and errors ------------------------------------------------

TEST(RetrogradeSignature, ParsesAndCanonicalises) {
  EXPECT_EQ(*CanonicalSignature("KRvKP"), "KRvKP");
  EXPECT_EQ(*CanonicalSignature("KPvKR"), "KRvKP");
  EXPECT_EQ(*CanonicalSignature("KNBvK"), "KBNvK");
  EXPECT_EQ(*CanonicalSignature("KvKQ"), "KQvK");
  EXPECT_EQ(*CanonicalSignature("KNvKB"), "KBvKN");
  EXPECT_EQ(*CanonicalSignature("KvK"), "KvK");
  EXPECT_EQ(CanonicalSignature("KQRvKR").status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(CanonicalSignature("KXvK").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CanonicalSignature("KQvQ").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CanonicalSignature("KQK").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SignatureOf(FromFen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")), "KQvK");
  EXPECT_EQ(SignatureOf(FromFen("8/8/8/8/8/2k5/2q5/K7 w - - 0 1")), "KQvK");
  EXPECT_EQ(SignatureOf(FromFen("8/8/3r4/8/8/2k5/2P5/K7 w - - 0 1")), "KRvKP");
}

TEST(RetrogradeProbe, RejectsWhatIsNotInTheTable) {
  auto krvk = TableOf("KRvK");
  ASSERT_NE(krvk, nullptr);
  // Castling rights.
  absl::StatusOr<Wdl> castling = krvk->ProbeWdl(FromFen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"));
  EXPECT_EQ(castling.status().code(), absl::StatusCode::kInvalidArgument);
  // Other material.
  absl::StatusOr<Wdl> other = krvk->ProbeWdl(FromFen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1"));
  EXPECT_EQ(other.status().code(), absl::StatusCode::kInvalidArgument);
  // Five men.
  absl::StatusOr<Wdl> five = Solver().ProbeWdl(FromFen("8/8/3r4/8/8/2k5/2PR4/K7 w - - 0 1"));
  EXPECT_EQ(five.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(Solver().Table("KRRvKR").status().code(), absl::StatusCode::kUnimplemented);
}

// ---- Syzygy ---------------------------------------------------------------

// WDL on the stored positions of every 3-4-man table, `percent` of them
// evenly spread (100: every one): each is one class of positions equal up
// to the board symmetries Syzygy folds too (and the order of identical
// men), White holding the stronger side; both sides to move, no e.p.
// right. DTZ on an evenly spread sample of about `dtz_samples_per_table`
// per table through tb_probe_root (rule50 = 0), whose DTZ is probe_dtz of
// the root.
void CompareStoredPositions(int percent, uint64_t dtz_samples_per_table) {
  uint64_t compared = 0, wdl_mismatches = 0;
  uint64_t dtz_compared = 0, dtz_exact = 0, dtz_one_short = 0, dtz_mismatches = 0;
  // Fathom stays on this thread; the next tables are loaded meanwhile.
  std::thread prefetch([] {
    for (const char* signature : kSyzygy345) (void)Solver().Table(signature);
  });
  for (const char* signature : kSyzygy345) {
    auto table = TableOf(signature);
    ASSERT_NE(table, nullptr);
    const uint64_t stride = std::max<uint64_t>(1, table->positions() / dtz_samples_per_table);
    uint64_t n = 0, w_n = 0, bad = 0, d_n = 0, d_exact = 0, d_short = 0, d_bad = 0;
    table->ForEachPosition([&](const RetrogradeTable::Entry& e) {
      // Position n is compared when n * percent / 100 steps up.
      const bool wdl_sample = (n + 1) * percent / 100 > n * percent / 100;
      const bool dtz_sample = n++ % stride == 0;
      if (!wdl_sample && !dtz_sample) return;
      const FathomBoards b = BoardsOf(e);
      if (wdl_sample) {
        ++w_n;
        const unsigned wdl = b.Wdl();
        if (wdl == TB_RESULT_FAILED || int(wdl) - 2 != int(e.wdl)) {
          if (bad++ < 5)
            ADD_FAILURE() << signature << " " << FenOf(e) << ": ours " << WdlName(e.wdl)
                          << ", Syzygy " << int(wdl) - 2;
        }
      }
      if (!dtz_sample) return;
      ++d_n;
      const unsigned root = b.Root();
      bool ok;
      if (root == TB_RESULT_CHECKMATE) {
        ok = e.wdl == Wdl::kLoss && e.dtz == 0;
        ++d_exact;
      } else if (root == TB_RESULT_STALEMATE) {
        ok = e.wdl == Wdl::kDraw && e.dtz == 0;
        ++d_exact;
      } else if (root == TB_RESULT_FAILED) {
        ok = false;
      } else {
        const int syzygy = int(TB_GET_DTZ(root)), ours = std::abs(e.dtz);
        ok = int(TB_GET_WDL(root)) - 2 == int(e.wdl) && (ours == 0) == (syzygy == 0);
        if (ours == syzygy) {
          ++d_exact;
        } else if (ours == syzygy + 1) {
          ++d_short;
        } else {
          ok = false;
        }
        if (!ok && d_bad < 5)
          ADD_FAILURE() << signature << " " << FenOf(e) << ": ours " << WdlName(e.wdl) << " dtz "
                        << e.dtz << ", Syzygy wdl " << int(TB_GET_WDL(root)) - 2 << " dtz "
                        << syzygy;
      }
      if (!ok) ++d_bad;
    });
    std::printf(
        "%-6s %9llu positions, WDL on %llu: mismatches %llu; DTZ %llu sampled: %llu exact, %llu "
        "one ply short in Syzygy, %llu mismatches\n",
        signature, (unsigned long long)n, (unsigned long long)w_n, (unsigned long long)bad,
        (unsigned long long)d_n, (unsigned long long)d_exact, (unsigned long long)d_short,
        (unsigned long long)d_bad);
    EXPECT_GT(w_n, 0u) << signature;
    compared += w_n;
    wdl_mismatches += bad;
    dtz_compared += d_n;
    dtz_exact += d_exact;
    dtz_one_short += d_short;
    dtz_mismatches += d_bad;
  }
  prefetch.join();
  std::printf(
      "WDL: %llu positions compared, %llu mismatches. DTZ: %llu compared, %llu exact, "
      "%llu one ply short in Syzygy (its documented rounding), %llu mismatches\n",
      (unsigned long long)compared, (unsigned long long)wdl_mismatches,
      (unsigned long long)dtz_compared, (unsigned long long)dtz_exact,
      (unsigned long long)dtz_one_short, (unsigned long long)dtz_mismatches);
  EXPECT_EQ(wdl_mismatches, 0u);
  EXPECT_EQ(dtz_mismatches, 0u);
}

// ---- probes through Position ----------------------------------------------

TEST(RetrogradeProbe, KnownPositions) {
  struct Case {
    const char* fen;
    Wdl wdl;
    int dtz;  // ours (exact); the comment gives the fathom CLI's where known
  };
  const Case cases[] = {
      {"8/8/8/8/8/2k5/8/KQ6 w - - 0 1", Wdl::kWin, 11},    // fathom 11
      {"8/8/8/8/8/2k5/8/KQ6 b - - 0 1", Wdl::kLoss, -14},  // fathom 14
      {"kq6/8/2K5/8/8/8/8/8 b - - 0 1", Wdl::kWin, 11},    // colours swapped
      {"7k/5K2/6Q1/8/8/8/8/8 b - - 0 1", Wdl::kDraw, 0},   // stalemate
      {"7k/5KQ1/8/8/8/8/8/8 b - - 0 1", Wdl::kLoss, 0},    // checkmated
      {"8/4k3/8/4P3/4K3/8/8/8 w - - 0 1", Wdl::kDraw, 0},
      {"7k/8/8/8/8/7P/8/7K w - - 0 1", Wdl::kDraw, 0},
      {"4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", Wdl::kWin, 3},  // fathom 3
      // fathom 58: KBNvK's DTZ file counts full moves, one ply short here.
      {"8/8/8/4k3/8/8/8/KBN5 w - - 0 1", Wdl::kWin, 59},
  };
  for (const Case& c : cases) {
    Position pos = FromFen(c.fen);
    absl::StatusOr<Wdl> wdl = Solver().ProbeWdl(pos);
    absl::StatusOr<int> dtz = Solver().ProbeDtz(pos);
    ASSERT_TRUE(wdl.ok() && dtz.ok()) << c.fen << ": " << wdl.status() << dtz.status();
    EXPECT_EQ(*wdl, c.wdl) << c.fen;
    EXPECT_EQ(*dtz, c.dtz) << c.fen;
  }
}

// Random stored positions seen through random board symmetries and colour
// swaps, probed through Position, against Fathom on the same Position.
void CompareOrientations() {
  std::mt19937_64 rng(20240605);
  uint64_t compared = 0;
  for (const char* signature :
       {"KQvK", "KPvK", "KRvKP", "KPvKP", "KBNvK", "KQvKR", "KNPvK", "KBvKB", "KPPvK"}) {
    auto table = TableOf(signature);
    ASSERT_NE(table, nullptr);
    const bool pawns = std::string(signature).find('P') != std::string::npos;
    const uint64_t stride = std::max<uint64_t>(1, table->positions() / 1500);
    uint64_t n = 0;
    table->ForEachPosition([&](const RetrogradeTable::Entry& stored) {
      if (n++ % stride != 0) return;
      const int symmetry = pawns ? int(rng() & 1) : int(rng() & 7);
      const RetrogradeTable::Entry e = Transformed(stored, symmetry, rng() & 1);
      Position pos = FromFen(FenOf(e));
      absl::StatusOr<Wdl> ours = table->ProbeWdl(pos);
      absl::StatusOr<int> dtz = table->ProbeDtz(pos);
      ASSERT_TRUE(ours.ok() && dtz.ok()) << FenOf(e) << ": " << ours.status();
      EXPECT_EQ(*ours, stored.wdl) << FenOf(e);
      EXPECT_EQ(*dtz, stored.dtz) << FenOf(e);
      EXPECT_EQ(int(BoardsOf(pos).Wdl()) - 2, int(*ours)) << FenOf(e);
      for (Color c : {kWhite, kBlack}) {
        const Color stored_colour = (e.side_to_move == stored.side_to_move) ? c : ~c;
        EXPECT_EQ(*table->CanMate(pos, c), stored.can_mate[stored_colour]) << FenOf(e);
      }
      ++compared;
    });
  }
  std::printf("%llu positions probed in random orientations\n", (unsigned long long)compared);
}

// Positions right after a double pawn push, where an e.p. capture is legal:
// our probes combine the stored value with the capture, Fathom probes with
// the e.p. square.
void CompareEnPassant() {
  std::mt19937_64 rng(7);
  uint64_t compared = 0, exact = 0, one_short = 0;
  for (int trial = 0; trial < 20000 && compared < 3000; ++trial) {
    // White pawn just pushed two squares (Black to move) or the mirror.
    const bool white_pushed = rng() & 1;
    const int file = int(rng() % 8), side = (file == 0 || (file < 7 && (rng() & 1))) ? 1 : -1;
    char board[64];
    std::fill(board, board + 64, '.');
    const int pushed_rank = white_pushed ? 3 : 4;
    board[pushed_rank * 8 + file] = white_pushed ? 'P' : 'p';
    board[pushed_rank * 8 + file + side] = white_pushed ? 'p' : 'P';
    // K+P v K+P is the only 4-man material with an e.p. capture.
    bool clash = false;
    for (char m : {'K', 'k'}) {
      int s = int(rng() % 64);
      if (board[s] != '.') {
        clash = true;
        break;
      }
      board[s] = m;
    }
    if (clash) continue;
    std::string fen = FenPlacement(std::string_view(board, 64));
    const int ep_rank = white_pushed ? 2 : 5;
    fen += white_pushed ? " b - " : " w - ";
    fen += char('a' + file);
    fen += char('1' + ep_rank);
    fen += " 0 1";
    absl::StatusOr<Position> pos = Position::FromFen(fen);
    if (!pos.ok() || pos->ep_square() == kNoSquare) continue;
    const FathomBoards b = BoardsOf(*pos);
    const unsigned wdl = b.Wdl(pos->ep_square());
    ASSERT_NE(wdl, TB_RESULT_FAILED) << fen;
    absl::StatusOr<Wdl> ours = Solver().ProbeWdl(*pos);
    absl::StatusOr<int> dtz = Solver().ProbeDtz(*pos);
    ASSERT_TRUE(ours.ok() && dtz.ok()) << fen << ": " << ours.status() << dtz.status();
    EXPECT_EQ(int(wdl) - 2, int(*ours)) << fen;
    const unsigned root =
        tb_probe_root(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops, b.knights, b.pawns,
                      0, 0, pos->ep_square(), b.white_to_move, nullptr);
    if (root != TB_RESULT_FAILED && root != TB_RESULT_CHECKMATE && root != TB_RESULT_STALEMATE) {
      const int syzygy = int(TB_GET_DTZ(root)), mine = std::abs(*dtz);
      EXPECT_TRUE(mine == syzygy || mine == syzygy + 1)
          << fen << ": ours " << *dtz << ", Syzygy " << syzygy;
      exact += mine == syzygy;
      one_short += mine == syzygy + 1;
    }
    ++compared;
  }
  std::printf("%llu e.p. positions: WDL all equal; DTZ %llu exact, %llu one ply short in Syzygy\n",
              (unsigned long long)compared, (unsigned long long)exact,
              (unsigned long long)one_short);
  EXPECT_GE(compared, 1000u);
}

// The three comparisons with Syzygy through Fathom (skipped without the
// Syzygy files). The default tier compares WDL on 6% of the stored
// positions and DTZ on 500 per table, the long tier (CASE/long) WDL on
// every one and DTZ on 4,000 per table.
TEST(RetrogradeSyzygy, AgreesOnStoredPositions) {
  std::string why;
  if (!SyzygyReady(&why)) GTEST_SKIP() << why;
  CompareStoredPositions(
      ::arbiter::testing::SampleSize(6, 100, "percent of the stored positions compared by WDL"),
      ::arbiter::testing::SampleSize(500, 4000, "positions per table compared by DTZ"));
}

TEST(RetrogradeSyzygy, AgreesInRandomOrientations) {
  std::string why;
  if (!SyzygyReady(&why)) GTEST_SKIP() << why;
  CompareOrientations();
}

TEST(RetrogradeSyzygy, AgreesAfterADoublePush) {
  std::string why;
  if (!SyzygyReady(&why)) GTEST_SKIP() << why;
  CompareEnPassant();
}

// ---- consistency with the project's move generator -------------------------

int Preference(int dtz) { return dtz > 0 ? (1 << 20) - dtz : dtz < 0 ? -(1 << 20) - dtz : 0; }

// The cooperative mate distance of `pos` for each colour, recomputed from
// its legal moves (MoveList, e.p. included) and the solver's probes of the
// successors: 0 if the side to move is checkmated by that colour, else one
// more than the least distance among the successors; -1 if it cannot mate.
std::array<int, 2> MateDistancesFromMoves(const Position& pos) {
  std::array<int, 2> best{-1, -1};
  MoveList moves(pos);
  if (moves.empty()) {
    if (pos.in_check()) best[~pos.side_to_move()] = 0;
    return best;
  }
  for (Move m : moves) {
    Position next = pos;
    next.DoMove(m);
    for (Color c : {kWhite, kBlack}) {
      absl::StatusOr<std::optional<int>> d = Solver().MateDistance(next, c);
      EXPECT_TRUE(d.ok()) << next.Fen() << ": " << d.status();
      if (!d.ok() || !d->has_value()) continue;
      if (best[c] < 0 || **d + 1 < best[c]) best[c] = **d + 1;
    }
  }
  return best;
}

std::array<int, 2> ProbedMateDistances(const Position& pos) {
  std::array<int, 2> out{-2, -2};
  for (Color c : {kWhite, kBlack}) {
    absl::StatusOr<std::optional<int>> d = Solver().MateDistance(pos, c);
    EXPECT_TRUE(d.ok()) << pos.Fen() << ": " << d.status();
    if (d.ok()) out[c] = d->value_or(-1);
  }
  return out;
}

// Recomputes each sampled position's DTZ and mate distances from its
// successors, generated by MoveList and probed through Position: the table
// must satisfy its own defining equations under the project's move rules.
// (RetrogradeMate.DistancesAndLinesInEveryTable checks the mate distances
// of every table.)
TEST(RetrogradeConsistency, EveryValueFollowsFromTheLegalMoves) {
  uint64_t checked = 0;
  // K+P v K+P (e.p. included) and tables it leads into anyway: each test is
  // its own process, and signatures with other sub-tables would cost time.
  for (const char* signature :
       {"KQvK", "KRvK", "KPvK", "KNNvK", "KBvKN", "KQvKQ", "KRvKR", "KRvKP", "KPvKP"}) {
    auto table = TableOf(signature);
    ASSERT_NE(table, nullptr);
    const uint64_t stride = std::max<uint64_t>(1, table->positions() / 800);
    uint64_t n = 0;
    table->ForEachPosition([&](const RetrogradeTable::Entry& e) {
      if (n++ % stride != 0) return;
      Position pos = FromFen(FenOf(e));
      int best = INT32_MIN;
      MoveList moves(pos);
      for (Move m : moves) {
        const bool zeroing = !pos.empty(m.to()) || TypeOf(pos.piece_on(m.from())) == kPawn;
        Position next = pos;
        next.DoMove(m);
        int value;
        if (next.in_check() && MoveList(next).empty()) {
          value = 1;
        } else {
          absl::StatusOr<Wdl> wdl = Solver().ProbeWdl(next);
          absl::StatusOr<int> dtz = Solver().ProbeDtz(next);
          ASSERT_TRUE(wdl.ok() && dtz.ok()) << next.Fen();
          if (zeroing) {
            const int by_wdl[] = {1, 101, 0, -101, -1};  // Syzygy's WdlToDtz, negated
            value = by_wdl[int(*wdl) + 2];
          } else {
            value = *dtz > 0 ? -(*dtz + 1) : *dtz < 0 ? -*dtz + 1 : 0;
          }
        }
        if (best == INT32_MIN || Preference(value) > Preference(best)) best = value;
      }
      if (moves.empty()) best = 0;
      EXPECT_EQ(e.dtz, best) << signature << " " << FenOf(e);
      EXPECT_EQ(e.wdl == Wdl::kLoss && e.dtz == 0, moves.empty() && pos.in_check()) << FenOf(e);
      const std::array<int, 2> mate = MateDistancesFromMoves(pos);
      for (Color c : {kWhite, kBlack}) {
        EXPECT_EQ(e.mate_distance[c], mate[c]) << FenOf(e) << " colour " << int(c);
        EXPECT_EQ(e.can_mate[c], mate[c] >= 0) << FenOf(e);
        EXPECT_EQ(*Solver().CanMate(pos, c), mate[c] >= 0) << FenOf(e);
      }
      ++checked;
    });
  }
  // A known case: White wins only through dxe6 e.p. (arbiter keeps the e.p.
  // square only when the capture is legal).
  Position with_ep = FromFen("8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 1");
  ASSERT_NE(with_ep.ep_square(), kNoSquare);
  EXPECT_EQ(*Solver().ProbeWdl(with_ep), Wdl::kWin);
  EXPECT_EQ(*Solver().ProbeDtz(with_ep), 1);
  EXPECT_EQ(*Solver().ProbeWdl(FromFen("8/8/8/k2Pp3/8/8/8/4K3 w - - 0 1")), Wdl::kDraw);
  std::printf("%llu positions re-derived from MoveList\n", (unsigned long long)checked);
}

// ---- cooperative mate reachability ----------------------------------------

enum class Found { kMate, kNoMate, kBudget };

int NonKingMen(const Position& pos, Color c) {
  return PopCount(pos.pieces(c) & ~pos.pieces(kKing));
}

// Breadth-first search over the positions reachable from `start`, both
// sides cooperating, for a checkmate given by `winner`: kNoMate means the
// whole reachable set was explored; on kMate, `*plies` (if given) is the
// depth of the mate found, which breadth-first order makes the shortest,
// i.e. the cooperative mate distance. Positions where `winner` has a bare
// king are not expanded (it can never give check again). With
// `prune_lone_minor`, neither are positions where `winner` has a single
// knight or bishop against a bare king (KNvK, KBvK: mate-free, proven by
// exhaustive search in RetrogradeMate.BruteForceSearchAgrees).
Found FindMate(const Position& start, Color winner, size_t budget, bool prune_lone_minor,
               int* plies = nullptr) {
  std::unordered_set<uint64_t> seen = {start.key()};
  std::vector<Position> frontier = {start};
  for (int depth = 0; !frontier.empty(); ++depth) {
    std::vector<Position> next_frontier;
    for (const Position& pos : frontier) {
      MoveList moves(pos);
      if (moves.empty()) {
        if (pos.in_check() && pos.side_to_move() != winner) {
          if (plies != nullptr) *plies = depth;
          return Found::kMate;
        }
        continue;
      }
      const int men = NonKingMen(pos, winner);
      if (men == 0) continue;
      if (prune_lone_minor && men == 1 && NonKingMen(pos, ~winner) == 0 &&
          (pos.pieces(winner, kKnight) | pos.pieces(winner, kBishop)))
        continue;
      for (Move m : moves) {
        Position next = pos;
        next.DoMove(m);
        if (!seen.insert(next.key()).second) continue;
        if (seen.size() > budget) return Found::kBudget;
        next_frontier.push_back(std::move(next));
      }
    }
    frontier = std::move(next_frontier);
  }
  return Found::kNoMate;
}

// Replays `line` with legality checked by MoveList; true if it ends with
// `winner` having given checkmate.
bool ReplaysToMate(Position pos, const std::vector<Move>& line, Color winner) {
  for (Move m : line) {
    if (!IsLegalMove(pos, m)) return false;
    pos.DoMove(m);
  }
  return pos.side_to_move() != winner && pos.in_check() && MoveList(pos).empty();
}

bool SameColouredBishops(const RetrogradeTable::Entry& e) {
  int colours = 0;
  for (int i = 0; i < e.men; ++i)
    if (TypeOf(e.piece[i]) == kBishop) colours |= (kDarkSquares >> e.square[i]) & 1 ? 1 : 2;
  return colours != 3;
}

// Facts every chess arbiter knows, asserted on every stored position.
// "Can mate" exceptions where a side with mating material cannot mate
// (stalemates, forced captures) are each confirmed by brute force.
TEST(RetrogradeMate, KnownFactsOnEveryPosition) {
  struct Fact {
    const char* signature;
    bool white, black;  // expected "can mate" (true: except confirmed dead ends)
    bool only_opposite_bishops = false;
    bool only_same_bishops = false;
  };
  const Fact facts[] = {
      {"KvK", false, false},
      {"KNvK", false, false},
      {"KBvK", false, false},
      {"KQvK", true, false},
      {"KRvK", true, false},
      {"KPvK", true, false},
      {"KNNvK", true, false},
      {"KNvKN", true, true},
      {"KBvKN", true, true},
      {"KBvKB", true, true, true},
      {"KBvKB", false, false, false, true},
      {"KBBvK", true, false, true},  // bishops on both colours
      {"KBBvK", false, false, false, true},
  };
  for (const Fact& f : facts) {
    auto table = TableOf(f.signature);
    ASSERT_NE(table, nullptr);
    uint64_t n = 0, yes[2] = {}, exceptions = 0, confirmed = 0;
    table->ForEachPosition([&](const RetrogradeTable::Entry& e) {
      if (f.only_opposite_bishops && SameColouredBishops(e)) return;
      if (f.only_same_bishops && !SameColouredBishops(e)) return;
      ++n;
      for (Color c : {kWhite, kBlack}) {
        const bool expected = c == kWhite ? f.white : f.black;
        yes[c] += e.can_mate[c];
        if (!expected) {
          EXPECT_FALSE(e.can_mate[c]) << f.signature << " " << FenOf(e) << " colour " << int(c);
        } else if (!e.can_mate[c]) {
          // A dead end: confirm it (the first few hundred; they repeat).
          if (++exceptions > 300) continue;
          Found found = FindMate(FromFen(FenOf(e)), c, 200000, true);
          EXPECT_EQ(found, Found::kNoMate)
              << f.signature << " " << FenOf(e) << " colour " << int(c);
          confirmed += found == Found::kNoMate;
        }
      }
    });
    std::printf(
        "%-6s%s %9llu positions: White can mate in %llu, Black in %llu; %llu dead ends "
        "for the side with mating material (%llu confirmed by search)\n",
        f.signature,
        f.only_same_bishops       ? " (same-coloured bishops)"
        : f.only_opposite_bishops ? " (bishops on both colours)"
                                  : "",
        (unsigned long long)n, (unsigned long long)yes[kWhite], (unsigned long long)yes[kBlack],
        (unsigned long long)exceptions, (unsigned long long)confirmed);
    // Dead ends are rare: stalemates and forced captures.
    if (f.white) {
      EXPECT_GT(yes[kWhite], n * 95 / 100) << f.signature;
    }
    if (f.black) {
      EXPECT_GT(yes[kBlack], n * 95 / 100) << f.signature;
    }
  }
}

// Independent brute force on sampled positions (15 per 3-man table and 5
// per 4-man table in the default tier, 40 and 10 in the long tier). A "no"
// in a 3-man table must survive the exhaustive exploration of every
// reachable position; a "yes" must lead to a mate found by breadth-first
// search at exactly the table's distance (3 men: always within the budget;
// 4 men: helpmates can be long, so a small budget may run out, but the
// search must never exhaust the reachable set first). Beyond the budget,
// the project's helpmate search may find a line (never shorter than the
// distance); failing that, the solver's own MatingLine is replayed move by
// move with MoveList.
TEST(RetrogradeMate, BruteForceSearchAgrees) {
  for (const char* signature : {"KNvK", "KBvK"}) {
    auto table = TableOf(signature);
    ASSERT_NE(table, nullptr);
    int checked = 0;
    uint64_t n = 0;
    table->ForEachPosition([&](const RetrogradeTable::Entry& e) {
      if (checked >= 1 || n++ < 20000) return;
      EXPECT_FALSE(e.can_mate[kWhite]);
      // Every placement of the minor piece and the kings, then K v K.
      EXPECT_EQ(FindMate(FromFen(FenOf(e)), kWhite, 3000000, false), Found::kNoMate) << FenOf(e);
      ++checked;
    });
    EXPECT_EQ(checked, 1);
  }
  struct Sample {
    const char* signature;
    int count;
    size_t budget;
  };
  const int three_men =
      ::arbiter::testing::SampleSize(15, 40, "positions per 3-man table searched by brute force");
  const int four_men =
      ::arbiter::testing::SampleSize(5, 10, "positions per 4-man table searched by brute force");
  uint64_t found = 0, exact = 0, by_helpmate_search = 0, by_mating_line = 0, inconclusive = 0;
  for (const Sample& sample :
       {Sample{"KQvK", three_men, 1000000}, Sample{"KRvK", three_men, 1000000},
        Sample{"KPvK", three_men, 1000000}, Sample{"KNvKN", four_men, 20000},
        Sample{"KBvKN", four_men, 20000}, Sample{"KBvKB", four_men, 20000},
        Sample{"KNNvK", four_men, 20000}}) {
    auto table = TableOf(sample.signature);
    ASSERT_NE(table, nullptr);
    const bool three_men = std::string(sample.signature).size() == 4;
    const uint64_t stride = std::max<uint64_t>(1, table->positions() / sample.count);
    uint64_t n = 0;
    table->ForEachPosition([&](const RetrogradeTable::Entry& e) {
      if (n++ % stride != 0) return;
      for (Color c : {kWhite, kBlack}) {
        if (!e.can_mate[c]) continue;
        Position pos = FromFen(FenOf(e));
        int plies = -1;
        Found f = FindMate(pos, c, sample.budget, false, &plies);
        EXPECT_NE(f, Found::kNoMate) << sample.signature << " " << FenOf(e) << " colour " << int(c);
        if (f == Found::kMate) {
          EXPECT_EQ(plies, e.mate_distance[c]) << sample.signature << " " << FenOf(e);
          exact += plies == e.mate_distance[c];
        }
        if (f == Found::kBudget) {
          // Long helpmate: let the project's helpmate search (iterative
          // deepening, ordered toward mate) find a line, and replay it.
          HelpmateSearch search(c, 3000000, size_t{16} << 20);
          std::vector<Move> line;
          if (search.Find(pos, 40, &line) && ReplaysToMate(pos, line, c)) {
            EXPECT_GE(int(line.size()), e.mate_distance[c]) << FenOf(e);
            f = Found::kMate;
            ++by_helpmate_search;
          }
        }
        if (f == Found::kBudget) {
          // Still open: the solver's shortest line, replayed independently.
          absl::StatusOr<std::vector<Move>> line = Solver().MatingLine(pos, c);
          ASSERT_TRUE(line.ok()) << FenOf(e) << ": " << line.status();
          EXPECT_EQ(int(line->size()), e.mate_distance[c]) << FenOf(e);
          if (ReplaysToMate(pos, *line, c)) {
            f = Found::kMate;
            ++by_mating_line;
          }
        }
        if (three_men) {
          EXPECT_EQ(f, Found::kMate) << sample.signature << " " << FenOf(e);
        }
        found += f == Found::kMate;
        inconclusive += f == Found::kBudget;
      }
    });
  }
  std::printf(
      "sampled \"yes\" answers: %llu helpmates found and replayed (%llu by breadth-first "
      "search at exactly the table's distance, %llu by the helpmate search, %llu beyond both "
      "searches' budgets confirmed by replaying MatingLine), %llu unconfirmed\n",
      (unsigned long long)found, (unsigned long long)exact, (unsigned long long)by_helpmate_search,
      (unsigned long long)by_mating_line, (unsigned long long)inconclusive);
  EXPECT_EQ(inconclusive, 0u);
}

// ---- cooperative mate distances ------------------------------------------

TEST(RetrogradeMate, DistanceAndLineProbes) {
  struct Case {
    const char* fen;
    int white, black;  // mate distances, -1: cannot mate
  };
  const Case cases[] = {
      {"7k/5KQ1/8/8/8/8/8/8 b - - 0 1", 0, -1},    // checkmated
      {"7k/5K2/6Q1/8/8/8/8/8 b - - 0 1", -1, -1},  // stalemate
      {"7k/5K2/8/8/8/8/8/6Q1 w - - 0 1", 1, -1},   // Qg7#
      {"7k/5K2/8/8/8/8/8/6Q1 b - - 0 1", 2, -1},   // ...Kh7 (forced), Qh1#
      {"8/8/8/8/8/8/8/K1k5 w - - 0 1", -1, -1},    // bare kings
  };
  for (const Case& c : cases) {
    Position pos = FromFen(c.fen);
    const std::array<int, 2> probed = ProbedMateDistances(pos);
    const std::array<int, 2> derived = MateDistancesFromMoves(pos);
    EXPECT_EQ(probed, derived) << c.fen;
    EXPECT_EQ(probed[kWhite], c.white) << c.fen;
    EXPECT_EQ(probed[kBlack], c.black) << c.fen;
    for (Color side : {kWhite, kBlack}) {
      absl::StatusOr<std::vector<Move>> line = Solver().MatingLine(pos, side);
      if (probed[side] < 0) {
        EXPECT_EQ(line.status().code(), absl::StatusCode::kNotFound) << c.fen;
      } else {
        ASSERT_TRUE(line.ok()) << c.fen << ": " << line.status();
        EXPECT_EQ(int(line->size()), probed[side]) << c.fen;
        EXPECT_TRUE(ReplaysToMate(pos, *line, side)) << c.fen;
      }
    }
  }
  // K+B+N v K: White mates; Black, with a bare king, never.
  Position kbnk = FromFen("8/8/8/4k3/8/8/8/KBN5 w - - 0 1");
  absl::StatusOr<std::optional<int>> d = Solver().MateDistance(kbnk, kWhite);
  ASSERT_TRUE(d.ok() && d->has_value());
  absl::StatusOr<std::vector<Move>> line = Solver().MatingLine(kbnk, kWhite);
  ASSERT_TRUE(line.ok()) << line.status();
  EXPECT_EQ(int(line->size()), **d);
  EXPECT_TRUE(ReplaysToMate(kbnk, *line, kWhite));
  // Errors pass through: castling rights, five men.
  EXPECT_EQ(
      Solver().MateDistance(FromFen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), kWhite).status().code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      Solver().MatingLine(FromFen("8/8/3r4/8/8/2k5/2PR4/K7 w - - 0 1"), kWhite).status().code(),
      absl::StatusCode::kUnimplemented);
}

// `fen` with its e.p. field replaced by "-".
std::string WithoutEnPassant(const std::string& fen) {
  size_t start = 0;
  for (int field = 0; field < 3; ++field) start = fen.find(' ', start) + 1;
  return fen.substr(0, start) + "-" + fen.substr(fen.find(' ', start));
}

// Positions right after a double push that allows an e.p. capture (K+P v
// K+P, the only 4-man material with one): the probe combines the stored
// distance with the capture; it must match the moves, and the line replay.
// Run by DistancesAndLinesInEveryTable on `want` such positions.
void CheckDistancesWithEnPassant(uint64_t want) {
  auto table = TableOf("KPvKP");
  ASSERT_NE(table, nullptr);
  uint64_t checked = 0, lines = 0, shortened = 0;
  table->ForEachPosition([&](const RetrogradeTable::Entry& e) {
    if (checked >= want) return;
    Position pos = FromFen(FenOf(e));
    for (Move m : MoveList(pos)) {
      if (TypeOf(pos.piece_on(m.from())) != kPawn || std::abs(int(m.to()) - int(m.from())) != 16)
        continue;
      Position next = pos;
      next.DoMove(m);
      if (next.ep_square() == kNoSquare) continue;
      const std::array<int, 2> probed = ProbedMateDistances(next);
      EXPECT_EQ(probed, MateDistancesFromMoves(next)) << next.Fen();
      // The same placement without the e.p. right, as stored in the table.
      Position plain = FromFen(WithoutEnPassant(next.Fen()));
      ASSERT_EQ(plain.ep_square(), kNoSquare) << plain.Fen();
      const std::array<int, 2> stored = ProbedMateDistances(plain);
      for (Color c : {kWhite, kBlack}) {
        shortened += probed[c] != stored[c];
        if (probed[c] < 0) continue;
        absl::StatusOr<std::vector<Move>> line = Solver().MatingLine(next, c);
        ASSERT_TRUE(line.ok()) << next.Fen() << ": " << line.status();
        EXPECT_EQ(int(line->size()), probed[c]) << next.Fen();
        EXPECT_TRUE(ReplaysToMate(next, *line, c)) << next.Fen();
        ++lines;
      }
      ++checked;
    }
  });
  std::printf(
      "%llu positions with an e.p. right: distances follow from the moves, %llu lines "
      "replayed; the e.p. capture changes %llu distances\n",
      (unsigned long long)checked, (unsigned long long)lines, (unsigned long long)shortened);
  EXPECT_GE(checked, want);
}

// Every table, both colours:
//  - the largest distance over all positions, printed with a position;
//  - a deterministic sample of a thousand positions (3,000 in the long
//    tier), each probed through Position in a random board symmetry and
//    colour swap, whose distance must equal the stored one and follow from
//    its legal moves (0 iff checkmated by that colour, else 1 + the least
//    successor);
//  - fifty mating lines per colour that can mate (150 in the long tier;
//    three times as many in tables with long helpmates), the longest
//    positions of the table included, replayed with IsLegalMove/DoMove:
//    each ends in checkmate by that colour after exactly the distance.
//  - then CheckDistancesWithEnPassant.
TEST(RetrogradeMate, DistancesAndLinesInEveryTable) {
  const uint64_t kConsistencySamples =
      ::arbiter::testing::SampleSize(1000, 3000, "positions re-derived per table");
  // Per colour, plus the longest.
  const uint64_t kLineSamples =
      ::arbiter::testing::SampleSize(50, 150, "mating lines per colour and table");
  constexpr uint64_t kLongest = 50;  // per colour: positions at the maximum
  // Long helpmates: more lines.
  const std::set<std::string> long_tables = {"KBvKB", "KNNvK", "KNvKN", "KBvKN", "KRvKN", "KPvKP"};
  std::vector<std::string> signatures = {"KvK"};
  signatures.insert(signatures.end(), std::begin(kSyzygy345), std::end(kSyzygy345));
  std::thread prefetch([&] {
    for (const std::string& signature : signatures) (void)Solver().Table(signature);
  });
  std::mt19937_64 rng(20261122);
  uint64_t total_checked = 0, total_lines = 0, total_line_plies = 0;
  for (const std::string& signature : signatures) {
    auto table = TableOf(signature);
    ASSERT_NE(table, nullptr);
    const bool pawns = signature.find('P') != std::string::npos;
    // Pass 1: the maxima.
    std::array<int, 2> max{-1, -1};
    std::array<uint64_t, 2> can{};
    std::array<std::string, 2> longest_fen;
    uint64_t visited = 0;
    table->ForEachPosition([&](const RetrogradeTable::Entry& e) {
      ++visited;
      for (Color c : {kWhite, kBlack}) {
        EXPECT_EQ(e.can_mate[c], e.mate_distance[c] >= 0);
        if (e.mate_distance[c] < 0) continue;
        ++can[c];
        EXPECT_LE(e.mate_distance[c], 254);
        if (e.mate_distance[c] > max[c]) {
          max[c] = e.mate_distance[c];
          longest_fen[c] = FenOf(e);
        }
      }
    });
    // Pass 2: the samples.
    const bool many = long_tables.count(signature) > 0;
    const uint64_t line_samples = many ? 3 * kLineSamples : kLineSamples;
    const uint64_t stride = std::max<uint64_t>(1, visited / kConsistencySamples);
    std::array<uint64_t, 2> line_stride{};
    for (Color c : {kWhite, kBlack}) line_stride[c] = std::max<uint64_t>(1, can[c] / line_samples);
    std::array<uint64_t, 2> seen_can{}, longest_lines{}, lines{};
    uint64_t n = 0, checked = 0;
    table->ForEachPosition([&](const RetrogradeTable::Entry& stored) {
      const bool sample = n++ % stride == 0;
      std::array<bool, 2> want_line{};
      for (Color c : {kWhite, kBlack}) {
        if (stored.mate_distance[c] < 0) continue;
        const bool longest = stored.mate_distance[c] == max[c] && longest_lines[c] < kLongest;
        want_line[c] = longest || seen_can[c]++ % line_stride[c] == 0;
        longest_lines[c] += longest;
      }
      if (!sample && !want_line[kWhite] && !want_line[kBlack]) return;
      const int symmetry = pawns ? int(rng() & 1) : int(rng() & 7);
      const bool swap = rng() & 1;
      const RetrogradeTable::Entry e = Transformed(stored, symmetry, swap);
      const Position pos = FromFen(FenOf(e));
      // Colour c of the stored entry is colour c' of `pos`.
      auto actual = [&](Color c) { return swap ? ~c : c; };
      if (sample) {
        const std::array<int, 2> probed = ProbedMateDistances(pos);
        const std::array<int, 2> derived = MateDistancesFromMoves(pos);
        for (Color c : {kWhite, kBlack}) {
          EXPECT_EQ(probed[actual(c)], stored.mate_distance[c])
              << signature << " " << FenOf(e) << " colour " << int(actual(c));
          EXPECT_EQ(derived[actual(c)], stored.mate_distance[c])
              << signature << " " << FenOf(e) << " colour " << int(actual(c));
        }
        ++checked;
      }
      for (Color c : {kWhite, kBlack}) {
        if (!want_line[c]) continue;
        absl::StatusOr<std::vector<Move>> line = table->MatingLine(pos, actual(c));
        ASSERT_TRUE(line.ok()) << signature << " " << FenOf(e) << ": " << line.status();
        EXPECT_EQ(int(line->size()), stored.mate_distance[c]) << signature << " " << FenOf(e);
        EXPECT_TRUE(ReplaysToMate(pos, *line, actual(c)))
            << signature << " " << FenOf(e) << " colour " << int(actual(c));
        ++lines[c];
        total_line_plies += line->size();
      }
    });
    std::printf(
        "%-6s max mate distance: White %3d (%s), Black %3d (%s); %llu positions re-derived; "
        "%llu + %llu lines replayed (%llu + %llu at the maximum)\n",
        signature.c_str(), max[kWhite], max[kWhite] < 0 ? "-" : longest_fen[kWhite].c_str(),
        max[kBlack], max[kBlack] < 0 ? "-" : longest_fen[kBlack].c_str(),
        (unsigned long long)checked, (unsigned long long)lines[kWhite],
        (unsigned long long)lines[kBlack], (unsigned long long)longest_lines[kWhite],
        (unsigned long long)longest_lines[kBlack]);
    total_checked += checked;
    total_lines += lines[kWhite] + lines[kBlack];
  }
  prefetch.join();
  std::printf("%llu positions re-derived from MoveList, %llu mating lines (%llu plies) replayed\n",
              (unsigned long long)total_checked, (unsigned long long)total_lines,
              (unsigned long long)total_line_plies);
  SCOPED_TRACE("en passant");
  CheckDistancesWithEnPassant(
      ::arbiter::testing::SampleSize(1000, 3000, "positions with an e.p. right"));
}

// ---- solver ----------------------------------------------------------------

// The shared tables (Solver(): read from $ARBITER_TABLES when set) are this
// build's: tables generated here, in memory, hold the same entries, in the
// same order. Tables left by a build whose generator differed fail here
// (delete the directory to regenerate them).
TEST(RetrogradeSolver, SharedTablesAreThisBuilds) {
  RetrogradeSolver fresh;
  // Pawns and promotions (KPvK leads into KQvK, KRvK, KBvK, KNvK), and a
  // table where both sides can mate.
  for (const char* signature : {"KPvK", "KBvKN"}) {
    absl::StatusOr<std::shared_ptr<const RetrogradeTable>> generated = fresh.Table(signature);
    ASSERT_TRUE(generated.ok()) << signature << ": " << generated.status();
    auto shared = TableOf(signature);
    ASSERT_NE(shared, nullptr);
    std::vector<RetrogradeTable::Entry> entries;
    (*generated)->ForEachPosition([&](const RetrogradeTable::Entry& e) { entries.push_back(e); });
    size_t i = 0, mismatches = 0;
    shared->ForEachPosition([&](const RetrogradeTable::Entry& e) {
      const bool same = i < entries.size() && e.square == entries[i].square &&
                        e.side_to_move == entries[i].side_to_move && e.wdl == entries[i].wdl &&
                        e.dtz == entries[i].dtz && e.mate_distance == entries[i].mate_distance &&
                        e.can_mate == entries[i].can_mate;
      if (!same && ++mismatches <= 5)
        ADD_FAILURE() << signature << " " << FenOf(e) << " differs from this build's table";
      ++i;
    });
    EXPECT_EQ(i, entries.size()) << signature;
    EXPECT_EQ(mismatches, 0u) << signature;
    EXPECT_GT(entries.size(), 0u) << signature;
  }
  EXPECT_EQ(fresh.tables_loaded(), 0u);
}

TEST(RetrogradeSolver, ConcurrentRequestsShareTables) {
  RetrogradeSolver solver;
  const std::vector<std::string> signatures = {"KQvK", "KvKR", "KPvK", "KNvKN", "KBvK"};
  std::vector<std::vector<const RetrogradeTable*>> got(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (size_t k = 0; k < signatures.size(); ++k) {
        const std::string& sig = signatures[(k + t) % signatures.size()];
        absl::StatusOr<std::shared_ptr<const RetrogradeTable>> table = solver.Table(sig);
        got[t].push_back(table.ok() ? table->get() : nullptr);
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) {
    for (size_t k = 0; k < signatures.size(); ++k) {
      const RetrogradeTable* mine = got[t][k];
      const RetrogradeTable* first = got[0][(k + t) % signatures.size()];
      ASSERT_NE(mine, nullptr);
      EXPECT_EQ(mine, first);
    }
  }
  EXPECT_EQ((*solver.Table("KRvK"))->signature(), "KRvK");
  EXPECT_GT(solver.bytes(), 0u);
}

}  // namespace
}  // namespace arbiter::tablebase
