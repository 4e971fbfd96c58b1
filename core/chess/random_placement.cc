#include "core/chess/random_placement.h"

#include <algorithm>

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

std::string RandomWallFen(std::mt19937& rng) {
  char board[8][8];
  for (auto& rank : board)
    for (char& c : rank) c = '.';
  int rank = 2 + int(rng() % 3);  // white pawn of the first pair
  for (int file = 0; file < 8; ++file) {
    rank = std::clamp(rank + (rng() % 2 ? 1 : -1), 1, 5);
    if (rng() % 6 == 0) {
      ++file;  // a gap: the next pair is free to start anywhere
      rank = 1 + int(rng() % 5);
      continue;
    }
    board[rank][file] = 'P';
    board[rank + 1][file] = 'p';
  }
  const char* extras = "BBbbNnRrQq";
  std::string men = "Kk";
  for (int n = int(rng() % 3); n > 0; --n) men += extras[rng() % 10];
  for (char man : men) {
    for (;;) {
      int sq = int(rng() % 64);
      if (board[sq / 8][sq % 8] != '.') continue;
      board[sq / 8][sq % 8] = man;
      break;
    }
  }
  std::string flat;
  for (const auto& rank : board) flat.append(rank, 8);
  const std::string fen = FenPlacement(flat);
  return fen + (rng() % 2 ? " w" : " b") + " - - 0 1";
}

}  // namespace arbiter
