// Tablebase verdicts under the fifty-move rule, in the vocabulary of the
// Lichess tablebase API: win | maybe-win | cursed-win | draw | blessed-loss |
// maybe-loss | loss. Pure arithmetic on Syzygy DTZ values and the halfmove
// clock; no tables are read here (see core/tablebase/syzygy.h).
//
// Syzygy DTZ ("dtz50''", as Fathom, python-chess and Lichess report it), from
// the side to move's view, in plies:
//   1 <= n <= 100     win: a zeroing move (capture, pawn move, mate) that keeps
//                     the win can be forced in n plies, counting from a clock
//                     of 0;
//   n > 100           cursed win: won, but not before a fifty-move claim;
//   0                 draw;
//   -100 <= n <= -1   loss (mated: -1), mirror image;
//   n < -100          blessed loss.
// Rounding: tables may store a win or loss in units of two plies, so a value
// n read from them can mean n or n + 1 plies (-n: n or n + 1). The generator
// never rounds where that changes the outcome directly after a zeroing move,
// and a win read as 100 is exactly 100 (101 would be a cursed win). Hence
// with halfmove clock h: |n| + h <= 99 is decided, |n| + h >= 101 is a
// fifty-move draw, and |n| + h == 100 with h > 0 is open when the value may be
// rounded: maybe-win / maybe-loss, unless the value is known to be precise.
#pragma once

#include <cstdint>

namespace arbiter {

// Ordered as Lichess sorts moves: best for the side that just moved first.
enum class TbCategory : uint8_t {
  kLoss,
  kMaybeLoss,
  kBlessedLoss,
  kDraw,
  kCursedWin,
  kMaybeWin,
  kWin,
};

// "loss", "maybe-loss", "blessed-loss", "draw", "cursed-win", "maybe-win", "win".
const char* ToString(TbCategory c);

// The same verdict from the other side's view (win <-> loss, ...).
TbCategory Negate(TbCategory c);

// A decisive category turned into its fifty-move-draw counterpart (win and
// maybe-win -> cursed-win, loss and maybe-loss -> blessed-loss); others as is.
TbCategory Demote(TbCategory c);

// True for maybe-win and maybe-loss.
inline bool IsAmbiguous(TbCategory c) {
  return c == TbCategory::kMaybeWin || c == TbCategory::kMaybeLoss;
}

// The outcome of best play for the side to move, under one reading of the
// rules:
//   - with the fifty-move rule, a draw claimed at the first chance (the FIDE
//     Laws 9.3, over the board): a cursed win is a draw, a maybe-win open;
//   - without it (ICCF tablebase claims, correspondence): a cursed win is a
//     win, and DTZ rounding never matters (the WDL alone decides).
enum class TbOutcome : uint8_t { kWin, kDraw, kLoss, kUnknown };
const char* ToString(TbOutcome o);  // "win", "draw", "loss", "unknown"
TbOutcome WithFiftyMoveRule(TbCategory c);
TbOutcome WithoutFiftyMoveRule(TbCategory c);
// The same outcome from the other side's view.
TbOutcome Negate(TbOutcome o);

// Category of a position with Syzygy DTZ `dtz` (side to move's view) and
// halfmove clock `halfmove_clock`. `precise`: `dtz` is known not to be
// rounded. Not for checkmated positions (see the Lichess rule in syzygy.cc).
TbCategory CategoryFromDtz(int dtz, bool precise, int halfmove_clock);

// Whether the side to move can force a zeroing move that keeps the win (so,
// in the end, mate) before a fifty-move claim becomes available, given the
// exact DTZ `precise_dtz` (> 0) and the clock: precise_dtz + clock <= 100.
inline bool WinsWithin50(int precise_dtz, int halfmove_clock) {
  return precise_dtz > 0 && precise_dtz <= 100 && precise_dtz + halfmove_clock <= 100;
}

}  // namespace arbiter
