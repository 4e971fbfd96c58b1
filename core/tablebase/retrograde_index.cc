#include "core/tablebase/retrograde_index.h"

#include <algorithm>
#include <tuple>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/chess/bitboard.h"

namespace arbiter {
namespace {

constexpr char kLetters[] = " PNBRQK";  // indexed by PieceType
// Pieces other than the king, in the order names spell them.
constexpr PieceType kNameOrder[] = {kQueen, kRook, kBishop, kKnight, kPawn};

// Digit of a king in the triangle a1-d1-d4, or -1 outside it.
int TriangleDigit(Square s) {
  static const std::array<int8_t, 64> digits = [] {
    std::array<int8_t, 64> d{};
    int next = 0;
    for (int s = 0; s < 64; ++s) d[s] = Layout::InTriangle(Square(s)) ? int8_t(next++) : int8_t(-1);
    return d;
  }();
  return digits[s];
}

Square TriangleSquare(int digit) {
  static const std::array<Square, 10> squares = [] {
    std::array<Square, 10> q{};
    int next = 0;
    for (int s = 0; s < 64; ++s)
      if (Layout::InTriangle(Square(s))) q[next++] = Square(s);
    return q;
  }();
  return squares[digit];
}

// Strength key of one side: more men first, then the better pieces.
std::tuple<int, int, int, int, int, int> StrengthKey(const Material& m, int side) {
  const auto& c = m.count[side];
  return {m.men(side), c[kQueen], c[kRook], c[kBishop], c[kKnight], c[kPawn]};
}

}  // namespace

int Material::men(int side) const {
  int n = 0;
  for (uint8_t c : count[side]) n += c;
  return n;
}

std::string Material::Name() const {
  std::string name;
  for (int side = 0; side < 2; ++side) {
    if (side == 1) name += 'v';
    name.append(count[side][kKing], 'K');
    for (PieceType t : kNameOrder) name.append(count[side][t], kLetters[t]);
  }
  return name;
}

absl::StatusOr<Material> ParseMaterial(std::string_view signature) {
  auto error = [&](std::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad material signature \"", std::string(signature), "\": ", std::string(why)));
  };
  size_t v = signature.find('v');
  if (v == std::string_view::npos || signature.find('v', v + 1) != std::string_view::npos)
    return error("expected one 'v' between the two sides, as in KRvKP");
  Material m;
  for (int side = 0; side < 2; ++side) {
    std::string_view part = side == 0 ? signature.substr(0, v) : signature.substr(v + 1);
    for (char ch : part) {
      const char* p = std::find(kLetters + 1, kLetters + 7, ch);
      if (p == kLetters + 7)
        return error(absl::StrCat("unknown piece letter '", std::string(1, ch), "'"));
      ++m.count[side][p - kLetters];
    }
    if (m.count[side][kKing] != 1) return error("each side needs exactly one king");
  }
  if (m.men() > kMaxMen) {
    return absl::UnimplementedError(
        absl::StrCat("material signature \"", std::string(signature), "\" has ", m.men(),
                     " men; the retrograde solver handles at most ", kMaxMen));
  }
  return m;
}

Material MaterialOf(const Position& pos) {
  Material m;
  for (int side = 0; side < 2; ++side)
    for (int t = kPawn; t <= kKing; ++t)
      m.count[side][t] = uint8_t(PopCount(pos.pieces(Color(side), PieceType(t))));
  return m;
}

Material Canonical(const Material& m) {
  return StrengthKey(m, 1) > StrengthKey(m, 0) ? m.Swapped() : m;
}

Layout::Layout(const Material& canonical) : material_(canonical) {
  auto add = [&](Color c, PieceType t) {
    color_[men_] = c;
    type_[men_] = t;
    ++men_;
  };
  add(kWhite, kKing);
  add(kBlack, kKing);
  for (int side = 0; side < 2; ++side)
    for (PieceType t : {kQueen, kRook, kBishop, kKnight})
      for (int k = 0; k < canonical.count[side][t]; ++k) add(Color(side), t);
  first_pawn_ = men_;
  for (int side = 0; side < 2; ++side)
    for (int k = 0; k < canonical.count[side][kPawn]; ++k) add(Color(side), kPawn);

  uint64_t stride = 2;
  for (int i = 0; i < men_; ++i) {
    if (i == 0 && !has_pawns()) {
      radix_[i] = 10;
    } else if (type_[i] != kPawn) {
      radix_[i] = 64;
    } else {
      radix_[i] = i == first_pawn_ ? 24 : 48;
    }
    stride_[i] = stride;
    stride *= radix_[i];
    if (i + 1 == first_pawn_) slice_size_ = stride;
  }
  size_ = stride;
}

int Layout::Digit(int i, Square s) const {
  if (i == 0 && !has_pawns()) return TriangleDigit(s);
  if (type_[i] != kPawn) return s;
  if (i == first_pawn_) return (RankOf(s) - 1) * 4 + FileOf(s);
  return s - 8;
}

Square Layout::SquareOf(int i, int digit) const {
  if (i == 0 && !has_pawns()) return TriangleSquare(digit);
  if (type_[i] != kPawn) return Square(digit);
  if (i == first_pawn_) return MakeSquare(digit % 4, digit / 4 + 1);
  return Square(digit + 8);
}

namespace {

// The 8 board symmetries as (mirror files) | (mirror ranks) << 1 |
// (transpose, applied last) << 2, so that "then reflect in a1-h8" is t ^ 4.
struct Symmetries {
  uint8_t square[8][64];
  uint8_t fold_king[64];  // the symmetry taking a square into a1-d1-d4
  Symmetries() {
    for (int t = 0; t < 8; ++t) {
      for (int s = 0; s < 64; ++s) {
        int q = s;
        if (t & 1) q ^= 7;
        if (t & 2) q ^= 56;
        if (t & 4) q = Layout::Transpose(Square(q));
        square[t][s] = uint8_t(q);
      }
    }
    for (int s = 0; s < 64; ++s) {
      int t = (FileOf(Square(s)) > 3 ? 1 : 0) | (RankOf(Square(s)) > 3 ? 2 : 0);
      Square q = Square(square[t][s]);
      if (RankOf(q) > FileOf(q)) t |= 4;
      fold_king[s] = uint8_t(t);
    }
  }
};

const Symmetries& Syms() {
  static const Symmetries syms;
  return syms;
}

}  // namespace

uint64_t Layout::Index(const Square* sq, Color stm) const {
  if (has_pawns()) {
    // Pawns fix "up", so only the left-right mirror is a symmetry.
    const int mirror = FileOf(sq[first_pawn_]) > 3 ? 7 : 0;
    uint64_t x = 0;
    for (int i = men_ - 1; i >= 0; --i)
      x = x * radix_[i] + uint64_t(Digit(i, Square(sq[i] ^ mirror)));
    return x * 2 + stm;
  }
  const Symmetries& syms = Syms();
  const int t = syms.fold_king[sq[0]];
  auto compose = [&](const uint8_t* map) {
    uint64_t x = 0;
    for (int i = men_ - 1; i >= 1; --i) x = x * 64 + map[sq[i]];
    return (x * 10 + uint64_t(TriangleDigit(Square(map[sq[0]])))) * 2 + stm;
  };
  const uint64_t slot = compose(syms.square[t]);
  // On the diagonal a1-d4 both the placement and its a1-h8 reflection keep
  // the king in the triangle: the smaller slot represents them.
  if (OnDiagonal(Square(syms.square[t][sq[0]]))) return std::min(slot, compose(syms.square[t ^ 4]));
  return slot;
}

uint64_t Layout::TransposedSlot(const Square* sq, Color stm) const {
  const uint8_t* map = Syms().square[4];
  uint64_t x = 0;
  for (int i = men_ - 1; i >= 1; --i) x = x * 64 + map[sq[i]];
  return (x * 10 + uint64_t(TriangleDigit(Square(map[sq[0]])))) * 2 + stm;
}

void Layout::Decode(uint64_t slot, Square* sq, Color* stm) const {
  *stm = Color(slot & 1);
  slot >>= 1;
  for (int i = 0; i < men_; ++i) {
    sq[i] = SquareOf(i, int(slot % radix_[i]));
    slot /= radix_[i];
  }
}

}  // namespace arbiter
