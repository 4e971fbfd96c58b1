// Syzygy probes through Fathom (core/tablebase/syzygy.h): the fifty-move
// categories (no tables needed), errors, a differential test against the
// `fathom` command-line tool on random legal placements of every table in
// ../shared/syzygy, thread safety right after opening, and exact DTZ checked
// against a definition-based search (DTZ rounding, win_within_50 at the
// fifty-move boundary).
#include "core/tablebase/syzygy.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "core/chess/random_placement.h"
#include "core/render/tablebase_json.h"
#include "core/tablebase/wdl_category.h"
#include "tests/test_support.h"

extern char** environ;

namespace arbiter {
namespace {

using ::arbiter::testing::Contains;
using ::arbiter::testing::FromFen;

// ---- categories: pure arithmetic ---------------------------------------------

TEST(TbCategoryTest, FiftyMoveArithmetic) {
  using C = TbCategory;
  EXPECT_EQ(CategoryFromDtz(0, false, 0), C::kDraw);
  EXPECT_EQ(CategoryFromDtz(11, false, 0), C::kWin);
  EXPECT_EQ(CategoryFromDtz(11, false, 88), C::kWin);        // 99: even n + 1 fits
  EXPECT_EQ(CategoryFromDtz(11, false, 89), C::kMaybeWin);   // 100: n + 1 would not
  EXPECT_EQ(CategoryFromDtz(11, true, 89), C::kWin);         // exact: 100 fits
  EXPECT_EQ(CategoryFromDtz(11, false, 90), C::kCursedWin);  // 101
  EXPECT_EQ(CategoryFromDtz(100, false, 0), C::kWin);        // never rounded at the edge
  EXPECT_EQ(CategoryFromDtz(101, false, 0), C::kCursedWin);
  EXPECT_EQ(CategoryFromDtz(250, true, 0), C::kCursedWin);
  EXPECT_EQ(CategoryFromDtz(-14, false, 0), C::kLoss);
  EXPECT_EQ(CategoryFromDtz(-14, false, 86), C::kMaybeLoss);
  EXPECT_EQ(CategoryFromDtz(-14, true, 86), C::kLoss);
  EXPECT_EQ(CategoryFromDtz(-14, false, 87), C::kBlessedLoss);
  EXPECT_EQ(CategoryFromDtz(-120, false, 0), C::kBlessedLoss);
  EXPECT_EQ(CategoryFromDtz(1, false, 100), C::kCursedWin);
  for (C c :
       {C::kLoss, C::kMaybeLoss, C::kBlessedLoss, C::kDraw, C::kCursedWin, C::kMaybeWin, C::kWin})
    EXPECT_EQ(Negate(Negate(c)), c);
  EXPECT_EQ(Negate(C::kMaybeWin), C::kMaybeLoss);
  EXPECT_EQ(Demote(C::kMaybeLoss), C::kBlessedLoss);
  EXPECT_STREQ(ToString(C::kCursedWin), "cursed-win");
  EXPECT_TRUE(WinsWithin50(11, 89));
  EXPECT_FALSE(WinsWithin50(12, 89));
  EXPECT_FALSE(WinsWithin50(-3, 0));
}

// ---- shared helpers -------------------------------------------------------------

std::string TablesDir() {
  std::string shared = arbiter::testing::SharedDir();
  if (shared.empty()) return {};
  std::string dir = shared + "/syzygy";
  return std::filesystem::is_directory(dir) ? dir : std::string();
}

// Opens ../shared/syzygy once per process (Fathom allows one set anyway).
std::shared_ptr<const SyzygyTablebase> OpenTables(std::string* why) {
  std::string dir = TablesDir();
  if (dir.empty()) {
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

#define REQUIRE_TABLES(var)                                                    \
  std::string skip_reason_##var;                                               \
  std::shared_ptr<const SyzygyTablebase> var = OpenTables(&skip_reason_##var); \
  if (!var) GTEST_SKIP() << skip_reason_##var

// The table names (e.g. "KRPvKR") present in `dir`, sorted.
std::vector<std::string> TableNames(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".rtbw") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A random legal position with the men `white` / `black` ("KRP", "KR"), side
// to move `stm`, halfmove clock `clock`; empty if none found.
std::optional<Position> RandomPlacementWithClock(const std::string& white, const std::string& black,
                                                 Color stm, int clock, std::mt19937_64& rng) {
  std::optional<Position> pos = RandomPlacement(white + "v" + black, stm, rng);
  if (!pos) return pos;
  std::string fen = pos->Fen();  // "... - - 0 1"
  fen = fen.substr(0, fen.rfind(" 0 1")) + " " + std::to_string(clock) + " 1";
  absl::StatusOr<Position> with_clock = Position::FromFen(fen);
  if (!with_clock.ok()) return std::nullopt;
  return *std::move(with_clock);
}

// K+P v K+P just after a double push that the side to move can take en
// passant (clock 0), or empty.
std::optional<Position> RandomEnPassant(Color stm, std::mt19937_64& rng) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    int file = int(rng() % 8);
    int cap_file = file + ((rng() % 2) ? 1 : -1);
    if (cap_file < 0 || cap_file > 7) continue;
    // The pushed pawn belongs to the side not to move.
    int pushed_rank = stm == kWhite ? 4 : 3;  // 0-based: black pushed to rank 5, white to 4
    Square pushed = MakeSquare(file, pushed_rank);
    Square capturer = MakeSquare(cap_file, pushed_rank);
    Square ep = MakeSquare(file, stm == kWhite ? 5 : 2);
    Square wk = Square(rng() % 64), bk = Square(rng() % 64);
    std::set<int> used = {pushed, capturer, ep, Square(stm == kWhite ? ep + 8 : ep - 8)};
    if (used.count(wk) || used.count(bk) || wk == bk) continue;
    char board[64];
    std::fill(std::begin(board), std::end(board), '.');
    board[wk] = 'K';
    board[bk] = 'k';
    board[pushed] = stm == kWhite ? 'p' : 'P';
    board[capturer] = stm == kWhite ? 'P' : 'p';
    std::string fen = FenPlacement(std::string_view(board, 64));
    fen += stm == kWhite ? " w - " : " b - ";
    fen += SquareName(ep) + " 0 1";
    absl::StatusOr<Position> pos = Position::FromFen(fen);
    if (pos.ok() && pos->ep_square() != kNoSquare) return *std::move(pos);
  }
  return std::nullopt;
}

// ---- errors ---------------------------------------------------------------------

TEST(SyzygyTest, OpenErrors) {
  auto missing = SyzygyTablebase::Open({"/nonexistent/syzygy/dir"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_PRED_FORMAT2(Contains, std::string(missing.status().message()), "does not exist");

  auto nothing = SyzygyTablebase::Open({});
  EXPECT_EQ(nothing.status().code(), absl::StatusCode::kInvalidArgument);

  std::filesystem::path tmp =
      std::filesystem::temp_directory_path() / ("arbiter_syzygy_" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp / "empty");
  auto empty = SyzygyTablebase::Open({(tmp / "empty").string()});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), absl::StatusCode::kNotFound);
  EXPECT_PRED_FORMAT2(Contains, std::string(empty.status().message()), "no Syzygy tables");

  {
    std::FILE* f = std::fopen((tmp / "file").c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
  }
  auto file = SyzygyTablebase::Open({(tmp / "file").string()});
  EXPECT_EQ(file.status().code(), absl::StatusCode::kFailedPrecondition);

  if (::geteuid() != 0) {  // root reads anything
    std::filesystem::create_directories(tmp / "locked");
    ::chmod((tmp / "locked").c_str(), 0);
    auto locked = SyzygyTablebase::Open({(tmp / "locked").string()});
    EXPECT_EQ(locked.status().code(), absl::StatusCode::kPermissionDenied) << locked.status();
    ::chmod((tmp / "locked").c_str(), 0700);
  }
  std::filesystem::remove_all(tmp);
}

TEST(SyzygyTest, ProbeErrors) {
  REQUIRE_TABLES(tb);
  EXPECT_EQ(tb->largest(), 5);
  EXPECT_EQ(tb->wdl_files(), 45);

  // Castling rights.
  Position castling = FromFen("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
  EXPECT_EQ(tb->ProbeWdl(castling).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(tb->ProbeRoot(castling).status().code(), absl::StatusCode::kInvalidArgument);
  // Too many pieces.
  Position six = FromFen("4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1");
  auto too_many = tb->ProbeWdl(six);
  EXPECT_EQ(too_many.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_PRED_FORMAT2(Contains, std::string(too_many.status().message()), "6 pieces");
  EXPECT_EQ(tb->ProbeRoot(six).status().code(), absl::StatusCode::kOutOfRange);
  // Five pieces, but no KQNvKR table here.
  Position uncovered = FromFen("4k3/8/8/8/2r5/8/8/QN2K3 w - - 0 1");
  auto not_covered = tb->ProbeWdl(uncovered);
  EXPECT_TRUE(IsNotCovered(not_covered.status())) << not_covered.status();
  EXPECT_PRED_FORMAT2(Contains, std::string(not_covered.status().message()), "KQNvKR");
  EXPECT_TRUE(IsNotCovered(tb->ProbeRoot(uncovered).status()));
  // KRBvKB: WDL only (its .rtbz is left out on purpose).
  Position wdl_only = FromFen("1b5k/8/8/8/3RB3/8/8/K7 w - - 0 1");
  auto wdl = tb->ProbeWdl(wdl_only);
  ASSERT_TRUE(wdl.ok()) << wdl.status();
  auto root = tb->ProbeRoot(wdl_only);
  EXPECT_TRUE(IsNotCovered(root.status()));
  EXPECT_PRED_FORMAT2(Contains, std::string(root.status().message()), "DTZ table");
  // ... and WDL still works afterwards.
  EXPECT_TRUE(tb->ProbeWdl(wdl_only).ok());

  // Fathom holds one set of tables per process.
  std::filesystem::path tmp =
      std::filesystem::temp_directory_path() / ("arbiter_syzygy2_" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp);
  std::filesystem::copy_file(TablesDir() + "/KQvK.rtbw", tmp / "KQvK.rtbw");
  auto other = SyzygyTablebase::Open({tmp.string()});
  EXPECT_EQ(other.status().code(), absl::StatusCode::kFailedPrecondition) << other.status();
  std::filesystem::remove_all(tmp);
  auto again = SyzygyTablebase::Open({TablesDir()});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->get(), tb.get());
}

// ---- known positions ----------------------------------------------------------------

TEST(SyzygyTest, KnownPositions) {
  REQUIRE_TABLES(tb);
  struct Case {
    const char* fen;
    SyzygyWdl wdl;
    int dtz;
    TbCategory category;
  };
  // From ../shared/syzygy/README.md (checked there with the fathom CLI).
  for (const Case& c : {
           Case{"8/8/8/8/8/2k5/8/KQ6 w - - 0 1", SyzygyWdl::kWin, 11, TbCategory::kWin},
           Case{"8/8/8/8/8/2k5/8/KQ6 b - - 0 1", SyzygyWdl::kLoss, -14, TbCategory::kLoss},
           Case{"8/8/8/4k3/8/8/8/KBN5 w - - 0 1", SyzygyWdl::kWin, 58, TbCategory::kWin},
           Case{"4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", SyzygyWdl::kWin, 3, TbCategory::kWin},
           Case{"8/4k3/8/4P3/4K3/8/8/8 w - - 0 1", SyzygyWdl::kDraw, 0, TbCategory::kDraw},
           Case{"8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 1", SyzygyWdl::kWin, 1, TbCategory::kWin},
           Case{"8/8/8/k2Pp3/8/8/8/4K3 w - - 0 1", SyzygyWdl::kDraw, 0, TbCategory::kDraw},
       }) {
    SCOPED_TRACE(c.fen);
    Position pos = FromFen(c.fen);
    auto wdl = tb->ProbeWdl(pos);
    ASSERT_TRUE(wdl.ok()) << wdl.status();
    EXPECT_EQ(wdl->wdl, c.wdl);
    auto root = tb->ProbeRoot(pos);
    ASSERT_TRUE(root.ok()) << root.status();
    EXPECT_EQ(root->dtz, c.dtz);
    EXPECT_EQ(root->category, c.category);
    EXPECT_EQ(root->win_within_50, c.category == TbCategory::kWin);
    EXPECT_EQ(root->moves.size(), MoveList(pos).size());
  }
  // The e.p. capture is the only win, so it comes first.
  auto ep = tb->ProbeRoot(FromFen("8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 1"));
  ASSERT_TRUE(ep.ok());
  EXPECT_EQ(ep->moves[0].uci, "d5e6");
  EXPECT_TRUE(ep->moves[0].zeroing);
  EXPECT_EQ(ep->moves[0].category, TbCategory::kLoss);

  // Terminal positions need no probe.
  auto mate = tb->ProbeRoot(FromFen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"));
  ASSERT_TRUE(mate.ok());
  EXPECT_TRUE(mate->checkmate);
  EXPECT_EQ(mate->dtz, -1);
  EXPECT_EQ(mate->category, TbCategory::kLoss);
  auto stalemate = tb->ProbeRoot(FromFen("7k/5K2/6Q1/8/8/8/8/8 b - - 0 1"));
  ASSERT_TRUE(stalemate.ok());
  EXPECT_TRUE(stalemate->stalemate);
  EXPECT_EQ(stalemate->category, TbCategory::kDraw);
  EXPECT_EQ(stalemate->win_within_50, false);

  // A real cursed win (KRBvKR, found by sampling the table).
  Position cursed = FromFen("8/5B2/8/2R5/8/4K3/8/3r3k w - - 0 1");
  auto cursed_wdl = tb->ProbeWdl(cursed);
  ASSERT_TRUE(cursed_wdl.ok());
  EXPECT_EQ(cursed_wdl->wdl, SyzygyWdl::kCursedWin);
  auto cursed_root = tb->ProbeRoot(cursed);
  ASSERT_TRUE(cursed_root.ok());
  EXPECT_EQ(cursed_root->category, TbCategory::kCursedWin);
  EXPECT_GT(cursed_root->dtz, 100);
  EXPECT_EQ(cursed_root->win_within_50, false);
  EXPECT_EQ(cursed_root->moves[0].category, TbCategory::kBlessedLoss);
}

TEST(SyzygyTest, Json) {
  REQUIRE_TABLES(tb);
  auto root = tb->ProbeRoot(FromFen("4k3/6KP/8/8/8/8/7p/8 w - - 0 1"));
  ASSERT_TRUE(root.ok());
  std::string json = TablebaseJson(*root);
  // The example of the Lichess API documentation: h8=Q+ wins at once.
  EXPECT_PRED_FORMAT2(Contains, json, "{\"category\": \"win\", \"dtz\": 1, \"precise_dtz\": 1, ");
  EXPECT_PRED_FORMAT2(
      Contains, json,
      "\"moves\": [{\"uci\": \"h7h8q\", \"san\": \"h8=Q+\", \"category\": \"loss\", "
      "\"dtz\": -2, ");
  EXPECT_PRED_FORMAT2(Contains, json, "\"zeroing\": true");
  EXPECT_PRED_FORMAT2(Contains, json, "\"win_within_50\": true");
}

// ---- differential test against the fathom command-line tool ----------------------------

struct ProgramRun {
  int exit_code = -1;
  std::string out;
};

ProgramRun RunProgram(const std::vector<std::string>& argv) {
  ProgramRun run;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return run;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    return run;
  }
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) run.out.append(buf, size_t(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

struct FathomOutput {
  bool ok = false;
  std::string wdl;  // Win, CursedWin, Draw, BlessedLoss, Loss
  int dtz = -1;
  std::vector<std::string> winning, drawing, losing;  // SAN, as fathom writes it
  std::string pv_first;                               // first move of its line, or empty
};

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find(", ", start);
    if (end == std::string::npos) end = s.size();
    out.push_back(s.substr(start, end - start));
    start = end + 2;
  }
  return out;
}

FathomOutput ParseFathom(const ProgramRun& run) {
  FathomOutput f;
  if (run.exit_code != 0) return f;
  std::istringstream in(run.out);
  std::string line;
  bool after_tags = false;
  auto tag = [&](const char* name, std::string* value) {
    std::string prefix = std::string("[") + name + " \"";
    if (line.rfind(prefix, 0) != 0) return false;
    *value = line.substr(prefix.size(), line.size() - prefix.size() - 2);
    return true;
  };
  while (std::getline(in, line)) {
    std::string v;
    if (tag("WDL", &v)) {
      f.wdl = v;
    } else if (tag("DTZ", &v)) {
      f.dtz = std::stoi(v);
    } else if (tag("WinningMoves", &v)) {
      f.winning = SplitList(v);
    } else if (tag("DrawingMoves", &v)) {
      f.drawing = SplitList(v);
    } else if (tag("LosingMoves", &v)) {
      f.losing = SplitList(v);
      f.ok = true;
    } else if (f.ok && line.empty() && !after_tags) {
      after_tags = true;
    } else if (after_tags && f.pv_first.empty()) {
      // "1. Qe4 Kb3 ..." or "1... Kd7 ...": the first token that is a move.
      std::istringstream tokens(line);
      std::string t;
      while (tokens >> t) {
        if (t.find("...") != std::string::npos || t.back() == '.') continue;
        if (t[0] == '#' || t[0] == '{' || t == "1/2-1/2") break;
        f.pv_first = t;
        break;
      }
      break;
    }
  }
  return f;
}

// Fathom's grouping of a move (from the mover's view) for our category of the
// position after it.
const char* FathomGroup(TbCategory after) {
  switch (Negate(after)) {
    case TbCategory::kWin:
    case TbCategory::kMaybeWin:
      return "win";
    case TbCategory::kLoss:
    case TbCategory::kMaybeLoss:
      return "loss";
    default:
      return "draw";
  }
}

const char* FathomWdlName(TbCategory c) {
  switch (c) {
    case TbCategory::kWin:
    case TbCategory::kMaybeWin:
      return "Win";
    case TbCategory::kCursedWin:
      return "CursedWin";
    case TbCategory::kDraw:
      return "Draw";
    case TbCategory::kBlessedLoss:
      return "BlessedLoss";
    default:
      return "Loss";
  }
}

const char* FathomWdlName(SyzygyWdl w) {
  static const char* kNames[] = {"Loss", "BlessedLoss", "Draw", "CursedWin", "Win"};
  return kNames[int(w) + 2];
}

// Where we settled a rounded value that fathom takes at face value: our
// category is the fifty-move draw, fathom's the decisive one, and the exact
// DTZ is one more than the rounded one, at clock + DTZ == 100.
bool SettledAgainstRounding(TbCategory ours, const char* fathom_name, std::optional<int> dtz,
                            std::optional<int> precise, int clock) {
  bool drawn = ours == TbCategory::kCursedWin || ours == TbCategory::kBlessedLoss;
  bool fathom_decisive =
      std::string(fathom_name) == (ours == TbCategory::kCursedWin ? "Win" : "Loss");
  return drawn && fathom_decisive && dtz && precise && std::abs(*precise) == std::abs(*dtz) + 1 &&
         std::abs(*dtz) + clock == 100;
}

// Fathom's per-move value: the mover's DTZ counted from before the move (1
// for a mate or a winning zeroing move). Clock below 100 (no demotion).
int MoverDtz(const TablebaseMove& m) {
  if (m.checkmate) return 1;
  if (m.zeroing) {
    switch (m.category) {
      case TbCategory::kLoss:
        return 1;
      case TbCategory::kBlessedLoss:
        return 101;
      case TbCategory::kWin:
        return -1;
      case TbCategory::kCursedWin:
        return -101;
      default:
        return 0;
    }
  }
  const int c = m.dtz.value_or(0);
  return c < 0 ? 1 - c : c > 0 ? -c - 1 : 0;
}

// `per_table` random legal placements of every table in ../shared/syzygy
// with pawns (or of every table without), deterministic: either colour
// first, either side to move, half with a random halfmove clock, and for
// KPvKP some just after a double push that allows an e.p. capture.
std::vector<Position> FathomSample(bool pawns, int per_table, std::mt19937_64& rng) {
  std::vector<Position> positions;
  for (const std::string& name : TableNames(TablesDir())) {
    if ((name.find('P') != std::string::npos) != pawns) continue;
    std::string white = name.substr(0, name.find('v')), black = name.substr(name.find('v') + 1);
    for (int i = 0; i < per_table; ++i) {
      Color stm = (rng() % 2) ? kWhite : kBlack;
      std::optional<Position> pos;
      if (name == "KPvKP" && rng() % 5 == 0) pos = RandomEnPassant(stm, rng);
      if (!pos) {
        int clock = (rng() % 2) ? 0 : int(1 + rng() % 110);
        bool swap = rng() % 2;
        pos = RandomPlacementWithClock(swap ? black : white, swap ? white : black, stm, clock, rng);
      }
      EXPECT_TRUE(pos.has_value()) << name;
      if (pos) positions.push_back(*pos);
    }
  }
  return positions;
}

// Fathom's answers for `positions`, two processes at a time.
std::vector<ProgramRun> RunFathom(const std::string& fathom,
                                  const std::vector<Position>& positions) {
  std::vector<ProgramRun> runs(positions.size());
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < 2; ++t)
    workers.emplace_back([&] {
      for (size_t i; (i = next++) < positions.size();)
        runs[i] = RunProgram({fathom, "--path=" + TablesDir(), positions[i].Fen()});
    });
  for (std::thread& w : workers) w.join();
  return runs;
}

// Our root probe of each position held to fathom's answer: the position's
// DTZ and category, its WDL where the clock is 0, every move in fathom's
// group, the best move's category and fathom's first move. Rounded values
// fathom takes at face value are settled, not failed (SettledAgainstRounding).
class FathomComparison {
 public:
  explicit FathomComparison(const SyzygyTablebase& tb) : tb_(tb) {
    options_.exact_budget = 100;  // settle few edge cases: keep the test fast
  }

  void Compare(const Position& pos, const FathomOutput& f) {
    absl::StatusOr<RootResult> ours = tb_.ProbeRoot(pos, options_);
    if (!f.ok) {
      // Fathom could not probe (KRBvKB has no DTZ file): neither may we,
      // unless the position is over on the board.
      ++compared_errors;
      if (ours.ok() && !ours->checkmate && !ours->stalemate)
        Fail(pos, "fathom failed, we answered " + TablebaseJson(*ours));
      if (!ours.ok() && !IsNotCovered(ours.status())) Fail(pos, ours.status().ToString());
      return;
    }
    if (!ours.ok()) {
      Fail(pos, "fathom answered, we failed: " + ours.status().ToString());
      return;
    }
    ++compared;
    ep_positions += pos.ep_square() != kNoSquare;
    if (ours->checkmate || ours->stalemate) {
      // fathom reports a mated side as "Win" with DTZ 0 (its
      // TB_RESULT_CHECKMATE carries TB_WIN), a stalemate as "Draw".
      ++terminal;
      if (f.wdl != (ours->checkmate ? "Win" : "Draw") || f.dtz != 0 || !f.winning.empty() ||
          !f.drawing.empty() || !f.losing.empty())
        Fail(pos, "terminal position: fathom says " + f.wdl);
      return;
    }
    ComparePosition(pos, f, *ours);
    CompareMoves(pos, f, *ours);
  }

  void Print() const {
    std::printf(
        "[ fathom   ] %d positions compared (%d with an e.p. capture, %d checkmate/stalemate), "
        "%d moves; %d where both could not probe (no DTZ file); %d rounded values settled "
        "against fathom's face value; %d mismatches\n",
        compared, ep_positions, terminal, moves_compared, compared_errors, settled, mismatches);
  }

  int compared = 0, compared_errors = 0, mismatches = 0, settled = 0, ep_positions = 0,
      terminal = 0, moves_compared = 0;

 private:
  void Fail(const Position& pos, const std::string& what) {
    if (++mismatches <= 20) ADD_FAILURE() << pos.Fen() << ": " << what;
  }

  // The position itself.
  void ComparePosition(const Position& pos, const FathomOutput& f, const RootResult& ours) {
    const int h = pos.halfmove_clock();
    if (f.dtz != std::abs(ours.dtz))
      Fail(pos, "DTZ " + std::to_string(ours.dtz) + " vs fathom " + std::to_string(f.dtz));
    if (f.wdl != FathomWdlName(ours.category)) {
      if (SettledAgainstRounding(ours.category, f.wdl.c_str(), ours.dtz, ours.precise_dtz, h))
        ++settled;
      else
        Fail(pos, std::string("category ") + ToString(ours.category) + " vs fathom " + f.wdl);
    }
    if (h == 0) {  // fathom's WDL is then the table's
      auto wdl = tb_.ProbeWdl(pos);
      if (!wdl.ok() || f.wdl != FathomWdlName(wdl->wdl)) Fail(pos, "ProbeWdl vs fathom " + f.wdl);
    }
  }

  // The moves, grouped as fathom groups them, the best one first.
  void CompareMoves(const Position& pos, const FathomOutput& f, const RootResult& ours) {
    const int h = pos.halfmove_clock();
    std::map<std::string, std::string> fathom_group;  // uci -> win/draw/loss
    for (auto [list, group] :
         {std::pair{&f.winning, "win"}, {&f.drawing, "draw"}, {&f.losing, "loss"}}) {
      for (const std::string& san : *list) {
        absl::StatusOr<Move> m = ParseSan(pos, san);
        if (!m.ok()) {
          Fail(pos, "cannot read fathom's move " + san);
          continue;
        }
        fathom_group[ToUci(pos, *m)] = group;
      }
    }
    if (fathom_group.size() != ours.moves.size())
      Fail(pos, "fathom lists " + std::to_string(fathom_group.size()) + " moves, we " +
                    std::to_string(ours.moves.size()));
    for (const TablebaseMove& m : ours.moves) {
      ++moves_compared;
      auto it = fathom_group.find(m.uci);
      if (it == fathom_group.end()) {
        Fail(pos, "fathom lacks " + m.uci);
        continue;
      }
      if (it->second == FathomGroup(m.category)) continue;
      // Our category is the opponent's view; compare the mover's view.
      const char* fathom_name = it->second == std::string("win")    ? "Win"
                                : it->second == std::string("loss") ? "Loss"
                                                                    : "Draw";
      if (SettledAgainstRounding(
              Negate(m.category), fathom_name,
              m.dtz ? std::optional<int>(-*m.dtz + (*m.dtz > 0 ? -1 : 1)) : std::nullopt,
              m.precise_dtz ? std::optional<int>(-*m.precise_dtz + (*m.precise_dtz > 0 ? -1 : 1))
                            : std::nullopt,
              h))
        ++settled;
      else
        Fail(pos, m.uci + ": " + ToString(m.category) + " vs fathom's " + it->second);
    }
    // Lichess's rule: the position's category is the best move's, negated.
    if (!IsAmbiguous(ours.category) && !IsAmbiguous(ours.moves[0].category) &&
        Negate(ours.moves[0].category) != ours.category)
      Fail(pos, std::string("best move ") + ours.moves[0].uci + " is " +
                    ToString(ours.moves[0].category) + ", position " + ToString(ours.category));
    // fathom's line starts with a DTZ-optimal move (the least DTZ counted
    // from here: fastest win, slowest loss); so does our order.
    if (!f.pv_first.empty() && ours.dtz != 0 && h < 100) {
      absl::StatusOr<Move> pv = ParseSan(pos, f.pv_first);
      const TablebaseMove* theirs = nullptr;
      for (const TablebaseMove& m : ours.moves)
        if (pv.ok() && m.move == *pv) theirs = &m;
      if (theirs == nullptr)
        Fail(pos, "cannot read fathom's line " + f.pv_first);
      else if (MoverDtz(*theirs) != MoverDtz(ours.moves[0]))
        Fail(pos, "fathom plays " + theirs->uci + ", our best is " + ours.moves[0].uci);
    }
  }

  const SyzygyTablebase& tb_;
  RootProbeOptions options_;
};

// The positions of the tables with (or without) pawns, compared with
// fathom's command line: no mismatch, and every table but the one without a
// DTZ file compared (the full sample, 240 positions per table, compares at
// least 10,000 of 10,800: 25/27 of the positions).
FathomComparison ExpectFathomAgrees(const SyzygyTablebase& tb, const std::string& fathom,
                                    bool pawns) {
  const int per_table =
      arbiter::testing::SampleSize(30, 240, "random placements per table, compared with fathom");
  std::mt19937_64 rng(arbiter::testing::DiffSeed(pawns ? 20250102 : 20250101));
  const std::vector<Position> positions = FathomSample(pawns, per_table, rng);
  const std::vector<ProgramRun> runs = RunFathom(fathom, positions);
  FathomComparison comparison(tb);
  for (size_t i = 0; i < positions.size(); ++i)
    comparison.Compare(positions[i], ParseFathom(runs[i]));
  comparison.Print();
  EXPECT_GE(comparison.compared * 27, int(positions.size()) * 25);
  EXPECT_EQ(comparison.mismatches, 0);
  return comparison;
}

TEST(SyzygyTest, MatchesFathomCommandLineWithoutPawns) {
  REQUIRE_TABLES(tb);
  std::string fathom = arbiter::testing::FindProgram("fathom");
  if (fathom.empty()) GTEST_SKIP() << "no fathom program (Debian package fathom)";
  ExpectFathomAgrees(*tb, fathom, /*pawns=*/false);
}

TEST(SyzygyTest, MatchesFathomCommandLineWithPawns) {
  REQUIRE_TABLES(tb);
  std::string fathom = arbiter::testing::FindProgram("fathom");
  if (fathom.empty()) GTEST_SKIP() << "no fathom program (Debian package fathom)";
  const FathomComparison comparison = ExpectFathomAgrees(*tb, fathom, /*pawns=*/true);
  EXPECT_GT(comparison.ep_positions, 0);
}

// ---- thread safety ----------------------------------------------------------------------

TEST(SyzygyTest, ConcurrentProbesRightAfterOpening) {
  // Positions first: no probe may precede the threads (run alone, as ctest
  // does, this process has not touched Fathom before Open below).
  std::string dir = TablesDir();
  if (dir.empty()) GTEST_SKIP() << "no Syzygy tables: set ARBITER_SHARED or ../shared/syzygy";
  // Round-robin over the tables, so that the first probes of all threads
  // hit every table at once: that is where Fathom maps a table lazily, and
  // where Debian's unlocked build crashes unless Open() mapped it before.
  std::mt19937_64 rng(99);
  std::vector<std::vector<Position>> per_table;
  for (const std::string& name : TableNames(dir)) {
    std::string white = name.substr(0, name.find('v')), black = name.substr(name.find('v') + 1);
    per_table.emplace_back();
    for (int i = 0; i < 60; ++i) {
      auto pos = RandomPlacementWithClock(white, black, (i % 2) ? kWhite : kBlack, 0, rng);
      ASSERT_TRUE(pos.has_value());
      per_table.back().push_back(*pos);
    }
  }
  std::vector<Position> positions;
  for (size_t i = 0; i < 60; ++i)
    for (const std::vector<Position>& table : per_table) positions.push_back(table[i]);
  REQUIRE_TABLES(tb);

  constexpr int kWdlThreads = 4, kRounds = 3;
  std::vector<std::vector<int>> wdl_seen(kWdlThreads, std::vector<int>(positions.size(), 99));
  std::vector<std::string> root_seen(positions.size());
  std::vector<std::thread> threads;
  std::atomic<long> probes{0};
  std::atomic<int> waiting{kWdlThreads + 1};
  auto start_together = [&] {
    --waiting;
    while (waiting.load() > 0) std::this_thread::yield();
  };
  for (int t = 0; t < kWdlThreads; ++t)
    threads.emplace_back([&, t] {
      start_together();
      for (int round = 0; round < kRounds; ++round)
        for (size_t i = 0; i < positions.size(); ++i) {
          auto r = tb->ProbeWdl(positions[i]);
          int v = r.ok() ? int(r->wdl) : 10 + int(r.status().code());
          if (round > 0 && v != wdl_seen[t][i]) v = 1000;  // unstable answer
          wdl_seen[t][i] = v;
          ++probes;
        }
    });
  // A fifth thread probes DTZ (serialised, mapping DTZ tables lazily) while
  // the WDL probes run.
  threads.emplace_back([&] {
    start_together();
    for (size_t i = 0; i < positions.size(); i += 7) {
      auto r = tb->ProbeRoot(positions[i]);
      root_seen[i] = r.ok() ? TablebaseJson(*r) : r.status().ToString();
    }
  });
  for (std::thread& th : threads) th.join();

  int mismatches = 0;
  for (size_t i = 0; i < positions.size(); ++i) {
    auto r = tb->ProbeWdl(positions[i]);
    int v = r.ok() ? int(r->wdl) : 10 + int(r.status().code());
    for (int t = 0; t < kWdlThreads; ++t)
      if (wdl_seen[t][i] != v && ++mismatches < 10)
        ADD_FAILURE() << positions[i].Fen() << " thread " << t << ": " << wdl_seen[t][i] << " vs "
                      << v;
    if (i % 7 == 0) {
      auto root = tb->ProbeRoot(positions[i]);
      std::string single = root.ok() ? TablebaseJson(*root) : root.status().ToString();
      if (single != root_seen[i] && ++mismatches < 10)
        ADD_FAILURE() << positions[i].Fen() << ": root probe differs";
    }
  }
  std::printf("[ threads  ] %ld WDL probes from %d threads + %zu root probes, %d mismatches\n",
              probes.load(), kWdlThreads, (positions.size() + 6) / 7, mismatches);
  EXPECT_EQ(mismatches, 0);
}

// ---- exact DTZ, rounding and the fifty-move boundary ----------------------------------

// Exact DTZ by its definition, from WDL probes only (no DTZ table): can the
// winner force, within k plies, a zeroing move (capture, pawn move) that
// keeps the win, or mate?
class DtzOracle {
 public:
  explicit DtzOracle(const SyzygyTablebase& tb) : tb_(tb) {}

  // |DTZ| of a won (win > 0) or lost position, searched from `from` plies up.
  int Exact(const Position& pos, bool win, int from, int to) {
    for (int k = std::max(1, from); k <= to; ++k)
      if (win ? WinWithin(pos, k) : LoseWithin(pos, k)) return k;
    return -1;
  }

 private:
  static bool Zeroing(const Position& pos, Move m) {
    return TypeOf(pos.piece_on(m.from())) == kPawn || !pos.empty(m.to()) ||
           m.kind() == Move::kEnPassant;
  }
  SyzygyWdl Wdl(const Position& pos) { return tb_.ProbeWdl(pos)->wdl; }

  bool WinWithin(const Position& pos, int k) {
    if (k <= 0) return false;
    auto key = std::make_pair(pos.key(), k);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    bool result = false;
    for (Move m : MoveList(pos)) {
      Position child = pos;
      child.DoMove(m);
      if (MoveList(child).empty()) {
        if (child.in_check()) result = true;
      } else if (Zeroing(pos, m)) {
        result = Wdl(child) == SyzygyWdl::kLoss;
      } else {
        result = k >= 2 && Wdl(child) == SyzygyWdl::kLoss && LoseWithin(child, k - 1);
      }
      if (result) break;
    }
    return memo_[key] = result;
  }

  bool LoseWithin(const Position& pos, int k) {
    if (k <= 0) return false;
    auto key = std::make_pair(pos.key(), -k);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    bool result = true;
    for (Move m : MoveList(pos)) {
      if (Zeroing(pos, m)) continue;  // the loser's zeroing move ends the count
      Position child = pos;
      child.DoMove(m);
      if (!WinWithin(child, k - 1)) {
        result = false;
        break;
      }
    }
    return memo_[key] = result;
  }

  const SyzygyTablebase& tb_;
  std::map<std::pair<uint64_t, int>, bool> memo_;
};

// Random positions of six tables with a DTZ of at most 11 (10 per table in
// the default tier, 20 in the long tier): the exact DTZ by definition, and
// the verdict at the fifty-move boundary it decides.
TEST(SyzygyTest, ExactDtzAndFiftyMoveBoundary) {
  REQUIRE_TABLES(tb);
  std::string fathom = arbiter::testing::FindProgram("fathom");
  std::mt19937_64 rng(arbiter::testing::DiffSeed(4242));
  const int per_table = arbiter::testing::SampleSize(10, 20, "positions per table");
  int checked = 0, rounded = 0, boundary_cases = 0;
  // Tables where both sides' moves can zero (or the loser's capture keeps
  // the loss), so that Fathom's rounded DTZ is often one ply short.
  for (auto [white, black] : std::vector<std::pair<std::string, std::string>>{
           {"KQ", "K"}, {"KR", "KN"}, {"KP", "KP"}, {"KQ", "KP"}, {"KBN", "K"}, {"KR", "KB"}}) {
    int found = 0;
    for (int attempt = 0; attempt < 3000 && found < per_table; ++attempt) {
      auto pos = RandomPlacementWithClock(white, black, (attempt % 2) ? kWhite : kBlack, 0, rng);
      if (!pos || MoveList(*pos).empty()) continue;
      auto quick = tb->ProbeRoot(*pos);
      ASSERT_TRUE(quick.ok()) << quick.status();
      const int n = std::abs(quick->dtz);
      if (n == 0 || n > 11) continue;
      ++found;
      SCOPED_TRACE(pos->Fen());
      DtzOracle oracle(*tb);
      const bool win = quick->dtz > 0;
      const int exact = oracle.Exact(*pos, win, n - 1, n + 1);
      // Fathom's value is exact or one ply short, never anything else.
      ASSERT_TRUE(exact == n || exact == n + 1) << "fathom " << quick->dtz << ", exact " << exact;
      rounded += exact == n + 1;
      ++checked;

      RootProbeOptions precise;
      precise.precise_dtz = true;
      auto full = tb->ProbeRoot(*pos, precise);
      ASSERT_TRUE(full.ok());
      ASSERT_TRUE(full->precise_dtz.has_value());
      EXPECT_EQ(std::abs(*full->precise_dtz), exact);

      // At the boundary: clock + rounded DTZ == 100. Only the exact DTZ
      // says whether the win (or loss) comes before the fifty-move claim.
      for (int clock : {99 - n, 100 - n, 101 - n}) {
        std::string fen = pos->Fen();
        fen =
            fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1)) + " " + std::to_string(clock) + " 1";
        Position at = FromFen(fen);
        auto verdict = tb->ProbeRoot(at);
        ASSERT_TRUE(verdict.ok());
        const bool decisive = exact + clock <= 100;
        TbCategory want = win ? (decisive ? TbCategory::kWin : TbCategory::kCursedWin)
                              : (decisive ? TbCategory::kLoss : TbCategory::kBlessedLoss);
        EXPECT_EQ(verdict->category, want) << "clock " << clock;
        EXPECT_EQ(verdict->win_within_50, win && decisive) << "clock " << clock;
        if (clock == 100 - n) {
          ++boundary_cases;
          // fathom takes the rounded value at face value (dtz + clock <= 100).
          if (!fathom.empty() && exact == n + 1 && found <= 3) {
            FathomOutput f = ParseFathom(RunProgram({fathom, "--path=" + TablesDir(), fen}));
            EXPECT_EQ(f.wdl, win ? "Win" : "Loss");
          }
        }
      }
    }
    EXPECT_GT(found, 0) << white << "v" << black;
  }
  std::printf(
      "[ exact    ] %d positions: exact DTZ by definition == our precise_dtz; fathom's value one "
      "ply short in %d; %d fifty-move boundary cases settled\n",
      checked, rounded, boundary_cases);
  EXPECT_GT(rounded, 0);
}

TEST(SyzygyTest, WinWithin50Boundary) {
  REQUIRE_TABLES(tb);
  // KQvK, DTZ 11 (mate in 6; exact: the line in the README has 11 plies).
  struct Case {
    const char* fen;
    TbCategory category;
    bool within;
  };
  for (const Case& c : {
           Case{"8/8/8/8/8/2k5/8/KQ6 w - - 0 1", TbCategory::kWin, true},
           Case{"8/8/8/8/8/2k5/8/KQ6 w - - 88 1", TbCategory::kWin, true},
           Case{"8/8/8/8/8/2k5/8/KQ6 w - - 89 1", TbCategory::kWin, true},  // 11 + 89 = 100
           Case{"8/8/8/8/8/2k5/8/KQ6 w - - 90 1", TbCategory::kCursedWin, false},
           Case{"8/8/8/8/8/2k5/8/KQ6 b - - 86 1", TbCategory::kLoss, false},  // 14 + 86
           Case{"8/8/8/8/8/2k5/8/KQ6 b - - 87 1", TbCategory::kBlessedLoss, false},
           Case{"8/8/8/8/8/2k5/8/KQ6 w - - 100 1", TbCategory::kCursedWin, false},
       }) {
    SCOPED_TRACE(c.fen);
    auto r = tb->ProbeRoot(FromFen(c.fen));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->category, c.category);
    EXPECT_EQ(r->win_within_50, c.within);
  }
  // Mate in one with the clock at 99: the mate comes first (Fathom and
  // Lichess agree: 1 + 99 <= 100); at 100 a claim was available before.
  auto r99 = tb->ProbeRoot(FromFen("7k/8/6K1/8/8/8/8/1Q6 w - - 99 1"));
  ASSERT_TRUE(r99.ok());
  EXPECT_EQ(r99->category, TbCategory::kWin);
  EXPECT_TRUE(r99->moves[0].checkmate);
  EXPECT_EQ(r99->moves[0].category, TbCategory::kLoss);
  auto r100 = tb->ProbeRoot(FromFen("7k/8/6K1/8/8/8/8/1Q6 w - - 100 1"));
  ASSERT_TRUE(r100.ok());
  EXPECT_EQ(r100->category, TbCategory::kCursedWin);
  EXPECT_EQ(r100->win_within_50, false);
  EXPECT_EQ(r100->moves[0].category, TbCategory::kBlessedLoss);
}

}  // namespace
}  // namespace arbiter
