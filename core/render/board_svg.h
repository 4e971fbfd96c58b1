// A chess position as an inline SVG image, drawn here: squares as
// rectangles, men as the Unicode chess symbols (text, in whatever font the
// reader has), coordinates beside the board. No external resources, no
// script: it works offline and inside any HTML page.
#pragma once

#include <string>
#include <vector>

#include "core/chess/position.h"

namespace arbiter {

struct BoardSvgOptions {
  int square = 40;                // pixels per square
  bool flip = false;              // Black at the bottom
  std::vector<Square> highlight;  // e.g. the last move's squares
  Square check = kNoSquare;       // a king in check, marked
};

// One <svg> element (no XML prologue), with the FEN as its title.
std::string BoardSvg(const Position& pos, const BoardSvgOptions& options = {});

}  // namespace arbiter
