#include "core/chess/random_placement.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

namespace arbiter {

std::string FenPlacement(std::string_view board) {
  std::string fen;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const char c = board[rank * 8 + file];
      if (c == '.') {
        ++empty;
        continue;
      }
      if (empty) fen += char('0' + empty);
      empty = 0;
      fen += c;
    }
    if (empty) fen += char('0' + empty);
    if (rank) fen += '/';
  }
  return fen;
}

std::optional<Position> RandomPlacement(std::string_view men, Color side_to_move,
                                        std::mt19937_64& rng, int attempts) {
  if (men.size() > 33 || men.find('v') == std::string_view::npos) return std::nullopt;
  for (char c : men)
    if (std::string_view("KQRBNPv").find(c) == std::string_view::npos) return std::nullopt;
  const std::string suffix = side_to_move == kWhite ? " w - - 0 1" : " b - - 0 1";
  for (int attempt = 0; attempt < attempts; ++attempt) {
    std::string board(64, '.');
    bool white = true;
    for (char man : men) {
      if (man == 'v') {
        white = false;
        continue;
      }
      int sq;
      do {
        sq = int(rng() % 64);
      } while (board[sq] != '.' || (man == 'P' && (sq < 8 || sq >= 56)));
      board[sq] = white ? man : char(man - 'A' + 'a');
    }
    // FromFen checks the rest: king counts, the side not to move in check.
    absl::StatusOr<Position> pos = Position::FromFen(FenPlacement(board) + suffix);
    if (pos.ok()) return *pos;
  }
  return std::nullopt;
}

}  // namespace arbiter
