#include "core/render/html_report.h"

#include <algorithm>
#include <array>

#include "absl/strings/str_cat.h"
#include "core/chess/bitboard.h"
#include "core/render/board_svg.h"
#include "core/render/html_text.h"
#include "core/render/san_line.h"

namespace arbiter {
namespace {

constexpr char kStyle[] = R"css(
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;
max-width:1100px;padding:1em 1.5em;color:#222;background:#fafafa}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.15em;margin:0 0 .5em}
.meta{color:#666;margin-top:0}
table{border-collapse:collapse}td,th{padding:.15em .7em .15em 0;text-align:left;
vertical-align:top}th{font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}
.summary{display:flex;flex-wrap:wrap;gap:1.5em 3em;background:#fff;border:1px solid #ddd;
border-radius:6px;padding:1em 1.2em;margin:1em 0}
.summary h2{font-size:1em}
.game{background:#fff;border:1px solid #ddd;border-radius:6px;padding:1em 1.2em;margin:1em 0;
page-break-inside:avoid}
.cols{display:flex;flex-wrap:wrap;gap:1.2em}
figure{margin:0}figcaption{color:#555;font-size:.9em;max-width:340px}
.details{flex:1;min-width:280px;overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em;margin:0 0 .8em}
dt{font-weight:600}dd{margin:0}ul{margin:0;padding-left:1.1em}
.tags th{font-weight:normal;color:#666}.tags td{overflow-wrap:anywhere}
.kind{display:inline-block;font-size:.75em;font-weight:600;border-radius:3px;
padding:.05em .45em;margin-left:.4em;vertical-align:middle;color:#fff}
.disagrees{background:#c0392b}.uncertain{background:#b9770e}.tablebase{background:#6c3483}
.error{background:#555}.more{color:#666;font-style:italic}
.index{background:#fff;border:1px solid #ddd;border-radius:6px;padding:.6em 1.2em;margin:1em 0}
.index h2{font-size:1em;margin:.2em 0}.index li{margin:.15em 0}
.line{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em}
)css";

const char* kKindNames[4] = {"disagrees", "uncertain", "tablebase contradiction", "error"};
const char* kKindClasses[4] = {"disagrees", "uncertain", "tablebase", "error"};
// The kinds of `kinds` set, in the order of kKindNames.
std::array<bool, 4> KindFlags(const DisputeKinds& kinds) {
  return {kinds.disagrees, kinds.uncertain, kinds.tablebase_contradiction, kinds.error};
}

std::string Esc(std::string_view s) { return HtmlEscape(s); }

std::string CountRow(std::string_view name, int64_t n) {
  return absl::StrCat("<tr><th>", Esc(name), "</th><td class=\"n\">", n, "</td></tr>");
}

// Horizontal bars, one per rule, longest first.
std::string BarChart(const std::map<std::string, int64_t>& counts) {
  std::vector<std::pair<std::string, int64_t>> rows(counts.begin(), counts.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (rows.empty()) return "";
  const int64_t most = rows.front().second;
  constexpr int kLabel = 200, kBar = 280, kRow = 22;
  const int height = int(rows.size()) * kRow;
  std::string out = absl::StrCat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"", kLabel + kBar + 70,
      "\" height=\"", height, "\" viewBox=\"0 0 ", kLabel + kBar + 70, " ", height,
      "\" role=\"img\" aria-label=\"rulings by rule\" font-family=\"sans-serif\" "
      "font-size=\"12\">");
  for (size_t i = 0; i < rows.size(); ++i) {
    const int y = int(i) * kRow;
    const int width = most > 0 ? std::max<int>(1, int(rows[i].second * kBar / most)) : 1;
    absl::StrAppend(&out, "<text x=\"", kLabel - 6, "\" y=\"", y + 15, "\" text-anchor=\"end\">",
                    Esc(rows[i].first), "</text><rect x=\"", kLabel, "\" y=\"", y + 4,
                    "\" width=\"", width, "\" height=\"", kRow - 8,
                    "\" fill=\"#4a78a8\"/><text x=\"", kLabel + width + 5, "\" y=\"", y + 15, "\">",
                    rows[i].second, "</text>");
  }
  return out + "</svg>";
}

}  // namespace

DisputeReport::DisputeReport(std::string title, size_t max_listed)
    : title_(std::move(title)), max_listed_(max_listed) {}

void DisputeReport::Add(const GameVerdict& v, const RawGame& record) {
  summary_.Add(v);
  if (v.tablebase) summary_.tablebases = true;
  const DisputeKinds kinds = DisputesOf(v);
  if (!kinds.any()) return;
  ++disputed_;
  const std::array<bool, 4> kind = KindFlags(kinds);
  for (int i = 0; i < 4; ++i) by_kind_[i] += kind[i];
  if (entries_.size() >= max_listed_) return;

  Entry e{v, kinds, record.tags, "", "", ""};
  // The board: where the game was ruled, or, for a record that could not be
  // replayed, where its replay stopped. Chess 99 boards are not drawn.
  if (v.rules != Ruleset::kChess99) {
    ReplayGame(record, &scratch_);
    // A record the reader could not read, or whose start could not be set
    // up, has no position to show.
    const bool replayed = scratch_.error.ok() || scratch_.bad_move >= 0;
    std::optional<Position> board;
    int ply = 0;
    if (v.ruling) {
      absl::StatusOr<Position> end = Position::FromFen(v.end_fen);
      if (end.ok()) board = *end;
      ply = v.ruling->ended_at_ply.value_or(int(scratch_.moves.size()));
    } else if (replayed) {
      board = scratch_.end;
      ply = int(scratch_.moves.size());
    }
    if (board) {
      BoardSvgOptions options;
      if (ply > 0 && ply <= int(scratch_.moves.size())) {
        const Move last = scratch_.moves[size_t(ply - 1)];
        options.highlight = {last.from(), last.to()};
      }
      if (board->in_check()) options.check = Lsb(board->pieces(board->side_to_move(), kKing));
      e.board_svg = BoardSvg(*board, options);
      const MoveNumber start{scratch_.start.fullmove_number(), scratch_.start.side_to_move()};
      std::string where = ply == 0 ? std::string("The start position")
                          : ply <= int(record.moves.size())
                              ? absl::StrCat("After ply ", ply, " (",
                                             NumberedSan({record.moves[size_t(ply - 1)].san},
                                                         MoveNumberAfter(start, ply - 1)),
                                             ")")
                              : absl::StrCat("After ply ", ply);
      absl::StrAppend(&where, ", ", board->side_to_move() == kWhite ? "White" : "Black", " to move",
                      v.ruling ? "" : "; the replay stopped here");
      e.board_caption = std::move(where);
    }
  }
  const std::optional<int> ply = v.ruling ? v.ruling->ended_at_ply : std::nullopt;
  if (std::optional<std::string> link = GameLinkOf(record, ply)) e.link = *std::move(link);
  entries_.push_back(std::move(e));
}

std::string DisputeReport::SummaryHtml() const {
  const VerdictSummary& s = summary_;
  std::string out = "<section class=\"summary\"><div><h2>Totals</h2><table>";
  absl::StrAppend(&out, CountRow("games", s.games), CountRow("agree", s.agree),
                  CountRow("disagree", s.disagree), CountRow("uncertain", s.uncertain),
                  CountRow("errors", s.errors), CountRow("skipped (other variants)", s.skipped));
  if (s.tablebases)
    absl::StrAppend(&out, CountRow("tablebase: positions covered", s.tablebase_covered),
                    CountRow("tablebase: contradictions", s.tablebase_contradictions));
  absl::StrAppend(&out, "</table></div><div><h2>Disputed: ", disputed_, "</h2><table>");
  for (int i = 0; i < 4; ++i) absl::StrAppend(&out, CountRow(kKindNames[i], by_kind_[i]));
  absl::StrAppend(&out, "</table><p>Listed below: ", entries_.size(), "</p></div>");
  absl::StrAppend(&out, "<div><h2>Rulings by rule</h2>", BarChart(s.by_rule), "</div>");
  if (!s.skipped_variants.empty()) {
    absl::StrAppend(&out, "<div><h2>Skipped: other variants</h2><table>");
    for (const auto& [variant, n] : s.skipped_variants) absl::StrAppend(&out, CountRow(variant, n));
    absl::StrAppend(&out, "</table></div>");
  }
  if (!s.disagreements.empty()) {
    absl::StrAppend(&out, "<div><h2>Disagreements (declared &rarr; ruling)</h2><table>");
    for (const auto& [kind, n] : s.disagreements) absl::StrAppend(&out, CountRow(kind, n));
    absl::StrAppend(&out, "</table></div>");
  }
  return out + "</section>\n";
}

namespace {

// A badge for each kind of dispute of a game, each after `before`.
std::string KindBadges(const DisputeKinds& kinds, const char* before) {
  const std::array<bool, 4> kind = KindFlags(kinds);
  std::string out;
  for (int i = 0; i < 4; ++i)
    if (kind[i])
      out += absl::StrCat(before, "<span class=\"kind ", kKindClasses[i], "\">", kKindNames[i],
                          "</span>");
  return out;
}

}  // namespace

std::string DisputeReport::IndexItemHtml(const Entry& e) const {
  const GameVerdict& v = e.verdict;
  std::string out =
      absl::StrCat("<li><a href=\"#game-", v.game, "\">#", v.game, "</a> ",
                   Esc(v.declared.empty() ? "?" : v.declared), " &rarr; ", Esc(RulingText(v)));
  return absl::StrCat(out, KindBadges(e.kinds, " "), "</li>");
}

std::string DisputeReport::EntryHtml(const Entry& e) const {
  const GameVerdict& v = e.verdict;
  auto tag = [&](std::string_view name) -> std::string {
    for (const auto& [n, value] : e.tags)
      if (n == name) return value;
    return "";
  };
  std::string out = absl::StrCat("<article class=\"game\" id=\"game-", v.game, "\"><h2>#", v.game);
  const std::string white = tag("White"), black = tag("Black");
  if (!white.empty() || !black.empty())
    absl::StrAppend(&out, " ", Esc(white.empty() ? "?" : white), " &ndash; ",
                    Esc(black.empty() ? "?" : black));
  absl::StrAppend(&out, KindBadges(e.kinds, ""), "</h2><div class=\"cols\">");
  if (!e.board_svg.empty())
    absl::StrAppend(&out, "<figure>", e.board_svg, "<figcaption>", Esc(e.board_caption),
                    "</figcaption></figure>");
  absl::StrAppend(&out, "<div class=\"details\"><dl><dt>Declared</dt><dd>",
                  Esc(v.declared.empty() ? "?" : v.declared), "</dd><dt>Ruling</dt><dd>",
                  Esc(RulingText(v)));
  if (v.ruling && !v.ruling->certain) absl::StrAppend(&out, " (uncertain)");
  absl::StrAppend(&out, "</dd>");
  if (v.ruling && v.ruling->ended_at_ply)
    absl::StrAppend(&out, "<dt>Ruled at</dt><dd>ply ", *v.ruling->ended_at_ply, " of ", v.plies,
                    "</dd>");
  if (v.rules == Ruleset::kChess99)
    absl::StrAppend(&out, "<dt>Position</dt><dd class=\"line\">", Esc(v.end_fen),
                    " (Chess 99, FEN-9)</dd>");
  const std::vector<std::string> evidence = EvidenceOf(v);
  if (!evidence.empty()) {
    absl::StrAppend(&out, "<dt>Evidence</dt><dd><ul>");
    for (const std::string& phrase : evidence) absl::StrAppend(&out, "<li>", Esc(phrase), "</li>");
    absl::StrAppend(&out, "</ul></dd>");
  }
  if (!e.link.empty())
    absl::StrAppend(&out, "<dt>Game</dt><dd><a href=\"", Esc(e.link),
                    "\" rel=\"noopener noreferrer\">", Esc(e.link), "</a></dd>");
  absl::StrAppend(&out, "</dl>");
  if (!e.tags.empty()) {
    absl::StrAppend(&out, "<table class=\"tags\">");
    for (const auto& [name, value] : e.tags)
      absl::StrAppend(&out, "<tr><th>", Esc(name), "</th><td>", Esc(value), "</td></tr>");
    absl::StrAppend(&out, "</table>");
  }
  return out + "</div></div></article>\n";
}

std::string DisputeReport::Html() const {
  std::string out = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      // Nothing from anywhere, no script even if one slipped through: the
      // page is text, inline style and inline SVG.
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>Arbiter: disputed rulings of ",
      Esc(title_), "</title>\n<style>", kStyle, "</style></head>\n<body>\n");
  absl::StrAppend(&out, "<h1>Disputed rulings</h1>\n<p class=\"meta\">", Esc(title_), " &middot; ",
                  summary_.games, " games &middot; arbiter verify</p>\n");
  absl::StrAppend(&out, SummaryHtml());
  if (entries_.empty()) absl::StrAppend(&out, "<p>No disputed rulings.</p>\n");
  // An index first: a file's disputes are found without scrolling past
  // every card.
  if (!entries_.empty()) {
    absl::StrAppend(&out, "<nav class=\"index\"><h2>Disputed games</h2><ol>");
    for (const Entry& e : entries_) absl::StrAppend(&out, IndexItemHtml(e));
    absl::StrAppend(&out, "</ol></nav>\n");
  }
  for (const Entry& e : entries_) absl::StrAppend(&out, EntryHtml(e));
  if (disputed_ > int64_t(entries_.size()))
    absl::StrAppend(&out, "<p class=\"more\">", disputed_ - int64_t(entries_.size()),
                    " more disputed games are not listed: the report lists the first ", max_listed_,
                    ".</p>\n");
  return out + "</body></html>\n";
}

}  // namespace arbiter
