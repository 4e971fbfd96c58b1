#include "core/chess99/attacks.h"

namespace arbiter::chess99 {
namespace {

struct Tables {
  std::array<SquareList, kSquares> knight;
  std::array<SquareList, kSquares> king;
  std::array<std::array<SquareList, kDirections>, kSquares> rays;

  Tables() {
    constexpr int kKnight[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                   {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    constexpr int kDir[kDirections][2] = {{0, 1}, {0, -1}, {1, 0},  {-1, 0},
                                          {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    for (Square s = 0; s < kSquares; ++s) {
      const int f = FileOf(s), r = RankOf(s);
      for (const auto& d : kKnight) Add(knight[s], f + d[0], r + d[1]);
      for (int i = 0; i < kDirections; ++i) {
        Add(king[s], f + kDir[i][0], r + kDir[i][1]);
        for (int k = 1; OnBoard(f + k * kDir[i][0], r + k * kDir[i][1]); ++k) {
          Add(rays[s][i], f + k * kDir[i][0], r + k * kDir[i][1]);
        }
      }
    }
  }
  static void Add(SquareList& list, int f, int r) {
    if (OnBoard(f, r)) list.squares[list.size++] = MakeSquare(f, r);
  }
};

const Tables& Get() {
  static const Tables tables;
  return tables;
}

}  // namespace

const SquareList& KnightTargets(Square s) { return Get().knight[s]; }
const SquareList& KingTargets(Square s) { return Get().king[s]; }
const SquareList& Ray(Square s, int dir) { return Get().rays[s][dir]; }

}  // namespace arbiter::chess99
