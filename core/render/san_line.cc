#include "core/render/san_line.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace arbiter {

MoveNumber MoveNumberOfFen(std::string_view fen) {
  MoveNumber out;
  // (Debian's abseil has a string_view of its own.)
  std::vector<absl::string_view> fields =
      absl::StrSplit(absl::string_view(fen.data(), fen.size()), ' ', absl::SkipEmpty());
  if (fields.size() > 1 && fields[1] == "b") out.side_to_move = kBlack;
  int fullmove = 0;
  if (fields.size() > 5 && absl::SimpleAtoi(fields[5], &fullmove) && fullmove > 0)
    out.fullmove = fullmove;
  return out;
}

MoveNumber MoveNumberAfter(MoveNumber start, int plies) {
  const int from_white = plies + (start.side_to_move == kBlack ? 1 : 0);
  return {start.fullmove + from_white / 2, from_white % 2 ? kBlack : kWhite};
}

std::string NumberedSan(const std::vector<std::string>& san, MoveNumber start) {
  std::string out;
  int number = start.fullmove;
  Color side = start.side_to_move;
  for (size_t i = 0; i < san.size(); ++i) {
    if (i) out += ' ';
    if (side == kWhite)
      absl::StrAppend(&out, number, ". ");
    else if (i == 0)
      absl::StrAppend(&out, number, "... ");
    out += san[i];
    if (side == kBlack) ++number;
    side = ~side;
  }
  return out;
}

std::string ShownSan(const std::vector<std::string>& san, MoveNumber start,
                     std::string_view whole_at) {
  if (san.size() <= kShownPlies) return NumberedSan(san, start);
  const std::vector<std::string> head(san.begin(), san.begin() + kShownPlies);
  return absl::StrCat(NumberedSan(head, start), " (+", san.size() - kShownPlies, " plies, ",
                      san.size(), " in all: see ", std::string(whole_at), ")");
}

}  // namespace arbiter
