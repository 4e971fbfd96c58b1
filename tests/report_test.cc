// The writers of the disputed rulings (`verify --report`, `--annotate-pgn`)
// and the SAN lines every text output prints: escaping, move numbers, links,
// the board, the capped list, PGN that reads back. Verdicts are real ones,
// from VerifyGame on small records.
#include <gtest/gtest.h>

#include <regex>

#include "core/io/byte_source.h"
#include "core/pgn/pgn_reader.h"
#include "core/render/annotated_pgn.h"
#include "core/render/board_svg.h"
#include "core/render/disputes.h"
#include "core/render/html_report.h"
#include "core/render/html_text.h"
#include "core/render/san_line.h"
#include "core/verdict/game_verdict.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

using testing::Contains;
using testing::Count;
using testing::Flat;

RawGame Record(const std::string& pgn, int64_t index = 1) {
  PgnReaderOptions options;
  options.keep_comments = false;  // as verify reads
  return ReadFirstGame(pgn, index, options);
}

GameVerdict Verdict(const RawGame& record) {
  ReplayedGame scratch;
  GameVerdict v;
  VerifyGame(record, testing::WithTables(), &scratch, &v);
  return v;
}

// Declared 1-0, mated by Black: a disagreement, with tags that try to break
// out of the page.
constexpr char kHostileTags[] = R"([Event "<script>alert(1)</script>"]
[Site "https://lichess.org/abcdEFGH"]
[White "A & B \"quoted\" \\ back"]
[Black "O'Brien"]
[Result "1-0"]

1. f3 e5 2. g4 Qh4# 1-0
)";

TEST(ReportSanLine, NumbersFromTheStartPosition) {
  EXPECT_EQ(NumberedSan({"Kf1", "Kf4", "Kf2"}, {1, kWhite}), "1. Kf1 Kf4 2. Kf2");
  EXPECT_EQ(NumberedSan({"Kd7", "Qe7#"}, {12, kBlack}), "12... Kd7 13. Qe7#");
  EXPECT_EQ(NumberedSan({"Kd7"}, {12, kBlack}), "12... Kd7");
  EXPECT_EQ(NumberedSan({}, {3, kWhite}), "");
  const MoveNumber m = MoveNumberOfFen("6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 30");
  EXPECT_EQ(m.fullmove, 30);
  EXPECT_EQ(m.side_to_move, kBlack);
  // Missing or unreadable fields: White, move 1.
  EXPECT_EQ(MoveNumberOfFen("8/8/8/8/8/8/8/K6k").fullmove, 1);
  EXPECT_EQ(MoveNumberOfFen("8/8/8/8/8/8/8/K6k w - - 0 x").fullmove, 1);
  const MoveNumber after = MoveNumberAfter({12, kBlack}, 3);  // 12... 13. 13... -> 14.
  EXPECT_EQ(after.fullmove, 14);
  EXPECT_EQ(after.side_to_move, kWhite);
  EXPECT_EQ(MoveNumberAfter({1, kWhite}, 1).side_to_move, kBlack);
}

// The ruling's line is spelled once, in the position it starts at, and the
// verify text prints it numbered from there.
TEST(ReportSanLine, VerdictCarriesTheWinnersLineInSan) {
  const RawGame record = Record(
      "[Result \"1/2-1/2\"]\n[Termination \"Time forfeit\"]\n[SetUp \"1\"]\n"
      "[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30\"]\n\n30. Kf1 1/2-1/2\n");
  const GameVerdict v = Verdict(record);
  ASSERT_TRUE(v.ruling.has_value()) << v.error;
  ASSERT_EQ(v.ruling->rule, Rule::kFlagFall);
  ASSERT_FALSE(v.winner_line.empty());
  ASSERT_EQ(v.winner_line_san.size(), v.winner_line.size());
  EXPECT_EQ(v.winner_line_san, v.ruling->winner_can_mate.line_san);
  Position pos = testing::FromFen(v.end_fen);
  for (size_t i = 0; i < v.winner_line.size(); ++i) {
    absl::StatusOr<Move> m = ParseUci(pos, v.winner_line[i]);
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(ToSan(pos, *m), v.winner_line_san[i]);
    pos.DoMove(*m);
  }
  EXPECT_EQ(v.winner_line_san.back().back(), '#');
  const std::vector<std::string> evidence = EvidenceOf(v);
  const std::string line = NumberedSan(v.winner_line_san, {30, kBlack});
  EXPECT_EQ(line.rfind("30... ", 0), 0u) << line;
  EXPECT_NE(std::find(evidence.begin(), evidence.end(),
                      "White can mate, helpmate line (both sides' moves): " + line),
            evidence.end());
}

// Text shows at most kShownPlies plies of a line, then how long it is and
// where the whole line is; a line that fits is shown whole.
TEST(ReportSanLine, ALongLineIsCutInText) {
  std::vector<std::string> san;
  for (int i = 0; i < 40; ++i) san.push_back(i % 2 ? "Kb8" : "Ka2");
  const std::string shown = ShownSan(san, {1, kWhite}, "--json");
  const std::vector<std::string> head(san.begin(), san.begin() + kShownPlies);
  EXPECT_EQ(shown, NumberedSan(head, {1, kWhite}) + " (+8 plies, 40 in all: see --json)");
  san.resize(kShownPlies);
  EXPECT_EQ(ShownSan(san, {1, kWhite}, "--json"), NumberedSan(san, {1, kWhite}));
}

TEST(ReportHtml, EscapesEverythingFromTheRecord) {
  EXPECT_EQ(HtmlEscape("<script>alert(\"x\") & 'y'</script>"),
            "&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;");
  EXPECT_EQ(HtmlEscape("M\xC3\xBCller"), "M\xC3\xBCller");  // valid UTF-8 kept
  EXPECT_EQ(HtmlEscape("a\xFF"
                       "b"),
            "a\xEF\xBF\xBD"
            "b");  // ill-formed: U+FFFD
  EXPECT_EQ(HtmlEscape(std::string("a\0b\x1b", 4)),
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD");
  EXPECT_EQ(HtmlEscape("tab\there\nline"), "tab\there\nline");

  const RawGame record = Record(kHostileTags);
  const GameVerdict v = Verdict(record);
  ASSERT_TRUE(DisputesOf(v).disagrees);
  DisputeReport report("<b>games</b>.pgn");
  report.Add(v, record);
  const std::string page = report.Html();
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("<b>"), std::string::npos);
  EXPECT_PRED_FORMAT2(Contains, page, "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_PRED_FORMAT2(Contains, page, "A &amp; B &quot;quoted&quot; \\ back");
  EXPECT_PRED_FORMAT2(Contains, page, "O&#39;Brien");
  EXPECT_PRED_FORMAT2(Contains, page, "&lt;b&gt;games&lt;/b&gt;.pgn");
  // Nothing is fetched: no script, no external style, font or image.
  for (const char* outside : {"src=", "<link", "url(", "@import", "<img", "<iframe"})
    EXPECT_EQ(page.find(outside), std::string::npos) << outside;
  EXPECT_PRED_FORMAT2(Contains, page, "default-src 'none'");
  // The ruled ply in the link; the board where the game ended (after 2...
  // Qh4#, White to move and in check).
  EXPECT_PRED_FORMAT2(Contains, page, "href=\"https://lichess.org/abcdEFGH#4\"");
  EXPECT_PRED_FORMAT2(Contains, page, "After ply 4 (2... Qh4#), White to move");
  EXPECT_PRED_FORMAT2(Contains, page, "0-1 by checkmate (FIDE 5.1.1)");
  EXPECT_EQ(Count(page, "<svg"), 2u);  // the board and the chart
}

TEST(ReportLinks, OnlyLichessAndChessComGameUrls) {
  EXPECT_EQ(GameLink("https://lichess.org/abcdEFGH", 57), "https://lichess.org/abcdEFGH#57");
  EXPECT_EQ(GameLink("http://lichess.org/abcdEFGH", std::nullopt), "https://lichess.org/abcdEFGH");
  // A player's 12-character id: the game is its first 8.
  EXPECT_EQ(GameLink("https://lichess.org/abcdEFGHijkl", 3), "https://lichess.org/abcdEFGH#3");
  EXPECT_EQ(GameLink("https://lichess.org/abcdEFGH/black", 0),
            "https://lichess.org/abcdEFGH/black#0");
  EXPECT_EQ(GameLink("https://www.chess.com/game/live/123456789", 12),
            "https://www.chess.com/game/live/123456789");
  EXPECT_EQ(GameLink("https://chess.com/game/daily/42", 1), "https://www.chess.com/game/daily/42");
  for (const char* bad : {"https://lichess.org/abc", "https://lichess.org/abcdefgh?x=1",
                          "https://lichess.org/abcd\"efg", "https://lichess.org.evil.com/abcdefgh",
                          "https://evil.com/lichess.org/abcdefgh", "javascript:alert(1)",
                          "lichess.org/abcdefgh", "https://www.chess.com/game/live/1\"onclick=",
                          "https://www.chess.com/", "Chess.com", "?", ""})
    EXPECT_EQ(GameLink(bad, 1), std::nullopt) << bad;
  // Chess.com's exports: Site "Chess.com", the URL in Link.
  const RawGame chess_com = Record(
      "[Site \"Chess.com\"]\n[Link \"https://www.chess.com/game/live/987\"]\n[Result \"*\"]\n\n"
      "1. e4 *\n");
  EXPECT_EQ(GameLinkOf(chess_com, 1), "https://www.chess.com/game/live/987");
}

TEST(ReportBoard, DrawsEveryManWhereItStands) {
  const Position start = Position::Start();
  const std::string svg = BoardSvg(start);
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_PRED_FORMAT2(Contains, svg, "<title>" + start.Fen() + "</title>");
  EXPECT_EQ(Count(svg, "\xEF\xB8\x8E</text>"), 32u);   // one glyph per man
  EXPECT_EQ(Count(svg, "fill=\"#b58863\""), 32u);      // the dark squares
  EXPECT_EQ(Count(svg, "fill=\"#fff\" stroke"), 16u);  // White's men
  // a1 is dark, bottom left; flipped, top right.
  EXPECT_PRED_FORMAT2(Contains, svg,
                      "<rect x=\"16\" y=\"280\" width=\"40\" height=\"40\" fill=\"#b58863\"/>");
  // White's king on e1 (file 4 of 8, bottom row).
  EXPECT_PRED_FORMAT2(Contains, svg,
                      "<text x=\"196\" y=\"301\" fill=\"#fff\" stroke=\"#000\" "
                      "stroke-width=\"1.4\" paint-order=\"stroke\">\xE2\x99\x9A");
  BoardSvgOptions flipped;
  flipped.flip = true;
  flipped.highlight = {kE2, kE4};
  flipped.check = kE8;
  const std::string other = BoardSvg(start, flipped);
  EXPECT_PRED_FORMAT2(Contains, other,
                      "<rect x=\"296\" y=\"0\" width=\"40\" height=\"40\" fill=\"#b58863\"/>");
  EXPECT_EQ(Count(other, "fill=\"#cdd16a\""), 2u);
  EXPECT_EQ(Count(other, "fill=\"#e0403a\""), 1u);
  EXPECT_EQ(Count(svg, "fill=\"#cdd16a\""), 0u);
}

// Only disputed games are listed, at most max_listed, and the page says
// how many more there were; the totals count every game.
TEST(ReportHtml, ListsDisputedGamesUpToTheCap) {
  DisputeReport report("games.pgn", 2);
  const RawGame agrees = Record("[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n", 1);
  report.Add(Verdict(agrees), agrees);
  for (int64_t i = 2; i <= 5; ++i) {
    const RawGame r = Record(
        absl::StrCat("[Event \"game ", i, "\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n"), i);
    report.Add(Verdict(r), r);
  }
  const RawGame error = Record("[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n", 6);
  report.Add(Verdict(error), error);
  EXPECT_EQ(report.disputed(), 5);
  EXPECT_EQ(report.listed(), 2u);
  const std::string page = report.Html();
  EXPECT_EQ(Count(page, "<article"), 2u);
  EXPECT_PRED_FORMAT2(Contains, page, "id=\"game-2\"");
  EXPECT_PRED_FORMAT2(Contains, page, "id=\"game-3\"");
  EXPECT_EQ(page.find("id=\"game-1\""), std::string::npos);
  EXPECT_EQ(page.find("id=\"game-6\""), std::string::npos);
  EXPECT_PRED_FORMAT2(Contains, page,
                      "3 more disputed games are not listed: the report lists the first 2.");
  EXPECT_PRED_FORMAT2(Contains, page, "<tr><th>games</th><td class=\"n\">6</td></tr>");
  EXPECT_PRED_FORMAT2(Contains, page, "<tr><th>errors</th><td class=\"n\">1</td></tr>");
  EXPECT_PRED_FORMAT2(Contains, page, "<tr><th>disagrees</th><td class=\"n\">4</td></tr>");
  // The chart: one bar per rule, with its count.
  EXPECT_PRED_FORMAT2(Contains, page, ">checkmate</text><rect");
  EXPECT_PRED_FORMAT2(Contains, page, ">5</text>");

  // An error record shows where its replay stopped.
  DisputeReport errors("e.pgn");
  errors.Add(Verdict(error), error);
  const std::string error_page = errors.Html();
  EXPECT_PRED_FORMAT2(Contains, error_page,
                      "After ply 2 (1... e5), White to move; the replay stopped here");
  EXPECT_PRED_FORMAT2(Contains, error_page, "2. Ke3");
}

TEST(ReportPgn, CommentsCannotBeClosedFromInside) {
  EXPECT_EQ(PgnCommentText("a } b { c\nd\te"), "a ) b ( c d e");
}

// Reads PGN text back with Arbiter's own reader.
std::vector<RawGame> ReadAll(const std::string& text) {
  std::vector<RawGame> games;
  PgnReader reader(ByteSource::FromString(text));
  for (RawGame g; reader.Next(&g);) games.push_back(g);
  return games;
}

std::vector<std::string> Sans(const RawGame& g) {
  std::vector<std::string> out;
  for (const RawMove& m : g.moves) out.push_back(m.san);
  return out;
}

TEST(ReportPgn, WritesTheRecordBackWithTheRulingAtTheRuledPly) {
  ReplayedGame scratch;
  // A dead position at ply 1 (K v K), played on: the comment after 1. Kxd2,
  // the later moves as moves, the declared result kept.
  const RawGame dead = Record(
      "[Event \"dead\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/3q4/4K3 w - - 0 "
      "1\"]\n[Annotator \"Someone\"]\n\n1. Kxd2 $1 {[%clk 0:01:05.5]} Kd7 2. Kc3 1-0\n");
  const GameVerdict v = Verdict(dead);
  ASSERT_TRUE(v.ruling.has_value());
  ASSERT_EQ(v.ruling->rule, Rule::kDeadPosition);
  EXPECT_EQ(ArbiterComment(v),
            "Arbiter: 1/2-1/2 by dead_position (FIDE 5.2.2), not 1-0 as declared: neither side "
            "can mate: too little material for any series of legal moves to mate (proof: "
            "material); the game ended on the board after ply 1; 2 plies were "
            "played after the end, the first Kd7");
  const std::string pgn = AnnotatedPgn(v, dead, &scratch);
  EXPECT_PRED_FORMAT2(Contains, pgn, "[Annotator \"Someone; Arbiter\"]\n");
  EXPECT_PRED_FORMAT2(Contains, Flat(pgn),
                      "1. Kxd2 $1 {[%clk 0:01:05.5]} {Arbiter: 1/2-1/2 by dead_position (FIDE "
                      "5.2.2), not 1-0 as declared:");
  EXPECT_PRED_FORMAT2(Contains, Flat(pgn), "the first Kd7} 1... Kd7 2. Kc3 1-0  ");
  for (const std::string& line : testing::Lines(pgn)) EXPECT_LE(line.size(), 79u) << line;
  std::vector<RawGame> back = ReadAll(pgn);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_TRUE(back[0].error.ok()) << back[0].error;
  EXPECT_EQ(Sans(back[0]), Sans(dead));
  EXPECT_EQ(back[0].moves[0].clock_centis, 6550);
  EXPECT_EQ(back[0].moves[0].nags, std::vector<int>{1});
  EXPECT_EQ(back[0].result_token, "1-0");

  // Tags that need escaping come back as they were; a Black-to-move start
  // is numbered "12..."; moves after mate, which cannot be played, go into
  // a comment.
  const RawGame hostile = Record(
      "[Event \"a \\\"quote\\\" and \\\\ and }\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n"
      "[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 12\"]\n\n12... Kh8 13. Ra8# Kg8 1-0\n");
  const GameVerdict mated = Verdict(hostile);
  ASSERT_TRUE(mated.ruling.has_value()) << mated.error;
  ASSERT_TRUE(DisputesOf(mated).disagrees || mated.ruling->moves_after_end > 0);
  const std::string written = AnnotatedPgn(mated, hostile, &scratch);
  EXPECT_PRED_FORMAT2(Contains, Flat(written), "12... Kh8 13. Ra8# {Arbiter: 1-0 by checkmate");
  EXPECT_PRED_FORMAT2(Contains, Flat(written),
                      "{Arbiter: the record goes on with moves that cannot be played here: "
                      "13... Kg8}");
  back = ReadAll(written);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_TRUE(back[0].error.ok()) << back[0].error;
  const std::vector<std::pair<std::string, std::string>> tags = {
      {"Event", "a \"quote\" and \\ and }"},
      {"Result", "1-0"},
      {"SetUp", "1"},
      {"FEN", "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 12"},
      {"Annotator", "Arbiter"}};
  EXPECT_EQ(back[0].tags, tags);
  EXPECT_EQ(Sans(back[0]), (std::vector<std::string>{"Kh8", "Ra8#"}));

  // An error whose message holds a '}' cannot end its comment early.
  const RawGame bad = Record("[Result \"*\"]\n\n1. e4 e5 2. K}3 *\n");
  const GameVerdict error = Verdict(bad);
  ASSERT_FALSE(error.ruling.has_value());
  const std::string error_pgn = AnnotatedPgn(error, bad, &scratch);
  back = ReadAll(error_pgn);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_TRUE(back[0].error.ok()) << back[0].error << "\n" << error_pgn;
  EXPECT_EQ(back[0].result_token, "*");
}

// Chess 99 records: no chess reader reads their moves, so they go into a
// comment, in their own notation, with the ruling after them; the board is
// not drawn, the FEN-9 is shown as text.
TEST(ReportPgn, Chess99MovesStayInTheirNotation) {
  absl::StatusOr<std::unique_ptr<ByteSource>> source =
      ByteSource::Open(std::string(ARBITER_SOURCE_DIR) + "/examples/chess99_games.pgn");
  ASSERT_TRUE(source.ok());
  PgnReader reader(*std::move(source), PgnReaderOptions{.keep_comments = false});
  ReplayedGame scratch;
  DisputeReport report("chess99_games.pgn");
  int disputed = 0;
  for (RawGame g; reader.Next(&g);) {
    const GameVerdict v = Verdict(g);
    ASSERT_EQ(v.rules, Ruleset::kChess99);
    report.Add(v, g);
    if (!DisputesOf(v).any()) continue;
    ++disputed;
    const std::string pgn = Flat(AnnotatedPgn(v, g, &scratch));
    EXPECT_PRED_FORMAT2(Contains, pgn, "{Arbiter: the record's moves, in Chess 99 notation: ");
    EXPECT_PRED_FORMAT2(Contains, pgn, "} {" + ArbiterComment(v) + "}");
    const std::vector<RawGame> back = ReadAll(pgn);
    ASSERT_EQ(back.size(), 1u);
    EXPECT_TRUE(back[0].error.ok()) << back[0].error;
    EXPECT_EQ(back[0].result_token, g.result_token);
  }
  EXPECT_GE(disputed, 1);
  const std::string page = report.Html();
  EXPECT_EQ(Count(page, "class=\"board\""), 0u);
  EXPECT_PRED_FORMAT2(Contains, page, "(Chess 99, FEN-9)");
  EXPECT_PRED_FORMAT2(Contains, page,
                      "(Chess 99 D4 \xC2\xA7"
                      "5.1)");
}

}  // namespace
}  // namespace arbiter
