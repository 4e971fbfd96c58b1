// Syzygy endgame tablebases, probed through Debian's Fathom (libfathom):
// win/draw/loss, distance to zeroing, and what the fifty-move rule makes of
// them for a given halfmove clock (core/tablebase/wdl_category.h).
//
// Fathom is process-global C state, and Debian builds it without thread
// locking (a table is memory-mapped on its first probe, unguarded) and with
// assertions on (an illegal position aborts the process). Hence:
//   - One set of tables per process, for the life of the process: Debian's
//     Fathom cannot be re-initialised safely (a second tb_init, or tb_free,
//     unmaps garbage addresses). The first successful Open() fixes the
//     directories; Open() with the same directories returns the same object,
//     with others it fails (FailedPrecondition). The tables stay mapped until
//     exit.
//   - Open() maps every WDL table from one thread (one probe each) before it
//     returns, so ProbeWdl() may then run from any number of threads without
//     locking: after that warm-up Fathom's WDL path only reads.
//   - Everything else that enters Fathom (tb_init, tb_probe_root, which also
//     maps DTZ tables lazily) is serialised by one process-wide std::mutex.
//   - Every probe first checks what would make Fathom fail or abort: castling
//     rights, more pieces than the largest table, the side not to move in
//     check.
// Fathom's header (which defines generic C symbols such as `encode`) is
// included only by syzygy.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/chess/position.h"
#include "core/tablebase/wdl_category.h"

namespace arbiter {

// WDL as the tables store it: the value with the halfmove clock at 0 (right
// after a capture or pawn move), from the side to move's view.
enum class SyzygyWdl : int8_t {
  kLoss = -2,
  kBlessedLoss = -1,
  kDraw = 0,
  kCursedWin = 1,
  kWin = 2,
};
// "loss", "blessed-loss", "draw", "cursed-win", "win".
const char* ToString(SyzygyWdl wdl);

struct WdlResult {
  // With the clock at 0. A win (cursed or not) proves that the side to move
  // can still checkmate; a loss, that the opponent can. The clock's effect
  // needs DTZ: ProbeRoot().
  SyzygyWdl wdl = SyzygyWdl::kDraw;
};

// One legal move, described as the Lichess API describes it: `category`,
// `dtz` and `precise_dtz` are those of the position AFTER the move, from the
// view of the side to move there. So the moves that win have category
// "loss" (and a negative dtz).
struct TablebaseMove {
  Move move;
  std::string uci;
  std::string san;
  TbCategory category = TbCategory::kDraw;
  // Syzygy DTZ of the position after the move, maybe rounded; empty when
  // that position's DTZ table is missing (its WDL, and so the category, is
  // still known).
  std::optional<int> dtz;
  // The same, when known to be exact (see ProbeRoot).
  std::optional<int> precise_dtz;
  bool zeroing = false;  // capture or pawn move: resets the halfmove clock
  bool checkmate = false;
  bool stalemate = false;
};

struct RootResult {
  TbCategory category = TbCategory::kDraw;
  // Syzygy DTZ of the position (side to move's view), maybe rounded; -1 when
  // checkmated, 0 for a draw.
  int dtz = 0;
  std::optional<int> precise_dtz;
  // Can the side to move force a win before a fifty-move claim becomes
  // available (exact DTZ + halfmove clock <= 100)? Empty when rounding left
  // it open and the exactness search ran out of budget (category maybe-win).
  std::optional<bool> win_within_50;
  int halfmove_clock = 0;
  bool checkmate = false;
  bool stalemate = false;
  // Every legal move, best first for the side to move (the Lichess order:
  // by category, then mates, zeroing moves when winning, DTZ, captures).
  std::vector<TablebaseMove> moves;
};

struct RootProbeOptions {
  // Fathom root probes (about 0.1-0.3 ms each) that the exactness search may
  // spend per ProbeRoot call. A rounded DTZ n means n or n + 1 plies; the
  // search settles which by following the children whose values decide it,
  // move by move, down to a zeroing move if need be. It always runs where
  // rounding leaves the category open (maybe-win / maybe-loss: |dtz| + clock
  // == 100), which settles `win_within_50` too; set `precise_dtz` /
  // `precise_moves` to spend it also on the position's / every move's
  // precise_dtz (long wins can exhaust it: a DTZ-58 KBNvK win does). Without
  // the search, precise_dtz is given where the values settle it at once:
  // draws, mates, zeroing best moves, |dtz| == 100, consistent bounds.
  // 0 turns the search off.
  int exact_budget = 4000;
  bool precise_dtz = false;
  bool precise_moves = false;
};

class SyzygyTablebase {
 public:
  // Opens the tables in `dirs` (each entry may itself be a ':'-separated
  // list, as Fathom takes it). Fails for a missing or unreadable directory,
  // a directory name containing ':', and when no table is found.
  static absl::StatusOr<std::shared_ptr<const SyzygyTablebase>> Open(std::vector<std::string> dirs);

  SyzygyTablebase(const SyzygyTablebase&) = delete;
  SyzygyTablebase& operator=(const SyzygyTablebase&) = delete;

  // Largest number of pieces (kings included) of a table found. Not every
  // table of that size need exist: such probes answer NotFound.
  int largest() const { return largest_; }
  // The directories, as given to Fathom.
  const std::vector<std::string>& dirs() const { return dirs_; }
  // Number of WDL (.rtbw) files found.
  int wdl_files() const { return wdl_files_; }
  // Which tables these are: a digest (FNV-1a, hex) of every .rtbw and .rtbz
  // file's name and size, the first directory holding a name winning as in
  // Fathom. Two sets with the same digest probe alike, unless a file of
  // the right size is corrupt (neither Fathom nor this checks contents:
  // hashing gigabytes at every start would cost minutes).
  const std::string& digest() const { return digest_; }

  // WDL with the clock at 0. Thread-safe and lock-free.
  // Errors: InvalidArgument (castling rights, side not to move in check),
  // OutOfRange (more pieces than largest()), NotFound (table not present).
  absl::StatusOr<WdlResult> ProbeWdl(const Position& pos) const;

  // DTZ, category under the fifty-move rule for the position's halfmove
  // clock, and every legal move. Serialised (one at a time per process).
  // Errors as ProbeWdl; NotFound also when the DTZ table is missing.
  absl::StatusOr<RootResult> ProbeRoot(const Position& pos,
                                       const RootProbeOptions& options = {}) const;

 private:
  SyzygyTablebase() = default;

  std::vector<std::string> dirs_;
  std::string fathom_path_;
  int largest_ = 0;
  int wdl_files_ = 0;
  std::string digest_;
  bool wdl_lock_free_ = true;  // every WDL table was mapped by Open()
};

// Material of `pos` in Syzygy's file-name style, white first: "KRPvKR".
std::string MaterialName(const Position& pos);

// True for the status the probes return when no table covers the position.
inline bool IsNotCovered(const absl::Status& status) { return absl::IsNotFound(status); }

}  // namespace arbiter
