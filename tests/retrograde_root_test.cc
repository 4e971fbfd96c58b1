// Root probes from the retrograde tables (core/tablebase/retrograde_root.h)
// against SyzygyTablebase::ProbeRoot on the real Syzygy tables
// (../shared/syzygy, through Fathom): the same RootResult, except that the
// retrograde DTZ is exact where Syzygy's may be one ply short (a stored n
// stands for n or n + 1 plies, wdl_category.h). So where Syzygy's value is
// known to be precise (precise_dtz) the two must be equal, elsewhere ours
// must be n or n + 1 in magnitude with the same sign; and where rounding
// leaves Syzygy's category open (maybe-win / maybe-loss), ours must be one
// of the two it stands for.
#include "core/tablebase/retrograde_root.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/chess/movegen.h"
#include "core/chess/random_placement.h"
#include "core/tablebase/retrograde.h"
#include "core/tablebase/syzygy.h"
#include "core/tablebase/wdl_category.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

using ::arbiter::testing::FromFen;

// The retrograde tables every test shares (tests/test_support.h): read from
// $ARBITER_TABLES, where ctest's retrograde_tables_setup has generated them
// once with this build, else generated in memory.
RetrogradeSolver& Solver() { return ::arbiter::testing::TestTables(); }

// Opens ../shared/syzygy once per process (Fathom holds one set anyway).
std::shared_ptr<const SyzygyTablebase> OpenSyzygy(std::string* why) {
  const std::string shared = ::arbiter::testing::SharedDir();
  const std::string dir = shared.empty() ? "" : shared + "/syzygy";
  if (dir.empty() || !std::filesystem::is_directory(dir)) {
    *why = "no Syzygy tables: set ARBITER_SHARED or put them in ../shared/syzygy";
    return nullptr;
  }
  absl::StatusOr<std::shared_ptr<const SyzygyTablebase>> tb = SyzygyTablebase::Open({dir});
  if (!tb.ok()) {
    *why = "cannot open " + dir + ": " + tb.status().ToString();
    return nullptr;
  }
  return *tb;
}

#define REQUIRE_SYZYGY(var)                                                    \
  std::string skip_reason_##var;                                               \
  std::shared_ptr<const SyzygyTablebase> var = OpenSyzygy(&skip_reason_##var); \
  if (!var) GTEST_SKIP() << skip_reason_##var

RootResult Retro(const Position& pos) {
  absl::StatusOr<RootResult> r = ProbeRetrogradeRoot(Solver(), pos);
  EXPECT_TRUE(r.ok()) << pos.Fen() << ": " << r.status();
  return r.ok() ? *std::move(r) : RootResult{};
}

// `pos` with its halfmove clock set to `clock`.
Position WithClock(const Position& pos, int clock) {
  std::string fen = pos.Fen();
  const size_t full = fen.rfind(' '), half = fen.rfind(' ', full - 1);
  return FromFen(fen.substr(0, half + 1) + std::to_string(clock) + fen.substr(full));
}

// A stored entry of a retrograde table as a Position (table orientation:
// White holds the first side of the signature).
Position PositionOf(const RetrogradeTable::Entry& e, int clock) {
  std::string board(64, '.');
  for (int i = 0; i < e.men; ++i) board[e.square[i]] = " PNBRQK  pnbrqk"[e.piece[i]];
  return FromFen(FenPlacement(board) + (e.side_to_move == kWhite ? " w - - " : " b - - ") +
                 std::to_string(clock) + " 1");
}

// ---- comparison --------------------------------------------------------------

// Whether the exact DTZ `ours` is one a possibly rounded Syzygy value
// `theirs` stands for: the same sign, and |theirs| or |theirs| + 1 plies.
bool WithinRounding(int ours, int theirs) {
  if (theirs == 0) return ours == 0;
  if ((ours > 0) != (theirs > 0)) return false;
  return std::abs(ours) == std::abs(theirs) || std::abs(ours) == std::abs(theirs) + 1;
}

struct Tally {
  int positions = 0;
  int moves = 0;
  int precise_roots = 0;  // Syzygy's root precise_dtz was set: compared for equality
  int rounded_roots = 0;  // Syzygy's root dtz one ply short of ours
  int precise_moves = 0;  // likewise per move
  int rounded_moves = 0;
  int moves_without_dtz = 0;     // Syzygy gave no dtz for the move
  int ambiguous_categories = 0;  // Syzygy's maybe-win / maybe-loss, roots and moves
  int same_order = 0;  // positions where Syzygy's move values are all ours: order compared
  int in_check = 0, en_passant = 0;
  std::map<int, int> clocks;
};

// Our category (from the exact DTZ) against Syzygy's: the same, unless
// rounding left Syzygy's open; then ours is one of the two it stands for.
void CompareCategory(TbCategory ours, TbCategory theirs, int our_dtz, Tally* tally) {
  EXPECT_FALSE(IsAmbiguous(ours));
  if (!IsAmbiguous(theirs)) {
    EXPECT_EQ(ToString(ours), std::string(ToString(theirs)));
    return;
  }
  ++tally->ambiguous_categories;
  // Open only at |n| + clock == 100: n + 1 plies is one too many.
  const bool win = theirs == TbCategory::kMaybeWin;
  EXPECT_EQ(our_dtz > 0, win);
  const TbCategory decisive = win ? TbCategory::kWin : TbCategory::kLoss;
  EXPECT_TRUE(ours == decisive || ours == Demote(decisive)) << ToString(ours);
}

void Compare(const Position& pos, const RootResult& theirs, const RootResult& ours, Tally* tally) {
  SCOPED_TRACE(pos.Fen());
  ++tally->positions;
  EXPECT_EQ(ours.halfmove_clock, theirs.halfmove_clock);
  EXPECT_EQ(ours.checkmate, theirs.checkmate);
  EXPECT_EQ(ours.stalemate, theirs.stalemate);
  // Exact throughout.
  ASSERT_TRUE(ours.precise_dtz.has_value());
  EXPECT_EQ(*ours.precise_dtz, ours.dtz);
  ASSERT_TRUE(ours.win_within_50.has_value());
  EXPECT_EQ(*ours.win_within_50, WinsWithin50(ours.dtz, ours.halfmove_clock));

  if (theirs.precise_dtz) {
    ++tally->precise_roots;
    EXPECT_EQ(ours.dtz, *theirs.precise_dtz) << "Syzygy dtz " << theirs.dtz;
  } else {
    EXPECT_TRUE(WithinRounding(ours.dtz, theirs.dtz)) << ours.dtz << " vs Syzygy " << theirs.dtz;
    tally->rounded_roots += ours.dtz != theirs.dtz;
  }
  CompareCategory(ours.category, theirs.category, ours.dtz, tally);
  if (theirs.win_within_50) {
    EXPECT_EQ(*ours.win_within_50, *theirs.win_within_50);
  }

  // The same moves, each described alike.
  std::map<std::string, const TablebaseMove*> by_uci;
  for (const TablebaseMove& m : theirs.moves) by_uci[m.uci] = &m;
  ASSERT_EQ(ours.moves.size(), theirs.moves.size());
  ASSERT_EQ(ours.moves.size(), MoveList(pos).size());
  bool all_values_equal = true;
  for (const TablebaseMove& m : ours.moves) {
    SCOPED_TRACE(m.uci);
    ++tally->moves;
    auto it = by_uci.find(m.uci);
    ASSERT_NE(it, by_uci.end());
    const TablebaseMove& t = *it->second;
    EXPECT_EQ(m.move, t.move);
    EXPECT_EQ(m.san, t.san);
    EXPECT_EQ(m.zeroing, t.zeroing);
    EXPECT_EQ(m.checkmate, t.checkmate);
    EXPECT_EQ(m.stalemate, t.stalemate);
    ASSERT_TRUE(m.dtz.has_value());
    ASSERT_TRUE(m.precise_dtz.has_value());
    EXPECT_EQ(*m.precise_dtz, *m.dtz);
    if (!t.dtz) {
      ++tally->moves_without_dtz;
      all_values_equal = false;
    } else if (t.precise_dtz) {
      ++tally->precise_moves;
      EXPECT_EQ(*m.dtz, *t.precise_dtz) << "Syzygy dtz " << *t.dtz;
    } else {
      EXPECT_TRUE(WithinRounding(*m.dtz, *t.dtz)) << *m.dtz << " vs Syzygy " << *t.dtz;
      tally->rounded_moves += *m.dtz != *t.dtz;
    }
    if (t.dtz && *t.dtz != *m.dtz) all_values_equal = false;
    CompareCategory(m.category, t.category, *m.dtz, tally);
    if (m.category != t.category) all_values_equal = false;
  }
  // Both lists go through SortBestFirst, so equal values give equal orders.
  if (all_values_equal) {
    ++tally->same_order;
    for (size_t i = 0; i < ours.moves.size(); ++i)
      EXPECT_EQ(ours.moves[i].uci, theirs.moves[i].uci) << "at " << i;
  }
  // A win keeps a winning move, and the sort puts it first.
  if (ours.category == TbCategory::kWin) {
    EXPECT_EQ(ToString(ours.moves.front().category), std::string("loss"));
  }
}

bool HasOpenCategory(const RootResult& r) {
  if (IsAmbiguous(r.category)) return true;
  for (const TablebaseMove& m : r.moves)
    if (IsAmbiguous(m.category)) return true;
  return false;
}

// A KPvKP position right after a double push that the side to move `stm`
// may take en passant (Position keeps the e.p. square only then), the
// kings on random squares; empty if none was found.
std::optional<Position> AfterDoublePush(Color stm, std::mt19937_64& rng) {
  const Color pusher = ~stm;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const int file = int(rng() % 8);
    const int capturer_file = file + (rng() % 2 ? 1 : -1);
    if (capturer_file < 0 || capturer_file > 7) continue;
    // Ranks 0-based: White pushes from 2 to 4, Black from 7 to 5.
    const Square from = MakeSquare(file, pusher == kWhite ? 1 : 6);
    const Square to = MakeSquare(file, pusher == kWhite ? 3 : 4);
    const Square capturer = MakeSquare(capturer_file, pusher == kWhite ? 3 : 4);
    std::string board(64, '.');
    board[from] = pusher == kWhite ? 'P' : 'p';
    board[capturer] = stm == kWhite ? 'P' : 'p';
    const Square wk = Square(rng() % 64), bk = Square(rng() % 64);
    if (board[wk] != '.' || board[bk] != '.' || wk == bk) continue;
    board[wk] = 'K';
    board[bk] = 'k';
    absl::StatusOr<Position> before =
        Position::FromFen(FenPlacement(board) + (pusher == kWhite ? " w - - 0 1" : " b - - 0 1"));
    if (!before.ok()) continue;
    for (Move m : MoveList(*before)) {
      if (m.from() != from || m.to() != to) continue;
      Position after = *before;
      after.DoMove(m);
      if (after.ep_square() != kNoSquare) return after;
    }
  }
  return std::nullopt;
}

// ---- the random sample ---------------------------------------------------------

// Random legal positions of 3-4-man signatures with and without pawns, both
// sides to move, a range of clocks (around the fifty-move boundary too),
// and KPvKP positions right after a double push with an e.p. capture open
// (clock 0, as after any pawn move). Half the positions against Syzygy's
// default probe (its exactness search only where a category is open), half
// against its search for every precise value; a category still open is
// settled by a longer search.
TEST(RetrogradeRoot, AgreesWithSyzygyProbeRoot) {
  REQUIRE_SYZYGY(tb);
  const char* const kSignatures[] = {
      "KQvK",  "KRvK",  "KPvK",  "KBvK",  "KNvK",  "KQvKR", "KRvKN", "KBNvK",
      "KNNvK", "KQvKQ", "KPvKP", "KRvKP", "KQvKP", "KNvKP", "KBPvK", "KPPvK",
  };
  const int kClocks[] = {0, 1, 37, 60, 99, 100, 120};
  const int per_signature =
      ::arbiter::testing::SampleSize(160, 2000, "positions per signature (plus e.p. positions)");
  std::mt19937_64 rng(::arbiter::testing::DiffSeed(20250611));
  Tally tally;
  RootProbeOptions precise;
  precise.precise_dtz = precise.precise_moves = true;
  // The search for every move's precise value is costly on long wins
  // (KQvKR, KBNvK: up to a second per position at the default budget);
  // what it does not settle within 200 probes is checked within rounding.
  precise.exact_budget = 200;
  RootProbeOptions thorough = precise;
  thorough.exact_budget = 100000;
  Tally thorough_tally;
  int n = 0;
  auto check = [&](const Position& pos) {
    // Precise on every other pair of positions: both sides to move get both.
    const bool use_precise = (n++ / 2) % 2;
    absl::StatusOr<RootResult> theirs =
        tb->ProbeRoot(pos, use_precise ? precise : RootProbeOptions{});
    ASSERT_TRUE(theirs.ok()) << pos.Fen() << ": " << theirs.status();
    const RootResult ours = Retro(pos);
    Compare(pos, *theirs, ours, &tally);
    // Where rounding left a category open and the search ran out of budget,
    // a longer search settles it: ours must be the value it finds.
    if (HasOpenCategory(*theirs)) {
      absl::StatusOr<RootResult> settled = tb->ProbeRoot(pos, thorough);
      ASSERT_TRUE(settled.ok()) << pos.Fen() << ": " << settled.status();
      ASSERT_NO_FATAL_FAILURE(Compare(pos, *settled, ours, &thorough_tally));
    }
    tally.in_check += pos.in_check();
    tally.en_passant += pos.ep_square() != kNoSquare;
    ++tally.clocks[pos.halfmove_clock()];
  };
  for (const char* signature : kSignatures) {
    for (int i = 0; i < per_signature; ++i) {
      const Color stm = i % 2 ? kBlack : kWhite;
      std::optional<Position> pos = RandomPlacement(signature, stm, rng);
      ASSERT_TRUE(pos.has_value()) << signature;
      ASSERT_NO_FATAL_FAILURE(check(WithClock(*pos, kClocks[(i / 2) % std::size(kClocks)])));
    }
  }
  for (int i = 0; i < per_signature; ++i) {
    std::optional<Position> pos = AfterDoublePush(i % 2 ? kBlack : kWhite, rng);
    ASSERT_TRUE(pos.has_value());
    ASSERT_NO_FATAL_FAILURE(check(*pos));
  }
  std::printf(
      "compared %d positions, %d moves (%d in check, %d with an e.p. square); Syzygy precise "
      "roots %d, roots one ply short %d, precise moves %d, moves one ply short %d, moves without "
      "dtz %d, open categories %d, move orders compared %d\n",
      tally.positions, tally.moves, tally.in_check, tally.en_passant, tally.precise_roots,
      tally.rounded_roots, tally.precise_moves, tally.rounded_moves, tally.moves_without_dtz,
      tally.ambiguous_categories, tally.same_order);
  std::printf("open categories probed again with a longer search: %d, still open %d\n",
              thorough_tally.positions, thorough_tally.ambiguous_categories);
  EXPECT_EQ(thorough_tally.ambiguous_categories, 0);
  for (auto [clock, count] : tally.clocks) std::printf("  clock %3d: %d positions\n", clock, count);
  ::testing::Test::RecordProperty("positions_compared", tally.positions);
  ::testing::Test::RecordProperty("moves_compared", tally.moves);
  EXPECT_EQ(tally.positions, per_signature * int(std::size(kSignatures) + 1));
  EXPECT_GT(tally.in_check, 0);
  EXPECT_EQ(tally.en_passant, per_signature);
  EXPECT_EQ(tally.clocks.size(), std::size(kClocks));
}

// ---- the fifty-move rule ---------------------------------------------------------

// No 3-4-man position is a cursed win or a blessed loss (the longest DTZ is
// 66 plies, in KBNvK): the first cursed wins need five men (the Troitzky
// line of KNNvKP, the KRBvKR of syzygy_test's KnownPositions), which are
// beyond the retrograde tables. So every table is scanned for one, and a
// cursed win is exercised through the clock instead (next test).
TEST(RetrogradeRoot, NoCursedWinUpToFourMen) {
  size_t positions = 0;
  int longest = 0;
  for (const std::string& signature : AllRetrogradeSignatures()) {
    absl::StatusOr<std::shared_ptr<const RetrogradeTable>> table = Solver().Table(signature);
    ASSERT_TRUE(table.ok()) << signature << ": " << table.status();
    int cursed = 0;
    (*table)->ForEachPosition([&](const RetrogradeTable::Entry& e) {
      ++positions;
      cursed += e.wdl == Wdl::kCursedWin || e.wdl == Wdl::kBlessedLoss;
      longest = std::max(longest, std::abs(e.dtz));
    });
    EXPECT_EQ(cursed, 0) << signature;
  }
  std::printf("scanned %zu positions of %zu tables: longest DTZ %d plies\n", positions,
              AllRetrogradeSignatures().size(), longest);
  EXPECT_EQ(longest, 66);
}

// A KRvK win in 21 plies (a pawnless win's DTZ is odd with the winner to
// move: the zeroing move is its mate), from clock 0 to clocks where the
// fifty-move rule turns it into a cursed win: the category, win_within_50
// and the best move's category follow the clock, in agreement with Syzygy.
TEST(RetrogradeRoot, WinBecomesCursedAsTheClockRuns) {
  REQUIRE_SYZYGY(tb);
  absl::StatusOr<std::shared_ptr<const RetrogradeTable>> krk = Solver().Table("KRvK");
  ASSERT_TRUE(krk.ok()) << krk.status();
  std::optional<RetrogradeTable::Entry> found;
  (*krk)->ForEachPosition([&](const RetrogradeTable::Entry& e) {
    if (!found && e.side_to_move == kWhite && e.wdl == Wdl::kWin && e.dtz == 21) found = e;
  });
  ASSERT_TRUE(found.has_value());
  RootProbeOptions precise;
  precise.precise_dtz = precise.precise_moves = true;
  Tally tally;
  struct Case {
    int clock;
    TbCategory category;
    TbCategory best_move;  // from the opponent's view
  };
  for (const Case& c : {
           Case{0, TbCategory::kWin, TbCategory::kLoss},
           Case{79, TbCategory::kWin, TbCategory::kLoss},  // 21 + 79 = 100: just in time
           Case{80, TbCategory::kCursedWin, TbCategory::kBlessedLoss},
           Case{85, TbCategory::kCursedWin, TbCategory::kBlessedLoss},
       }) {
    const Position pos = PositionOf(*found, c.clock);
    SCOPED_TRACE(pos.Fen());
    const RootResult ours = Retro(pos);
    EXPECT_EQ(ours.dtz, 21);
    EXPECT_EQ(ToString(ours.category), std::string(ToString(c.category)));
    EXPECT_EQ(ours.win_within_50, c.category == TbCategory::kWin);
    ASSERT_FALSE(ours.moves.empty());
    EXPECT_EQ(ToString(ours.moves.front().category), std::string(ToString(c.best_move)));
    // The best move is a fastest one either way (the clock does not change
    // which move is fastest): one ply nearer the zeroing move.
    EXPECT_EQ(ours.moves.front().dtz, -20);
    absl::StatusOr<RootResult> theirs = tb->ProbeRoot(pos, precise);
    ASSERT_TRUE(theirs.ok()) << theirs.status();
    Compare(pos, *theirs, ours, &tally);
  }
}

// ---- errors -----------------------------------------------------------------------

TEST(RetrogradeRoot, Errors) {
  // Five men: not covered, as Syzygy says for a table it lacks (KNNvKP, the
  // classic cursed-win material, is not in ../shared/syzygy either).
  absl::StatusOr<RootResult> five =
      ProbeRetrogradeRoot(Solver(), FromFen("8/8/8/4k3/3p4/8/8/1NN1K3 w - - 0 1"));
  ASSERT_FALSE(five.ok());
  EXPECT_EQ(five.status().code(), absl::StatusCode::kNotFound);
  EXPECT_PRED_FORMAT2(::arbiter::testing::Contains, std::string(five.status().message()),
                      "not covered: KNNvKP");
  EXPECT_TRUE(IsNotCovered(five.status()));

  // Castling rights: the tables have none.
  absl::StatusOr<RootResult> castling =
      ProbeRetrogradeRoot(Solver(), FromFen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"));
  ASSERT_FALSE(castling.ok());
  EXPECT_EQ(castling.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_PRED_FORMAT2(::arbiter::testing::Contains, std::string(castling.status().message()),
                      "castling");
}

// Checkmate and stalemate at the root, as ProbeRoot describes them.
TEST(RetrogradeRoot, TerminalPositions) {
  const RootResult mate = Retro(FromFen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"));
  EXPECT_TRUE(mate.checkmate);
  EXPECT_EQ(mate.dtz, -1);
  EXPECT_EQ(mate.precise_dtz, -1);
  EXPECT_EQ(mate.category, TbCategory::kLoss);
  EXPECT_EQ(mate.win_within_50, false);
  EXPECT_TRUE(mate.moves.empty());
  // Mated after a claim was already available: blessed.
  EXPECT_EQ(Retro(FromFen("7k/6Q1/6K1/8/8/8/8/8 b - - 101 80")).category, TbCategory::kBlessedLoss);
  const RootResult stalemate = Retro(FromFen("7k/5K2/6Q1/8/8/8/8/8 b - - 0 1"));
  EXPECT_TRUE(stalemate.stalemate);
  EXPECT_EQ(stalemate.dtz, 0);
  EXPECT_EQ(stalemate.category, TbCategory::kDraw);
}

}  // namespace
}  // namespace arbiter
