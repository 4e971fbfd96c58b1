// The C API (include/arbiter/arbiter.h), linked as a program links it
// (libarbiter.so): its answers are the command's, byte for byte, its errors
// say what and where, and one engine serves many threads.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_split.h"
#include "arbiter/arbiter.h"
#include "arbiter/arbiter.hpp"
#include "core/chess/notation.h"
#include "gtest/gtest.h"
#include "tests/test_support.h"
#include "zstd.h"

namespace {

using arbiter::testing::Contains;
using arbiter::testing::Lines;
using arbiter::testing::RunCommand;

// cutechess #710: Black's flag falls, and White's knight can still mate
// (with the help of Black's pawn).
constexpr char kKnightAgainstPawn[] = "8/8/8/4k3/4p3/4N3/4K3/8 w - - 0 1";
// White has a lone king: Black's flag fall is a draw.
constexpr char kLoneKing[] = "8/8/3rk3/8/8/2K5/8/8 w - - 0 1";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Arbiter() { return std::string(ARBITER_BINARY_DIR) + "/arbiter"; }

TEST(CApi, CanMateAnswersWithALineOrAProof) {
  arbiter_options options{};
  arbiter_error error{};
  arbiter_engine* engine = arbiter_engine_new(&options, &error);
  ASSERT_NE(engine, nullptr) << error.message;

  arbiter_mate mate{};
  ASSERT_EQ(arbiter_can_mate(engine, kKnightAgainstPawn, ARBITER_WHITE, &mate, &error), ARBITER_OK)
      << error.message;
  EXPECT_EQ(mate.answer, ARBITER_YES);
  EXPECT_EQ(mate.proof, ARBITER_PROOF_NONE);
  ASSERT_NE(mate.line_uci, nullptr);
  ASSERT_NE(mate.line_san, nullptr);
  // The line replays to White's checkmate.
  std::vector<arbiter::Move> line;
  arbiter::Position pos = arbiter::testing::FromFen(kKnightAgainstPawn);
  arbiter::Position at = pos;
  for (absl::string_view uci : absl::StrSplit(mate.line_uci, ' ')) {
    absl::StatusOr<arbiter::Move> m =
        arbiter::ParseUci(at, std::string_view(uci.data(), uci.size()));
    ASSERT_TRUE(m.ok()) << uci << " in " << mate.line_uci;
    line.push_back(*m);
    at.DoMove(*m);
  }
  EXPECT_EQ(mate.line_plies, int(line.size()));
  arbiter::testing::ExpectMatingLine(pos, arbiter::kWhite, line);
  EXPECT_EQ(arbiter::testing::Count(mate.line_san, " ") + 1, line.size());
  arbiter_mate_clear(&mate);
  EXPECT_EQ(mate.line_uci, nullptr);

  ASSERT_EQ(arbiter_can_mate(engine, kLoneKing, ARBITER_WHITE, &mate, &error), ARBITER_OK);
  EXPECT_EQ(mate.answer, ARBITER_NO);
  EXPECT_STREQ(arbiter_proof_name(mate.proof), "material");
  EXPECT_EQ(mate.line_uci, nullptr);
  arbiter_mate_clear(&mate);
  arbiter_mate_clear(&mate);  // a cleared result may be cleared again
  arbiter_engine_free(engine);
  arbiter_engine_free(nullptr);
}

TEST(CApi, TheBudgetIsTheCommandsBudget) {
  arbiter_options options{};
  options.budget = 1;
  arbiter::Engine engine(options);
  // Two bishops and a knight against two knights: no material proof.
  const std::string fen = "4k3/8/8/3nn3/8/8/8/2BBNK2 w - - 0 1";
  const arbiter::testing::CommandResult cli =
      RunCommand(Arbiter() + " analyze --json --budget 1 --fen '" + fen + "'");
  ASSERT_EQ(cli.exit_code, 0);
  EXPECT_EQ(engine.Assess(fen).json + "\n", cli.out);
}

TEST(CApi, ErrorsSayWhatAndWhere) {
  arbiter::Engine engine;
  arbiter_mate mate{};
  arbiter_error error{};
  EXPECT_EQ(arbiter_can_mate(engine.get(), "8/8/8/8 w - - 0 1", ARBITER_WHITE, &mate, &error),
            ARBITER_INVALID_ARGUMENT);
  EXPECT_EQ(error.status, ARBITER_INVALID_ARGUMENT);
  EXPECT_GT(std::strlen(error.message), 0u);
  EXPECT_EQ(arbiter_can_mate(engine.get(), kLoneKing, arbiter_color(7), &mate, &error),
            ARBITER_INVALID_ARGUMENT);
  EXPECT_PRED_FORMAT2(Contains, std::string(error.message), "side");
  EXPECT_EQ(arbiter_can_mate(nullptr, kLoneKing, ARBITER_WHITE, &mate, &error),
            ARBITER_INVALID_ARGUMENT);
  // An illegal move names its number.
  arbiter_assessment a{};
  EXPECT_EQ(
      arbiter_assess(engine.get(), kLoneKing, "c3c4 e6e5 c4c5 d6d1 c5c6 e5e4 c6c1", &a, &error),
      ARBITER_INVALID_ARGUMENT);
  EXPECT_PRED_FORMAT2(Contains, std::string(error.message), "7");
  EXPECT_STREQ(arbiter_status_name(ARBITER_NOT_FOUND), "not_found");

  arbiter_options options{};
  options.tables_dir = ARBITER_SOURCE_DIR "/README.md";
  EXPECT_EQ(arbiter_engine_new(&options, &error), nullptr);
  EXPECT_EQ(error.status, ARBITER_INVALID_ARGUMENT);
  EXPECT_PRED_FORMAT2(Contains, std::string(error.message), "not a directory");
  options = {};
  options.rules = arbiter_rules(9);
  EXPECT_EQ(arbiter_engine_new(&options, &error), nullptr);
  EXPECT_PRED_FORMAT2(Contains, std::string(error.message), "options.rules");
  EXPECT_EQ(arbiter_verify_file(engine.get(), "/nonexistent/games.pgn", nullptr, nullptr, nullptr,
                                &error),
            ARBITER_NOT_FOUND);
  EXPECT_PRED_FORMAT2(Contains, std::string(error.message), "/nonexistent/games.pgn");
  EXPECT_THROW(engine.CanMate("not a fen", ARBITER_WHITE), arbiter::Error);
}

TEST(CApi, AnAssessmentIsTheCommandsRecord) {
  arbiter::Engine engine;
  // Knight and king against king: dead (5.2.2) by material.
  const arbiter::PositionReport dead = engine.Assess("8/8/4k3/8/8/3NK3/8/8 w - - 0 1");
  EXPECT_EQ(dead.status, ARBITER_DEAD_POSITION);
  EXPECT_EQ(dead.dead, ARBITER_YES);
  EXPECT_EQ(dead.white.answer, ARBITER_NO);
  EXPECT_EQ(dead.black.answer, ARBITER_NO);
  // The moves are the history: the start position a third time is a
  // threefold claim now (9.2.2).
  const std::string fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  const std::string moves = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
  const arbiter::PositionReport r = engine.Assess(fen, moves);
  EXPECT_EQ(r.status, ARBITER_ONGOING);
  EXPECT_TRUE(r.threefold_now);
  EXPECT_EQ(r.white.answer, ARBITER_YES);
  const arbiter::testing::CommandResult cli =
      RunCommand(Arbiter() + " analyze --json --fen '" + fen + "' --moves " + moves);
  ASSERT_EQ(cli.exit_code, 0);
  EXPECT_EQ(r.json + "\n", cli.out);

  // A claim by move: the fifty-move rule's 100th halfmove.
  const arbiter::PositionReport fifty = engine.Assess("8/8/4k3/8/8/3QK3/8/8 w - - 99 80");
  EXPECT_EQ(fifty.status, ARBITER_ONGOING);
  EXPECT_FALSE(fifty.fifty_now);
  EXPECT_FALSE(fifty.fifty_moves.empty());
  EXPECT_EQ(fifty.white.answer, ARBITER_YES);
  EXPECT_EQ(fifty.tablebase.category, ARBITER_TB_NOT_COVERED) << "no Syzygy tables were given";
}

// Collects the records a run delivers.
int Collect(void* records, const char* json, size_t length) {
  EXPECT_EQ(std::strlen(json), length);
  static_cast<std::vector<std::string>*>(records)->emplace_back(json, length);
  return 0;
}

TEST(CApi, VerifyDeliversTheCommandsRecordsInOrder) {
  const std::string path = ARBITER_SOURCE_DIR "/examples/lichess_sample.pgn";
  const arbiter::testing::CommandResult cli =
      RunCommand(Arbiter() + " verify --format jsonl --jobs 1 " + path);
  std::vector<std::string> expected = Lines(cli.out);
  ASSERT_GE(expected.size(), 2u);
  expected.pop_back();  // the summary

  for (int threads : {1, 3}) {
    arbiter_options options{};
    options.threads = threads;
    arbiter::Engine engine(options);
    std::vector<std::string> records;
    arbiter_verify_summary summary{};
    arbiter_error error{};
    ASSERT_EQ(arbiter_verify_file(engine.get(), path.c_str(), &Collect, &records, &summary, &error),
              ARBITER_OK)
        << error.message;
    EXPECT_EQ(records, expected) << threads << " threads";
    EXPECT_EQ(summary.games, int64_t(expected.size()));
    EXPECT_EQ(summary.errors, 0) << "the Atomic game is skipped, not an error";

    // The same text from memory, plain and compressed.
    const std::string text = ReadFile(path);
    std::string compressed(ZSTD_compressBound(text.size()), '\0');
    compressed.resize(
        ZSTD_compress(compressed.data(), compressed.size(), text.data(), text.size(), 3));
    for (const std::string* data : std::vector<const std::string*>{&text, &compressed}) {
      records.clear();
      ASSERT_EQ(arbiter_verify_pgn(engine.get(), data->data(), data->size(), &Collect, &records,
                                   nullptr, &error),
                ARBITER_OK)
          << error.message;
      EXPECT_EQ(records, expected);
    }
    // Cut inside the compressed frame: the games before, then an error.
    records.clear();
    EXPECT_EQ(arbiter_verify_pgn(engine.get(), compressed.data(), compressed.size() / 2, &Collect,
                                 &records, nullptr, &error),
              ARBITER_IO_ERROR);
    EXPECT_LT(records.size(), expected.size());
  }
}

TEST(CApi, TheCallbackStopsTheRun) {
  arbiter::Engine engine;
  const std::string text = ReadFile(ARBITER_SOURCE_DIR "/examples/lichess_sample.pgn");
  int calls = 0;
  arbiter_error error{};
  arbiter_verify_summary summary{};
  auto stop_after_two = [](void* calls, const char*, size_t) {
    return ++*static_cast<int*>(calls) >= 2 ? 1 : 0;
  };
  EXPECT_EQ(arbiter_verify_pgn(engine.get(), text.data(), text.size(), stop_after_two, &calls,
                               &summary, &error),
            ARBITER_CANCELLED);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(summary.games, 2);
  // The C++ header: false stops it, an exception comes back out.
  EXPECT_THROW(engine.VerifyPgn(text, [](std::string_view) { return false; }), arbiter::Error);
  EXPECT_THROW(
      engine.VerifyPgn(text, [](std::string_view) -> bool { throw std::logic_error("x"); }),
      std::logic_error);
}

TEST(CApi, OneEngineServesManyThreads) {
  arbiter::Engine engine;
  const std::vector<std::string> fens = {kKnightAgainstPawn, kLoneKing,
                                         "8/8/8/8/8/5k2/8/K1B1B3 w - - 0 1",
                                         "8/8/8/5k2/8/8/3P4/3K4 b - - 0 1"};
  std::vector<arbiter_answer> alone;
  for (const std::string& fen : fens) alone.push_back(engine.CanMate(fen, ARBITER_WHITE).answer);
  std::vector<std::vector<arbiter_answer>> seen(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 5; ++round)
        for (const std::string& fen : fens)
          seen[t].push_back(engine.CanMate(fen, ARBITER_WHITE).answer);
    });
  for (std::thread& t : threads) t.join();
  for (const auto& answers : seen)
    for (size_t i = 0; i < answers.size(); ++i) EXPECT_EQ(answers[i], alone[i % fens.size()]);
}

TEST(CApi, VersionsAgree) {
  EXPECT_EQ(arbiter_api_version(), ARBITER_API_VERSION);
  EXPECT_PRED_FORMAT2(Contains, std::string(arbiter_version()), ".");
}

}  // namespace
