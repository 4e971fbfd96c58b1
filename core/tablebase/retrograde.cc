#include "core/tablebase/retrograde.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <climits>
#include <cmath>
#include <filesystem>
#include <system_error>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/chess/bitboard.h"
#include "core/chess/movegen.h"
#include "core/tablebase/retrograde_store.h"

namespace arbiter {
namespace {

// Per-slot codes of RetrogradeTable::code_.
constexpr uint8_t kIllegalCode = 0;
constexpr uint8_t kDrawCode = 1;
constexpr uint8_t kLossCode = 2;   // + d, d in 0..100
constexpr uint8_t kWinCode = 102;  // + d, d in 1..100
constexpr uint8_t kCursedWinCode = 203;
constexpr uint8_t kBlessedLossCode = 204;

constexpr PieceType kPromotions[4] = {kQueen, kRook, kBishop, kKnight};

// DTZ of a move that zeroes the clock, seen from the mover, given the value
// of the position it leads to for the opponent (Syzygy's WdlToDtz).
int ZeroingDtz(Wdl after_for_opponent) {
  switch (after_for_opponent) {
    case Wdl::kLoss:
      return 1;
    case Wdl::kBlessedLoss:
      return 101;
    case Wdl::kDraw:
      return 0;
    case Wdl::kCursedWin:
      return -101;
    case Wdl::kWin:
      return -1;
  }
  return 0;
}

Wdl WdlOfDtz(int dtz) {
  if (dtz > 100) return Wdl::kCursedWin;
  if (dtz > 0) return Wdl::kWin;
  if (dtz == 0) return Wdl::kDraw;
  return dtz >= -100 ? Wdl::kLoss : Wdl::kBlessedLoss;
}

// Orders DTZ values by what the side to move prefers: the quickest win,
// then a draw, then the slowest loss. Cursed wins (> 100) sort below real
// wins and blessed losses (< -100) above real losses by the same rule.
int Preference(int dtz) {
  if (dtz > 0) return (1 << 20) - dtz;
  if (dtz < 0) return -(1 << 20) - dtz;
  return 0;
}

constexpr int kNoValue = INT_MIN;
int Better(int a, int b) {
  if (a == kNoValue) return b;
  if (b == kNoValue) return a;
  return Preference(a) >= Preference(b) ? a : b;
}

// Calls f(captured, promoter, promotion index, men after the move, their
// slot indices in `layout`) once per kind of move that leaves the table: a
// capture of man `captured` (-1: none), a promotion of pawn `promoter` (-1:
// none) to kPromotions[index], or both. One fixed order, shared by the
// generator and by RetrogradeTable::SubtableMaterials, so that a loaded
// table lists its sub-tables as a generated one does.
template <class F>
void ForEachExit(const Layout& layout, F&& f) {
  const int n = layout.men();
  for (int c = -1; c < n; ++c) {
    if (c >= 0 && layout.type(c) == kKing) continue;
    for (int p = -1; p < n; ++p) {
      if (p >= 0 && (layout.type(p) != kPawn || (c >= 0 && layout.color(c) == layout.color(p))))
        continue;
      if (c < 0 && p < 0) continue;  // a plain pawn push stays in this table
      for (int ti = 0; ti < (p >= 0 ? 4 : 1); ++ti) {
        // Men after the move, in our slot order without the captured one.
        std::vector<std::pair<Color, PieceType>> men;
        std::vector<int> index;
        for (int j = 0; j < n; ++j) {
          if (j == c) continue;
          men.push_back({layout.color(j), j == p ? kPromotions[ti] : layout.type(j)});
          index.push_back(j);
        }
        f(c, p, ti, men, index);
      }
    }
  }
}

Material MaterialOfMen(const std::vector<std::pair<Color, PieceType>>& men) {
  Material m;
  for (const auto& [color, type] : men) ++m.count[color][type];
  return m;
}

}  // namespace

const char* WdlName(Wdl wdl) {
  switch (wdl) {
    case Wdl::kLoss:
      return "loss";
    case Wdl::kBlessedLoss:
      return "blessed-loss";
    case Wdl::kDraw:
      return "draw";
    case Wdl::kCursedWin:
      return "cursed-win";
    case Wdl::kWin:
      return "win";
  }
  return "?";
}

absl::StatusOr<std::string> CanonicalSignature(std::string_view signature) {
  absl::StatusOr<Material> m = ParseMaterial(signature);
  if (!m.ok()) return m.status();
  return Canonical(*m).Name();
}

std::string SignatureOf(const Position& pos) { return Canonical(MaterialOf(pos)).Name(); }

const std::vector<std::string>& AllRetrogradeSignatures() {
  static const std::vector<std::string>* const all = new std::vector<std::string>{
      "KvK",   "KNvK",  "KBvK",  "KRvK",  "KQvK",  "KPvK",  "KNvKN", "KBvKN", "KBvKB",
      "KRvKN", "KRvKB", "KRvKR", "KQvKN", "KQvKB", "KQvKR", "KQvKQ", "KNNvK", "KBNvK",
      "KBBvK", "KRNvK", "KRBvK", "KRRvK", "KQNvK", "KQBvK", "KQRvK", "KQQvK", "KNvKP",
      "KBvKP", "KRvKP", "KQvKP", "KPvKP", "KNPvK", "KBPvK", "KRPvK", "KQPvK", "KPPvK",
  };
  return *all;
}

// ---------------------------------------------------------------------------
// Generation.
//
// A table is solved one slice at a time (one placement of the pawns; the
// whole table when pawnless). Moves inside a slice never zero the clock;
// every zeroing move (capture, pawn move, promotion) leaves the slice for a
// position whose value is already final: a sub-table, or a slice with more
// advanced pawns (solved earlier, as every pawn move advances a pawn).
//
// Inside a slice the 50-move rule turns WDL into a distance game. Each
// position gets the DTZ the mover can force (Preference order), from:
//   - zeroing moves: ZeroingDtz of the value reached (+1, +101, 0, -101, -1);
//   - checkmate: the mated side has DTZ 0 and the mating move counts +1;
//   - other moves: the successor's DTZ q continues to -(q + sign(q)).
// This is solved exactly by the classic retrograde sweep with per-position
// counters of unresolved moves, processing distances in increasing order
// (buckets): a position is won in d as soon as a successor lost in d - 1 is
// found; it is lost when its last move is refuted, in max(exit, d + 1).
// Why distances give the 50-move classes: "the winner can force mate or a
// winning zeroing move within 100 plies" is a reachability game, and the
// minimax distance is exactly the shortest horizon the winner can force,
// so the position wins iff DTZ <= 100. Exits into cursed wins enter at 101
// (100 + plies, as in Syzygy), so any real win <= 100 beats them, and any
// finite DTZ means a win once the 50-move rule is ignored (WdlOfDtz).
//
// Cooperative mate distances are shortest paths over the same moves, both
// sides' moves alike (a minimum, not minimax), by colour X: a checkmate by X
// is 0; a zeroing move into a position at distance d offers d + 1 (sub-tables
// and earlier slices are final); a move inside the slice into a position at
// distance d offers d + 1. The forward pass writes each position's best
// zeroing offer (0 for a checkmate by X) as a seed, then a multi-source
// breadth-first search by levels (Dial's buckets, since seeds start at
// different distances) runs over un-moves: a position taken from bucket d,
// if its distance is still d, lowers each predecessor above d + 1 to d + 1.
// Each position is expanded once, at its final distance.
//
// Pawnless tables fold the 8 board symmetries, so a slot stands for a class
// of positions. Two moves of one position can then reach the same slot: the
// counters count distinct successor slots and un-moves decrement each
// distinct predecessor slot once, which keeps the counting exact.
// ---------------------------------------------------------------------------
namespace retrograde_internal {

class TableBuilder {
 public:
  using Fetch =
      std::function<absl::StatusOr<std::shared_ptr<const RetrogradeTable>>(const Material&)>;

  // `slots_done`, when set, counts the slots solved so far (progress
  // reports read it while Build runs).
  TableBuilder(RetrogradeTable& table, Fetch fetch, std::atomic<uint64_t>* slots_done = nullptr)
      : t_(table), layout_(table.layout_), fetch_(std::move(fetch)), slots_done_(slots_done) {}

  absl::Status Build();

 private:
  // Working state of one slot during a slice.
  struct Work {
    int16_t val;    // > 0 win in val, < 0 loss in -val, 0 unknown
    uint8_t count;  // distinct successor slots not yet known to be won
    uint8_t flags;
  };
  enum : uint8_t {
    kLegal = 1,
    kDone = 2,
    kCannotLose = 4,   // a zeroing move draws or better
    kExitLoss101 = 8,  // the loser's best zeroing move reaches a cursed win
    kMated = 16,
  };
  static constexpr int kNoMate = RetrogradeTable::kNoMate;
  static constexpr uint8_t kNoMateCode = RetrogradeTable::kNoMateCode;
  // Largest storable mate distance (kNoMateCode, 255, means none).
  static constexpr int kMaxMateCode = 254;
  // Slices this large are split between two threads.
  static constexpr uint32_t kThreadedSlice = 1u << 16;

  // What the forward pass of one thread queues: the first sweep levels
  // (0 checkmates, 1 and 101 zeroing results) and the positions with a
  // mate distance seed, per colour.
  struct Queues {
    std::vector<uint32_t> level0, level1, level101;
    std::vector<uint32_t> seeds[2];
    bool overflow[2] = {};  // [Color]: a seed beyond kMaxMateCode
  };

  struct Board {
    Square sq[kMaxMen] = {};  // all kMaxMen set, so copies need no length
    Color stm = kWhite;
    Bitboard occ = 0;
    Bitboard side[2] = {};
  };
  struct Mv {
    int man;
    Square from, to;
    int captured;     // man index or -1
    PieceType promo;  // kNoPieceType unless a promotion
    bool double_push;
  };
  // Where a zeroing move lands: the table, whether colours swap, and which
  // of our men fills each of its slots.
  struct Exit {
    const RetrogradeTable* table = nullptr;
    bool flip = false;
    int men = 0;
    std::array<int8_t, kMaxMen> src{};
  };
  struct Result {
    Wdl wdl;                  // for the side to move after the move
    std::array<int, 2> mate;  // [Color], our orientation; kNoMate if none
  };

  absl::Status PrepareExits();
  const Exit& ExitFor(int captured, int promoter, PieceType promo) const {
    int ti = 0;
    while (promoter >= 0 && kPromotions[ti] != promo) ++ti;
    return exits_[captured + 1][promoter + 1][ti];
  }

  void BuildSlice(uint64_t base, const Square* pawn_sq);
  bool DecodeInSlice(uint32_t r, Board& b) const;
  void ForwardRange(uint32_t begin, uint32_t end, Queues& q);
  void Forward(uint32_t r, const Board& b, Queues& q);
  void Sweep();
  void MateDistances(Color c);
  void Store(uint64_t base);

  Bitboard Attacks(int man, Square s, Bitboard occ) const {
    PieceType t = layout_.type(man);
    return t == kPawn ? PawnAttacks(layout_.color(man), s) : arbiter::Attacks(t, s, occ);
  }
  bool Attacked(const Board& b, Square target, Color by, Bitboard occ, int ignore) const;
  bool InCheck(const Board& b) const {
    return Attacked(b, b.sq[b.stm == kWhite ? 0 : 1], ~b.stm, b.occ, -1);
  }
  int ManAt(const Board& b, Square s) const {
    for (int i = 0; i < layout_.men(); ++i)
      if (b.sq[i] == s) return i;
    return -1;
  }
  // Calls f(const Mv&) for every legal move until f returns false.
  template <class F>
  bool ForEachMove(const Board& b, F&& f) const;
  // Calls f(man, from, pred_slot_in_slice) for every move that could have
  // led here without zeroing; `dup` tells whether slots may repeat.
  template <class F>
  void ForEachUnmove(uint32_t r, const Board& b, bool* dup, F&& f) const;

  Result Lookup(const Exit& e, const Square* sq, Color stm) const;

  Result Zeroing(const Board& b, const Mv& m) const;

  RetrogradeTable& t_;
  const Layout& layout_;
  Fetch fetch_;
  std::atomic<uint64_t>* const slots_done_;
  // [captured + 1][promoter + 1][promotion index]
  Exit exits_[kMaxMen + 1][kMaxMen + 1][4];

  uint64_t base_ = 0;  // first slot of the slice being solved
  Square pawn_sq_[kMaxMen] = {};
  std::vector<Work> work_;
  std::vector<std::vector<uint32_t>> buckets_;
  // [Color]: mate distance buckets (slots in the slice), reused by slices.
  std::vector<std::vector<uint32_t>> mate_buckets_[2];
  // [Color]: a distance beyond kMaxMateCode was met (Build then fails).
  bool mate_overflow_[2] = {};
  // [Color]: mate distances of the slice being solved, one byte per slot.
  std::vector<uint8_t> mate_[2];
  // [Color]: some position of the table has a mate distance.
  bool can_mate_[2] = {};
};

absl::Status TableBuilder::PrepareExits() {
  absl::Status status;
  ForEachExit(
      layout_, [&](int c, int p, int ti, const std::vector<std::pair<Color, PieceType>>& men,
                   const std::vector<int>& index) {
        if (!status.ok()) return;
        const Material after = MaterialOfMen(men);
        const Material canonical = Canonical(after);
        absl::StatusOr<std::shared_ptr<const RetrogradeTable>> sub = fetch_(canonical);
        if (!sub.ok()) {
          status = sub.status();
          return;
        }
        if (std::find(t_.subtables_.begin(), t_.subtables_.end(), *sub) == t_.subtables_.end())
          t_.subtables_.push_back(*sub);
        Exit& e = exits_[c + 1][p + 1][ti];
        e.table = sub->get();
        e.flip = !(after == canonical);
        const Layout& target = e.table->layout_;
        e.men = target.men();
        std::vector<bool> used(men.size(), false);
        for (int k = 0; k < target.men(); ++k) {
          for (size_t j = 0; j < men.size(); ++j) {
            Color color = e.flip ? ~men[j].first : men[j].first;
            if (!used[j] && color == target.color(k) && men[j].second == target.type(k)) {
              used[j] = true;
              e.src[k] = int8_t(index[j]);
              break;
            }
          }
        }
      });
  return status;
}

bool TableBuilder::Attacked(const Board& b, Square target, Color by, Bitboard occ,
                            int ignore) const {
  for (int j = 0; j < layout_.men(); ++j) {
    if (j == ignore || layout_.color(j) != by) continue;
    if (Attacks(j, b.sq[j], occ) & SquareBB(target)) return true;
  }
  return false;
}

template <class F>
bool TableBuilder::ForEachMove(const Board& b, F&& f) const {
  const Color us = b.stm, them = ~us;
  const Square ksq = b.sq[us == kWhite ? 0 : 1];
  // Squares the enemy covers with our king lifted, so that sliders see
  // through it: the king may go nowhere in there.
  Bitboard danger = 0, sliders = 0;
  const Bitboard occ_no_king = b.occ ^ SquareBB(ksq);
  for (int j = 0; j < layout_.men(); ++j) {
    if (layout_.color(j) != them) continue;
    danger |= Attacks(j, b.sq[j], occ_no_king);
    PieceType t = layout_.type(j);
    if (t == kBishop || t == kRook || t == kQueen) sliders |= SquareBB(b.sq[j]);
  }
  const bool in_check = danger & SquareBB(ksq);
  const int forward = us == kWhite ? 8 : -8;

  for (int i = 0; i < layout_.men(); ++i) {
    if (layout_.color(i) != us) continue;
    const Square from = b.sq[i];
    const PieceType type = layout_.type(i);
    if (type == kKing) {
      for (Bitboard to_set = KingAttacks(from) & ~b.side[us] & ~danger; to_set;) {
        Square to = PopLsb(to_set);
        if (!f(Mv{i, from, to, ManAt(b, to), kNoPieceType, false})) return false;
      }
      continue;
    }
    // Only a man on a line from our king to an enemy slider can be pinned.
    const bool verify = in_check || (LineBB(ksq, from) & sliders);
    auto legal = [&](Square to, int captured) {
      if (!verify) return true;
      const Bitboard occ = (b.occ ^ SquareBB(from)) | SquareBB(to);
      Board after = b;
      after.sq[i] = to;
      return !Attacked(after, ksq, them, occ, captured);
    };
    if (type != kPawn) {
      for (Bitboard to_set = Attacks(i, from, b.occ) & ~b.side[us]; to_set;) {
        Square to = PopLsb(to_set);
        int captured = ManAt(b, to);
        if (legal(to, captured) && !f(Mv{i, from, to, captured, kNoPieceType, false})) return false;
      }
      continue;
    }
    auto emit = [&](Square to, int captured, bool double_push) {
      if (!legal(to, captured)) return true;
      if (RelativeRank(us, to) == 7) {
        for (PieceType promo : kPromotions)
          if (!f(Mv{i, from, to, captured, promo, false})) return false;
        return true;
      }
      return f(Mv{i, from, to, captured, kNoPieceType, double_push});
    };
    const Square one = Square(from + forward);
    if (!(b.occ & SquareBB(one))) {
      if (!emit(one, -1, false)) return false;
      const Square two = Square(one + forward);
      if (RelativeRank(us, from) == 1 && !(b.occ & SquareBB(two)) && !emit(two, -1, true))
        return false;
    }
    for (Bitboard to_set = PawnAttacks(us, from) & b.side[them]; to_set;) {
      Square to = PopLsb(to_set);
      if (!emit(to, ManAt(b, to), false)) return false;
    }
  }
  return true;
}

template <class F>
void TableBuilder::ForEachUnmove(uint32_t r, const Board& b, bool* dup, F&& f) const {
  const Color mover = ~b.stm;
  // In pawnless tables a move of White's king, or any move while it stands
  // on the diagonal, can change the symmetry that files the position.
  const bool pawnless = !layout_.has_pawns();
  const bool diagonal = pawnless && Layout::OnDiagonal(b.sq[0]);
  // With the king on the diagonal the canonical slot is the smaller of the
  // plain and the reflected one; other men's moves shift both by a stride.
  const int64_t transposed = diagonal ? int64_t(layout_.TransposedSlot(b.sq, b.stm) ^ 1) : 0;
  *dup = diagonal;
  for (int j = 0; j < layout_.first_pawn(); ++j) {
    if (layout_.color(j) != mover) continue;
    const Square to = b.sq[j];
    for (Bitboard from_set = Attacks(j, to, b.occ) & ~b.occ; from_set;) {
      const Square from = PopLsb(from_set);
      uint32_t p;
      if (pawnless && j == 0) {
        Square sq[kMaxMen];
        for (int k = 0; k < kMaxMen; ++k) sq[k] = b.sq[k];
        sq[j] = from;
        p = uint32_t(layout_.Index(sq, mover));
        *dup = true;
      } else {
        const int64_t stride = int64_t(layout_.stride(j));
        p = uint32_t(int64_t(r ^ 1) + (int64_t(from) - int64_t(to)) * stride);
        if (diagonal) {
          const int64_t shift = int64_t(Layout::Transpose(from)) - int64_t(Layout::Transpose(to));
          p = std::min(p, uint32_t(transposed + shift * stride));
        }
      }
      f(j, from, p);
    }
  }
}

TableBuilder::Result TableBuilder::Lookup(const Exit& e, const Square* sq, Color stm) const {
  Square t[kMaxMen];
  for (int k = 0; k < e.men; ++k) t[k] = e.flip ? Flip(sq[e.src[k]]) : sq[e.src[k]];
  const uint64_t slot = e.table->layout_.Index(t, e.flip ? ~stm : stm);
  Result res;
  res.wdl = e.table->WdlAt(slot);
  for (Color c : {kWhite, kBlack}) res.mate[c] = e.table->MateAt(slot, e.flip ? ~c : c);
  return res;
}

TableBuilder::Result TableBuilder::Zeroing(const Board& b, const Mv& m) const {
  Square sq[kMaxMen];
  for (int k = 0; k < kMaxMen; ++k) sq[k] = b.sq[k];
  sq[m.man] = m.to;
  const Color them = ~b.stm;
  if (m.captured >= 0 || m.promo != kNoPieceType)
    return Lookup(ExitFor(m.captured, m.promo != kNoPieceType ? m.man : -1, m.promo), sq, them);

  // A pawn push: the position after it is in this table, in a slice
  // solved before this one.
  const uint64_t slot = layout_.Index(sq, them);
  Result res{t_.WdlAt(slot), {t_.MateAt(slot, kWhite), t_.MateAt(slot, kBlack)}};
  if (!m.double_push) return res;

  // After a double push the opponent may capture en passant. The stored
  // value is for the position without that right; the real one adds the
  // e.p. captures to the moves available (Syzygy's convention). When the
  // capture is the only legal move, the stored value (a stalemate or a
  // checkmate) must not be counted.
  Board q = b;
  q.sq[m.man] = m.to;
  q.occ = (b.occ ^ SquareBB(m.from)) | SquareBB(m.to);
  q.side[b.stm] = (b.side[b.stm] ^ SquareBB(m.from)) | SquareBB(m.to);
  q.stm = them;
  const Square ep = Square((m.from + m.to) / 2);
  const Square their_king = q.sq[them == kWhite ? 0 : 1];
  int best = kNoValue;  // best e.p. capture, as a Wdl of the position after it for `them`
  std::array<int, 2> ep_mate{kNoMate, kNoMate};  // through an e.p. capture
  for (int e = layout_.first_pawn(); e < layout_.men(); ++e) {
    if (layout_.color(e) != them || !(PawnAttacks(b.stm, ep) & SquareBB(q.sq[e]))) continue;
    // q.sq[e] is a pawn of `them` beside the pushed pawn: it may take it.
    Square after[kMaxMen];
    for (int k = 0; k < kMaxMen; ++k) after[k] = q.sq[k];
    after[e] = ep;
    Board a = q;
    a.sq[e] = ep;
    const Bitboard occ = (q.occ ^ SquareBB(q.sq[e]) ^ SquareBB(m.to)) | SquareBB(ep);
    if (Attacked(a, their_king, b.stm, occ, m.man)) continue;
    Result r = Lookup(ExitFor(m.man, -1, kNoPieceType), after, b.stm);
    best = std::max(best, -int(r.wdl));
    for (Color c : {kWhite, kBlack})
      ep_mate[c] = std::min(ep_mate[c], RetrogradeTable::NextPly(r.mate[c]));
  }
  if (best == kNoValue) return res;
  const bool other_moves = !ForEachMove(q, [](const Mv&) { return false; });
  if (!other_moves) return Result{Wdl(best), ep_mate};
  res.wdl = Wdl(std::max(int(res.wdl), best));
  for (Color c : {kWhite, kBlack}) res.mate[c] = std::min(res.mate[c], ep_mate[c]);
  return res;
}

bool TableBuilder::DecodeInSlice(uint32_t r, Board& b) const {
  const int n = layout_.men();
  b.stm = Color(r & 1);
  uint32_t x = r >> 1;
  int i = 0;
  if (!layout_.has_pawns()) {
    static const std::array<Square, 10> triangle = [] {
      std::array<Square, 10> q{};
      int k = 0;
      for (int s = 0; s < 64; ++s)
        if (Layout::InTriangle(Square(s))) q[k++] = Square(s);
      return q;
    }();
    b.sq[0] = triangle[x % 10];
    x /= 10;
    i = 1;
  }
  for (; i < layout_.first_pawn(); ++i, x >>= 6) b.sq[i] = Square(x & 63);
  for (; i < n; ++i) b.sq[i] = pawn_sq_[i];
  b.occ = 0;
  b.side[0] = b.side[1] = 0;
  for (int j = 0; j < n; ++j) {
    const Bitboard bb = SquareBB(b.sq[j]);
    if (b.occ & bb) return false;
    b.occ |= bb;
    b.side[layout_.color(j)] |= bb;
  }
  return true;
}

void TableBuilder::Forward(uint32_t r, const Board& b, Queues& q) {
  Work& w = work_[r];
  int best_exit = kNoValue;
  std::array<int, 2> seed{kNoMate, kNoMate};  // mate distances through zeroing moves
  bool any_move = false;
  uint32_t succ[kMaxMoves];
  int n_succ = 0;
  bool dup = false;
  const bool pawnless = !layout_.has_pawns();
  const bool diagonal = pawnless && Layout::OnDiagonal(b.sq[0]);
  const int64_t transposed = diagonal ? int64_t(layout_.TransposedSlot(b.sq, b.stm) ^ 1) : 0;
  dup = diagonal;
  ForEachMove(b, [&](const Mv& m) {
    any_move = true;
    if (m.captured >= 0 || layout_.type(m.man) == kPawn) {
      Result res = Zeroing(b, m);
      best_exit = Better(best_exit, ZeroingDtz(res.wdl));
      for (Color c : {kWhite, kBlack})
        seed[c] = std::min(seed[c], RetrogradeTable::NextPly(res.mate[c]));
      return true;
    }
    if (pawnless && m.man == 0) {
      Square sq[kMaxMen];
      for (int k = 0; k < kMaxMen; ++k) sq[k] = b.sq[k];
      sq[m.man] = m.to;
      succ[n_succ++] = uint32_t(layout_.Index(sq, ~b.stm));
      dup = true;
    } else {
      const int64_t stride = int64_t(layout_.stride(m.man));
      uint32_t q = uint32_t(int64_t(r ^ 1) + (int64_t(m.to) - int64_t(m.from)) * stride);
      if (diagonal) {
        const int64_t shift = int64_t(Layout::Transpose(m.to)) - int64_t(Layout::Transpose(m.from));
        q = std::min(q, uint32_t(transposed + shift * stride));
      }
      succ[n_succ++] = q;
    }
    return true;
  });
  if (dup) {
    std::sort(succ, succ + n_succ);
    n_succ = int(std::unique(succ, succ + n_succ) - succ);
  }

  if (!any_move) {
    if (InCheck(b)) {
      w.flags |= kMated;
      q.level0.push_back(r);
      seed[~b.stm] = 0;  // the other side has mated
    } else {
      w.flags |= kDone;  // stalemate: a draw, and nobody mates from here
    }
  } else if (best_exit != kNoValue && best_exit > 0) {
    w.val = int16_t(best_exit);
    (best_exit == 1 ? q.level1 : q.level101).push_back(r);
  } else {
    if (best_exit == 0) w.flags |= kCannotLose;
    if (best_exit == -101) w.flags |= kExitLoss101;
    w.count = uint8_t(n_succ);
    if (n_succ == 0) {
      if (w.flags & kCannotLose) {
        w.flags |= kDone;
      } else {
        // Every move zeroes the clock and loses.
        const int mag = -best_exit;
        w.val = int16_t(-mag);
        (mag == 1 ? q.level1 : q.level101).push_back(r);
      }
    }
  }
  for (Color c : {kWhite, kBlack}) {
    uint8_t code = kNoMateCode;
    if (seed[c] < kNoMate) {
      if (seed[c] > kMaxMateCode) {
        q.overflow[c] = true;
      } else {
        code = uint8_t(seed[c]);
        q.seeds[c].push_back(r);
      }
    }
    mate_[c][r] = code;
  }
}

void TableBuilder::Sweep() {
  size_t last = 101;  // highest level anything may have been pushed to
  for (size_t d = 0; d <= last; ++d) {
    // Pushes go to d + 1 or 101 at most; keep the outer vector from
    // reallocating under the loop.
    if (buckets_.size() < d + 2) buckets_.resize(d + 2);
    for (size_t k = 0; k < buckets_[d].size(); ++k) {
      const uint32_t r = buckets_[d][k];
      Work& w = work_[r];
      if (w.flags & kDone) continue;
      const bool mated = w.flags & kMated;
      if (!mated && size_t(w.val > 0 ? w.val : -w.val) != d) continue;  // superseded
      w.flags |= kDone;
      Board b;
      DecodeInSlice(r, b);
      bool dup;
      if (!mated && w.val > 0) {
        // Won for the side to move here: one more refuted move for every
        // predecessor (each distinct predecessor slot once).
        uint32_t preds[kMaxMoves];
        int n = 0;
        ForEachUnmove(r, b, &dup, [&](int, Square, uint32_t p) { preds[n++] = p; });
        if (dup) {
          std::sort(preds, preds + n);
          n = int(std::unique(preds, preds + n) - preds);
        }
        for (int k2 = 0; k2 < n; ++k2) {
          Work& y = work_[preds[k2]];
          if (!(y.flags & kLegal) || (y.flags & kDone) || y.val != 0) continue;
          assert(y.count > 0);
          if (--y.count == 0 && !(y.flags & kCannotLose)) {
            const int mag = std::max<int>(int(d) + 1, (y.flags & kExitLoss101) ? 101 : 1);
            y.val = int16_t(-mag);
            buckets_[mag].push_back(preds[k2]);
            last = std::max(last, size_t(mag));
          }
        }
      } else {
        // Lost for the side to move here: every predecessor wins in d + 1.
        const int next = int(d) + 1;
        ForEachUnmove(r, b, &dup, [&](int, Square, uint32_t p) {
          Work& y = work_[p];
          if (!(y.flags & kLegal) || (y.flags & kDone)) return;
          if (y.val > 0 && y.val <= next) return;
          assert(y.val >= 0);
          y.val = int16_t(next);
          buckets_[next].push_back(p);
          last = std::max(last, size_t(next));
        });
      }
    }
    std::vector<uint32_t>().swap(buckets_[d]);
  }
}

void TableBuilder::MateDistances(Color c) {
  uint8_t* dist = mate_[c].data();
  std::vector<std::vector<uint32_t>>& buckets = mate_buckets_[c];
  for (int d = 0; d <= kMaxMateCode; ++d) {
    std::vector<uint32_t>& bucket = buckets[d];
    // Pushes go to d + 1 only, so this bucket does not grow while read.
    for (size_t k = 0; k < bucket.size(); ++k) {
      const uint32_t r = bucket[k];
      if (dist[r] != d) continue;  // superseded by a shorter path
      Board b;
      DecodeInSlice(r, b);
      bool dup;
      if (d == kMaxMateCode) {
        // A legal predecessor not reached yet would be at 255: unstorable.
        ForEachUnmove(r, b, &dup, [&](int, Square, uint32_t p) {
          if (dist[p] == kNoMateCode) mate_overflow_[c] = true;
        });
        continue;
      }
      const uint8_t next = uint8_t(d + 1);
      ForEachUnmove(r, b, &dup, [&](int, Square, uint32_t p) {
        if (dist[p] > next) {
          dist[p] = next;
          buckets[next].push_back(p);
        }
      });
    }
    bucket.clear();
  }
}

void TableBuilder::Store(uint64_t base) {
  for (uint32_t r = 0; r < work_.size(); ++r) {
    const Work& w = work_[r];
    if (!(w.flags & kLegal)) continue;
    const uint64_t slot = base + r;
    ++t_.positions_;
    uint8_t code = kDrawCode;
    if (w.flags & kMated) {
      code = kLossCode;
    } else if (w.val > 0) {
      code = w.val <= 100 ? uint8_t(kWinCode + w.val) : kCursedWinCode;
    } else if (w.val < 0) {
      code = w.val >= -100 ? uint8_t(kLossCode - w.val) : kBlessedLossCode;
    }
    if (code == kCursedWinCode || code == kBlessedLossCode) t_.long_dtz_[slot] = w.val;
    t_.code_.Mutable(slot) = code;
    for (Color c : {kWhite, kBlack}) {
      t_.mate_.Mutable(2 * slot + c) = mate_[c][r];
      can_mate_[c] |= mate_[c][r] != kNoMateCode;
    }
  }
}

void TableBuilder::ForwardRange(uint32_t begin, uint32_t end, Queues& q) {
  const bool pawnless = !layout_.has_pawns();
  for (uint32_t r = begin; r < end; ++r) {
    Board b;
    if (!DecodeInSlice(r, b)) continue;
    // The side not to move must not be in check.
    if (Attacked(b, b.sq[b.stm == kWhite ? 1 : 0], b.stm, b.occ, -1)) continue;
    // A placement with White's king on the diagonal is stored once, under
    // the smaller of its slot and its reflection's.
    if (pawnless && Layout::OnDiagonal(b.sq[0]) && layout_.Index(b.sq, b.stm) != base_ + r)
      continue;
    work_[r].flags = kLegal;
    Forward(r, b, q);
  }
}

void TableBuilder::BuildSlice(uint64_t base, const Square* pawn_sq) {
  base_ = base;
  std::copy(pawn_sq, pawn_sq + kMaxMen, pawn_sq_);
  const uint32_t size = uint32_t(layout_.slice_size());
  work_.assign(size, Work{0, 0, 0});
  // 0 marks the illegal slots as well as the checkmates in mate_: both are
  // final, so a search step tests one byte. Forward sets the legal slots.
  for (Color c : {kWhite, kBlack}) mate_[c].assign(size, 0);

  // Forward pass. Each position writes only its own work_ entry and its
  // own mate distance bytes.
  Queues queues[2];
  if (size >= kThreadedSlice) {
    const uint32_t mid = (size / 2) & ~63u;
    std::thread upper([&] { ForwardRange(mid, size, queues[1]); });
    ForwardRange(0, mid, queues[0]);
    upper.join();
  } else {
    ForwardRange(0, size, queues[0]);
  }
  buckets_.assign(102, {});
  for (Queues& q : queues) {
    buckets_[0].insert(buckets_[0].end(), q.level0.begin(), q.level0.end());
    buckets_[1].insert(buckets_[1].end(), q.level1.begin(), q.level1.end());
    buckets_[101].insert(buckets_[101].end(), q.level101.begin(), q.level101.end());
    for (Color c : {kWhite, kBlack}) {
      const uint8_t* dist = mate_[c].data();
      for (uint32_t r : q.seeds[c]) mate_buckets_[c][dist[r]].push_back(r);
      mate_overflow_[c] |= q.overflow[c];
    }
  }

  // Each mate distance search writes only its own colour's bytes and
  // buckets, the sweep only work_ and buckets_: all three can overlap.
  if (size >= kThreadedSlice) {
    std::thread white([this] { MateDistances(kWhite); });
    std::thread black([this] { MateDistances(kBlack); });
    Sweep();
    white.join();
    black.join();
  } else {
    Sweep();
    MateDistances(kWhite);
    MateDistances(kBlack);
  }
  Store(base);
}

absl::Status TableBuilder::Build() {
  InitBitboards();
  if (absl::Status s = PrepareExits(); !s.ok()) return s;
  t_.code_ = TableArray(layout_.size(), kIllegalCode);
  // Both colours interleaved while building (a probe of both during the
  // forward pass reads one cache line); compacted at the end.
  t_.mate_ = TableArray(2 * layout_.size(), kNoMateCode);
  t_.mate_stride_ = 2;
  t_.mate_offset_ = {0, 1};
  for (Color c : {kWhite, kBlack}) mate_buckets_[c].assign(kMaxMateCode + 1, {});

  // Slices with the pawns further advanced first: every pawn push leads
  // from a slice to a more advanced one.
  const int n = layout_.men(), first = layout_.first_pawn();
  uint64_t slices = layout_.size() / layout_.slice_size();
  std::vector<std::pair<int, uint64_t>> order;  // (advance, slice number)
  for (uint64_t s = 0; s < slices; ++s) {
    Square sq[kMaxMen];
    Color stm;
    layout_.Decode(s * layout_.slice_size(), sq, &stm);
    int advance = 0;
    Bitboard seen = 0;
    bool clash = false;
    for (int i = first; i < n; ++i) {
      advance += RelativeRank(layout_.color(i), sq[i]);
      clash |= (seen & SquareBB(sq[i])) != 0;
      seen |= SquareBB(sq[i]);
    }
    if (!clash) {
      order.push_back({advance, s});
    } else if (slots_done_) {
      slots_done_->fetch_add(layout_.slice_size(), std::memory_order_relaxed);
    }
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [advance, s] : order) {
    Square sq[kMaxMen] = {};
    Color stm;
    layout_.Decode(s * layout_.slice_size(), sq, &stm);
    BuildSlice(s * layout_.slice_size(), sq);
    if (slots_done_) slots_done_->fetch_add(layout_.slice_size(), std::memory_order_relaxed);
  }
  work_ = {};
  buckets_ = {};
  for (Color c : {kWhite, kBlack}) {
    mate_buckets_[c] = {};
    if (mate_overflow_[c]) {
      return absl::OutOfRangeError(absl::StrCat(
          t_.signature_, ": a cooperative mate distance exceeds ", kMaxMateCode, " plies"));
    }
  }
  for (Color c : {kWhite, kBlack}) mate_[c] = {};
  // Keep only the colours that can mate somewhere.
  if (!can_mate_[kWhite] || !can_mate_[kBlack]) {
    const int keep = can_mate_[kWhite] ? 0 : can_mate_[kBlack] ? 1 : -1;
    std::vector<uint8_t> kept;
    if (keep >= 0) {
      kept.resize(layout_.size());
      for (uint64_t slot = 0; slot < layout_.size(); ++slot) kept[slot] = t_.mate_[2 * slot + keep];
    }
    t_.mate_ = TableArray(std::move(kept));
    t_.mate_stride_ = keep >= 0 ? 1 : 0;
    for (Color c : {kWhite, kBlack}) t_.mate_offset_[c] = int8_t(c == keep ? 0 : -1);
  }
  return absl::OkStatus();
}

}  // namespace retrograde_internal

// ---------------------------------------------------------------------------
// Tables and probes.
// ---------------------------------------------------------------------------

RetrogradeTable::RetrogradeTable(const Material& canonical)
    : signature_(canonical.Name()), layout_(canonical) {}

std::vector<Material> RetrogradeTable::SubtableMaterials(const Layout& layout) {
  std::vector<Material> out;
  ForEachExit(layout, [&](int, int, int, const std::vector<std::pair<Color, PieceType>>& men,
                          const std::vector<int>&) {
    const Material canonical = Canonical(MaterialOfMen(men));
    if (std::find(out.begin(), out.end(), canonical) == out.end()) out.push_back(canonical);
  });
  return out;
}

std::vector<std::string> RetrogradeTable::SubtableSignatures(std::string_view signature) {
  std::vector<std::string> names;
  absl::StatusOr<Material> m = ParseMaterial(signature);
  if (!m.ok() || m->men() > kMaxMen) return names;
  for (const Material& sub : SubtableMaterials(Layout(Canonical(*m)))) names.push_back(sub.Name());
  return names;
}

absl::StatusOr<std::shared_ptr<const RetrogradeTable>> RetrogradeTable::Generate(
    std::string_view signature) {
  RetrogradeSolver solver;
  return solver.Table(signature);
}

size_t RetrogradeTable::bytes() const {
  return sizeof(*this) + code_.size() + mate_.size() +
         long_dtz_.size() * (sizeof(uint64_t) + sizeof(int16_t) + 2 * sizeof(void*)) +
         subtables_.capacity() * sizeof(subtables_[0]);
}

void RetrogradeTable::CodeTally::Add(const uint8_t* codes, size_t count) {
  // Byte-wide counters over blocks of 255 codes, so that the loop
  // vectorises without widening.
  for (size_t begin = 0; begin < count; begin += 255) {
    const size_t end = std::min(count, begin + 255);
    uint8_t block_legal = 0, block_long = 0, block_out = 0;
    for (size_t i = begin; i < end; ++i) {
      const uint8_t code = codes[i];
      block_legal += code != kIllegalCode;
      block_long += code >= kCursedWinCode;
      block_out += code > kBlessedLossCode;
    }
    legal += block_legal;
    long_codes += block_long;
    out_of_range += block_out;
  }
}

std::string RetrogradeTable::Inconsistency(const CodeTally& codes) const {
  if (code_.size() != layout_.size())
    return absl::StrCat(code_.size(), " code bytes for ", layout_.size(), " slots");
  const bool mate_layout_ok =
      (mate_stride_ == 0 && mate_offset_[kWhite] < 0 && mate_offset_[kBlack] < 0) ||
      (mate_stride_ == 1 && mate_offset_[kWhite] + mate_offset_[kBlack] == -1 &&
       std::min(mate_offset_[kWhite], mate_offset_[kBlack]) == -1) ||
      (mate_stride_ == 2 && mate_offset_[kWhite] == 0 && mate_offset_[kBlack] == 1);
  if (!mate_layout_ok) {
    return absl::StrCat("mate-distance stride ", int(mate_stride_), " with offsets ",
                        int(mate_offset_[0]), ", ", int(mate_offset_[1]));
  }
  if (mate_.size() != code_.size() * size_t(mate_stride_))
    return absl::StrCat(mate_.size(), " mate-distance bytes for ", code_.size(), " slots");
  const auto [legal, long_codes, out_of_range] = codes;
  if (out_of_range) return absl::StrCat(out_of_range, " code bytes out of range");
  if (legal != positions_)
    return absl::StrCat(positions_, " positions counted, ", legal, " legal slots stored");
  if (long_codes != long_dtz_.size())
    return absl::StrCat(long_codes, " cursed or blessed slots, ", long_dtz_.size(), " DTZ entries");
  for (const auto& [slot, dtz] : long_dtz_) {
    const uint8_t code = slot < code_.size() ? code_[slot] : kIllegalCode;
    if (!(code == kCursedWinCode && dtz > 100) && !(code == kBlessedLossCode && dtz < -100))
      return absl::StrCat("DTZ entry ", dtz, " for slot ", slot, " does not match its code");
  }
  return "";
}

Wdl RetrogradeTable::WdlAt(uint64_t slot) const {
  const uint8_t code = code_[slot];
  if (code == kDrawCode || code == kIllegalCode) return Wdl::kDraw;
  if (code <= kWinCode) return Wdl::kLoss;
  if (code <= kWinCode + 100) return Wdl::kWin;
  return code == kCursedWinCode ? Wdl::kCursedWin : Wdl::kBlessedLoss;
}

int RetrogradeTable::DtzAt(uint64_t slot) const {
  const uint8_t code = code_[slot];
  if (code == kDrawCode || code == kIllegalCode) return 0;
  if (code <= kWinCode) return -(code - kLossCode);
  if (code <= kWinCode + 100) return code - kWinCode;
  return long_dtz_.at(slot);
}

const RetrogradeTable* RetrogradeTable::Subtable(const Material& m) const {
  const Material canonical = Canonical(m);
  for (const auto& sub : subtables_)
    if (sub->layout_.material() == canonical) return sub.get();
  return nullptr;
}

const RetrogradeTable* RetrogradeTable::TableOf(const Material& m) const {
  if (m == layout_.material() || m.Swapped() == layout_.material()) return this;
  return Subtable(m);
}

absl::StatusOr<std::pair<uint64_t, bool>> RetrogradeTable::Locate(const Position& pos) const {
  if (pos.castling_rights() != kNoCastling)
    return absl::InvalidArgumentError(
        "positions with castling rights are not in retrograde tables");
  const Material m = MaterialOf(pos);
  bool flip;
  if (m == layout_.material()) {
    flip = false;
  } else if (m.Swapped() == layout_.material()) {
    flip = true;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("the position is ", m.Name(), ", not of the table's signature ", signature_));
  }
  if (pos.pieces(kPawn) & (RankBB(0) | RankBB(7)))
    return absl::InvalidArgumentError("a pawn stands on its first or last rank");
  Square sq[kMaxMen];
  Bitboard taken = 0;
  for (int i = 0; i < layout_.men(); ++i) {
    const Color color = flip ? ~layout_.color(i) : layout_.color(i);
    const Bitboard candidates = pos.pieces(color, layout_.type(i)) & ~taken;
    const Square s = Lsb(candidates);
    taken |= SquareBB(s);
    sq[i] = flip ? Flip(s) : s;
  }
  const Color stm = flip ? ~pos.side_to_move() : pos.side_to_move();
  const uint64_t slot = layout_.Index(sq, stm);
  if (code_[slot] == kIllegalCode)
    return absl::InvalidArgumentError("the position is illegal (the side not to move is in check)");
  return std::make_pair(slot, flip);
}

absl::StatusOr<RetrogradeTable::Outcome> RetrogradeTable::Evaluate(const Position& pos) const {
  absl::StatusOr<std::pair<uint64_t, bool>> located = Locate(pos);
  if (!located.ok()) return located.status();
  const auto [slot, flip] = *located;
  Outcome stored;
  stored.wdl = WdlAt(slot);
  stored.dtz = DtzAt(slot);
  for (Color c : {kWhite, kBlack}) stored.mate[c] = MateAt(slot, flip ? ~c : c);
  if (pos.ep_square() == kNoSquare) return stored;

  // The stored value is for the position without the e.p. right (see the
  // header); add the e.p. captures, which lead into a sub-table.
  int best = kNoValue;
  std::array<int, 2> ep_mate{kNoMate, kNoMate};
  bool other_moves = false;
  for (Move m : MoveList(pos)) {
    if (m.kind() != Move::kEnPassant) {
      other_moves = true;
      continue;
    }
    Position next = pos;
    next.DoMove(m);
    const RetrogradeTable* sub = Subtable(MaterialOf(next));
    if (sub == nullptr) return absl::InternalError("missing sub-table for an e.p. capture");
    absl::StatusOr<Outcome> after = sub->Evaluate(next);
    if (!after.ok()) return after.status();
    best = Better(best, ZeroingDtz(after->wdl));
    for (Color c : {kWhite, kBlack}) ep_mate[c] = std::min(ep_mate[c], NextPly(after->mate[c]));
  }
  // With other moves the position is not mated, so its DTZ alone tells its
  // class; without them the stored value (stalemate, checkmate) is void.
  Outcome out;
  if (other_moves) best = Better(best, stored.dtz);
  out.dtz = best;
  out.wdl = WdlOfDtz(best);
  for (Color c : {kWhite, kBlack})
    out.mate[c] = std::min(other_moves ? stored.mate[c] : kNoMate, ep_mate[c]);
  return out;
}

absl::StatusOr<Wdl> RetrogradeTable::ProbeWdl(const Position& pos) const {
  absl::StatusOr<Outcome> o = Evaluate(pos);
  if (!o.ok()) return o.status();
  return o->wdl;
}

absl::StatusOr<int> RetrogradeTable::ProbeDtz(const Position& pos) const {
  absl::StatusOr<Outcome> o = Evaluate(pos);
  if (!o.ok()) return o.status();
  return o->dtz;
}

absl::StatusOr<bool> RetrogradeTable::CanMate(const Position& pos, Color side) const {
  absl::StatusOr<Outcome> o = Evaluate(pos);
  if (!o.ok()) return o.status();
  return o->mate[side] < kNoMate;
}

absl::StatusOr<std::optional<int>> RetrogradeTable::MateDistance(const Position& pos,
                                                                 Color side) const {
  absl::StatusOr<Outcome> o = Evaluate(pos);
  if (!o.ok()) return o.status();
  if (o->mate[side] >= kNoMate) return std::optional<int>();
  return std::optional<int>(o->mate[side]);
}

absl::StatusOr<std::vector<Move>> RetrogradeTable::MatingLine(const Position& start,
                                                              Color side) const {
  absl::StatusOr<Outcome> o = Evaluate(start);
  if (!o.ok()) return o.status();
  int d = o->mate[side];
  if (d >= kNoMate) {
    return absl::NotFoundError(
        absl::StrCat(side == kWhite ? "White" : "Black", " cannot checkmate from ", start.Fen()));
  }
  std::vector<Move> line;
  line.reserve(size_t(d));
  Position pos = start;
  const RetrogradeTable* table = this;
  for (; d > 0; --d) {
    bool stepped = false;
    for (Move m : MoveList(pos)) {
      Position next = pos;
      next.DoMove(m);
      const RetrogradeTable* t = table->TableOf(MaterialOf(next));
      if (t == nullptr) return absl::InternalError("missing sub-table on a mating line");
      absl::StatusOr<Outcome> after = t->Evaluate(next);
      if (!after.ok()) return after.status();
      if (after->mate[side] != d - 1) continue;
      line.push_back(m);
      pos = std::move(next);
      table = t;
      stepped = true;
      break;
    }
    if (!stepped) {
      return absl::InternalError(absl::StrCat("no move of ", pos.Fen(), " reaches mate distance ",
                                              d - 1, " (table ", table->signature_, ")"));
    }
  }
  return line;
}

void RetrogradeTable::ForEachPosition(const std::function<void(const Entry&)>& visit) const {
  const int n = layout_.men();
  // Identical men (two knights, two pawns of one colour): visit only the
  // ordering whose slot is smaller.
  int twin_a = -1, twin_b = -1;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (layout_.color(i) == layout_.color(j) && layout_.type(i) == layout_.type(j)) {
        twin_a = i;
        twin_b = j;
      }
  Entry e;
  e.men = n;
  for (int i = 0; i < n; ++i) e.piece[i] = MakePiece(layout_.color(i), layout_.type(i));
  for (uint64_t slot = 0; slot < code_.size(); ++slot) {
    if (code_[slot] == kIllegalCode) continue;
    layout_.Decode(slot, e.square.data(), &e.side_to_move);
    if (twin_a >= 0) {
      Square swapped[kMaxMen];
      std::copy(e.square.begin(), e.square.begin() + n, swapped);
      std::swap(swapped[twin_a], swapped[twin_b]);
      if (layout_.Index(swapped, e.side_to_move) < slot) continue;
    }
    e.wdl = WdlAt(slot);
    e.dtz = DtzAt(slot);
    for (Color c : {kWhite, kBlack}) {
      const int d = MateAt(slot, c);
      e.can_mate[c] = d < kNoMate;
      e.mate_distance[c] = d < kNoMate ? d : -1;
    }
    visit(e);
  }
}

// ---------------------------------------------------------------------------
// Solver.
// ---------------------------------------------------------------------------

absl::StatusOr<std::shared_ptr<const RetrogradeTable>> RetrogradeSolver::Table(
    std::string_view signature) {
  absl::StatusOr<Material> m = ParseMaterial(signature);
  if (!m.ok()) return m.status();
  return Get(Canonical(*m));
}

absl::StatusOr<size_t> RetrogradeSolver::LoadStoredTables() {
  if (cache_dir_.empty()) return size_t{0};
  std::vector<std::string> stored;
  for (const std::string& signature : AllRetrogradeSignatures()) {
    std::error_code ec;
    if (std::filesystem::exists(TableFilePath(cache_dir_, signature), ec))
      stored.push_back(signature);
  }
  if (absl::Status s = Obtain(stored); !s.ok()) return s;
  return tables_loaded();
}

absl::StatusOr<std::shared_ptr<const RetrogradeTable>> RetrogradeSolver::TableFor(
    const Position& pos) {
  const Material m = MaterialOf(pos);
  if (m.men() > kMaxMen) {
    return absl::UnimplementedError(absl::StrCat(
        "the position has ", m.men(), " men; the retrograde solver handles at most ", kMaxMen));
  }
  return Get(Canonical(m));
}

absl::StatusOr<const RetrogradeTable*> RetrogradeSolver::FastTableFor(const Position& pos) {
  int slot = -1;
  const Bitboard men = pos.pieces() & ~pos.pieces(kKing);
  if (PopCount(men) <= 2) {
    int codes[2] = {0, 0}, n = 0;
    for (Bitboard b = men; b;) {
      const Piece p = pos.piece_on(PopLsb(b));
      codes[n++] = 1 + 5 * ColorOf(p) + (TypeOf(p) - kPawn);
    }
    slot = std::min(codes[0], codes[1]) * 11 + std::max(codes[0], codes[1]);
    if (const RetrogradeTable* table = fast_[slot].load(std::memory_order_acquire)) return table;
  }
  absl::StatusOr<std::shared_ptr<const RetrogradeTable>> table = TableFor(pos);
  if (!table.ok()) return table.status();
  if (slot >= 0) fast_[slot].store(table->get(), std::memory_order_release);
  return table->get();
}

std::shared_ptr<const RetrogradeTable> RetrogradeSolver::Cached(const std::string& name) const {
  std::lock_guard<std::mutex> lock(cache_mu_);
  auto it = cache_.find(name);
  return it == cache_.end() ? nullptr : it->second;
}

// ---------------------------------------------------------------------------
// Obtaining tables: a plan per request, a latch per table.
//
// A request for missing tables becomes a plan: those tables and every
// missing table below them, each to be obtained once the tables it leads
// into are (the sub-table relation is acyclic: captures remove a man,
// promotions a pawn). The plan's workers (up to generation_threads()) take
// the first table whose sub-tables are done; the requesting thread only
// reports progress until they finish. Plans of concurrent requests may
// share tables: the per-table latch (in_progress_) lets one thread obtain
// each, and the others wait for that table alone. A thread that generates
// holds one of generation_threads() slots and never waits for anything
// while it does (its sub-tables are all obtained), so slots and latches
// cannot deadlock.
// ---------------------------------------------------------------------------

struct RetrogradeSolver::Plan {
  std::vector<Material> tables;                // in AllRetrogradeSignatures() order where listed
  std::vector<std::vector<size_t>> subtables;  // indices into tables
  std::vector<std::string> roots;
  const OutcomeSink* on_table = nullptr;
  std::mutex mu;
  std::condition_variable cv;
  std::vector<uint8_t> state;  // kWaiting, kClaimed, kFinished (mu)
  size_t workers = 0;          // still running (mu)
  bool stop = false;           // on_table said so (mu)
};

namespace {
enum : uint8_t { kWaiting, kClaimed, kFinished };

// Position of `name` in AllRetrogradeSignatures(), which lists each table
// after its sub-tables.
size_t SignatureRank(const std::string& name) {
  const std::vector<std::string>& all = AllRetrogradeSignatures();
  return size_t(std::find(all.begin(), all.end(), name) - all.begin());
}
}  // namespace

int RetrogradeSolver::generation_threads() const {
  if (generation_threads_ > 0) return generation_threads_;
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

absl::StatusOr<std::shared_ptr<const RetrogradeTable>> RetrogradeSolver::Obtained(
    const Material& sub, const std::string& user) const {
  const std::string name = Canonical(sub).Name();
  std::lock_guard<std::mutex> lock(cache_mu_);
  if (auto it = cache_.find(name); it != cache_.end()) return it->second;
  if (auto it = failed_.find(name); it != failed_.end()) return it->second;
  return absl::InternalError(absl::StrCat("retrograde table ", user, " needs ", name,
                                          ", which was not obtained before it"));
}

absl::StatusOr<std::shared_ptr<const RetrogradeTable>> RetrogradeSolver::Get(
    const Material& canonical) {
  const std::string name = canonical.Name();
  for (bool planned = false;; planned = true) {
    {
      std::lock_guard<std::mutex> lock(cache_mu_);
      if (auto it = cache_.find(name); it != cache_.end()) return it->second;
      // A table that failed once fails again without re-reading its file (a
      // verify run would otherwise read a corrupt file once per probe).
      if (auto it = failed_.find(name); it != failed_.end()) return it->second;
    }
    if (planned)
      return absl::InternalError(absl::StrCat("retrograde table ", name, " not obtained"));
    RunPlan({canonical}, {});
  }
}

absl::Status RetrogradeSolver::Obtain(const std::vector<std::string>& signatures,
                                      const OutcomeSink& on_table) {
  std::vector<Material> roots;
  for (const std::string& signature : signatures) {
    absl::StatusOr<Material> m = ParseMaterial(signature);
    if (!m.ok()) return m.status();
    if (m->men() > kMaxMen) {
      return absl::InvalidArgumentError(absl::StrCat(
          signature, " has ", m->men(), " men; retrograde tables have at most ", kMaxMen));
    }
    roots.push_back(Canonical(*m));
  }
  if (!roots.empty()) RunPlan(roots, on_table);
  for (const Material& m : roots) {
    const std::string name = m.Name();
    std::lock_guard<std::mutex> lock(cache_mu_);
    if (cache_.count(name)) continue;
    if (auto it = failed_.find(name); it != failed_.end()) return it->second;
    return absl::CancelledError(absl::StrCat("retrograde table ", name, " was not built: stopped"));
  }
  return absl::OkStatus();
}

void RetrogradeSolver::RunPlan(const std::vector<Material>& roots, const OutcomeSink& on_table) {
  Plan plan;
  plan.on_table = &on_table;
  // The roots (held or not: the caller hears of each) and every table
  // below them not held yet (a held table's sub-tables are held).
  std::map<std::string, Material> members;
  std::vector<Material> todo;
  for (const Material& root : roots) {
    const Material m = Canonical(root);
    if (members.emplace(m.Name(), m).second) todo.push_back(m);
    plan.roots.push_back(m.Name());
  }
  while (!todo.empty()) {
    const Material m = todo.back();
    todo.pop_back();
    for (const Material& sub : RetrogradeTable::SubtableMaterials(Layout(m))) {
      const std::string name = sub.Name();
      if (members.count(name) || Cached(name)) continue;
      members.emplace(name, sub);
      todo.push_back(sub);
    }
  }
  for (const auto& [name, m] : members) plan.tables.push_back(m);
  std::stable_sort(plan.tables.begin(), plan.tables.end(),
                   [](const Material& a, const Material& b) {
                     return SignatureRank(a.Name()) < SignatureRank(b.Name());
                   });
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < plan.tables.size(); ++i) index[plan.tables[i].Name()] = i;
  plan.subtables.resize(plan.tables.size());
  for (size_t i = 0; i < plan.tables.size(); ++i)
    for (const Material& sub : RetrogradeTable::SubtableMaterials(Layout(plan.tables[i])))
      if (auto it = index.find(sub.Name()); it != index.end())
        plan.subtables[i].push_back(it->second);
  plan.state.assign(plan.tables.size(), kWaiting);

  {
    std::lock_guard<std::mutex> lock(progress_mu_);
    const auto now = std::chrono::steady_clock::now();
    if (pending_.empty()) {  // a new burst
      burst_start_ = now;
      burst_done_ = 0;
      burst_generates_ = false;
      burst_slots_ = 0;
      burst_busy_seconds_ = 0;
    }
    for (const Material& m : plan.tables) {
      const std::string name = m.Name();
      if (Cached(name)) continue;
      auto [it, added] = pending_.try_emplace(name);
      ++it->second.plans;
      if (added) {
        std::error_code ec;
        const bool stored =
            !cache_dir_.empty() && std::filesystem::exists(TableFilePath(cache_dir_, name), ec);
        it->second.slots = stored ? 0 : Layout(m).size();
      }
    }
    for (const std::string& root : plan.roots) wanted_.insert(root);
  }

  const size_t workers = std::min(plan.tables.size(), size_t(generation_threads()));
  plan.workers = workers;
  std::vector<std::thread> threads;
  threads.reserve(workers);
  for (size_t i = 0; i < workers; ++i) threads.emplace_back([this, &plan] { Work(plan); });
  {
    // This thread reports progress while the workers work.
    std::unique_lock<std::mutex> lock(plan.mu);
    while (plan.workers > 0) {
      if (!sink_) {
        plan.cv.wait(lock);
        continue;
      }
      plan.cv.wait_for(lock, interval_);
      lock.unlock();
      Report("", false);
      lock.lock();
    }
  }
  for (std::thread& t : threads) t.join();

  bool finished = false;
  {
    std::lock_guard<std::mutex> lock(progress_mu_);
    for (const std::string& root : plan.roots) wanted_.erase(wanted_.find(root));
    // Tables this plan registered and nobody obtained (it stopped early)
    // leave the burst with the last plan that wanted them.
    for (const Material& m : plan.tables) {
      auto it = pending_.find(m.Name());
      if (it != pending_.end() && --it->second.plans == 0) {
        pending_.erase(it);
        finished = pending_.empty();
      }
    }
  }
  if (finished) Report("", true);
}

void RetrogradeSolver::Work(Plan& plan) {
  std::unique_lock<std::mutex> lock(plan.mu);
  for (;;) {
    size_t pick = plan.tables.size();
    bool waiting = false;
    for (size_t i = 0; !plan.stop && i < plan.tables.size(); ++i) {
      if (plan.state[i] != kWaiting) continue;
      const bool ready = std::all_of(plan.subtables[i].begin(), plan.subtables[i].end(),
                                     [&](size_t s) { return plan.state[s] == kFinished; });
      if (ready) {
        pick = i;
        break;
      }
      waiting = true;
    }
    if (pick == plan.tables.size()) {
      if (!waiting) break;  // nothing left to start
      plan.cv.wait(lock);
      continue;
    }
    plan.state[pick] = kClaimed;
    lock.unlock();
    const RetrogradeTableOutcome outcome = ObtainOne(plan.tables[pick]);
    lock.lock();
    plan.state[pick] = kFinished;
    if (*plan.on_table && !(*plan.on_table)(outcome)) plan.stop = true;
    lock.unlock();
    TableDone(outcome.signature);
    lock.lock();
    plan.cv.notify_all();
  }
  --plan.workers;
  plan.cv.notify_all();
}

RetrogradeTableOutcome RetrogradeSolver::ObtainOne(const Material& canonical) {
  RetrogradeTableOutcome out;
  const std::string name = canonical.Name();
  out.signature = name;
  {
    std::unique_lock<std::mutex> lock(cache_mu_);
    obtained_cv_.wait(lock, [&] { return in_progress_.count(name) == 0; });
    if (cache_.count(name)) return out;
    if (auto it = failed_.find(name); it != failed_.end()) {
      out.status = it->second;
      return out;
    }
    in_progress_.insert(name);
  }
  const auto start = std::chrono::steady_clock::now();
  auto fetch = [this, &name](const Material& sub) { return Obtained(sub, name); };
  std::shared_ptr<const RetrogradeTable> table;
  absl::Status status, load_error, store_error;
  if (!cache_dir_.empty()) {
    absl::StatusOr<std::shared_ptr<const RetrogradeTable>> from_disk =
        LoadTable(cache_dir_, canonical, fetch);
    if (!from_disk.ok()) {
      // This file's own problem, or that of a sub-table it needs.
      status = load_error = from_disk.status();
    } else {
      table = *std::move(from_disk);
      out.loaded = table != nullptr;
    }
  }
  if (status.ok() && !table) {
    {
      std::unique_lock<std::mutex> lock(slots_mu_);
      slots_cv_.wait(lock, [&] { return builders_ < generation_threads(); });
      ++builders_;
    }
    std::atomic<uint64_t> slots_done{0};
    std::shared_ptr<RetrogradeTable> made(new RetrogradeTable(canonical));
    const uint64_t slots = made->layout_.size();
    GenerationStarted(name, &slots_done);
    retrograde_internal::TableBuilder builder(*made, fetch, &slots_done);
    status = builder.Build();
    if (status.ok()) {
      table = std::move(made);
      out.generated = true;
      // The table is good whether or not it reaches the disk.
      if (!cache_dir_.empty()) store_error = SaveTable(*table, cache_dir_);
    }
    GenerationEnded(name, slots);  // before slots_done goes
    {
      std::lock_guard<std::mutex> lock(slots_mu_);
      --builders_;
    }
    slots_cv_.notify_one();
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.status = status;
  {
    std::lock_guard<std::mutex> lock(cache_mu_);
    if (!load_error.ok()) last_load_error_ = load_error;
    if (!store_error.ok()) last_store_error_ = store_error;
    if (status.ok()) {
      ++(out.loaded ? loaded_ : generated_);
      cache_[name] = table;
    } else {
      failed_[name] = status;
    }
    in_progress_.erase(name);
  }
  obtained_cv_.notify_all();
  return out;
}

// ---- Progress ----------------------------------------------------------------

void RetrogradeSolver::GenerationStarted(const std::string& name,
                                         const std::atomic<uint64_t>* slots_done) {
  {
    std::lock_guard<std::mutex> lock(progress_mu_);
    if (generating_now_++ == 0) busy_since_ = std::chrono::steady_clock::now();
    burst_generates_ = true;
    if (auto it = pending_.find(name); it != pending_.end()) {
      it->second.generating = true;
      it->second.slots_done = slots_done;
    }
  }
  Report("", true);
}

void RetrogradeSolver::GenerationEnded(const std::string& name, uint64_t slots) {
  std::lock_guard<std::mutex> lock(progress_mu_);
  if (--generating_now_ == 0) {
    const auto now = std::chrono::steady_clock::now();
    generation_seconds_ += std::chrono::duration<double>(now - busy_since_).count();
    burst_busy_seconds_ +=
        std::chrono::duration<double>(now - std::max(busy_since_, burst_start_)).count();
  }
  burst_slots_ += slots;
  if (auto it = pending_.find(name); it != pending_.end()) {
    it->second.generating = false;
    it->second.slots_done = nullptr;
    it->second.slots = 0;
  }
}

void RetrogradeSolver::TableDone(const std::string& name) {
  {
    std::lock_guard<std::mutex> lock(progress_mu_);
    // Another plan that held the same table may have counted it already.
    if (pending_.erase(name) == 0) return;
    ++burst_done_;
  }
  Report(name, true);
}

RetrogradeProgress RetrogradeSolver::ProgressLocked(
    std::chrono::steady_clock::time_point now) const {
  RetrogradeProgress p;
  uint64_t slots_done = burst_slots_, slots_left = 0;
  for (const auto& [name, pending] : pending_) {
    uint64_t done = 0;
    if (pending.generating) {
      p.generating.push_back(name);
      if (pending.slots_done) done = std::min(pending.slots, pending.slots_done->load());
    }
    slots_done += done;
    slots_left += pending.slots - done;
  }
  std::sort(p.generating.begin(), p.generating.end(),
            [](const std::string& a, const std::string& b) {
              return SignatureRank(a) < SignatureRank(b);
            });
  for (const std::string& name : wanted_)
    if (p.wanted.empty() || p.wanted.back() != name) p.wanted.push_back(name);
  std::sort(p.wanted.begin(), p.wanted.end(), [](const std::string& a, const std::string& b) {
    return SignatureRank(a) < SignatureRank(b);
  });
  p.done = burst_done_;
  p.left = pending_.size();
  p.finished = pending_.empty();
  p.generates = burst_generates_;
  if (burst_start_ != std::chrono::steady_clock::time_point())
    p.elapsed_seconds = std::chrono::duration<double>(now - burst_start_).count();
  double busy = burst_busy_seconds_;
  if (generating_now_ > 0)
    busy += std::chrono::duration<double>(now - std::max(busy_since_, burst_start_)).count();
  // A rate measured over a fraction of a second would be noise.
  if (!p.finished && slots_done > 0 && busy >= 0.25)
    p.seconds_left = double(slots_left) * busy / double(slots_done);
  return p;
}

RetrogradeProgress RetrogradeSolver::progress() const {
  std::lock_guard<std::mutex> lock(progress_mu_);
  return ProgressLocked(std::chrono::steady_clock::now());
}

void RetrogradeSolver::Report(const std::string& obtained, bool force) {
  if (!sink_) return;
  std::lock_guard<std::mutex> lock(sink_mu_);
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_report_ < interval_) return;
  RetrogradeProgress p = progress();
  // Periodic reports only while a burst is under way: its end was reported.
  if (!force && p.finished) return;
  last_report_ = now;
  p.obtained = obtained;
  sink_(p);
}

std::string RetrogradeProgress::Line() const {
  std::string line;
  if (!generating.empty()) {
    line = "generating ";
    for (size_t i = 0; i < generating.size() && i < 2; ++i)
      absl::StrAppend(&line, i ? ", " : "", generating[i]);
    if (generating.size() > 2) absl::StrAppend(&line, " +", generating.size() - 2);
  } else {
    line = finished ? "obtained" : "loading";
  }
  if (wanted.size() == 1 && !(generating.size() == 1 && generating[0] == wanted[0]))
    absl::StrAppend(&line, " for ", wanted[0]);
  else if (wanted.size() > 1)
    absl::StrAppend(&line, " for ", wanted.size(), " tables");
  absl::StrAppend(&line, ": ", done, " of ", done + left, " done");
  if (finished) {
    absl::StrAppend(&line, " in ", absl::StrFormat("%.1f", elapsed_seconds), " s");
  } else {
    absl::StrAppend(&line, ", ", left, " left");
    if (seconds_left) absl::StrAppend(&line, ", about ", int64_t(std::ceil(*seconds_left)), " s");
  }
  return line;
}

absl::StatusOr<Wdl> RetrogradeSolver::ProbeWdl(const Position& pos) {
  absl::StatusOr<const RetrogradeTable*> t = FastTableFor(pos);
  if (!t.ok()) return t.status();
  return (*t)->ProbeWdl(pos);
}

absl::StatusOr<int> RetrogradeSolver::ProbeDtz(const Position& pos) {
  absl::StatusOr<const RetrogradeTable*> t = FastTableFor(pos);
  if (!t.ok()) return t.status();
  return (*t)->ProbeDtz(pos);
}

absl::StatusOr<bool> RetrogradeSolver::CanMate(const Position& pos, Color side) {
  absl::StatusOr<const RetrogradeTable*> t = FastTableFor(pos);
  if (!t.ok()) return t.status();
  return (*t)->CanMate(pos, side);
}

absl::StatusOr<std::optional<int>> RetrogradeSolver::MateDistance(const Position& pos, Color side) {
  absl::StatusOr<const RetrogradeTable*> t = FastTableFor(pos);
  if (!t.ok()) return t.status();
  return (*t)->MateDistance(pos, side);
}

absl::StatusOr<std::vector<Move>> RetrogradeSolver::MatingLine(const Position& pos, Color side) {
  absl::StatusOr<const RetrogradeTable*> t = FastTableFor(pos);
  if (!t.ok()) return t.status();
  return (*t)->MatingLine(pos, side);
}

uint64_t RetrogradeTable::checksum() const {
  uint64_t c = checksum_.load();
  if (c == 0) checksum_ = c = TableChecksum(*this);  // a race computes it twice, alike
  return c;
}

std::string RetrogradeSolver::digest() const {
  std::lock_guard<std::mutex> lock(cache_mu_);
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  auto mix = [&](const void* data, size_t n) {
    for (size_t i = 0; i < n; ++i)
      h = (h ^ static_cast<const uint8_t*>(data)[i]) * 0x100000001b3ull;
  };
  for (const auto& [name, table] : cache_) {  // a std::map: in name order
    mix(name.data(), name.size());
    const uint64_t c = table->checksum();
    mix(&c, sizeof c);
  }
  return absl::StrCat(cache_.size(), " tables, ", absl::Hex(h, absl::kZeroPad16));
}

bool RetrogradeSolver::Holds(std::string_view signature) const {
  absl::StatusOr<Material> m = ParseMaterial(signature);
  return m.ok() && Cached(Canonical(*m).Name()) != nullptr;
}

size_t RetrogradeSolver::tables() const {
  std::lock_guard<std::mutex> lock(cache_mu_);
  return cache_.size();
}

size_t RetrogradeSolver::bytes() const {
  std::lock_guard<std::mutex> lock(cache_mu_);
  size_t total = 0;
  for (const auto& [name, table] : cache_) total += table->bytes();
  return total;
}

size_t RetrogradeSolver::tables_loaded() const {
  std::lock_guard<std::mutex> lock(cache_mu_);
  return loaded_;
}

size_t RetrogradeSolver::tables_generated() const {
  std::lock_guard<std::mutex> lock(cache_mu_);
  return generated_;
}

double RetrogradeSolver::generation_seconds() const {
  std::lock_guard<std::mutex> lock(progress_mu_);
  double seconds = generation_seconds_;
  if (generating_now_ > 0)
    seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - busy_since_).count();
  return seconds;
}

absl::Status RetrogradeSolver::last_store_error() const {
  std::lock_guard<std::mutex> lock(cache_mu_);
  return last_store_error_;
}

absl::Status RetrogradeSolver::last_load_error() const {
  std::lock_guard<std::mutex> lock(cache_mu_);
  return last_load_error_;
}

}  // namespace arbiter
