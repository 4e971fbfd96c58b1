#include "core/tablebase/wdl_category.h"

#include <cstdlib>

namespace arbiter {

const char* ToString(TbCategory c) {
  switch (c) {
    case TbCategory::kLoss:
      return "loss";
    case TbCategory::kMaybeLoss:
      return "maybe-loss";
    case TbCategory::kBlessedLoss:
      return "blessed-loss";
    case TbCategory::kDraw:
      return "draw";
    case TbCategory::kCursedWin:
      return "cursed-win";
    case TbCategory::kMaybeWin:
      return "maybe-win";
    case TbCategory::kWin:
      return "win";
  }
  return "?";
}

TbCategory Negate(TbCategory c) {
  // The enum is symmetric around kDraw.
  return TbCategory(int(TbCategory::kWin) - int(c));
}

TbCategory Demote(TbCategory c) {
  switch (c) {
    case TbCategory::kWin:
    case TbCategory::kMaybeWin:
      return TbCategory::kCursedWin;
    case TbCategory::kLoss:
    case TbCategory::kMaybeLoss:
      return TbCategory::kBlessedLoss;
    default:
      return c;
  }
}

const char* ToString(TbOutcome o) {
  switch (o) {
    case TbOutcome::kWin:
      return "win";
    case TbOutcome::kDraw:
      return "draw";
    case TbOutcome::kLoss:
      return "loss";
    case TbOutcome::kUnknown:
      return "unknown";
  }
  return "?";
}

TbOutcome WithFiftyMoveRule(TbCategory c) {
  switch (c) {
    case TbCategory::kWin:
      return TbOutcome::kWin;
    case TbCategory::kLoss:
      return TbOutcome::kLoss;
    case TbCategory::kMaybeWin:
    case TbCategory::kMaybeLoss:
      return TbOutcome::kUnknown;
    default:
      return TbOutcome::kDraw;
  }
}

TbOutcome WithoutFiftyMoveRule(TbCategory c) {
  switch (c) {
    case TbCategory::kWin:
    case TbCategory::kMaybeWin:
    case TbCategory::kCursedWin:
      return TbOutcome::kWin;
    case TbCategory::kLoss:
    case TbCategory::kMaybeLoss:
    case TbCategory::kBlessedLoss:
      return TbOutcome::kLoss;
    case TbCategory::kDraw:
      return TbOutcome::kDraw;
  }
  return TbOutcome::kUnknown;
}

TbOutcome Negate(TbOutcome o) {
  return o == TbOutcome::kWin ? TbOutcome::kLoss : o == TbOutcome::kLoss ? TbOutcome::kWin : o;
}

TbCategory CategoryFromDtz(int dtz, bool precise, int halfmove_clock) {
  if (dtz == 0) return TbCategory::kDraw;
  const bool win = dtz > 0;
  const int n = std::abs(dtz);
  const TbCategory decisive = win ? TbCategory::kWin : TbCategory::kLoss;
  const TbCategory drawn = win ? TbCategory::kCursedWin : TbCategory::kBlessedLoss;
  if (n > 100) return drawn;
  const int total = n + halfmove_clock;
  if (total <= 99) return decisive;
  if (total >= 101) return drawn;
  // total == 100: a rounded n may stand for n + 1 (one ply too many), except
  // right after a zeroing move (clock 0, n == 100), which is never rounded.
  if (precise || halfmove_clock == 0) return decisive;
  return win ? TbCategory::kMaybeWin : TbCategory::kMaybeLoss;
}

}  // namespace arbiter
