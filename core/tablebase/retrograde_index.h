// Material signatures and the slot layout of the in-memory retrograde tables
// (core/tablebase/retrograde.h). Kept apart from the solver so that the
// symmetry rules live in one place: the solver, the probes and the tests all
// go through Layout::Index, so a position and its mirror images can never be
// filed under different slots.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "core/chess/position.h"
#include "core/chess/types.h"

namespace arbiter {

// Largest number of men (kings included) a table may hold. Five would need
// about 2 GB per table with this dense layout, so it is refused.
constexpr int kMaxMen = 4;

// The men of both sides. Side 0 is the side named first in a signature; in a
// table it plays White.
struct Material {
  std::array<std::array<uint8_t, 7>, 2> count{};  // [side][PieceType]

  int men(int side) const;
  int men() const { return men(0) + men(1); }
  int pawns() const { return count[0][kPawn] + count[1][kPawn]; }
  Material Swapped() const { return Material{{count[1], count[0]}}; }
  // "KRvKP": each side king first, then Q, R, B, N, P (Syzygy's spelling).
  std::string Name() const;
  bool operator==(const Material&) const = default;
};

// Parses "KRvKP" (letters KQRBNP, one king per side, at most kMaxMen men;
// pieces in any order within a side). The orientation is kept as written.
absl::StatusOr<Material> ParseMaterial(std::string_view signature);
// White's men as side 0.
Material MaterialOf(const Position& pos);
// The orientation tables are built in: the stronger side first, as Syzygy
// names its files (more men first, then the better piece: Q > R > B > N > P).
Material Canonical(const Material& m);

// Where each position of a table lives. A slot is
//   side_to_move + 2 * sum(digit[i] * radix[0] * ... * radix[i-1])
// over the men in slot order: White's king, Black's king, White's pieces,
// Black's pieces (each Q R B N), then the pawns (White's first). Digits:
//   - pawnless tables: White's king is folded into the triangle a1-d1-d4 by
//     the 8 board symmetries (radix 10); when it lands on the diagonal a1-d4,
//     the smaller of the slot and its a1-h8 reflection is the canonical one;
//   - tables with pawns: only the left-right mirror applies (pawns move
//     forward), and the first pawn is kept on files a-d (radix 24, ranks
//     2-7); other pawns have radix 48 (ranks 2-7);
//   - every other man: its square (radix 64).
// Pawns are the most significant digits, so the positions that share one
// pawn placement (a "slice") are contiguous: no move inside a slice moves a
// pawn, which is what lets the solver work slice by slice.
class Layout {
 public:
  explicit Layout(const Material& canonical);

  const Material& material() const { return material_; }
  int men() const { return men_; }
  Color color(int i) const { return color_[i]; }
  PieceType type(int i) const { return type_[i]; }
  // Index of the first pawn in slot order (men() when there is none).
  int first_pawn() const { return first_pawn_; }
  bool has_pawns() const { return first_pawn_ < men_; }
  // Slots in the table, legal or not.
  uint64_t size() const { return size_; }
  // Slots per pawn placement (the whole table when pawnless).
  uint64_t slice_size() const { return slice_size_; }
  // Distance between slots whose digit i differs by one.
  uint64_t stride(int i) const { return stride_[i]; }

  // Canonical slot of a position given in table orientation (White is side
  // 0), squares in slot order. Applies the symmetries above.
  uint64_t Index(const Square* sq, Color stm) const;
  // Pawnless tables only: the slot of the placement reflected in a1-h8,
  // without canonicalisation (White's king must be on the diagonal a1-d4).
  // Index of such a placement is min(its own slot, this one); moves of
  // other men change both by a stride, which the solver exploits.
  uint64_t TransposedSlot(const Square* sq, Color stm) const;
  // Inverse of Index for a canonical slot (any slot whose digits are in
  // range decodes to some placement, possibly with clashing squares).
  void Decode(uint64_t slot, Square* sq, Color* stm) const;

  // Square transforms used by Index (exposed for tests).
  static Square Transpose(Square s) { return Square(((s & 7) << 3) | (s >> 3)); }
  static bool InTriangle(Square s) { return FileOf(s) <= 3 && RankOf(s) <= FileOf(s); }
  static bool OnDiagonal(Square s) { return FileOf(s) == RankOf(s); }

 private:
  int Digit(int i, Square s) const;
  Square SquareOf(int i, int digit) const;

  Material material_;
  int men_ = 0;
  int first_pawn_ = 0;
  std::array<Color, kMaxMen> color_{};
  std::array<PieceType, kMaxMen> type_{};
  std::array<uint32_t, kMaxMen> radix_{};
  std::array<uint64_t, kMaxMen> stride_{};
  uint64_t size_ = 0;
  uint64_t slice_size_ = 0;
};

}  // namespace arbiter
