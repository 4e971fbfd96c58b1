#include "core/render/board_svg.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/render/html_text.h"

namespace arbiter {
namespace {

// The filled symbols (U+265A..U+265F) for both colours, each followed by
// U+FE0E so that no platform draws the pawn as an emoji; colour comes from
// the fill, so White's and Black's men have the same shape.
const char* Glyph(PieceType t) {
  switch (t) {
    case kKing:
      return "\xE2\x99\x9A\xEF\xB8\x8E";
    case kQueen:
      return "\xE2\x99\x9B\xEF\xB8\x8E";
    case kRook:
      return "\xE2\x99\x9C\xEF\xB8\x8E";
    case kBishop:
      return "\xE2\x99\x9D\xEF\xB8\x8E";
    case kKnight:
      return "\xE2\x99\x9E\xEF\xB8\x8E";
    case kPawn:
      return "\xE2\x99\x9F\xEF\xB8\x8E";
    default:
      return "";
  }
}

}  // namespace

std::string BoardSvg(const Position& pos, const BoardSvgOptions& o) {
  const int s = o.square;
  const int margin = std::max(12, s * 2 / 5);  // room for the coordinates
  const int side = margin + 8 * s;
  // Where a square is drawn: its top-left corner.
  auto corner = [&](int file, int rank) {
    const int column = o.flip ? 7 - file : file;
    const int row = o.flip ? rank : 7 - rank;
    return std::pair{margin + column * s, row * s};
  };
  const std::string fen = pos.Fen();
  std::string out = absl::StrCat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" viewBox=\"0 0 ", side, " ", side,
      "\" width=\"", side, "\" height=\"", side, "\" role=\"img\" aria-label=\"");
  AppendHtmlEscaped(&out, fen);
  absl::StrAppend(&out, "\"><title>");
  AppendHtmlEscaped(&out, fen);
  absl::StrAppend(&out, "</title><rect x=\"", margin, "\" y=\"0\" width=\"", 8 * s, "\" height=\"",
                  8 * s, "\" fill=\"#f0d9b5\"/>");
  for (int rank = 0; rank < 8; ++rank) {
    for (int file = 0; file < 8; ++file) {
      const Square sq = MakeSquare(file, rank);
      const auto [x, y] = corner(file, rank);
      const bool dark = (file + rank) % 2 == 0;  // a1 is dark
      if (dark)
        absl::StrAppend(&out, "<rect x=\"", x, "\" y=\"", y, "\" width=\"", s, "\" height=\"", s,
                        "\" fill=\"#b58863\"/>");
      if (std::find(o.highlight.begin(), o.highlight.end(), sq) != o.highlight.end())
        absl::StrAppend(&out, "<rect x=\"", x, "\" y=\"", y, "\" width=\"", s, "\" height=\"", s,
                        "\" fill=\"#cdd16a\" fill-opacity=\"0.75\"/>");
      if (sq == o.check)
        absl::StrAppend(&out, "<rect x=\"", x, "\" y=\"", y, "\" width=\"", s, "\" height=\"", s,
                        "\" fill=\"#e0403a\" fill-opacity=\"0.7\"/>");
    }
  }
  // Coordinates: files under the board, ranks to its left.
  absl::StrAppend(&out, "<g font-family=\"sans-serif\" font-size=\"", std::max(9, s * 3 / 10),
                  "\" fill=\"#555\" text-anchor=\"middle\">");
  for (int i = 0; i < 8; ++i) {
    const auto [fx, fy] = corner(i, 0);
    absl::StrAppend(&out, "<text x=\"", fx + s / 2, "\" y=\"", 8 * s + margin * 3 / 4, "\">",
                    std::string(1, char('a' + i)), "</text>");
    const auto [rx, ry] = corner(0, i);
    absl::StrAppend(&out, "<text x=\"", margin / 2, "\" y=\"", ry + s / 2 + s / 10, "\">", i + 1,
                    "</text>");
  }
  absl::StrAppend(&out, "</g>");
  // The men. Fonts with the chess symbols: DejaVu Sans (most Linux
  // systems), Segoe UI Symbol (Windows), Apple Symbols, Noto Sans Symbols 2.
  absl::StrAppend(&out,
                  "<g font-family=\"'DejaVu Sans','Segoe UI Symbol','Apple Symbols','Noto Sans "
                  "Symbols 2',sans-serif\" font-size=\"",
                  s * 17 / 20, "\" text-anchor=\"middle\" dominant-baseline=\"central\">");
  for (int sq = 0; sq < 64; ++sq) {
    const Piece p = pos.piece_on(Square(sq));
    if (p == kNoPiece) continue;
    const auto [x, y] = corner(FileOf(Square(sq)), RankOf(Square(sq)));
    const bool white = ColorOf(p) == kWhite;
    absl::StrAppend(&out, "<text x=\"", x + s / 2, "\" y=\"", y + s / 2 + s / 40, "\"",
                    white ? " fill=\"#fff\" stroke=\"#000\" stroke-width=\"1.4\" "
                            "paint-order=\"stroke\""
                          : " fill=\"#000\"",
                    ">", Glyph(TypeOf(p)), "</text>");
  }
  absl::StrAppend(&out, "</g></svg>");
  return out;
}

}  // namespace arbiter
