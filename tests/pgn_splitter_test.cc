// PgnSplitter against the real reader: every text it cuts, read alone,
// must give the game the streaming reader gives (line numbers offset by the
// text's first line), and where the input is not of the strict shape it
// must stop rather than cut wrongly. Suite names contain "Splitter".
#include "core/pgn/pgn_splitter.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/io/byte_source.h"
#include "core/pgn/pgn_reader.h"
#include "tests/test_support.h"
#include "tests/trickle_source.h"

namespace arbiter {
namespace {

constexpr PgnReaderOptions kOptions{.keep_comments = false, .untagged_variant = {}};

// `game` read alone from a text starting at line `first_line`, as the
// streaming reader numbers lines.
RawGame Offset(RawGame game, int64_t first_line) {
  const int64_t by = first_line - 1;
  if (game.first_line) game.first_line += by;
  for (RawMove& m : game.moves)
    if (m.line) m.line += by;
  if (game.error_line) game.error_line += by;
  return game;
}

std::string Describe(const RawGame& g) {
  std::string out =
      absl::StrCat("game ", g.index, " first_line ", g.first_line, " result '", g.result_token,
                   "' closing '", g.closing_comment, "' error '", g.error.ToString(), "' at ",
                   g.error_line, ":", g.error_column, " encoding ", int(g.encoding), " tags");
  for (const auto& [k, v] : g.tags) absl::StrAppend(&out, " ", k, "=", v);
  absl::StrAppend(&out, " moves");
  for (const RawMove& m : g.moves) {
    absl::StrAppend(&out, " ", m.san, "@", m.line, ":", m.column, "/", m.clock_centis);
    if (!m.comment.empty()) absl::StrAppend(&out, "{", m.comment, "}");
    for (int n : m.nags) absl::StrAppend(&out, "$", n);
  }
  return out;
}

struct Split {
  int64_t games = 0;  // cut
  bool ended = false;
  int64_t read = 0;  // by the streaming reader
};

// Cuts `text` (fed `piece` bytes at a time) and checks each game cut
// against the streaming reader's.
Split CheckSplit(const std::string& text, size_t piece = 1 << 20) {
  std::vector<RawGame> expected;
  {
    PgnReader reader(ByteSource::FromString(text), kOptions);
    for (RawGame g; reader.Next(&g);) expected.push_back(g);
  }
  PgnSplitter splitter(std::make_unique<testing::TrickleSource>(text, piece));
  std::string_view game_text;
  int64_t first_line = 0;
  Split out;
  out.read = int64_t(expected.size());
  while (splitter.Next(&game_text, &first_line)) {
    ++out.games;
    const RawGame alone =
        Offset(ReadFirstGame(std::string(game_text), out.games, kOptions), first_line);
    if (size_t(out.games) > expected.size()) {
      ADD_FAILURE() << "game " << out.games << " cut, the reader reads " << expected.size() << ": "
                    << game_text;
      break;
    }
    EXPECT_EQ(Describe(alone), Describe(expected[size_t(out.games - 1)]))
        << "text of game " << out.games << ":\n"
        << game_text;
  }
  out.ended = splitter.ended();
  EXPECT_EQ(out.games, splitter.games());
  if (out.ended) {
    EXPECT_EQ(out.games, out.read) << "the whole input was cut";
  }
  return out;
}

const std::string kGame1 =
    "[Event \"Rated\"]\n[Site \"https://lichess.org/a\"]\n[Result \"1-0\"]\n\n"
    "1. e4 { [%clk 0:03:00] } e5 { [%clk 0:02:59] } 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
const std::string kGame2 =
    "[Event \"Rated\"]\n[Site \"https://lichess.org/b\"]\n[Result \"0-1\"]\n\n"
    "1. f3 e5 2. g4 Qh4# 0-1\n\n";
const std::string kGame3 =
    "[Event \"Casual\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n";

TEST(PgnSplitter, CutsStrictGamesAsTheReaderReadsThem) {
  const std::string text = kGame1 + kGame2 + kGame3;
  for (size_t piece : {size_t(1), size_t(7), size_t(64), size_t(1) << 20}) {
    const Split s = CheckSplit(text, piece);
    EXPECT_TRUE(s.ended) << piece;
    EXPECT_EQ(s.games, 3) << piece;
  }
}

TEST(PgnSplitter, ErrorsAndLinesComeOutAsFromTheWholeFile) {
  // An unexpected token, a bad NAG, an unbalanced ')' and an illegal move:
  // errors with lines and columns of the file.
  const std::string text = kGame1 + "[Result \"1-0\"]\n\n1. e4 e5 2. xx9?? Nf6 1-0\n\n" +
                           "[Result \"1-0\"]\n\n1. e4 $1234 e5 1-0\n\n" +
                           "[Result \"1-0\"]\n\n1. e4 ) e5 1-0\n\n" +
                           "[Result \"1-0\"]\n\n1. e4 \"e5 1-0\n\n" + kGame2;
  const Split s = CheckSplit(text);
  EXPECT_TRUE(s.ended);
  EXPECT_EQ(s.games, 6);
}

TEST(PgnSplitter, CommentsVariationsNagsCrlfAndABomAreCut) {
  const std::string text =
      "\xEF\xBB\xBF" + kGame1 +
      "[Result \"1-0\"]\r\n\r\n1. e4 {a comment\r\nover two lines, with [brackets] and ; and ( } "
      "e5 (1... c5 2. Nf3 {x} (2. c3 1-0) 0-1) 2. Nf3 $1 ; a 1-0 rest of line\r\n"
      "Nc6 !? 1-0\r\n\r\n" +
      "[Result \"*\"]\n1. d4\n\nd5 *\n\n" +  // no blank line after the tags, one in movetext
      kGame2;
  const Split s = CheckSplit(text);
  EXPECT_TRUE(s.ended);
  EXPECT_EQ(s.games, 4);
}

TEST(PgnSplitter, GarbageBetweenGamesStopsTheCutting) {
  const Split s = CheckSplit(kGame1 + "garbage here\n\n" + kGame2);
  EXPECT_FALSE(s.ended);
  EXPECT_EQ(s.games, 0);  // the game before garbage may not end where the reader's does
}

// Each text stops the splitter at the second game (or before the first,
// whose end it cannot vouch for); none of them is cut wrongly.
TEST(PgnSplitter, HostileInputStopsItWhereItIsNotStrict) {
  const std::vector<std::string> hostile = {
      // A comment with blank lines and a tag line inside.
      "[Result \"1-0\"]\n\n1. e4 {note\n\n[Event \"x\"]\n} e5 1-0\n\n",
      // A comment not closed before the next game.
      "[Result \"1-0\"]\n\n1. e4 {note 1-0\n\n",
      // A tag glued to movetext, '[' inside a line.
      "[Result \"1-0\"]\n\n1. e4 e5 [Event \"x\"] 1-0\n\n",
      // Movetext without a result (a truncated game), then the next game.
      "[Result \"1-0\"]\n\n1. e4 e5\n\n",
      // A result, then more moves: two games for the reader.
      "[Result \"1-0\"]\n\n1. e4 1-0 2. d4 0-1\n\n",
      // Tags only, ChessBase's blank line inside tags.
      "[Event \"x\"]\n\n[Site \"y\"]\n\n1. e4 1-0\n\n",
      "[Event \"x\"]\n\n",
      // An escape line, a tag with an escaped quote, a tag not alone on its line.
      "[Result \"1-0\"]\n\n1. e4\n% skip me\ne5 1-0\n\n",
      "[Event \"a \\\"b\\\"\"]\n\n1. e4 1-0\n\n",
      "[Event \"x\"] [Site \"y\"]\n\n1. e4 1-0\n\n",
      // A byte-order mark inside movetext, NUL padding, a Chess 99 game.
      "[Result \"1-0\"]\n\n1. e4 \xEF\xBB\xBF"
      "1-0\n\n",
      std::string("\0\0\0\n", 4) + kGame2,
      "[Variant \"Chess 99\"]\n\n1. e4 1-0\n\n",
      // An unterminated variation.
      "[Result \"1-0\"]\n\n1. e4 (1. d4 1-0\n\n",
      // A line of garbage after the result.
      "[Result \"1-0\"]\n\n1. e4 1-0\n} junk\n\n",
  };
  for (const std::string& h : hostile) {
    SCOPED_TRACE(h);
    const Split s = CheckSplit(kGame1 + h + kGame2);
    EXPECT_FALSE(s.ended);
    EXPECT_LE(s.games, 1);
  }
}

TEST(PgnSplitter, TruncatedInputEndsItsLastGameAsTheReaderDoes) {
  // Cut inside the last game's moves: not cut, the reader reports it.
  const std::string text = kGame1 + kGame2.substr(0, kGame2.size() - 8);
  const Split s = CheckSplit(text);
  EXPECT_FALSE(s.ended);
  EXPECT_EQ(s.games, 1);
  // Without a final newline, the last game is cut.
  const Split whole = CheckSplit(kGame1 + "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1");
  EXPECT_TRUE(whole.ended);
  EXPECT_EQ(whole.games, 2);
  // Blank lines and blanks only: no game.
  const Split blank = CheckSplit(" \n\n\t\n");
  EXPECT_TRUE(blank.ended);
  EXPECT_EQ(blank.games, 0);
}

TEST(PgnSplitter, ReadErrorsStopIt) {
  PgnSplitter splitter(std::make_unique<testing::TrickleSource>(kGame1 + kGame2, 16,
                                                                absl::DataLossError("truncated")));
  std::string_view text;
  int64_t line = 0;
  int64_t games = 0;
  while (splitter.Next(&text, &line)) ++games;
  EXPECT_FALSE(splitter.ended());
  EXPECT_LE(games, 2);
}

// The shared Lichess file: every game cut, each as the reader reads it.
TEST(PgnSplitter, CutsTheLichessFileWhole) {
  const std::string dir = testing::SharedDir();
  const std::string path = dir + "/games/lichess_jishanshaikh4_37221.pgn.zst";
  if (dir.empty() || !std::filesystem::exists(path)) GTEST_SKIP() << "no shared Lichess file";
  absl::StatusOr<std::unique_ptr<ByteSource>> a = ByteSource::Open(path);
  absl::StatusOr<std::unique_ptr<ByteSource>> b = ByteSource::Open(path);
  ASSERT_TRUE(a.ok() && b.ok());
  PgnReader reader(*std::move(a), kOptions);
  PgnSplitter splitter(*std::move(b));
  std::string_view text;
  int64_t first_line = 0, games = 0;
  RawGame expected;
  while (splitter.Next(&text, &first_line)) {
    ++games;
    ASSERT_TRUE(reader.Next(&expected));
    const RawGame alone = Offset(ReadFirstGame(std::string(text), games, kOptions), first_line);
    ASSERT_EQ(Describe(alone), Describe(expected)) << text;
  }
  EXPECT_TRUE(splitter.ended());
  EXPECT_EQ(games, 37221);
  EXPECT_FALSE(reader.Next(&expected));
}

}  // namespace
}  // namespace arbiter
