// Exact in-memory retrograde analysis of small endgames (at most kMaxMen = 4
// men, kings included, pawns allowed): the ground truth for "can this side
// still mate" in dead-position rulings, and an independent check of the
// Syzygy tables.
//
// For every legal position of a material signature, both sides to move, no
// castling rights and no en-passant square, a table holds:
//
//  1. WDL and DTZ under the 50-move rule, with Syzygy's semantics, for a
//     halfmove clock of 0 (like Fathom's tb_probe_wdl, which refuses any
//     other clock). DTZ counts plies to the next zeroing move (capture or
//     pawn move, promotions included; a mating move counts as zeroing) on a
//     line where the winner hurries and the loser delays. A win needs DTZ <=
//     100: the winner must capture, push a pawn or mate within 100 plies of
//     the clock reset, and the position reached must again be a win. Cursed
//     win = won only if the 50-move rule is ignored (DTZ > 100: either the
//     zeroing move itself is more than 100 plies away, or it leads into a
//     cursed win, which then counts as 100 + plies, Syzygy's "n - 100 if a
//     later phase is responsible"); blessed loss is its mirror. DTZ values
//     are exact, never rounded (Syzygy's own files may be one ply short; see
//     tests/retrograde_test.cc). A checkmated side to move has WDL loss and
//     DTZ 0 (Syzygy's probe_dtz returns -1 there).
//  2. Cooperative mate distance per colour X: the fewest plies, both sides
//     cooperating (a helpmate: the minimum over the moves of both sides, not
//     minimax), until X has delivered checkmate; 0 when the side to move is
//     checkmated by X, "none" when X can never mate. The 50- and 75-move
//     rules and repetitions are ignored (no variant bounded by the 75-move
//     rule is offered). "X can mate" (distance not none) is the FIDE 5.2.2
//     "dead position" question restricted to one side, and the distances
//     give a replayable mating line as evidence (MatingLine). A distance
//     takes one byte per slot and colour (0..254; a colour with a bare king
//     throughout the table stores nothing); a table whose distances would
//     not fit fails to generate rather than store a wrong value (none comes
//     close: the longest 3-4-man distance is 32 plies, in K+B v K+P).
//
// En passant follows Syzygy: stored positions have no e.p. right, but a
// double pawn push inside the analysis is valued through the position it
// really creates, e.p. captures included; probing a Position that has an
// e.p. square (arbiter keeps one only when the capture is legal) evaluates
// the captures on the fly.
//
// Captures and promotions lead into other signatures, which are solved
// first (recursively, cached by RetrogradeSolver). RetrogradeSolver can also
// keep tables in a directory across processes (retrograde_store.h).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/chess/position.h"
#include "core/tablebase/retrograde_index.h"
#include "core/tablebase/table_array.h"

namespace arbiter {

// Game-theoretic value for the side to move, Syzygy's five classes (the
// numeric values match python-chess and Syzygy's probe code, -2..2).
enum class Wdl : int8_t { kLoss = -2, kBlessedLoss = -1, kDraw = 0, kCursedWin = 1, kWin = 2 };
// "loss", "blessed-loss", "draw", "cursed-win", "win" (Lichess API words).
const char* WdlName(Wdl wdl);

// "KRvKP" for "KPvKR": the stronger side first, the spelling Syzygy gives
// its files and every table here is keyed by. Letters are upper case.
absl::StatusOr<std::string> CanonicalSignature(std::string_view signature);
// Canonical signature of the men on the board ("KQvK" for K+Q v K either way).
std::string SignatureOf(const Position& pos);

// Every canonical signature of at most kMaxMen men: KvK and the 35 tables
// of the Syzygy 3-4-man set, ordered so that each table's sub-tables come
// before it (solving them in this order times each table on its own).
const std::vector<std::string>& AllRetrogradeSignatures();

// Where a program keeps its generated tables unless told otherwise: the
// per-user cache, $XDG_CACHE_HOME/arbiter/tables, else
// ~/.cache/arbiter/tables; "" when neither variable says where it is. The
// command line and the C API share it, so that both find the same tables.
std::string DefaultRetrogradeCacheDir();

// The solver of a run, its tables loaded from and saved to `dir` when one is
// named ("" keeps them in memory: it turns a set ARBITER_TABLES off), else
// $ARBITER_TABLES, else DefaultRetrogradeCacheDir(). The directory may not
// exist yet (the first table saved creates it); a named path that is not a
// directory is an error, "<setting>: <dir> is not a directory", where the
// setting is `setting` (an option, say) or ARBITER_TABLES. The command line
// (common/tables_option.h) and the C API find their tables this one way.
class RetrogradeSolver;
absl::StatusOr<std::unique_ptr<RetrogradeSolver>> RetrogradeSolverFor(
    const std::optional<std::string>& dir, std::string_view setting);

namespace retrograde_internal {
class TableBuilder;
class TableStore;
}  // namespace retrograde_internal

class RetrogradeTable {
 public:
  // Solves `signature` and, privately, every signature it leads into.
  // Prefer RetrogradeSolver when several tables are needed: it shares them.
  static absl::StatusOr<std::shared_ptr<const RetrogradeTable>> Generate(
      std::string_view signature);

  // The canonical signatures of the tables that `signature`'s captures and
  // promotions lead into, which are solved before it; empty for a
  // malformed signature (and for KvK).
  static std::vector<std::string> SubtableSignatures(std::string_view signature);

  RetrogradeTable(const RetrogradeTable&) = delete;
  RetrogradeTable& operator=(const RetrogradeTable&) = delete;

  const std::string& signature() const { return signature_; }

  // Probes accept the signature with either colour holding either side
  // ("KRvKP" answers K+P v K+R too). Errors: other material, castling
  // rights. The halfmove clock of `pos` is ignored (values are for 0).
  absl::StatusOr<Wdl> ProbeWdl(const Position& pos) const;
  // Signed DTZ in plies, Syzygy's sign convention: > 0 win (> 100 cursed),
  // < 0 loss (< -100 blessed), 0 draw or checkmated.
  absl::StatusOr<int> ProbeDtz(const Position& pos) const;
  // Whether `side` can still deliver checkmate by any legal continuation
  // (MateDistance is not nullopt).
  absl::StatusOr<bool> CanMate(const Position& pos, Color side) const;
  // Fewest plies of any legal continuation (both sides cooperating) after
  // which `side` has given checkmate: 0 if the side to move of `pos` is
  // checkmated by `side`; nullopt if `side` can never mate.
  absl::StatusOr<std::optional<int>> MateDistance(const Position& pos, Color side) const;
  // A shortest such continuation, deterministic: from `pos`, repeatedly the
  // first legal move in MoveList order whose successor's distance is one
  // less (probed through this table, or the sub-table a capture or
  // promotion leads to; e.p. captures included). Its length is MateDistance
  // and it ends with `side` having checkmated. NotFound if `side` cannot
  // mate; the probe's errors otherwise.
  absl::StatusOr<std::vector<Move>> MatingLine(const Position& pos, Color side) const;

  // Slots holding a legal position (each position once up to the board
  // symmetries the layout folds; identical men counted per ordering).
  size_t positions() const { return positions_; }
  // Memory held by this table, owned or mapped from its file (its
  // sub-tables not included).
  size_t bytes() const;
  // Its file's checksum (retrograde_store.h): read from the file it was
  // loaded from, or computed when it was saved or when first asked.
  uint64_t checksum() const;

  // One stored position, in table orientation: White holds the first side
  // of signature().
  struct Entry {
    int men = 0;
    std::array<Piece, kMaxMen> piece{};
    std::array<Square, kMaxMen> square{};
    Color side_to_move = kWhite;
    Wdl wdl = Wdl::kDraw;
    int dtz = 0;
    std::array<bool, 2> can_mate{};            // [Color]
    std::array<int, 2> mate_distance{-1, -1};  // [Color]: plies, -1 if cannot mate
  };
  // Visits every stored position once: one representative per class of
  // positions equal up to the board symmetries and to swapping identical
  // men. Every legal position of the signature with White holding the
  // first side is a mirror image of exactly one visited entry.
  void ForEachPosition(const std::function<void(const Entry&)>& visit) const;

 private:
  friend class retrograde_internal::TableBuilder;
  friend class retrograde_internal::TableStore;  // reads and writes the arrays below
  friend class RetrogradeSolver;

  // Canonical material of every table this one's captures and promotions
  // lead into, in the order generation fetches them (the order of
  // subtables_), so that a loaded table gets the same list.
  static std::vector<Material> SubtableMaterials(const Layout& layout);
  // Counts over code bytes (code_), taken while a file is read.
  struct CodeTally {
    uint64_t legal = 0, long_codes = 0, out_of_range = 0;
    void Add(const uint8_t* codes, size_t count);
  };
  // Empty when the arrays below are consistent enough for every probe to be
  // safe and meaningful (checked on tables read from disk), else what is
  // wrong; `codes` is the tally of all of code_.
  std::string Inconsistency(const CodeTally& codes) const;

  // Stored mate distance meaning "cannot mate".
  static constexpr uint8_t kNoMateCode = 255;
  // Mate distance in computations meaning "cannot mate".
  static constexpr int kNoMate = 1 << 20;
  static int NextPly(int distance) { return distance >= kNoMate ? kNoMate : distance + 1; }

  // What a position is worth, already combined with e.p. captures.
  struct Outcome {
    Wdl wdl = Wdl::kDraw;
    int dtz = 0;
    std::array<int, 2> mate{kNoMate, kNoMate};  // [Color] of the probed position
  };

  explicit RetrogradeTable(const Material& canonical);

  absl::StatusOr<Outcome> Evaluate(const Position& pos) const;
  // Slot of `pos` and whether its colours had to be swapped to fit.
  absl::StatusOr<std::pair<uint64_t, bool>> Locate(const Position& pos) const;
  const RetrogradeTable* Subtable(const Material& m) const;
  // This table if `m` is its material (either orientation), else Subtable.
  const RetrogradeTable* TableOf(const Material& m) const;

  Wdl WdlAt(uint64_t slot) const;
  int DtzAt(uint64_t slot) const;
  // Mate distance for colour `c` (table orientation), kNoMate if none.
  int MateAt(uint64_t slot, Color c) const {
    if (mate_offset_[c] < 0) return kNoMate;
    const uint8_t d = mate_[slot * mate_stride_ + uint64_t(mate_offset_[c])];
    return d == kNoMateCode ? kNoMate : d;
  }

  std::string signature_;
  Layout layout_;
  // One byte per slot: 0 illegal, 1 draw, 2 + d loss in d (0..100),
  // 102 + d win in d (1..100), 203 cursed win, 204 blessed loss (their DTZ
  // in long_dtz_: 4-man tables have none, but the code is general).
  TableArray code_;
  // Cooperative mate distances: one byte per slot and colour (0..254,
  // kNoMateCode if it cannot mate, illegal slots too), the colours
  // interleaved (slot * mate_stride_ + mate_offset_[colour]). A colour that
  // cannot mate anywhere in the table (a bare king, or e.g. the knight of
  // K+Q v K+N) has no bytes: offset -1.
  TableArray mate_;
  uint8_t mate_stride_ = 0;
  std::array<int8_t, 2> mate_offset_{-1, -1};
  std::unordered_map<uint64_t, int16_t> long_dtz_;
  // Tables this one's captures and promotions lead into (kept for probing
  // positions with an e.p. square).
  std::vector<std::shared_ptr<const RetrogradeTable>> subtables_;
  size_t positions_ = 0;
  // 0 until known (checksum()); set by the store on load and save.
  mutable std::atomic<uint64_t> checksum_{0};
};

// What RetrogradeSolver reports while it obtains tables (set_progress,
// progress()). A burst of work begins when a table is found missing and
// ends when every table asked for meanwhile is held (or failed).
struct RetrogradeProgress {
  // The table just loaded or generated; "" for a periodic report.
  std::string obtained;
  // Being generated now, in signature order.
  std::vector<std::string> generating;
  // The tables asked for that this burst is for (the requests' own tables,
  // not their sub-tables), in signature order.
  std::vector<std::string> wanted;
  size_t done = 0;  // tables obtained in this burst, sub-tables included
  size_t left = 0;  // still to obtain, those being generated included
  double elapsed_seconds = 0;
  // Positions (slots) still to generate over the rate measured in this
  // burst; unset until there is a rate.
  std::optional<double> seconds_left;
  bool finished = false;  // left == 0: the last report of the burst
  // Whether this burst generated or is generating a table (a burst that
  // only loads files takes well under a second and has nothing to show).
  bool generates = false;

  // One line for a person: "generating KQPvK, KRPvK for KPPvK: 7 of 12
  // done, 5 left, about 25 s".
  std::string Line() const;
};

// One table obtained by RetrogradeSolver::Obtain.
struct RetrogradeTableOutcome {
  std::string signature;
  absl::Status status;     // why it could not be loaded or generated
  bool generated = false;  // by this call; else loaded from the directory or held before
  bool loaded = false;     // read from the directory by this call
  double seconds = 0;      // wall time of its own load or generation
};

// Generates tables on demand and keeps them. Thread-safe (std::mutex).
// Each table is obtained (loaded or generated) once, by one thread, behind
// a per-table latch: a thread that needs a table being obtained waits for
// that table only, look-ups of cached tables only take a short cache lock,
// and tables that do not depend on each other are generated at the same
// time. A missing table is obtained with the sub-tables it leads into that
// are missing too, up to generation_threads() at once (one per core by
// default), each after its own sub-tables; at most generation_threads()
// tables are generated at once in the whole solver. Generated tables do
// not depend on the order or the threads (each is a function of its
// sub-tables alone), so a parallel build writes the files a serial one
// does, byte for byte. Tables are immutable once returned, so probing
// them needs no lock.
//
// With a cache directory, a table not yet in memory is read from
// <dir>/<signature>.arbt (retrograde_store.h) when that file exists, and
// otherwise generated and then saved there, atomically, so that several
// processes may share one directory (cluster workers) and later processes
// skip the generation. Sub-tables go through the same path.
//   - A save that fails (read-only directory, full disk) does not fail the
//     probe: the table stays in memory, and last_store_error() tells.
//   - A file that exists but cannot be used (corrupt, truncated, written by
//     another format version or layout, renamed) is an error for every
//     probe that needs the table, never silently regenerated: the tables
//     are evidence, and a damaged one must be noticed and deleted. The
//     error is remembered for the life of the solver (the file is not read
//     again), and last_load_error() tells.
class RetrogradeSolver {
 public:
  using ProgressSink = std::function<void(const RetrogradeProgress&)>;
  using OutcomeSink = std::function<bool(const RetrogradeTableOutcome&)>;

  // Tables in memory only.
  RetrogradeSolver() = default;
  // `cache_dir` empty: in memory only. The directory is created (with its
  // parents) by the first save.
  explicit RetrogradeSolver(std::string cache_dir) : cache_dir_(std::move(cache_dir)) {}

  absl::StatusOr<std::shared_ptr<const RetrogradeTable>> Table(std::string_view signature);
  absl::StatusOr<std::shared_ptr<const RetrogradeTable>> TableFor(const Position& pos);

  // Obtains every table of `signatures` (canonical or not) and every
  // sub-table they lead into, up to generation_threads() tables at once,
  // each after its sub-tables. `on_table`, when set, is called once per
  // table of that set as it is obtained (or fails), one call at a time;
  // returning false starts no further table (those under way finish). OK
  // when every table is held; else the first error in `signatures`' order
  // (a malformed signature before any work).
  absl::Status Obtain(const std::vector<std::string>& signatures, const OutcomeSink& on_table = {});

  // Loads every table already stored in the cache directory (none are
  // generated), so that no later probe pays for loading; returns how many
  // the solver then holds from disk. A stored table that cannot be used is
  // an error. Servers call it before they report SERVING.
  absl::StatusOr<size_t> LoadStoredTables();

  // Tables generated at once (0: one per core, the default). Set before the
  // solver is used.
  void set_generation_threads(int threads) { generation_threads_ = threads; }
  int generation_threads() const;
  // Where progress goes while tables are obtained: a report when a table
  // starts being generated, when each table is obtained, at most every
  // `interval` in between, and a last one with `finished`. Called from the
  // threads doing the work, one call at a time. Set before the solver is
  // used; the solver library itself prints nothing.
  void set_progress(ProgressSink sink,
                    std::chrono::milliseconds interval = std::chrono::milliseconds(500)) {
    sink_ = std::move(sink);
    interval_ = interval;
  }
  // The progress now (finished, and zero counts, when nothing is under way).
  RetrogradeProgress progress() const;

  // Convenience probes (through a lock-free look-up once TableFor has found
  // the table).
  absl::StatusOr<Wdl> ProbeWdl(const Position& pos);
  absl::StatusOr<int> ProbeDtz(const Position& pos);
  absl::StatusOr<bool> CanMate(const Position& pos, Color side);
  absl::StatusOr<std::optional<int>> MateDistance(const Position& pos, Color side);
  absl::StatusOr<std::vector<Move>> MatingLine(const Position& pos, Color side);

  // Whether the table of `signature` is in memory now (loaded or
  // generated); false for a malformed signature.
  bool Holds(std::string_view signature) const;
  // Tables cached so far (sub-tables included) and their memory.
  size_t tables() const;
  // What the tables held now are, for comparing servers: their count and an
  // FNV-1a digest of each one's name and checksum ("36 tables, 9f0c...").
  std::string digest() const;
  size_t bytes() const;

  const std::string& cache_dir() const { return cache_dir_; }
  // Tables read from the cache directory / generated, so far.
  size_t tables_loaded() const;
  size_t tables_generated() const;
  // Wall time during which at least one table was being generated, in
  // seconds (tables generated side by side count once).
  double generation_seconds() const;
  // The latest failure to save a generated table (OK if none).
  absl::Status last_store_error() const;
  // The latest cache file that could not be used (OK if none).
  absl::Status last_load_error() const;

 private:
  struct Plan;
  struct Pending {
    uint64_t slots = 0;  // to generate; 0 when its file is there to load
    int plans = 0;       // plans that want it
    bool generating = false;
    const std::atomic<uint64_t>* slots_done = nullptr;  // while generating
  };

  absl::StatusOr<std::shared_ptr<const RetrogradeTable>> Get(const Material& canonical);
  // Obtains `roots` and the missing tables they lead into (Obtain, Get).
  void RunPlan(const std::vector<Material>& roots, const OutcomeSink& on_table);
  void Work(Plan& plan);
  // The per-table latch: loads or generates `canonical`, whose sub-tables
  // are all held (or failed) already, unless another thread is at it (then
  // waits for that one) or it is held or failed already.
  RetrogradeTableOutcome ObtainOne(const Material& canonical);
  // A sub-table `user` needs, already obtained: held, or its failure.
  absl::StatusOr<std::shared_ptr<const RetrogradeTable>> Obtained(const Material& sub,
                                                                  const std::string& user) const;
  std::shared_ptr<const RetrogradeTable> Cached(const std::string& name) const;
  // The table for `pos` by a lock-free look-up on its men (the searches probe
  // millions of times; TableFor names the material and takes a lock). Tables
  // stay in cache_ for the solver's life, so the pointer stays valid.
  absl::StatusOr<const RetrogradeTable*> FastTableFor(const Position& pos);

  // Progress bookkeeping (progress_mu_) and reports.
  void GenerationStarted(const std::string& name, const std::atomic<uint64_t>* slots_done);
  void GenerationEnded(const std::string& name, uint64_t slots);
  void TableDone(const std::string& name);
  RetrogradeProgress ProgressLocked(std::chrono::steady_clock::time_point now) const;
  // Sends progress() to the sink: always when `force`, else at most once an
  // interval.
  void Report(const std::string& obtained, bool force);

  const std::string cache_dir_;
  int generation_threads_ = 0;
  ProgressSink sink_;
  std::chrono::milliseconds interval_{500};
  // Indexed by the position's men besides the kings (at most two, each
  // coded 1-10 by colour and type, the smaller code first: a * 11 + b).
  static constexpr int kFastSlots = 121;
  std::array<std::atomic<const RetrogradeTable*>, kFastSlots> fast_{};

  mutable std::mutex cache_mu_;
  // Signaled when a table leaves in_progress_ (cache_mu_).
  std::condition_variable obtained_cv_;
  std::map<std::string, std::shared_ptr<const RetrogradeTable>> cache_;
  // Being loaded or generated by some thread now (cache_mu_).
  std::set<std::string> in_progress_;
  // Signatures whose load or generation failed, and why (cache_mu_).
  std::map<std::string, absl::Status> failed_;
  size_t loaded_ = 0, generated_ = 0;  // cache_mu_
  absl::Status last_store_error_;      // cache_mu_
  absl::Status last_load_error_;       // cache_mu_

  // Generation slots: at most generation_threads() builders at once.
  std::mutex slots_mu_;
  std::condition_variable slots_cv_;
  int builders_ = 0;  // slots_mu_

  mutable std::mutex progress_mu_;
  std::map<std::string, Pending> pending_;  // tables still to obtain in this burst
  std::multiset<std::string> wanted_;       // roots of the plans running
  size_t burst_done_ = 0;
  bool burst_generates_ = false;
  std::chrono::steady_clock::time_point burst_start_;
  uint64_t burst_slots_ = 0;       // generated in this burst by finished builders
  double burst_busy_seconds_ = 0;  // generation wall time of this burst, finished spans
  int generating_now_ = 0;         // builders running
  std::chrono::steady_clock::time_point busy_since_;   // when generating_now_ left 0
  double generation_seconds_ = 0;                      // all bursts, finished spans
  std::mutex sink_mu_;                                 // one report at a time, in order
  std::chrono::steady_clock::time_point last_report_;  // sink_mu_
};

}  // namespace arbiter
