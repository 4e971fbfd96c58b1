#include "core/pgn/game_replay.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "core/io/byte_source.h"
#include "core/pgn/pgn_reader.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

using arbiter::testing::Contains;

// Reads the first game of `pgn` and replays it.
ReplayedGame Replay(const std::string& pgn) {
  PgnReader reader(ByteSource::FromString(pgn));
  RawGame raw;
  EXPECT_TRUE(reader.Next(&raw));
  return ReplayGame(raw);
}

// The error's place and words, as an error record gives them: the line and
// column are fields (error_line, error_column), not part of the message.
std::string Message(const ReplayedGame& game) {
  return absl::StrCat("line ", game.error_line,
                      game.error_column ? absl::StrCat(", column ", game.error_column) : "", ": ",
                      std::string(game.error.message()));
}

bool IsCheckmate(const Position& pos) { return pos.in_check() && MoveList(pos).empty(); }
bool IsStalemate(const Position& pos) { return !pos.in_check() && MoveList(pos).empty(); }

TEST(game_replay, ReplaysStandardGame) {
  ReplayedGame game =
      Replay("[Event \"x\"]\n\n1. e4 {[%clk 0:01:00]} e5 2. Bc4 Nc6 3. Qh5 Nf6?? 4. Qxf7# 1-0\n");
  ASSERT_TRUE(game.error.ok()) << game.error;
  EXPECT_FALSE(game.chess960);
  ASSERT_EQ(game.moves.size(), 7u);
  EXPECT_EQ(game.clock_centis, (std::vector<int>{6000, -1, -1, -1, -1, -1, -1}));
  EXPECT_EQ(ToUci(game.start, game.moves[0]), "e2e4");
  EXPECT_EQ(game.start.Fen(), Position::Start().Fen());
  EXPECT_TRUE(IsCheckmate(game.end));
  EXPECT_EQ(game.end.Fen(), "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4");
}

TEST(game_replay, ReportsIllegalMoveWithNumberSanAndLine) {
  ReplayedGame white = Replay("[Event \"x\"]\n\n1. e4 e5\n2. Ke3 Nc6 *\n");
  EXPECT_EQ(white.error.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_PRED_FORMAT2(Contains, Message(white),
                      "line 4, column 4: move 2. Ke3: not a legal move in ");
  EXPECT_EQ(white.moves.size(), 2u);  // the legal prefix is kept
  EXPECT_EQ(white.end.fullmove_number(), 2);

  ReplayedGame black = Replay("1. e4 Nf3 *");
  EXPECT_PRED_FORMAT2(Contains, Message(black),
                      "line 1, column 7: move 1... Nf3: not a legal move");

  ReplayedGame unparsable = Replay("1. e4 e5 2. xx *");
  EXPECT_PRED_FORMAT2(Contains, Message(unparsable),
                      "line 1, column 13: move 2. xx: no destination square");

  ReplayedGame ambiguous = Replay("[FEN \"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 30\"]\n\n30. Nd2 *");
  EXPECT_PRED_FORMAT2(Contains, Message(ambiguous), "move 30. Nd2: ambiguous");

  ReplayedGame from_black = Replay("[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 41\"]\n\n41... Ke1 *");
  EXPECT_PRED_FORMAT2(Contains, Message(from_black), "move 41... Ke1");

  ReplayedGame missing_promotion = Replay("[FEN \"8/4P3/8/8/8/8/k7/4K3 w - - 0 1\"]\n\n1. e8 *");
  EXPECT_PRED_FORMAT2(Contains, Message(missing_promotion), "move 1. e8: promotion piece missing");
}

TEST(game_replay, UsesFenWithOrWithoutSetUp) {
  const char* fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
  for (std::string setup : {"[SetUp \"1\"]\n", ""}) {
    ReplayedGame game = Replay(setup + "[FEN \"" + fen + "\"]\n\n1. e4 Kd7 *");
    ASSERT_TRUE(game.error.ok()) << game.error;
    EXPECT_EQ(game.start.Fen(), fen);
    EXPECT_EQ(game.moves.size(), 2u);
  }
  ReplayedGame from_position =
      Replay("[Variant \"From Position\"]\n[FEN \"" + std::string(fen) + "\"]\n\n1. e3 *");
  EXPECT_TRUE(from_position.error.ok()) << from_position.error;

  ReplayedGame no_fen = Replay("[SetUp \"1\"]\n\n1. e4 *");
  EXPECT_PRED_FORMAT2(Contains, Message(no_fen), "[SetUp \"1\"] without a [FEN] tag");
  ReplayedGame bad_fen = Replay("[FEN \"not a fen\"]\n\n1. e4 *");
  EXPECT_PRED_FORMAT2(Contains, Message(bad_fen), "line 1: bad FEN \"not a fen\"");
}

TEST(game_replay, PlaysChess960UnderItsNames) {
  // Castling with the king on b1 and rooks on a1/h1 exists only in Chess960.
  const std::string fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1";
  for (const char* name : {"Chess960", "chess960", "Fischerandom", "Chess 960"}) {
    SCOPED_TRACE(name);
    ReplayedGame game = Replay(std::string("[Variant \"") + name + "\"]\n[SetUp \"1\"]\n[FEN \"" +
                               fen + "\"]\n\n1. O-O O-O-O *");
    ASSERT_TRUE(game.error.ok()) << game.error;
    EXPECT_TRUE(game.chess960);
    ASSERT_EQ(game.moves.size(), 2u);
    EXPECT_EQ(game.moves[0].kind(), Move::kCastling);
    EXPECT_EQ(game.end.Fen(), "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2");
  }
}

TEST(game_replay, RejectsOtherVariants) {
  for (const char* name : {"Atomic", "Crazyhouse", "King of the Hill", "Three-check", "Antichess",
                           "Racing Kings", "Horde", "Suicide"}) {
    ReplayedGame game = Replay(std::string("[Variant \"") + name + "\"]\n\n1. e4 e5 *");
    EXPECT_EQ(game.error.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_PRED_FORMAT2(Contains, Message(game), std::string("unsupported variant ") + name);
    EXPECT_TRUE(game.moves.empty());
  }
  // Moves that do not even read as PGN (Seirawan gating, Sittuyin
  // placements) still name the variant, not the token.
  for (const auto& [name, moves] : {std::pair<const char*, const char*>{"Seirawan", "1. e4/H e5 *"},
                                    {"Sittuyin", "1. P@e4 ) *"}}) {
    ReplayedGame game = Replay(std::string("[Variant \"") + name + "\"]\n\n" + moves);
    EXPECT_PRED_FORMAT2(Contains, Message(game), std::string("unsupported variant ") + name);
    EXPECT_EQ(game.error_line, 1) << name;
  }
  for (const char* name : {"Standard", "standard", "Chess", "From Position", ""}) {
    EXPECT_TRUE(Replay(std::string("[Variant \"") + name + "\"]\n\n1. e4 e5 *").error.ok()) << name;
  }
}

TEST(game_replay, PassesOnReaderErrors) {
  ReplayedGame game = Replay("[Event \"x\"]\n\n1. e4 ) e5 *");
  EXPECT_PRED_FORMAT2(Contains, Message(game), "unbalanced ')'");
  EXPECT_TRUE(game.moves.empty());
}

TEST(game_replay, ReusesOutputBetweenGames) {
  PgnReader reader(
      ByteSource::FromString("1. e4 e5 2. Nf3 *\n\n[Variant \"Horde\"]\n\n1. e4 *\n\n1. d4 *\n"));
  RawGame raw;
  ReplayedGame game;
  std::vector<size_t> sizes;
  std::vector<bool> ok;
  while (reader.Next(&raw)) {
    ReplayGame(raw, &game);
    sizes.push_back(game.moves.size());
    ok.push_back(game.error.ok());
    EXPECT_EQ(game.clock_centis.size(), game.moves.size());
  }
  EXPECT_EQ(sizes, (std::vector<size_t>{3, 0, 1}));
  EXPECT_EQ(ok, (std::vector<bool>{true, false, true}));
}

TEST(game_replay, ReplaysBundledLichessSample) {
  std::string path = std::string(ARBITER_SOURCE_DIR) + "/examples/lichess_sample.pgn";
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
  ASSERT_TRUE(source.ok()) << source.status();
  PgnReader reader(std::move(*source));
  RawGame raw;
  std::vector<ReplayedGame> games;
  std::vector<RawGame> raws;
  while (reader.Next(&raw)) {
    raws.push_back(raw);
    games.push_back(ReplayGame(raw));
  }
  ASSERT_EQ(games.size(), 5u);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(games[i].error.ok()) << games[i].error;

  // 1. A four-move checkmate.
  EXPECT_EQ(games[0].moves.size(), 7u);
  EXPECT_TRUE(IsCheckmate(games[0].end));
  // 2. Time forfeit ruled a draw: the flagging side's opponent has a bare king.
  EXPECT_EQ(*raws[1].Tag("Termination"), "Time forfeit");
  EXPECT_EQ(raws[1].result_token, "1/2-1/2");
  EXPECT_EQ(games[1].end.pieces(kBlack), games[1].end.pieces(kBlack, kKing));
  EXPECT_EQ(games[1].clock_centis.back(), 500);
  // 3. Chess960 with queen-side castling.
  EXPECT_TRUE(games[2].chess960);
  EXPECT_EQ(games[2].moves[12].kind(), Move::kCastling);
  EXPECT_EQ(games[2].clock_centis[12], 2600);
  // 4. "From Position": upside-down start, ends in mate.
  EXPECT_EQ(games[3].start.Fen(), "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr w - - 0 1");
  EXPECT_TRUE(IsCheckmate(games[3].end));
  // 5. Atomic is reported, not misread.
  EXPECT_PRED_FORMAT2(Contains, Message(games[4]), "line 93: unsupported variant Atomic");
}

// ---- real game collections in $ARBITER_SHARED/games ----------------------------

struct Tally {
  int64_t games = 0;
  int64_t replayed = 0;
  int64_t checkmates = 0;
  int64_t stalemates = 0;
  int64_t no_moves = 0;
  std::map<std::string, int64_t> results;
  std::map<std::string, int64_t> unsupported;  // by Variant tag
  std::vector<std::string> errors;             // other failures (first few)
};

Tally ReplayFile(const std::string& path) {
  Tally tally;
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
  if (!source.ok()) {
    tally.errors.push_back(std::string(source.status().message()));
    return tally;
  }
  PgnReader reader(std::move(*source), PgnReaderOptions{.keep_comments = false});
  RawGame raw;
  ReplayedGame game;
  while (reader.Next(&raw)) {
    ++tally.games;
    ++tally.results[raw.result_token];
    ReplayGame(raw, &game);
    if (!game.error.ok()) {
      if (std::string(game.error.message()).find("unsupported variant") != std::string::npos) {
        ++tally.unsupported[*raw.Tag("Variant")];
      } else if (tally.errors.size() < 10) {
        tally.errors.push_back(std::string(game.error.message()));
      }
      continue;
    }
    ++tally.replayed;
    tally.checkmates += IsCheckmate(game.end);
    tally.stalemates += IsStalemate(game.end);
    tally.no_moves += game.moves.empty();
  }
  return tally;
}

std::string GamesFile(const std::string& name) {
  std::string shared = testing::SharedDir();
  if (shared.empty()) return {};
  std::string path = shared + "/games/" + name;
  return std::filesystem::exists(path) ? path : std::string();
}

// Expected figures come from ../shared/games/README.md.
TEST(game_replay, ReplaysLichessCollection) {
  std::string path = GamesFile("lichess_jishanshaikh4_37221.pgn.zst");
  if (path.empty()) GTEST_SKIP() << "shared game collection not found (set ARBITER_SHARED)";
  Tally t = ReplayFile(path);
  EXPECT_TRUE(t.errors.empty()) << t.errors.front();
  EXPECT_EQ(t.games, 37221);
  EXPECT_EQ(t.replayed, 36278 + 440 + 370);  // Standard, From Position, Chess960
  EXPECT_EQ(t.unsupported, (std::map<std::string, int64_t>{{"King of the Hill", 56},
                                                           {"Atomic", 27},
                                                           {"Crazyhouse", 23},
                                                           {"Three-check", 15},
                                                           {"Antichess", 11},
                                                           {"Racing Kings", 1}}));
  EXPECT_EQ(t.results,
            (std::map<std::string, int64_t>{{"1-0", 18368}, {"0-1", 17126}, {"1/2-1/2", 1727}}));
}

TEST(game_replay, ReplaysKasparovCollection) {
  std::string path = GamesFile("otb_kasparov_2128.pgn.zst");
  if (path.empty()) GTEST_SKIP() << "shared game collection not found (set ARBITER_SHARED)";
  Tally t = ReplayFile(path);
  EXPECT_TRUE(t.errors.empty()) << t.errors.front();
  EXPECT_EQ(t.games, 2128);
  EXPECT_EQ(t.replayed, 2128);
  EXPECT_EQ(t.checkmates, 33);
  EXPECT_EQ(t.stalemates, 0);
  EXPECT_EQ(t.results, (std::map<std::string, int64_t>{
                           {"1/2-1/2", 869}, {"1-0", 857}, {"0-1", 401}, {"*", 1}}));
}

TEST(game_replay, ReplaysBlackmarDiemerCollection) {
  std::string path = GamesFile("otb_blackmar_diemer_3768.pgn.zst");
  if (path.empty()) GTEST_SKIP() << "shared game collection not found (set ARBITER_SHARED)";
  Tally t = ReplayFile(path);
  EXPECT_TRUE(t.errors.empty()) << t.errors.front();
  EXPECT_EQ(t.games, 3768);
  EXPECT_EQ(t.replayed, 3768);
  EXPECT_EQ(t.checkmates, 291);
  EXPECT_EQ(t.stalemates, 0);
  EXPECT_EQ(t.results, (std::map<std::string, int64_t>{
                           {"1-0", 2353}, {"0-1", 881}, {"1/2-1/2", 372}, {"*", 162}}));
}

}  // namespace
}  // namespace arbiter
