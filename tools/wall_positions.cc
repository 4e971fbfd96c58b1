#include "tools/wall_positions.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "core/chess/random_placement.h"

namespace arbiter::tools {

namespace {

using Board = std::array<std::array<char, 8>, 8>;  // [rank][file], '.' empty

Board EmptyBoard() {
  Board board;
  for (auto& rank : board) rank.fill('.');
  return board;
}

// Locked pairs (a white pawn with a black pawn directly in front) on most
// files, the rank of neighbouring pairs differing by one so that they form
// chains rather than attack each other.
Board WallPawns(std::mt19937& rng) {
  Board board = EmptyBoard();
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
  return board;
}

// Puts each of `men` on a random empty square (pawns off the first and
// last ranks).
void Scatter(std::string_view men, std::mt19937& rng, Board& board) {
  for (char man : men) {
    for (;;) {
      const int sq = int(rng() % 64);
      if (board[sq / 8][sq % 8] != '.') continue;
      if ((man == 'P' || man == 'p') && (sq < 8 || sq >= 56)) continue;
      board[sq / 8][sq % 8] = man;
      break;
    }
  }
}

// Up to `most` pieces other than kings and pawns, of either colour, drawn
// from `kinds` (FEN letters).
std::string Extras(std::mt19937& rng, int most, std::string_view kinds = "BBbbNnRrQq") {
  std::string men;
  for (int n = int(rng() % (most + 1)); n > 0; --n) men += kinds[rng() % kinds.size()];
  return men;
}

// A complete wall low on the board (white pawns on the second and third
// ranks, alternating, each with a black pawn in front) or its mirror image
// high on the board: the men on the back rank behind it are shut in.
Board ShutInWall(bool low) {
  Board board = EmptyBoard();
  for (int file = 0; file < 8; ++file) {
    const int rank = (low ? 1 : 4) + file % 2;
    board[rank][file] = 'P';
    board[rank + 1][file] = 'p';
  }
  return board;
}

// The same man of the other colour (FEN letters).
char OtherColour(char man) {
  return char(std::isupper(man) ? std::tolower(man) : std::toupper(man));
}

std::string Placement(const Board& board) {
  std::string flat;
  for (const auto& rank : board) flat.append(rank.data(), 8);
  return FenPlacement(flat);
}

// The men of a castling family: kings on their back ranks with rooks on
// both sides (Chess960: the king on files b-g), and the castling field
// naming a random subset of the rooks (Shredder letters: the rook's file).
std::string CastlingMen(bool chess960, std::mt19937& rng, Board& board) {
  std::string field;
  for (int c = 0; c < 2; ++c) {
    const int rank = c == 0 ? 0 : 7;
    const int king = chess960 ? 1 + int(rng() % 6) : 4;
    const int rooks[2] = {chess960 ? int(rng() % king) : 0,
                          chess960 ? king + 1 + int(rng() % (7 - king)) : 7};
    board[rank][king] = c == 0 ? 'K' : 'k';
    for (int rook : rooks) {
      board[rank][rook] = c == 0 ? 'R' : 'r';
      if (rng() % 3 == 0) continue;  // no right for this rook
      field += char((c == 0 ? 'A' : 'a') + rook);
    }
  }
  return field.empty() ? "-" : field;
}

}  // namespace

std::string RandomWallFen(std::mt19937& rng) {
  Board board = WallPawns(rng);
  Scatter("Kk" + Extras(rng, 2), rng, board);
  return Placement(board) + (rng() % 2 ? " w" : " b") + " - - 0 1";
}

const char* ToString(WallFamily family) {
  switch (family) {
    case WallFamily::kPlain:
      return "plain";
    case WallFamily::kEnPassant:
      return "en_passant";
    case WallFamily::kCastling:
      return "castling";
    case WallFamily::kChess960Castling:
      return "chess960_castling";
    case WallFamily::kFreePawn:
      return "free_pawn";
    case WallFamily::kPromotion:
      return "promotion";
    case WallFamily::kNearMoveLimit:
      return "near_move_limit";
    case WallFamily::kKingPocket:
      return "king_pocket";
  }
  return "plain";
}

std::string AdversarialWallFen(WallFamily family, std::mt19937& rng) {
  if (family == WallFamily::kPlain) return RandomWallFen(rng);
  // Few pieces, mostly bishops, so that many positions are fortresses or
  // nearly so: the "no" answers are what the sweeps hold to the search.
  constexpr std::string_view kFew = "BBBbbbNnR";
  Board board = family == WallFamily::kCastling || family == WallFamily::kChess960Castling
                    ? ShutInWall(rng() % 2)
                    : WallPawns(rng);
  const bool white_to_move = rng() % 2;
  std::string castling = "-", ep = "-";
  int halfmove = 0;
  switch (family) {
    case WallFamily::kPlain:
      break;
    case WallFamily::kEnPassant: {
      // A wall in which some pawn of the side not to move may just have
      // pushed two squares past an enemy pawn: the wall as drawn, with that
      // e.p. square (drawn again until there is one).
      for (int attempt = 0;; ++attempt) {
        std::vector<std::string> squares;
        const int rank = white_to_move ? 4 : 3;  // where both pawns stand
        const int step = white_to_move ? 1 : -1;
        const char pushed = white_to_move ? 'p' : 'P', taker = white_to_move ? 'P' : 'p';
        for (int file = 0; file < 8; ++file) {
          if (board[rank][file] != pushed || board[rank + step][file] != '.' ||
              board[rank + 2 * step][file] != '.')
            continue;
          if ((file > 0 && board[rank][file - 1] == taker) ||
              (file < 7 && board[rank][file + 1] == taker))
            squares.push_back(std::string(1, char('a' + file)) + char('1' + rank + step));
        }
        if (!squares.empty() || attempt == 100) {
          if (!squares.empty()) ep = squares[rng() % squares.size()];
          break;
        }
        board = WallPawns(rng);
      }
      Scatter("Kk" + Extras(rng, 1, kFew), rng, board);
      break;
    }
    case WallFamily::kCastling:
    case WallFamily::kChess960Castling:
      castling = CastlingMen(family == WallFamily::kChess960Castling, rng, board);
      Scatter(Extras(rng, 1, kFew), rng, board);
      break;
    case WallFamily::kFreePawn:
    case WallFamily::kNearMoveLimit:
      Scatter(std::string("Kk") + (rng() % 2 ? 'P' : 'p') + Extras(rng, 1, kFew), rng, board);
      if (family == WallFamily::kNearMoveLimit) halfmove = 140 + int(rng() % 10);
      break;
    case WallFamily::kKingPocket: {
      // A king shut in on two squares with nothing else of its side able
      // to move, as in CHA's test vector (king h3-h4; pawns f3 g2 h5 against
      // f4 f5 g3 h6): the enemy king may take a pawn only by stalemating
      // it. Mirrored and colour-swapped at random, sometimes with a pawn
      // gone; the enemy king, a bishop or two, sometimes another piece of
      // either side on random squares (a rook or queen may uncover a check).
      board = EmptyBoard();
      const bool mirror = rng() % 2, swap = rng() % 2;
      auto put = [&](int file, int rank, char man) {
        if (mirror) file = 7 - file;
        if (swap) {
          rank = 7 - rank;
          man = OtherColour(man);
        }
        board[rank][file] = man;
      };
      constexpr std::string_view kPawns = "PPPpppp";
      constexpr int kFiles[] = {5, 6, 7, 5, 5, 6, 7}, kRanks[] = {2, 1, 4, 3, 4, 2, 5};
      const int gone = rng() % 3 == 0 ? int(rng() % kPawns.size()) : -1;
      for (int i = 0; i < int(kPawns.size()); ++i)
        if (i != gone) put(kFiles[i], kRanks[i], kPawns[i]);
      put(7, 2 + int(rng() % 2), 'K');
      std::string roamers = "kb";
      if (rng() % 2) roamers += 'b';
      if (rng() % 3 == 0) roamers += "nrqB"[rng() % 4];
      if (swap)
        for (char& man : roamers) man = OtherColour(man);
      Scatter(roamers, rng, board);
      break;
    }
    case WallFamily::kPromotion: {
      // A pawn one step from promoting, on a file whose last square is free.
      const bool white = rng() % 2;
      const int file = int(rng() % 8);
      board[white ? 7 : 0][file] = '.';
      board[white ? 6 : 1][file] = white ? 'P' : 'p';
      Scatter("Kk" + Extras(rng, 1, kFew), rng, board);
      break;
    }
  }
  return Placement(board) + (white_to_move ? " w " : " b ") + castling + " " + ep + " " +
         std::to_string(halfmove) + " 1";
}

}  // namespace arbiter::tools
