#include "core/tablebase/syzygy.h"

// Fathom's C header: generic global names (encode, probe_table, ...) and
// macros. Included here only, never from a header of ours.
#include <tbprobe.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "core/chess/random_placement.h"
#include "core/tablebase/tablebase_move_order.h"

namespace arbiter {
namespace {

// ---- process-wide Fathom state ---------------------------------------------

// Serialises every Fathom call except the lock-free WDL probes (see the
// header): tb_init, tb_probe_root, and the registry below. A std::mutex (not
// absl::Mutex) so that ThreadSanitizer sees it.
std::mutex& FathomMutex() {
  static std::mutex mutex;
  return mutex;
}

// The tables Fathom was initialised with (guarded by FathomMutex). Set once:
// Debian's Fathom cannot be re-initialised safely (tb_init over a previous
// set, and tb_free, unmap garbage addresses), so the first successful Open()
// fixes the directories for the life of the process.
struct Registry {
  std::shared_ptr<const SyzygyTablebase> handle;
  std::string key;  // canonical directories, ':'-joined
};
Registry& GetRegistry() {
  static Registry* registry = new Registry();  // never destroyed: outlives all users
  return *registry;
}

// ---- positions in Fathom's terms -------------------------------------------

struct FathomPos {
  uint64_t white, black, kings, queens, rooks, bishops, knights, pawns;
  unsigned ep;
  bool turn;  // true: white to move
};

FathomPos ToFathom(const Position& pos) {
  // Fathom numbers squares a1 = 0 ... h8 = 63, as we do.
  return {pos.pieces(kWhite),
          pos.pieces(kBlack),
          pos.pieces(kKing),
          pos.pieces(kQueen),
          pos.pieces(kRook),
          pos.pieces(kBishop),
          pos.pieces(kKnight),
          pos.pieces(kPawn),
          pos.ep_square() == kNoSquare ? 0u : unsigned(pos.ep_square()),
          pos.side_to_move() == kWhite};
}

unsigned FathomWdl(const FathomPos& f) {
  // rule50 and castling must be 0 for tb_probe_wdl; the WDL tables do not
  // depend on the clock anyway.
  return tb_probe_wdl(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops, f.knights, f.pawns,
                      0, 0, f.ep, f.turn);
}

// Signed DTZ of a tb_probe_root result probed with rule50 = 0: the WDL field
// then carries the sign (and > 100 for cursed/blessed), the DTZ field |dtz|.
int DecodeDtz(unsigned result) {
  const int dtz = int(TB_GET_DTZ(result));
  const unsigned wdl = TB_GET_WDL(result);
  return wdl >= TB_CURSED_WIN ? dtz : wdl <= TB_BLESSED_LOSS ? -dtz : 0;
}

// Fathom's promotion code for our promotion piece (queen 1 ... knight 4).
unsigned FathomPromotion(Move m) {
  return m.kind() == Move::kPromotion ? unsigned(6 - m.promotion()) : TB_PROMOTES_NONE;
}

absl::Status CheckProbeable(const Position& pos, int largest) {
  if (pos.castling_rights() != kNoCastling)
    return absl::InvalidArgumentError(
        "position has castling rights; Syzygy tables cover only positions without them");
  const int pieces = PopCount(pos.pieces());
  if (pieces > largest)
    return absl::OutOfRangeError(
        absl::StrCat("position has ", pieces, " pieces; the tables found go up to ", largest));
  // Fathom asserts on illegal positions (and aborts the process), so check
  // what a Position should already guarantee.
  const Color us = pos.side_to_move();
  if (PopCount(pos.pieces(kWhite, kKing)) != 1 || PopCount(pos.pieces(kBlack, kKing)) != 1)
    return absl::InvalidArgumentError("illegal position: each side needs exactly one king");
  if (pos.IsAttacked(pos.king_square(~us), us, pos.pieces()))
    return absl::InvalidArgumentError("illegal position: the side not to move is in check");
  if (pos.pieces(kPawn) & (RankBB(0) | RankBB(7)))
    return absl::InvalidArgumentError("illegal position: pawn on the first or last rank");
  return absl::OkStatus();
}

// ---- opening ----------------------------------------------------------------

// "KRPvKR" -> the two sides' men, or false if the name is not a table name.
bool ParseMaterial(std::string_view name, std::string* white, std::string* black) {
  size_t v = name.find('v');
  if (v == std::string_view::npos) return false;
  *white = std::string(name.substr(0, v));
  *black = std::string(name.substr(v + 1));
  for (const std::string* side : {white, black}) {
    if (side->empty() || (*side)[0] != 'K') return false;
    for (size_t i = 1; i < side->size(); ++i)
      if (std::string_view("QRBNP").find((*side)[i]) == std::string_view::npos) return false;
  }
  return true;
}

// A legal position with these men, white to move, in which white has no
// capture: probing it reaches the position's own WDL table for sure (Fathom
// returns early on a winning capture). Empty if none was found.
std::optional<Position> WarmUpPosition(const std::string& white, const std::string& black,
                                       std::mt19937_64& rng) {
  for (int attempt = 0; attempt < 2000; ++attempt) {
    std::optional<Position> pos = RandomPlacement(white + "v" + black, kWhite, rng, 1);
    if (!pos) continue;
    MoveList moves(*pos);
    if (std::any_of(moves.begin(), moves.end(),
                    [&](Move m) { return CapturedType(*pos, m) != kNoPieceType; }))
      continue;
    return pos;
  }
  return std::nullopt;
}

// ---- root probes and the exactness search ------------------------------------

struct RawMove {
  Move move;
  // Fathom's per-move value: the mover's DTZ counted from the probed
  // position, the move included (+-1 / +-101 for a zeroing move, 1 for mate).
  int v;
};

struct RawRoot {
  int dtz = 0;  // the position's own DTZ, maybe rounded
  std::vector<RawMove> moves;
};

// Wraps tb_probe_root (FathomMutex must be held) with a cache, and settles
// rounded DTZ values by search. A rounded value n stands for n or n + 1 plies.
// A win's exact DTZ is 1 if a move zeroes or mates and keeps the win, else 1 +
// the least exact DTZ of the children reached by a non-zeroing move; a loss's
// is 1 + the largest (1 if every move zeroes). Fathom gives each child's value
// (rounded the same way), so only the children that tie for the least (most)
// can decide between the two candidates; those are settled recursively, down
// to a zeroing move at the latest, within a budget of Fathom calls.
class RootProber {
 public:
  explicit RootProber(int budget) : budget_(budget) {}

  // nullptr when Fathom fails (table missing). `charge`: count the call
  // against the search budget (and refuse once it is spent).
  const RawRoot* Raw(const Position& pos, bool charge) {
    auto it = raw_.find(pos.key());
    if (it != raw_.end()) return &it->second;
    if (charge) {
      if (budget_ <= 0) return nullptr;
      --budget_;
    }
    const FathomPos f = ToFathom(pos);
    unsigned results[TB_MAX_MOVES];
    const unsigned r = tb_probe_root(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops,
                                     f.knights, f.pawns, 0, 0, f.ep, f.turn, results);
    if (r == TB_RESULT_FAILED) return nullptr;
    RawRoot raw;
    MoveList legal(pos);
    if (r == TB_RESULT_CHECKMATE || r == TB_RESULT_STALEMATE) {
      if (!legal.empty()) return nullptr;
      raw.dtz = r == TB_RESULT_CHECKMATE ? -1 : 0;
      return &raw_.emplace(pos.key(), std::move(raw)).first->second;
    }
    raw.dtz = DecodeDtz(r);
    for (int i = 0; i < TB_MAX_MOVES && results[i] != TB_RESULT_FAILED; ++i) {
      const unsigned from = TB_GET_FROM(results[i]), to = TB_GET_TO(results[i]);
      const unsigned promotes = TB_GET_PROMOTES(results[i]);
      const Move* m = std::find_if(legal.begin(), legal.end(), [&](Move x) {
        return x.from() == from && x.to() == to && FathomPromotion(x) == promotes;
      });
      if (m == legal.end()) {
        error_ = absl::StrCat("Fathom lists a move we do not have in ", pos.Fen());
        return nullptr;
      }
      raw.moves.push_back({*m, DecodeDtz(results[i])});
    }
    if (raw.moves.size() != legal.size()) {
      error_ = absl::StrCat("Fathom lists ", raw.moves.size(), " moves, we ", legal.size(), ", in ",
                            pos.Fen());
      return nullptr;
    }
    return &raw_.emplace(pos.key(), std::move(raw)).first->second;
  }

  // Set when Fathom's answer did not fit our move generation (a bug).
  const std::string& error() const { return error_; }

  // Exact |DTZ| of a non-terminal position that is a win or loss within the
  // fifty-move rule (|dtz| in 1..100); empty if unsettled. Without `search`
  // only what the cached values settle (no Fathom call, no recursion).
  std::optional<int> Exact(const Position& pos, bool search) {
    if (auto it = exact_.find(pos.key()); it != exact_.end()) return it->second;
    std::optional<int> result = ComputeExact(pos, search);
    // An unsettled answer is remembered only when a full search, with budget
    // left, could not settle it.
    if (result || (search && budget_ > 0)) exact_[pos.key()] = result;
    return result;
  }

 private:
  std::optional<int> ComputeExact(const Position& pos, bool search) {
    const RawRoot* raw = nullptr;
    if (search) {
      raw = Raw(pos, /*charge=*/true);
    } else if (auto it = raw_.find(pos.key()); it != raw_.end()) {
      raw = &it->second;
    }
    if (raw == nullptr || raw->moves.empty()) return std::nullopt;
    const int n = std::abs(raw->dtz);
    if (n == 0 || n > 100) return std::nullopt;
    if (n == 100) return 100;  // 101 would be stored as a cursed win / blessed loss
    const bool win = raw->dtz > 0;
    // The children's values: a win minimises over the moves that keep it, a
    // loss maximises over all its moves.
    int best = win ? 1000 : 0;
    bool any_non_zeroing = false;
    for (const RawMove& rm : raw->moves) {
      if (win) {
        if (rm.v == 1) return 1;  // zeroing or mating move that keeps the win
        if (rm.v >= 2 && rm.v <= 100 && !IsZeroing(pos, rm.move)) best = std::min(best, rm.v - 1);
      } else if (!IsZeroing(pos, rm.move)) {
        if (rm.v > -2 || rm.v < -100) return std::nullopt;  // not a loss within the rule
        any_non_zeroing = true;
        best = std::max(best, -rm.v - 1);
      }
    }
    if (!win && !any_non_zeroing) return 1;  // every move zeroes
    if (win && best == 1000) return std::nullopt;
    // Candidates: {n, n + 1} from the position's own value, {best + 1, best
    // + 2} from its children's; at most 100.
    const int lo = std::max(n, best + 1);
    const int hi = std::min({n + 1, best + 2, 100});
    if (lo > hi) return std::nullopt;  // inconsistent values: do not guess
    if (lo == hi) return lo;
    if (!search) return std::nullopt;
    // lo == best + 1: settle the tying children.
    bool unsettled = false;
    const std::vector<RawMove> moves = raw->moves;
    for (const RawMove& rm : moves) {
      if (IsZeroing(pos, rm.move)) continue;
      const int child_n = win ? rm.v - 1 : -rm.v - 1;
      if (child_n != best) continue;
      Position child = pos;
      child.DoMove(rm.move);
      std::optional<int> e = Exact(child, /*search=*/true);
      if (!e) {
        unsettled = true;
        continue;
      }
      if (win && *e == best) return best + 1;       // a child at its lower value
      if (!win && *e == best + 1) return best + 2;  // a child at its upper value
    }
    if (unsettled) return std::nullopt;
    return win ? best + 2 : best + 1;
  }

  int budget_;
  std::string error_;
  std::unordered_map<uint64_t, RawRoot> raw_;
  std::unordered_map<uint64_t, std::optional<int>> exact_;
};

std::optional<int> SignedExact(RootProber& prober, const Position& pos, int dtz, bool search) {
  if (dtz == 0) return 0;
  if (std::abs(dtz) > 100) return std::nullopt;
  std::optional<int> e = prober.Exact(pos, search);
  if (!e) return std::nullopt;
  return dtz > 0 ? *e : -*e;
}

}  // namespace

// ---- public API ---------------------------------------------------------------

const char* ToString(SyzygyWdl wdl) {
  switch (wdl) {
    case SyzygyWdl::kLoss:
      return "loss";
    case SyzygyWdl::kBlessedLoss:
      return "blessed-loss";
    case SyzygyWdl::kDraw:
      return "draw";
    case SyzygyWdl::kCursedWin:
      return "cursed-win";
    case SyzygyWdl::kWin:
      return "win";
  }
  return "?";
}

std::string MaterialName(const Position& pos) {
  std::string name;
  for (Color c : {kWhite, kBlack}) {
    if (c == kBlack) name += 'v';
    name += 'K';
    for (PieceType t : {kQueen, kRook, kBishop, kKnight, kPawn})
      name += std::string(PopCount(pos.pieces(c, t)), "PNBRQ"[t - kPawn]);
  }
  return name;
}

namespace {

// SyzygyTablebase::digest(): names and sizes of the table files, each name
// from the first directory that has it.
std::string TablesDigest(const std::vector<std::string>& dirs) {
  namespace fs = std::filesystem;
  std::map<std::string, uintmax_t> files;
  for (const std::string& d : dirs) {
    std::error_code ec;
    for (fs::directory_iterator it(d, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
      const fs::path& p = it->path();
      if (p.extension() != ".rtbw" && p.extension() != ".rtbz") continue;
      std::error_code size_error;
      const uintmax_t size = fs::file_size(p, size_error);
      if (!size_error) files.emplace(p.filename().string(), size);
    }
  }
  uint64_t h = 14695981039346656037ull;
  auto mix = [&](std::string_view bytes) {
    for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  };
  for (const auto& [name, size] : files) {
    mix(name);
    mix(absl::StrCat(":", size, "\n"));
  }
  return absl::StrCat(files.size(), " files, ", absl::Hex(h, absl::kZeroPad16));
}

}  // namespace

absl::StatusOr<std::shared_ptr<const SyzygyTablebase>> SyzygyTablebase::Open(
    std::vector<std::string> dirs) {
  namespace fs = std::filesystem;
  std::vector<std::string> list;
  for (const std::string& d : dirs)
    for (const auto& part : absl::StrSplit(d, ':', absl::SkipEmpty())) list.emplace_back(part);
  if (list.empty()) return absl::InvalidArgumentError("no Syzygy directory given");

  std::vector<std::string> canonical;
  std::vector<std::string> wdl_names;
  for (const std::string& d : list) {
    std::error_code ec;
    const fs::file_status status = fs::status(d, ec);
    if (!fs::exists(status))
      return absl::NotFoundError(absl::StrCat("Syzygy directory '", d, "' does not exist"));
    if (!fs::is_directory(status))
      return absl::FailedPreconditionError(
          absl::StrCat("Syzygy path '", d, "' is not a directory"));
    if (::access(d.c_str(), R_OK | X_OK) != 0)
      return absl::PermissionDeniedError(
          absl::StrCat("Syzygy directory '", d, "' is not readable"));
    fs::directory_iterator it(d, ec);
    if (ec)
      return absl::PermissionDeniedError(
          absl::StrCat("Syzygy directory '", d, "' cannot be listed: ", ec.message()));
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) break;
      const fs::path& p = it->path();
      if (p.extension() == ".rtbw" && ::access(p.c_str(), R_OK) == 0)
        wdl_names.push_back(p.stem().string());
    }
    canonical.push_back(fs::weakly_canonical(d, ec).string());
  }
  const std::string fathom_path = absl::StrJoin(list, ":");
  if (wdl_names.empty())
    return absl::NotFoundError(
        absl::StrCat("no Syzygy tables (readable *.rtbw files) in '", fathom_path, "'"));
  std::sort(wdl_names.begin(), wdl_names.end());
  wdl_names.erase(std::unique(wdl_names.begin(), wdl_names.end()), wdl_names.end());
  const std::string key = absl::StrJoin(canonical, ":");

  std::lock_guard<std::mutex> lock(FathomMutex());
  Registry& registry = GetRegistry();
  if (registry.handle) {
    if (registry.key == key) return registry.handle;
    return absl::FailedPreconditionError(
        absl::StrCat("Syzygy tables are already open from '", registry.handle->fathom_path_,
                     "'; Fathom holds one set of tables per process"));
  }
  if (!tb_init(fathom_path.c_str()) || TB_LARGEST == 0) {
    // Nothing was registered, so initialising again later is safe.
    return absl::NotFoundError(
        absl::StrCat("Fathom found no usable Syzygy table in '", fathom_path, "'"));
  }
  std::shared_ptr<SyzygyTablebase> tb(new SyzygyTablebase());
  tb->dirs_ = list;
  tb->fathom_path_ = fathom_path;
  tb->largest_ = int(TB_LARGEST);
  tb->wdl_files_ = int(wdl_names.size());
  tb->digest_ = TablesDigest(list);

  // Warm-up: map every WDL table now, from this thread, so that ProbeWdl
  // never maps one concurrently (Debian's Fathom has no locking there).
  // Should no capture-free position be found for some table (never seen),
  // WDL probes are serialised too.
  std::mt19937_64 rng(20240605);
  for (const std::string& name : wdl_names) {
    std::string white, black;
    if (!ParseMaterial(name, &white, &black)) continue;
    if (int(white.size() + black.size()) > tb->largest_) continue;
    if (std::optional<Position> pos = WarmUpPosition(white, black, rng))
      FathomWdl(ToFathom(*pos));
    else
      tb->wdl_lock_free_ = false;
  }

  registry.handle = std::move(tb);
  registry.key = key;
  return registry.handle;
}

absl::StatusOr<WdlResult> SyzygyTablebase::ProbeWdl(const Position& pos) const {
  if (absl::Status s = CheckProbeable(pos, largest_); !s.ok()) return s;
  unsigned r;
  if (wdl_lock_free_) {
    r = FathomWdl(ToFathom(pos));
  } else {
    std::lock_guard<std::mutex> lock(FathomMutex());
    r = FathomWdl(ToFathom(pos));
  }
  if (r == TB_RESULT_FAILED)
    return absl::NotFoundError(absl::StrCat("not covered: no ", MaterialName(pos), " table"));
  return WdlResult{SyzygyWdl(int(r) - 2)};
}

absl::StatusOr<RootResult> SyzygyTablebase::ProbeRoot(const Position& pos,
                                                      const RootProbeOptions& options) const {
  if (absl::Status s = CheckProbeable(pos, largest_); !s.ok()) return s;
  if (std::optional<RootResult> terminal = TerminalRoot(pos)) return *terminal;
  RootResult out;
  const int h = pos.halfmove_clock();
  out.halfmove_clock = h;

  std::lock_guard<std::mutex> lock(FathomMutex());
  RootProber prober(options.exact_budget);
  const RawRoot* raw_ptr = prober.Raw(pos, /*charge=*/false);
  if (raw_ptr == nullptr) {
    if (!prober.error().empty()) return absl::InternalError(prober.error());
    const unsigned wdl = FathomWdl(ToFathom(pos));
    if (wdl != TB_RESULT_FAILED)
      return absl::NotFoundError(absl::StrCat("not covered: the ", MaterialName(pos),
                                              " DTZ table (.rtbz) is missing; WDL is ",
                                              ToString(SyzygyWdl(int(wdl) - 2))));
    return absl::NotFoundError(absl::StrCat("not covered: no ", MaterialName(pos), " table"));
  }
  const RawRoot raw = *raw_ptr;  // the cache may rehash below
  out.dtz = raw.dtz;

  // Moves: the position after each, as Lichess describes it.
  std::vector<Position> children;
  for (const RawMove& rm : raw.moves) {
    Position child = pos;  // DescribeRootMove plays the move on it
    TablebaseMove tm = DescribeRootMove(pos, rm.move, &child);
    if (tm.checkmate || tm.stalemate) {
      // Valued by DescribeRootMove.
    } else if (tm.zeroing) {
      // Clock 0 after the move: the WDL Fathom found for the child decides.
      tm.category = rm.v == 0    ? TbCategory::kDraw
                    : rm.v == 1  ? TbCategory::kLoss
                    : rm.v == -1 ? TbCategory::kWin
                    : rm.v > 0   ? TbCategory::kBlessedLoss
                                 : TbCategory::kCursedWin;
      if (h >= 100) tm.category = Demote(tm.category);
      if (const RawRoot* c = prober.Raw(child, /*charge=*/false)) tm.dtz = c->dtz;
      if (tm.dtz && *tm.dtz == 0) tm.precise_dtz = 0;
    } else {
      const int c = rm.v > 0 ? -(rm.v - 1) : rm.v < 0 ? -rm.v - 1 : 0;
      tm.dtz = c;
      if (c == 0) tm.precise_dtz = 0;
      tm.category = CategoryFromDtz(c, false, h + 1);
      if (IsAmbiguous(tm.category)) {
        tm.precise_dtz = SignedExact(prober, child, c, options.exact_budget > 0);
        if (tm.precise_dtz) tm.category = CategoryFromDtz(*tm.precise_dtz, true, h + 1);
      }
    }
    out.moves.push_back(std::move(tm));
    children.push_back(std::move(child));
  }

  // The position itself.
  out.category = CategoryFromDtz(out.dtz, false, h);
  const bool search_root =
      (IsAmbiguous(out.category) || options.precise_dtz) && options.exact_budget > 0;
  out.precise_dtz = SignedExact(prober, pos, out.dtz, search_root);
  if (out.precise_dtz) out.category = CategoryFromDtz(*out.precise_dtz, true, h);
  out.win_within_50 = out.category == TbCategory::kWin        ? std::optional<bool>(true)
                      : out.category == TbCategory::kMaybeWin ? std::nullopt
                                                              : std::optional<bool>(false);

  // Each move's precise_dtz: from the search above, or a search of its own.
  for (size_t i = 0; i < out.moves.size(); ++i) {
    TablebaseMove& tm = out.moves[i];
    if (tm.precise_dtz || !tm.dtz) continue;
    tm.precise_dtz = SignedExact(prober, children[i], *tm.dtz,
                                 options.precise_moves && options.exact_budget > 0);
  }

  // Best first, in the Lichess order.
  SortBestFirst(pos, &out.moves);
  return out;
}

}  // namespace arbiter
