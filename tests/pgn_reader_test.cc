// Tests of the streaming PGN input: ByteSource (files, zstd) and PgnReader.
// Suite names contain "pgn" so that `ctest -R pgn` selects them.
#include "core/pgn/pgn_reader.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/io/byte_source.h"
#include "tests/test_support.h"
#include "tests/trickle_source.h"

namespace arbiter {
namespace {

// "game G, line L[, column C]: what": an error and its place, which the
// reader gives as fields (RawGame::index, error_line, error_column) beside
// the message.
std::string Located(const RawGame& game) {
  return absl::StrCat("game ", game.index, ", line ", game.error_line,
                      game.error_column ? absl::StrCat(", column ", game.error_column) : "", ": ",
                      std::string(game.error.message()));
}

using arbiter::testing::Contains;

std::vector<RawGame> ReadAll(std::unique_ptr<ByteSource> source, PgnReaderOptions options = {}) {
  PgnReader reader(std::move(source), options);
  std::vector<RawGame> games;
  RawGame game;
  while (reader.Next(&game)) {
    games.push_back(game);
    if (games.size() > 100000) break;  // guards the test against a runaway reader
  }
  return games;
}

std::vector<RawGame> ReadAll(std::string text, PgnReaderOptions options = {}) {
  return ReadAll(ByteSource::FromString(std::move(text)), options);
}

std::vector<std::string> Sans(const RawGame& game) {
  std::vector<std::string> sans;
  for (const RawMove& m : game.moves) sans.push_back(m.san);
  return sans;
}

using Strings = std::vector<std::string>;

using testing::TrickleSource;

std::string TempPath(const std::string& name) {
  return (std::filesystem::path(::testing::TempDir()) / name).string();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

std::string Compress(const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

absl::StatusOr<std::string> Slurp(ByteSource& source) {
  std::string all;
  char buf[4096];
  for (;;) {
    absl::StatusOr<size_t> n = source.Read(buf, sizeof buf);
    if (!n.ok()) return n.status();
    if (*n == 0) return all;
    all.append(buf, *n);
  }
}

constexpr char kTwoGames[] =
    "[Event \"Test\"]\n"
    "[Site \"?\"]\n"
    "[Result \"1-0\"]\n"
    "\n"
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n"
    "\n"
    "[Event \"Second\"]\n"
    "[Result \"0-1\"]\n"
    "\n"
    "1. f3 e5 2. g4 Qh4# 0-1\n";

// ---- ByteSource -------------------------------------------------------------

TEST(pgn_byte_source, ReadsPlainFile) {
  std::string path = TempPath("plain.pgn");
  WriteFile(path, kTwoGames);
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
  ASSERT_TRUE(source.ok()) << source.status();
  absl::StatusOr<std::string> text = Slurp(**source);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, kTwoGames);
}

TEST(pgn_byte_source, ReadsZstdFileWhateverItsName) {
  std::string big;
  // Several decoder blocks, and (about 3 MB) more data than the four
  // read-ahead chunks hold, so that they are reused after growing.
  for (int i = 0; i < 20000; ++i) big += kTwoGames;
  for (const char* name : {"games.pgn.zst", "games.pgn"}) {
    std::string path = TempPath(name);
    WriteFile(path, Compress(big));
    absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
    ASSERT_TRUE(source.ok()) << source.status();
    absl::StatusOr<std::string> text = Slurp(**source);
    ASSERT_TRUE(text.ok()) << text.status();
    EXPECT_EQ(*text, big) << name;
  }
}

TEST(pgn_byte_source, StopsEarlyWithoutDraining) {
  // Decompression runs ahead on a worker thread; dropping the source after a
  // little reading must neither hang nor leak that thread's work.
  std::string big;
  for (int i = 0; i < 20000; ++i) big += kTwoGames;
  std::string path = TempPath("big.pgn.zst");
  WriteFile(path, Compress(big));
  for (int round = 0; round < 20; ++round) {
    absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
    ASSERT_TRUE(source.ok()) << source.status();
    PgnReader reader(std::move(*source));
    RawGame game;
    for (int i = 0; i < round; ++i) ASSERT_TRUE(reader.Next(&game));
  }
}

TEST(pgn_byte_source, ReadsConcatenatedZstdFrames) {
  std::string path = TempPath("two_frames.pgn.zst");
  WriteFile(path, Compress("first\n") + Compress("second\n"));
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
  ASSERT_TRUE(source.ok()) << source.status();
  EXPECT_EQ(Slurp(**source).value_or("error"), "first\nsecond\n");
}

TEST(pgn_byte_source, ReportsMissingFileWithPathAndReason) {
  std::string path = TempPath("no_such_file.pgn");
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().code(), absl::StatusCode::kNotFound);
  EXPECT_PRED_FORMAT2(Contains, std::string(source.status().message()), path);
  EXPECT_PRED_FORMAT2(Contains, std::string(source.status().message()),
                      "No such file or directory");
}

TEST(pgn_byte_source, RejectsDirectory) {
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(::testing::TempDir());
  ASSERT_FALSE(source.ok());
  EXPECT_PRED_FORMAT2(Contains, std::string(source.status().message()), "Is a directory");
}

TEST(pgn_byte_source, ReportsCorruptZstdWithOffset) {
  std::string big;
  for (int i = 0; i < 200; ++i) big += kTwoGames;
  std::string compressed = Compress(big);
  for (size_t i = compressed.size() / 2; i < compressed.size() / 2 + 16; ++i) compressed[i] ^= 0x5A;
  std::string path = TempPath("corrupt.pgn.zst");
  WriteFile(path, compressed);
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
  ASSERT_TRUE(source.ok()) << source.status();
  absl::StatusOr<std::string> text = Slurp(**source);
  ASSERT_FALSE(text.ok());
  EXPECT_PRED_FORMAT2(Contains, std::string(text.status().message()), "corrupt zstd data");
  EXPECT_PRED_FORMAT2(Contains, std::string(text.status().message()), "byte offset");
  EXPECT_PRED_FORMAT2(Contains, std::string(text.status().message()), path);
}

TEST(pgn_byte_source, ReportsTruncatedZstd) {
  std::string compressed = Compress(std::string(kTwoGames) + kTwoGames);
  compressed.resize(compressed.size() - 5);
  std::unique_ptr<ByteSource> source = ByteSource::FromString(compressed);
  absl::StatusOr<std::string> text = Slurp(*source);
  ASSERT_FALSE(text.ok());
  EXPECT_PRED_FORMAT2(Contains, std::string(text.status().message()), "truncated zstd data");
}

TEST(pgn_byte_source, ReaderTurnsCorruptZstdIntoErrorRecordThenEof) {
  std::string big;
  for (int i = 0; i < 2000; ++i) big += kTwoGames;
  std::string compressed = Compress(big);
  compressed.resize(compressed.size() * 3 / 4);
  compressed += std::string(64, '\x7F');
  std::vector<RawGame> games = ReadAll(ByteSource::FromString(compressed));
  ASSERT_FALSE(games.empty());
  EXPECT_LT(games.size(), 4000u);
  for (size_t i = 0; i + 1 < games.size(); ++i) ASSERT_TRUE(games[i].error.ok()) << games[i].error;
  EXPECT_PRED_FORMAT2(Contains, std::string(games.back().error.message()), "zstd");
  EXPECT_GT(games.back().error_line, 0);
}

// ---- PgnReader: structure ---------------------------------------------------

TEST(pgn_reader, ReadsTagsMovesAndResults) {
  std::vector<RawGame> games = ReadAll(kTwoGames);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].index, 1);
  EXPECT_EQ(games[0].first_line, 1);
  ASSERT_EQ(games[0].tags.size(), 3u);
  EXPECT_EQ(games[0].tags[0], std::make_pair(std::string("Event"), std::string("Test")));
  ASSERT_NE(games[0].Tag("Result"), nullptr);
  EXPECT_EQ(*games[0].Tag("Result"), "1-0");
  EXPECT_EQ(games[0].Tag("White"), nullptr);
  EXPECT_EQ(Sans(games[0]), (Strings{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"}));
  EXPECT_EQ(games[0].moves[0].line, 5);
  EXPECT_EQ(games[0].result_token, "1-0");
  EXPECT_TRUE(games[0].error.ok());
  EXPECT_EQ(games[1].index, 2);
  EXPECT_EQ(games[1].first_line, 7);
  EXPECT_EQ(Sans(games[1]), (Strings{"f3", "e5", "g4", "Qh4#"}));
  EXPECT_EQ(games[1].result_token, "0-1");
}

TEST(pgn_reader, EmptyInputHasNoGames) {
  EXPECT_TRUE(ReadAll("").empty());
  EXPECT_TRUE(ReadAll("\n\n  \r\n").empty());
  EXPECT_TRUE(ReadAll("\xEF\xBB\xBF").empty());
}

TEST(pgn_reader, UnescapesTagStrings) {
  std::vector<RawGame> games = ReadAll(
      "[Event \"A \\\"quoted\\\" word\"]\n[Site \"back\\\\slash\"]\n"
      "[Annotator \"odd \\x escape\"]  [Round \"]\"]\n\n*\n");
  ASSERT_EQ(games.size(), 1u);
  ASSERT_TRUE(games[0].error.ok()) << games[0].error;
  EXPECT_EQ(*games[0].Tag("Event"), "A \"quoted\" word");
  EXPECT_EQ(*games[0].Tag("Site"), "back\\slash");
  EXPECT_EQ(*games[0].Tag("Annotator"), "odd \\x escape");
  EXPECT_EQ(*games[0].Tag("Round"), "]");
  EXPECT_EQ(games[0].result_token, "*");
}

TEST(pgn_reader, HandlesCrlfAndBom) {
  std::string text = kTwoGames;
  std::string crlf = "\xEF\xBB\xBF";
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  std::vector<RawGame> games = ReadAll(crlf);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(*games[0].Tag("Event"), "Test");
  EXPECT_EQ(Sans(games[1]), (Strings{"f3", "e5", "g4", "Qh4#"}));
  EXPECT_EQ(games[1].first_line, 7);
  EXPECT_EQ(games[1].result_token, "0-1");
}

TEST(pgn_reader, ReadsMoveNumberSpellings) {
  std::vector<RawGame> games = ReadAll(
      "1.e4 e5 2. Nf3 2... Nc6 3.Bb5 3...a6 4. Ba4 4\xE2\x80\xA6 Nf6 5 O-O 5. .. Be7 "
      "6\xE2\x80\xA6 d6 7.0-0-0 *");
  ASSERT_EQ(games.size(), 1u);
  ASSERT_TRUE(games[0].error.ok()) << games[0].error;
  EXPECT_EQ(Sans(games[0]), (Strings{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O",
                                     "Be7", "d6", "0-0-0"}));
}

TEST(pgn_reader, SkipsNestedVariationsWithTheirComments) {
  std::vector<RawGame> games = ReadAll(
      "1. e4 (1. d4 d5 (1... Nf6 {a comment with ) and ( inside} 2. c4) 2. c4 ; ) in a line "
      "comment\n"
      "(1. c4 {multi\nline}) ) e5 (1... c5 $1) 2. Nf3 *\n");
  ASSERT_EQ(games.size(), 1u);
  ASSERT_TRUE(games[0].error.ok()) << games[0].error;
  EXPECT_EQ(Sans(games[0]), (Strings{"e4", "e5", "Nf3"}));
  EXPECT_EQ(games[0].moves[2].line, 3);
  EXPECT_TRUE(games[0].moves[1].nags.empty());
}

TEST(pgn_reader, KeepsCommentsClocksAndNags) {
  std::vector<RawGame> games = ReadAll(
      "1. e4 { [%clk 0:01:00] } 1... e5 {[%eval 0.2] [%clk 1:02:03.4]} $14 {second}\n"
      "2. Nf3!? $32 ; rest of line\n"
      "2... Nc6 ! { first\nline\r\n[%clk 0:00:09.25] } 3. Bb5?? {[%clk 12:00]} *\n");
  ASSERT_EQ(games.size(), 1u);
  ASSERT_TRUE(games[0].error.ok()) << games[0].error;
  const std::vector<RawMove>& m = games[0].moves;
  ASSERT_EQ(m.size(), 5u);
  EXPECT_EQ(m[0].clock_centis, 6000);
  EXPECT_EQ(m[0].comment, "[%clk 0:01:00]");
  EXPECT_EQ(m[1].clock_centis, ((1 * 60 + 2) * 60 + 3) * 100 + 40);
  EXPECT_EQ(m[1].comment, "[%eval 0.2] [%clk 1:02:03.4] second");
  EXPECT_EQ(m[1].nags, std::vector<int>{14});
  EXPECT_EQ(m[2].san, "Nf3");
  EXPECT_EQ(m[2].nags, (std::vector<int>{5, 32}));
  EXPECT_EQ(m[2].comment, "rest of line");
  EXPECT_EQ(m[2].clock_centis, -1);
  EXPECT_EQ(m[3].nags, std::vector<int>{1});
  EXPECT_EQ(m[3].clock_centis, 925);
  EXPECT_EQ(m[3].line, 3);
  EXPECT_EQ(m[4].san, "Bb5");
  EXPECT_EQ(m[4].line, 5);
  EXPECT_EQ(m[4].nags, std::vector<int>{4});
  EXPECT_EQ(m[4].clock_centis, -1);  // "12:00" lacks the seconds field

  std::vector<RawGame> lean =
      ReadAll("1. e4 { [%clk 0:01:00] } e5 {hello} *", PgnReaderOptions{.keep_comments = false});
  ASSERT_EQ(lean.size(), 1u);
  EXPECT_EQ(lean[0].moves[0].clock_centis, 6000);
  EXPECT_EQ(lean[0].moves[0].comment, "");
  EXPECT_EQ(lean[0].moves[1].comment, "");
}

TEST(pgn_reader, SkipsEscapeLinesAndGameComments) {
  std::vector<RawGame> games = ReadAll(
      "% produced by some tool\n"
      "{ a comment before the game }\n"
      "[Event \"E\"]\n"
      "%  [Event \"not a tag\"]\n"
      "\n"
      "{ game comment } 1. d4 d5 *\n");
  ASSERT_EQ(games.size(), 1u);
  ASSERT_TRUE(games[0].error.ok()) << games[0].error;
  EXPECT_EQ(games[0].first_line, 3);
  EXPECT_EQ(games[0].tags.size(), 1u);
  EXPECT_EQ(Sans(games[0]), (Strings{"d4", "d5"}));
  EXPECT_EQ(games[0].moves[0].comment, "");
}

TEST(pgn_reader, ReadsGamesWithoutTagsOrResultsOrBlankLines) {
  std::vector<RawGame> games = ReadAll(
      "1. e4 e5 1-0 1. d4 d5 0-1\n"        // tagless, back to back
      "1. c4 c5\n"                         // no result, then a tag line
      "[Event \"Header only\"]\n"          //
      "\n"                                 //
      "[Event \"Next\"]\n"                 // header, blank line, header
      "1. Nf3 1/2-1/2[Event \"Glued\"]\n"  // no blank line at all
      "1. g3\n");                          // no result at the end of input
  ASSERT_EQ(games.size(), 6u);
  EXPECT_EQ(Sans(games[0]), (Strings{"e4", "e5"}));
  EXPECT_EQ(games[0].result_token, "1-0");
  EXPECT_EQ(Sans(games[1]), (Strings{"d4", "d5"}));
  EXPECT_EQ(games[1].result_token, "0-1");
  EXPECT_EQ(games[1].first_line, 1);
  EXPECT_EQ(Sans(games[2]), (Strings{"c4", "c5"}));
  EXPECT_EQ(games[2].result_token, "");
  EXPECT_EQ(*games[3].Tag("Event"), "Header only");
  EXPECT_TRUE(games[3].moves.empty());
  EXPECT_EQ(*games[4].Tag("Event"), "Next");
  EXPECT_EQ(games[4].result_token, "1/2-1/2");
  EXPECT_EQ(*games[5].Tag("Event"), "Glued");
  EXPECT_EQ(games[5].first_line, 6);
  EXPECT_EQ(Sans(games[5]), (Strings{"g3"}));
  EXPECT_EQ(games[5].result_token, "");
  for (size_t i = 0; i < games.size(); ++i) {
    EXPECT_TRUE(games[i].error.ok()) << games[i].error;
    EXPECT_EQ(games[i].index, int64_t(i + 1));
  }
}

// ChessBase writes a blank line inside a game's tags: a tag after a blank
// line continues the game unless the game already has a tag of its name
// (then it is the next game's, as in the test above).
TEST(pgn_reader, BlankLineInsideTagsKeepsOneGame) {
  std::vector<RawGame> games = ReadAll(
      "[Event \"Olympiad\"]\n"
      "[White \"A\"]\n"
      "\n"
      "[Black \"B\"]\n"
      "[Result \"1-0\"]\n"
      "\n"
      "1. e4 e5 1-0\n"
      "\n"
      "[Event \"Tags only\"]\n"
      "\n"
      "[Event \"Third\"]\n"
      "1. d4 *\n");
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(*games[0].Tag("Event"), "Olympiad");
  ASSERT_NE(games[0].Tag("Black"), nullptr);
  EXPECT_EQ(*games[0].Tag("Black"), "B");
  EXPECT_EQ(Sans(games[0]), (Strings{"e4", "e5"}));
  EXPECT_EQ(*games[1].Tag("Event"), "Tags only");
  EXPECT_TRUE(games[1].moves.empty());
  EXPECT_EQ(*games[2].Tag("Event"), "Third");
  for (const RawGame& g : games) EXPECT_TRUE(g.error.ok()) << g.error;
}

// NUL padding before a game (a real cutechess log starts with half a
// megabyte of it) is skipped; inside a game it is an error of that game.
TEST(pgn_reader, SkipsNulPaddingBetweenGames) {
  std::string text(100000, '\0');
  text += "[Event \"A\"]\n\n1. e4 e5 1-0\n";
  text += std::string(10, '\0');
  text += "\n[Event \"B\"]\n\n1. d4 ";
  text += '\0';
  text += " d5 0-1\n";
  std::vector<RawGame> games = ReadAll(text);
  ASSERT_GE(games.size(), 2u);
  EXPECT_TRUE(games[0].error.ok()) << games[0].error;
  EXPECT_EQ(*games[0].Tag("Event"), "A");
  EXPECT_EQ(games[0].first_line, 1);
  EXPECT_EQ(Sans(games[0]), (Strings{"e4", "e5"}));
  EXPECT_EQ(*games[1].Tag("Event"), "B");
  EXPECT_FALSE(games[1].error.ok());
  EXPECT_NE(std::string(games[1].error.message()).find("unexpected character"), std::string::npos)
      << games[1].error;
}

// A file cut off inside a game's moves: the game declares a result in its
// tags but the input ends before the result token.
TEST(pgn_reader, FlagsAGameCutOffInItsMoves) {
  std::vector<RawGame> games = ReadAll(
      "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n"
      "[Result \"0-1\"]\n\n1. d4 d5\n2. c4");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_TRUE(games[0].error.ok()) << games[0].error;
  EXPECT_FALSE(games[1].error.ok());
  EXPECT_NE(std::string(games[1].error.message()).find("cut off"), std::string::npos)
      << games[1].error;
  EXPECT_EQ(games[1].error_line, 8);
  // Without a Result tag nothing was promised: a fragment of moves is read
  // as it stands (see ReadsGamesWithoutTagsOrResultsOrBlankLines).
  EXPECT_TRUE(ReadAll("1. e4 e5 2. Nf3")[0].error.ok());
}

TEST(pgn_reader, ReusesGameStorage) {
  PgnReader reader(ByteSource::FromString(std::string(kTwoGames) + kTwoGames));
  RawGame game;
  int count = 0;
  while (reader.Next(&game)) {
    ++count;
    EXPECT_EQ(game.index, count);
    EXPECT_EQ(game.tags.size(), count % 2 ? 3u : 2u);
    EXPECT_EQ(game.moves.size(), count % 2 ? 6u : 4u);
  }
  EXPECT_EQ(count, 4);
  EXPECT_FALSE(reader.Next(&game));
  EXPECT_EQ(reader.bytes_read(), int64_t(2 * std::string(kTwoGames).size()));
}

TEST(pgn_reader, HandlesLinesLongerThanTheReadBuffer) {
  std::string text = "[Event \"Long\"]\n\n1. e4 " + std::string(3 << 20, ' ') + "e5 {" +
                     std::string(900 << 10, 'c') + "\n" + std::string(100 << 10, 'd') +
                     "} 2. Nf3 *\n" + kTwoGames;
  std::vector<RawGame> games = ReadAll(text);
  ASSERT_EQ(games.size(), 3u);
  ASSERT_TRUE(games[0].error.ok()) << games[0].error;
  EXPECT_EQ(Sans(games[0]), (Strings{"e4", "e5", "Nf3"}));
  EXPECT_EQ(games[0].moves[1].comment.size(), size_t((900 << 10) + 1 + (100 << 10)));
  EXPECT_EQ(games[0].moves[2].line, 4);
  EXPECT_EQ(games[2].first_line, 11);
}

// Every byte split must give the same games as reading in one piece.
TEST(pgn_reader, ResultDoesNotDependOnReadSizes) {
  std::string text = std::string("\xEF\xBB\xBF") + kTwoGames +
                     "[Event \"x\"]\r\n\r\n1. e4 {multi\r\nline [%clk 0:00:05]} (1. d4 {c} "
                     "(1. c4)) 1... e5 $3 ; eol\n% escape\n2. Nf3 1-0\n"
                     "1. ) 1. e4 *\n\n[Event \"after error\"]\n1. a3 *\n"
                     "[Event \"unterminated";
  std::vector<RawGame> whole = ReadAll(text);
  ASSERT_EQ(whole.size(), 6u);
  EXPECT_FALSE(whole[3].error.ok());
  EXPECT_EQ(Sans(whole[4]), (Strings{"a3"}));
  EXPECT_FALSE(whole[5].error.ok());
  for (size_t piece : {1, 2, 3, 7, 64}) {
    std::vector<RawGame> split = ReadAll(std::make_unique<TrickleSource>(text, piece));
    ASSERT_EQ(split.size(), whole.size()) << piece;
    for (size_t i = 0; i < whole.size(); ++i) {
      EXPECT_EQ(split[i].index, whole[i].index);
      EXPECT_EQ(split[i].first_line, whole[i].first_line);
      EXPECT_EQ(split[i].tags, whole[i].tags);
      EXPECT_EQ(Sans(split[i]), Sans(whole[i]));
      EXPECT_EQ(split[i].result_token, whole[i].result_token);
      EXPECT_EQ(split[i].error, whole[i].error);
      for (size_t j = 0; j < whole[i].moves.size(); ++j) {
        EXPECT_EQ(split[i].moves[j].line, whole[i].moves[j].line);
        EXPECT_EQ(split[i].moves[j].comment, whole[i].moves[j].comment);
        EXPECT_EQ(split[i].moves[j].clock_centis, whole[i].moves[j].clock_centis);
        EXPECT_EQ(split[i].moves[j].nags, whole[i].moves[j].nags);
      }
    }
  }
}

// ---- PgnReader: errors and resynchronisation ---------------------------------

struct ErrorCase {
  const char* name;
  std::string broken_game;  // starts at line 1
  std::string message;      // expected in the error
};

// The broken game is followed by a good one, which must be read intact.
TEST(pgn_reader, ReportsErrorsAndResynchronises) {
  std::string many_plies;
  for (int i = 0; i < 2501; ++i) many_plies += "Nf3 Nf6 Ng1 Ng8 ";
  const std::vector<ErrorCase> cases = {
      {"unterminated string", "[Event \"x\n[Site \"y\"]\n\n1. e4 *\n\n",
       "game 1, line 1, column 10: unterminated string in tag pair"},
      {"malformed tag", "[Event x]\n\n1. e4 *\n\n", "game 1, line 1, column 8: malformed tag pair"},
      {"unbalanced paren", "[Event \"x\"]\n\n1. e4 e5\n2. Nf3 ) Nc6 *\n\n",
       "game 1, line 4, column 8: unbalanced ')'"},
      {"garbage token", "[Event \"x\"]\n\n1. e4 e5 2. Zebra! Nc6\n3. Bb5 *\n",
       "game 1, line 3, column 13: unexpected token \"Zebra!\""},
      {"garbage character", "1. e4 \x01 e5 *\n",
       "game 1, line 1, column 7: unexpected character '\\x01'"},
      {"bad nag", "1. e4 $ e5 *\n", "game 1, line 1, column 7: '$' must be followed by a number"},
      {"stray percent", "1. e4 % e5 *\n", "game 1, line 1, column 7: unexpected '%'"},
      {"oversized tag", "[Event \"" + std::string(70000, 'x') + "\"]\n\n1. e4 *\n",
       "game 1, line 1, column "},
      {"oversized comment",
       "[Event \"x\"]\n\n1. e4 {" + std::string(600000, 'c') + "\n" + std::string(600000, 'c') +
           "}\n e5 *\n",
       "game 1, line 3: comment longer than 1 MiB"},
      {"too many plies", "[Event \"x\"]\n\n" + many_plies + "\n*\n",
       "game 1, line 3, column 40001: game has more than 10000 plies"},
      {"unterminated variation", "[Event \"x\"]\n\n1. e4 (1. d4 d5\n",
       "game 1, line 3: unterminated variation"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<RawGame> games = ReadAll(c.broken_game + kTwoGames);
    ASSERT_EQ(games.size(), 3u);
    EXPECT_EQ(games[0].error.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_PRED_FORMAT2(Contains, Located(games[0]), c.message);
    EXPECT_EQ(games[1].index, 2);
    EXPECT_TRUE(games[1].error.ok()) << games[1].error;
    EXPECT_EQ(*games[1].Tag("Event"), "Test");
    EXPECT_EQ(Sans(games[1]), (Strings{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"}));
    EXPECT_EQ(games[2].index, 3);
    EXPECT_EQ(games[2].result_token, "0-1");
  }
}

TEST(pgn_reader, ReportsErrorsAtEndOfInput) {
  const std::vector<ErrorCase> cases = {
      // kTwoGames has 10 lines.
      {"unterminated string", "[Event \"x\"]\n[Site \"no end",
       "line 12, column 14: unterminated string"},
      {"unterminated comment", "[Event \"x\"]\n\n1. e4 { no end\n\n",
       "line 13: unterminated comment"},
      {"unterminated variation", "1. e4 (1. d4 {x} d5", "line 11: unterminated variation"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<RawGame> games = ReadAll(std::string(kTwoGames) + c.broken_game);
    ASSERT_EQ(games.size(), 3u);
    EXPECT_TRUE(games[1].error.ok());
    EXPECT_PRED_FORMAT2(Contains, Located(games[2]), "game 3, " + c.message);
  }
}

TEST(pgn_reader, IoErrorYieldsErrorRecordThenEof) {
  std::string text = std::string(kTwoGames) + "[Event \"cut\"]\n\n1. e4 e5";
  auto source = std::make_unique<TrickleSource>(text, 1 << 20, absl::DataLossError("disk on fire"));
  PgnReader reader(std::move(source));
  RawGame game;
  ASSERT_TRUE(reader.Next(&game));
  ASSERT_TRUE(reader.Next(&game));
  EXPECT_TRUE(game.error.ok());
  ASSERT_TRUE(reader.Next(&game));
  EXPECT_EQ(game.index, 3);
  EXPECT_EQ(game.error.code(), absl::StatusCode::kDataLoss);
  EXPECT_PRED_FORMAT2(Contains, Located(game), "game 3, line 13: disk on fire");
  EXPECT_FALSE(reader.Next(&game));
  EXPECT_FALSE(reader.Next(&game));
}

TEST(pgn_reader, LineLongerThanLimitEndsReading) {
  std::string text = std::string(kTwoGames) + std::string(PgnReader::kMaxLineBytes + 10, 'a');
  std::vector<RawGame> games = ReadAll(text);
  ASSERT_EQ(games.size(), 3u);
  EXPECT_PRED_FORMAT2(Contains, std::string(games[2].error.message()), "longer than 16 MiB");
}

// Random bytes and mangled PGN must neither crash nor loop.
TEST(pgn_reader, SurvivesGarbage) {
  std::mt19937 rng(12345);
  std::string alphabet = "[]{}()\";%$!?.\\\n\r\t 0123456789-/*abcdefghNBRQKOx=+#\xE2\x80\xA6\xEF";
  for (int round = 0; round < 200; ++round) {
    std::string text;
    if (round % 2) {
      text = std::string(kTwoGames) + kTwoGames;
      for (int k = 0; k < 5; ++k) text[rng() % text.size()] = alphabet[rng() % alphabet.size()];
    } else {
      for (int k = 0; k < 2000; ++k) text += alphabet[rng() % alphabet.size()];
    }
    std::vector<RawGame> games = ReadAll(text);
    EXPECT_LT(games.size(), 2000u);
  }
}

// ---- Encodings --------------------------------------------------------------

// Over-the-board files written by Windows-era tools: Latin-1 / Windows-1252.
constexpr char kWindows1252Game[] =
    "[Event \"Offene Meisterschaft\"]\n"
    "[Site \"K\xF8"
    "benhavn\"]\n"
    "[White \"M\xFCller, J\xF6rg\"]\n"
    "[Black \"Dvo\x9A\xE1k, Ji\xF8\xED\"]\n"
    "[Result \"1-0\"]\n"
    "\n"
    "1. e4 {Sch\xF6n \x96 \x93"
    "Er\xF6"
    "ffnung\x94} e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#\n"
    "{Gewinnt \x80 100} 1-0\n"
    "\n";

// The same game in UTF-8.
constexpr char kUtf8Game[] =
    "[Event \"Offene Meisterschaft\"]\n"
    "[Site \"K\xC3\xB8"
    "benhavn\"]\n"
    "[White \"M\xC3\xBCller, J\xC3\xB6rg\"]\n"
    "[Black \"Dvo\xC5\xA1\xC3\xA1k, Ji\xC3\xB8\xC3\xAD\"]\n"
    "[Result \"1-0\"]\n"
    "\n"
    "1. e4 {Sch\xC3\xB6n \xE2\x80\x93 \xE2\x80\x9C"
    "Er\xC3\xB6"
    "ffnung\xE2\x80\x9D} e5 "
    "2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#\n"
    "{Gewinnt \xE2\x82\xAC 100} 1-0\n"
    "\n";

// Checks that `game` is kUtf8Game's game, byte for byte.
void ExpectUtf8Game(const RawGame& game) {
  ASSERT_TRUE(game.error.ok()) << game.error;
  ASSERT_EQ(game.tags.size(), 5u);
  EXPECT_EQ(*game.Tag("Site"),
            "K\u00F8"
            "benhavn");
  EXPECT_EQ(*game.Tag("White"), "M\u00FCller, J\u00F6rg");
  EXPECT_EQ(*game.Tag("Black"), "Dvo\u0161\u00E1k, Ji\u00F8\u00ED");
  EXPECT_EQ(Sans(game), (Strings{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"}));
  EXPECT_EQ(game.moves[0].comment,
            "Sch\u00F6n \u2013 \u201C"
            "Er\u00F6"
            "ffnung\u201D");
  EXPECT_EQ(game.closing_comment, "Gewinnt \u20AC 100");
  EXPECT_EQ(game.result_token, "1-0");
}

TEST(pgn_reader, EncodingWindows1252GameComesOutInUtf8) {
  std::vector<RawGame> games = ReadAll(kWindows1252Game);
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].encoding, RecordEncoding::kWindows1252);
  EXPECT_EQ(*games[0].Tag("White"), "M\xC3\xBCller, J\xC3\xB6rg");  // Müller, Jörg
  ExpectUtf8Game(games[0]);
}

TEST(pgn_reader, EncodingUtf8GameIsKeptAsItIs) {
  std::vector<RawGame> games = ReadAll(kUtf8Game);
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].encoding, RecordEncoding::kUtf8);
  ExpectUtf8Game(games[0]);
  // An ASCII game: UTF-8 too.
  games = ReadAll(kTwoGames);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].encoding, RecordEncoding::kUtf8);
  EXPECT_EQ(games[1].encoding, RecordEncoding::kUtf8);
}

// Each game has its own encoding, whatever the one before it had (the
// RawGame is reused).
TEST(pgn_reader, EncodingIsDecidedPerGame) {
  const std::string text = std::string(kWindows1252Game) + kUtf8Game + kTwoGames +
                           kWindows1252Game + "[White \"Andr\xE9\"]\n\n1. e4 *\n\n" + kUtf8Game;
  for (bool keep_comments : {true, false}) {
    SCOPED_TRACE(keep_comments);
    std::vector<RawGame> games = ReadAll(text, PgnReaderOptions{.keep_comments = keep_comments});
    ASSERT_EQ(games.size(), 7u);
    constexpr RecordEncoding kW = RecordEncoding::kWindows1252, kU = RecordEncoding::kUtf8;
    const std::vector<RecordEncoding> expected = {kW, kU, kU, kU, kW, kW, kU};
    for (size_t g = 0; g < games.size(); ++g) {
      EXPECT_EQ(games[g].encoding, expected[g]) << "game " << g + 1;
      EXPECT_TRUE(games[g].error.ok()) << games[g].error;
    }
    EXPECT_EQ(*games[0].Tag("White"), "M\u00FCller, J\u00F6rg");
    EXPECT_EQ(*games[1].Tag("White"), "M\u00FCller, J\u00F6rg");
    EXPECT_EQ(*games[4].Tag("White"), "M\u00FCller, J\u00F6rg");
    EXPECT_EQ(*games[5].Tag("White"), "Andr\u00E9");
    EXPECT_EQ(games[4].closing_comment, "Gewinnt \u20AC 100");
    if (keep_comments) {
      ExpectUtf8Game(games[0]);
      ExpectUtf8Game(games[1]);
      ExpectUtf8Game(games[6]);
    }
  }
}

// A game is written in one encoding: valid UTF-8 in one field does not keep
// it from being read as Windows-1252 when another field is not UTF-8. The
// comments count even when they are not kept, so that a game reads the same
// either way.
TEST(pgn_reader, EncodingCoversTheWholeGameWithOrWithoutComments) {
  const std::string text = "[White \"\xC3\xA9\"]\n\n1. e4 {\xE9t\xE9} e5 *\n";
  for (bool keep_comments : {true, false}) {
    SCOPED_TRACE(keep_comments);
    std::vector<RawGame> games = ReadAll(text, PgnReaderOptions{.keep_comments = keep_comments});
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(games[0].encoding, RecordEncoding::kWindows1252);
    EXPECT_EQ(*games[0].Tag("White"), "\u00C3\u00A9");  // "Ã©": what those bytes are in it
    EXPECT_EQ(games[0].moves[0].comment, keep_comments ? "\u00E9t\u00E9" : "");
  }
  // A comment before the first move is kept in neither case: it does not count.
  std::vector<RawGame> games = ReadAll("[White \"\xC3\xA9\"]\n\n{\xE9t\xE9} 1. e4 *\n");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].encoding, RecordEncoding::kUtf8);
  EXPECT_EQ(*games[0].Tag("White"), "\u00E9");
}

// A game that ends in an error is converted too, its message with it; a
// message quoting bytes that are not UTF-8 in a game that is gets U+FFFD.
TEST(pgn_reader, EncodingOfGamesWithErrors) {
  std::vector<RawGame> games = ReadAll(
      "[White \"M\xFCller\"]\n\n1. e4 Zebr\xE4 e5 *\n\n"      // converted, message too
      "[White \"M\xC3\xBCller\"]\n\n1. e4 Zebr\xE4 e5 *\n\n"  // UTF-8 but for the token
      "[White \"M\xFCller\"]\n[Site \"unterminated\n\n"       // the tag in error is dropped
      "[Event \"cut\"]\n\n1. e4 " +
      std::string(39, 'x') + "\xC3\xA9 *\n\n" +  // a valid token cut in the message
      kTwoGames);
  ASSERT_EQ(games.size(), 6u);
  EXPECT_EQ(games[0].encoding, RecordEncoding::kWindows1252);
  EXPECT_EQ(*games[0].Tag("White"), "M\u00FCller");
  EXPECT_PRED_FORMAT2(Contains, std::string(games[0].error.message()),
                      "unexpected token \"Zebr\u00E4\"");
  EXPECT_EQ(games[1].encoding, RecordEncoding::kUtf8);
  EXPECT_EQ(*games[1].Tag("White"), "M\u00FCller");
  EXPECT_PRED_FORMAT2(Contains, std::string(games[1].error.message()),
                      "unexpected token \"Zebr\uFFFD\"");
  EXPECT_EQ(games[2].encoding, RecordEncoding::kWindows1252);
  EXPECT_EQ(*games[2].Tag("White"), "M\u00FCller");
  EXPECT_PRED_FORMAT2(Contains, std::string(games[2].error.message()), "unterminated string");
  EXPECT_EQ(games[3].encoding, RecordEncoding::kUtf8);
  EXPECT_PRED_FORMAT2(Contains, std::string(games[3].error.message()),
                      std::string(39, 'x') + "\uFFFD...\"");
  EXPECT_EQ(games[4].encoding, RecordEncoding::kUtf8);
  EXPECT_EQ(games[5].encoding, RecordEncoding::kUtf8);
}

}  // namespace
}  // namespace arbiter
