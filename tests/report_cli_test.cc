// `arbiter verify --report` and `--annotate-pgn` as users run them, and the
// SAN lines of analyze's and verify's text and JSON: on constructed games
// for each kind of dispute and on the shared real games. The annotated PGN
// must read in pgn-extract without an error and in Arbiter's own reader.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "core/io/byte_source.h"
#include "core/pgn/pgn_reader.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

using testing::Contains;
using testing::Count;
using testing::Flat;
namespace fs = std::filesystem;

const std::string kArbiter = std::string(ARBITER_BINARY_DIR) + "/arbiter";

testing::CommandResult Arbiter(const std::string& args) {
  return testing::RunCommand("env -u ARBITER_SYZYGY -u ARBITER_COORDINATOR " + kArbiter + " " +
                             args + " 2>&1");
}

std::string ReadFile(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

fs::path FreshDir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// One game of each kind of dispute, and one that is not disputed.
constexpr char kGames[] = R"([Event "<script>alert(1)</script>"]
[Site "https://lichess.org/abcdEFGH"]
[White "A & B"]
[Black "O'Brien"]
[Result "1-0"]
[Termination "Normal"]

1. f3 e5 2. g4 Qh4# 1-0

[Event "flag fall, the winner cannot mate"]
[Site "https://www.chess.com/game/live/123456789"]
[Result "0-1"]
[Termination "Time forfeit"]
[SetUp "1"]
[FEN "8/8/8/4k3/8/8/8/KR6 w - - 0 1"]

1. Rb2 Kd4 0-1

[Event "a draw on time that White wins"]
[Result "1/2-1/2"]
[Termination "Time forfeit"]
[SetUp "1"]
[FEN "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30"]

30. Kf1 1/2-1/2

[Event "agrees"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "dead, played on"]
[Result "1-0"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1"]

1. Kxd2 Kd7 2. Kc3 1-0

[Event "illegal move"]
[Result "*"]

1. e4 e5 2. Ke3 *

[Event "moves after mate"]
[Result "1-0"]

1. f3 e5 2. g4 Qh4# 3. Kf2 1-0

[Event "resigned in a tablebase draw"]
[Site "g1"]
[Result "1-0"]
[SetUp "1"]
[FEN "4k3/r7/8/8/8/8/8/4K2R w - - 0 1"]
[Termination "Normal"]

1. Kd2 Kd8 1-0

)";

// The five Lichess games bundled with Arbiter (the fifth an Atomic game).
const std::string kSample = std::string(ARBITER_SOURCE_DIR) + "/examples/lichess_sample.pgn";

std::string WriteGames(const fs::path& dir) {
  const fs::path path = dir / "games.pgn";
  std::ofstream(path) << kGames;
  return path.string();
}

// The game numbers of the disputed records of verify's JSON lines.
std::vector<int64_t> DisputedGames(const std::string& jsonl) {
  std::vector<int64_t> out;
  for (const std::string& line : testing::Lines(jsonl)) {
    if (testing::GameOfRecord(line) < 0) continue;
    if (line.find("\"agrees\": false") != std::string::npos ||
        line.find("\"certain\": false") != std::string::npos ||
        line.find("\"error\": {") != std::string::npos ||
        line.find("\"tablebase_contradiction\": true") != std::string::npos)
      out.push_back(testing::GameOfRecord(line));
  }
  return out;
}

std::vector<RawGame> ReadPgn(const std::string& path) {
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
  EXPECT_TRUE(source.ok()) << path;
  std::vector<RawGame> games;
  if (!source.ok()) return games;
  PgnReader reader(*std::move(source));
  for (RawGame g; reader.Next(&g);) games.push_back(g);
  return games;
}

std::vector<std::string> Sans(const RawGame& g, size_t limit = SIZE_MAX) {
  std::vector<std::string> out;
  for (size_t i = 0; i < g.moves.size() && i < limit; ++i) out.push_back(g.moves[i].san);
  return out;
}

// pgn-extract (scripts/setup.sh installs it) reads every game of `path`
// and says nothing but that a declared result contradicts the checkmate
// on the board (which is what the game is disputed for: the record's
// result is kept); returns how many games it wrote out.
int PgnExtractGames(const std::string& path, const fs::path& dir) {
  const std::string pgn_extract = testing::FindProgram("pgn-extract");
  EXPECT_FALSE(pgn_extract.empty()) << "pgn-extract is not installed (scripts/setup.sh)";
  if (pgn_extract.empty()) return -1;
  const fs::path log = dir / "pgn-extract.log", out = dir / "pgn-extract.pgn";
  testing::CommandResult r = testing::RunCommand(pgn_extract + " -s -l " + log.string() + " -o " +
                                                 out.string() + " '" + path + "' 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  // Each message is its line, the game's names, and where it is.
  const std::vector<std::string> lines = testing::Lines(ReadFile(log));
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with("Warning: Result of ") &&
        lines[i].find(" is inconsistent with checkmate by ") != std::string::npos &&
        i + 2 < lines.size() && lines[i + 2].starts_with("File ")) {
      i += 2;
      continue;
    }
    ADD_FAILURE() << "pgn-extract on " << path << ": " << lines[i];
  }
  const std::string written = ReadFile(out);
  return int(Count(written, "\n[Event ") + (written.rfind("[Event ", 0) == 0));
}

TEST(ReportCli, ConstructedDisputesEmbedded) {
  const fs::path dir = FreshDir("report_cli_constructed");
  const std::string games = WriteGames(dir);
  const fs::path html = dir / "report.html", pgn = dir / "annotated.pgn";
  testing::CommandResult r = Arbiter("verify --format jsonl --jobs 2 " + games + " --report " +
                                     html.string() + " --annotate-pgn " + pgn.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const std::vector<int64_t> disputed = DisputedGames(r.out);
  // Without tables the resignation in a drawn KRvKR stands undisputed.
  EXPECT_EQ(disputed, (std::vector<int64_t>{1, 2, 3, 5, 6, 7}));

  const std::string page = ReadFile(html);
  EXPECT_EQ(Count(page, "<article"), disputed.size());
  for (int64_t g : disputed)
    EXPECT_PRED_FORMAT2(Contains, page, absl::StrCat("id=\"game-", g, "\""));
  EXPECT_EQ(page.find("id=\"game-4\""), std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_PRED_FORMAT2(Contains, page, "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_PRED_FORMAT2(Contains, page, "A &amp; B &ndash; O&#39;Brien");
  EXPECT_PRED_FORMAT2(Contains, page, "href=\"https://lichess.org/abcdEFGH#4\"");
  EXPECT_PRED_FORMAT2(Contains, page, "href=\"https://www.chess.com/game/live/123456789\"");
  EXPECT_PRED_FORMAT2(Contains, page, "1/2-1/2 by flag_fall_cannot_mate (FIDE 6.9)");
  EXPECT_PRED_FORMAT2(Contains, page,
                      "Black cannot mate: too little material for any series of legal moves to "
                      "mate (proof: material)");
  EXPECT_PRED_FORMAT2(Contains, page,
                      "White can mate, helpmate line (both sides&#39; moves): 30... ");
  EXPECT_PRED_FORMAT2(Contains, page,
                      "neither side can mate: too little material for any series of legal moves to "
                      "mate (proof: material)");
  EXPECT_PRED_FORMAT2(Contains, page, "2. Ke3");
  EXPECT_PRED_FORMAT2(Contains, page, "<tr><th>games</th><td class=\"n\">8</td></tr>");
  EXPECT_EQ(Count(page, "<svg"), disputed.size() + 1);  // a board each, and the chart

  // The annotated games: pgn-extract and Arbiter's reader both read all of
  // them, with the moves the records hold (up to the first that cannot be
  // played: the illegal 2. Ke3, 3. Kf2 after mate).
  const std::string text = Flat(ReadFile(pgn));
  EXPECT_EQ(PgnExtractGames(pgn.string(), dir), int(disputed.size()));
  const std::vector<RawGame> originals = ReadPgn(games);
  const std::vector<RawGame> back = ReadPgn(pgn.string());
  ASSERT_EQ(back.size(), disputed.size());
  const size_t playable[] = {4, 2, 1, 4, 3, 2, 4, 2};  // by game number - 1
  for (size_t i = 0; i < back.size(); ++i) {
    const RawGame& original = originals[size_t(disputed[i] - 1)];
    SCOPED_TRACE(original.tags[0].second);
    EXPECT_TRUE(back[i].error.ok()) << back[i].error;
    EXPECT_EQ(Sans(back[i]), Sans(original, playable[disputed[i] - 1]));
    EXPECT_EQ(back[i].result_token, original.result_token);
    for (const auto& tag : original.tags)
      EXPECT_NE(std::find(back[i].tags.begin(), back[i].tags.end(), tag), back[i].tags.end())
          << tag.first;
    EXPECT_EQ(*back[i].Tag("Annotator"), "Arbiter");
  }
  EXPECT_PRED_FORMAT2(Contains, text,
                      "1. f3 e5 2. g4 Qh4# {Arbiter: 0-1 by checkmate (FIDE 5.1.1), not 1-0 as "
                      "declared: the game ended on the board after ply 4} 1-0");
  EXPECT_PRED_FORMAT2(Contains, text,
                      "{Arbiter: the record goes on with moves that cannot be played here: 3. "
                      "Kf2}");
  EXPECT_PRED_FORMAT2(Contains, text, "1. Kxd2 {Arbiter: 1/2-1/2 by dead_position (FIDE 5.2.2)");
}

// The same run through a coordinator writes the same files: the verdicts
// come back in input order there too (tests/cluster_test.cc,
// Cluster.ReportAndAnnotatedPgnThroughTheCoordinator).

TEST(ReportCli, UncertainRulingsAreDisputed) {
  const fs::path dir = FreshDir("report_cli_uncertain");
  const fs::path games = dir / "games.pgn";
  std::ofstream(games) << "[Event \"on time, budget too small\"]\n[Result \"0-1\"]\n"
                          "[Termination \"Time forfeit\"]\n\n1. e4 0-1\n";
  const fs::path html = dir / "report.html", pgn = dir / "annotated.pgn";
  testing::CommandResult r =
      Arbiter("verify --format jsonl --budget 1 " + games.string() + " --report " + html.string() +
              " --annotate-pgn " + pgn.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  ASSERT_EQ(DisputedGames(r.out), std::vector<int64_t>{1}) << r.out;
  EXPECT_PRED_FORMAT2(Contains, r.out, "\"agrees\": true, \"certain\": false");
  const std::string page = ReadFile(html);
  EXPECT_PRED_FORMAT2(Contains, page, "<span class=\"kind uncertain\">uncertain</span>");
  EXPECT_PRED_FORMAT2(Contains, page, "whether Black can mate is unknown");
  EXPECT_PRED_FORMAT2(Contains, Flat(ReadFile(pgn)),
                      "1. e4 {Arbiter: 0-1 by flag_fall (FIDE 6.9), as declared, uncertain:");
  EXPECT_EQ(PgnExtractGames(pgn.string(), dir), 1);
}

TEST(ReportCli, TablebaseContradictionsAreDisputed) {
  const std::string shared = testing::SharedDir();
  if (shared.empty() || !fs::exists(shared + "/syzygy/KRvKR.rtbw"))
    GTEST_SKIP() << "no Syzygy tables in $ARBITER_SHARED/syzygy";
  const fs::path dir = FreshDir("report_cli_tablebase");
  const std::string games = WriteGames(dir);
  const fs::path html = dir / "report.html", pgn = dir / "annotated.pgn";
  testing::CommandResult r =
      Arbiter("verify --format jsonl --syzygy " + shared + "/syzygy " + games + " --report " +
              html.string() + " --annotate-pgn " + pgn.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(DisputedGames(r.out), (std::vector<int64_t>{1, 2, 3, 5, 6, 7, 8}));
  const std::string page = ReadFile(html);
  EXPECT_PRED_FORMAT2(Contains, page, "<article class=\"game\" id=\"game-8\">");
  EXPECT_PRED_FORMAT2(Contains, page, "tablebase contradiction</span>");
  EXPECT_PRED_FORMAT2(Contains, page,
                      "tablebase: draw for White to move: declared 1-0 by resignation, but the "
                      "position is a draw with best play");
  EXPECT_PRED_FORMAT2(Contains, page, "tablebase: contradictions</th><td class=\"n\">1</td>");
  EXPECT_PRED_FORMAT2(Contains, Flat(ReadFile(pgn)),
                      "1. Kd2 Kd8 {Arbiter: 1-0 by resignation (FIDE");
  EXPECT_EQ(ReadPgn(pgn.string()).size(), 7u);
}

// Every disputed game of the real Lichess file, read back by both readers;
// the over-the-board file has none, and says so.
TEST(ReportCli, SharedGamesAnnotatedPgnReadsBack) {
  const std::string shared = testing::SharedDir();
  if (shared.empty()) GTEST_SKIP() << "no $ARBITER_SHARED";
  const fs::path dir = FreshDir("report_cli_shared");
  const fs::path html = dir / "report.html", pgn = dir / "annotated.pgn";
  const std::string files = " --report " + html.string() + " --annotate-pgn " + pgn.string();
  testing::CommandResult r = Arbiter("verify --format jsonl --jobs 2 " + shared +
                                     "/games/lichess_jishanshaikh4_37221.pgn.zst" + files);
  ASSERT_EQ(r.exit_code, 0) << r.out.substr(0, 2000);
  const std::vector<int64_t> disputed = DisputedGames(r.out);
  // The 4 disagreements; the 133 games of other variants are skipped.
  ASSERT_GE(disputed.size(), 4u);
  EXPECT_LT(disputed.size(), 20u);
  EXPECT_PRED_FORMAT2(Contains, r.out, "\"skipped\": 133, \"skipped_variants\": {");
  const std::vector<RawGame> back = ReadPgn(pgn.string());
  ASSERT_EQ(back.size(), disputed.size());
  for (const RawGame& g : back) EXPECT_TRUE(g.error.ok()) << g.error;
  EXPECT_EQ(PgnExtractGames(pgn.string(), dir), int(disputed.size()));
  const std::string page = ReadFile(html);
  EXPECT_EQ(Count(page, "<article"), disputed.size());
  EXPECT_EQ(page.find("<script"), std::string::npos);

  r = Arbiter("verify --format jsonl " + shared + "/games/otb_kasparov_2128.pgn.zst" + files);
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_TRUE(DisputedGames(r.out).empty());
  EXPECT_EQ(ReadFile(pgn), "");
  EXPECT_PRED_FORMAT2(Contains, ReadFile(html), "<p>No disputed rulings.</p>");
  EXPECT_PRED_FORMAT2(Contains, ReadFile(html), "<tr><th>games</th><td class=\"n\">2128</td></tr>");
}

// Like --output, the files appear only when the run completes.
TEST(ReportCli, WrittenOnlyWhenTheRunCompletes) {
  const fs::path dir = FreshDir("report_cli_atomic");
  const std::string shared = testing::SharedDir();
  if (shared.empty()) GTEST_SKIP() << "no $ARBITER_SHARED";
  const fs::path cut = dir / "cut.pgn.zst";
  ASSERT_EQ(testing::RunCommand("head -c 100000 " + shared + "/games/otb_kasparov_2128.pgn.zst > " +
                                cut.string())
                .exit_code,
            0);
  const fs::path html = dir / "report.html", pgn = dir / "annotated.pgn";
  testing::CommandResult r = Arbiter("verify " + cut.string() + " --report " + html.string() +
                                     " --annotate-pgn " + pgn.string());
  EXPECT_EQ(r.exit_code, 3) << r.out;
  EXPECT_FALSE(fs::exists(html));
  EXPECT_FALSE(fs::exists(pgn));
  EXPECT_EQ(fs::directory_iterator(dir)->path(), cut);  // no temporary file left either
  r = Arbiter("verify " + WriteGames(dir) + " --report /no/such/dir/r.html");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_PRED_FORMAT2(Contains, r.out, "arbiter verify: --report /no/such/dir/r.html");
  r = Arbiter("verify --help");
  EXPECT_PRED_FORMAT2(Contains, r.out, "--report");
  EXPECT_PRED_FORMAT2(Contains, r.out, "--annotate-pgn");
  EXPECT_PRED_FORMAT2(Contains, Arbiter("--help").out,
                      "[--report FILE.html] [--annotate-pgn FILE.pgn]");
}

// The SAN beside the UCI: analyze's JSON and text, verify's JSON and text.
TEST(ReportCli, SanLinesInAnalyzeAndVerify) {
  testing::CommandResult r =
      Arbiter("analyze --json --fen '6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 12'");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_PRED_FORMAT2(Contains, r.out,
                      "\"white\": {\"can_mate\": \"yes\", \"proof\": null, \"line\": [\"g8h8\", "
                      "\"a1a8\"], \"line_san\": [\"Kh8\", \"Ra8#\"]}");
  r = Arbiter("analyze --fen '6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 12'");
  EXPECT_PRED_FORMAT2(Contains, r.out, "White can mate: yes, e.g. 12... Kh8 13. Ra8#\n");
  r = Arbiter("analyze --json --fen '8/8/8/4k3/8/8/2B5/K7 w - - 0 1'");
  EXPECT_PRED_FORMAT2(Contains, r.out,
                      "{\"can_mate\": \"no\", \"proof\": \"material\", \"line\": null, "
                      "\"line_san\": null}");

  const fs::path dir = FreshDir("report_cli_san");
  const std::string games = WriteGames(dir);
  r = Arbiter("verify --format jsonl " + games);
  const std::vector<std::string> lines = testing::Lines(r.out);
  ASSERT_GE(lines.size(), 3u);
  const std::regex winner(
      "\"winner\": \\{\"side\": \"white\", \"can_mate\": \"yes\", \"proof\": null, \"line\": "
      "\\[\"[a-h][1-8][a-h][1-8]\"[^\\]]*\\], \"line_san\": \\[\"[^\\]]*#\"\\]\\}");
  EXPECT_TRUE(std::regex_search(lines[2], winner)) << lines[2];
  EXPECT_PRED_FORMAT2(Contains, lines[1], "\"line\": null, \"line_san\": null}");
  r = Arbiter("verify " + games);
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex("#3: 1/2-1/2 -> 1-0 by flag_fall \\(6.9\\) after ply 1, Black's flag "
                        "\\(by being the player to move\\)  DISAGREES  White can mate, helpmate "
                        "line \\(both sides' moves\\): 30\\.\\.\\. "
                        "[^\\n]*#\\n")))
      << r.out;
}

// Text records state each "cannot mate" in words with its proof; the
// helpmate line of an agreeing ruling is shown only with --evidence all;
// a dead position's proof is in its JSON record.
TEST(ReportCli, TextEvidenceInWords) {
  testing::CommandResult r = Arbiter("verify " + kSample);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_PRED_FORMAT2(Contains, r.out,
                      "White's flag (by the clock)  Black cannot mate: too little material for any "
                      "series of legal moves to mate (proof: material)\n");
  // Game 3 agrees: White can mate, and the line is left to --evidence all.
  EXPECT_PRED_FORMAT2(Contains, r.out, "Black's flag (by the clock)  White can mate\n");
  EXPECT_EQ(r.out.find("helpmate"), std::string::npos) << r.out;
  r = Arbiter("verify --evidence all " + kSample);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_PRED_FORMAT2(Contains, r.out,
                      "Black's flag (by the clock)  White can mate, helpmate line (both sides' "
                      "moves): 11... ");
  r = Arbiter("verify --evidence some " + kSample);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_PRED_FORMAT2(Contains, r.out, "--evidence must be disputed or all, not \"some\"");

  const fs::path dir = FreshDir("report_cli_dead");
  const fs::path pgn = dir / "dead.pgn";
  // Bishops on one colour (material), and a locked wall of pawns with the
  // kings apart (a closed position, explored): both dead.
  std::ofstream(pgn) << "[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n"
                        "[FEN \"8/8/4k3/8/2b5/3B4/4K3/8 w - - 0 1\"]\n\n1. Kd2 1/2-1/2\n\n"
                        "[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n"
                        "[FEN \"4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/4K3 w - - 0 1\"]\n\n"
                        "1. Kd2 1/2-1/2\n";
  r = Arbiter("verify --format jsonl " + pgn.string());
  const std::vector<std::string> lines = testing::Lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_PRED_FORMAT2(Contains, lines[0], "\"dead_position_proof\": \"material\"");
  EXPECT_PRED_FORMAT2(Contains, lines[1], "\"rule\": \"dead_position\"");
  EXPECT_TRUE(std::regex_search(lines[1], std::regex("\"dead_position_proof\": \"(fortress|"
                                                     "exhaustive_search|retrograde)\"")))
      << lines[1];
  r = Arbiter("verify " + pgn.string());
  EXPECT_PRED_FORMAT2(Contains, r.out,
                      "neither side can mate: too little material for any series of legal moves to "
                      "mate (proof: material)\n");
}

// A game of a variant Arbiter does not rule is skipped, counted per
// variant, and not an error: --fail-on error passes, the report lists no
// card for it, and the report opens with an index of the disputed games.
TEST(ReportCli, OtherVariantsAreSkippedNotErrors) {
  testing::CommandResult r = Arbiter("verify --fail-on disagree,error " + kSample);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_PRED_FORMAT2(Contains, r.out,
                      "#5 https://lichess.org/tL3XQN2P: SKIPPED a game of Atomic (Arbiter rules "
                      "chess, Chess960 and Chess 99)\n");
  EXPECT_PRED_FORMAT2(Contains, r.out, "Games: 5  errors: 0  agree: 4");
  EXPECT_PRED_FORMAT2(Contains, r.out, "Skipped, of other variants: 1 (Atomic: 1)\n");
  r = Arbiter("verify --format jsonl " + kSample);
  const std::vector<std::string> lines = testing::Lines(r.out);
  ASSERT_EQ(lines.size(), 6u) << r.out;
  EXPECT_EQ(lines[4].rfind("{\"type\": \"skipped\", \"game\": 5,", 0), 0u) << lines[4];
  EXPECT_PRED_FORMAT2(Contains, lines[4], "\"skipped_variant\": \"Atomic\", \"error\": null}");
  EXPECT_PRED_FORMAT2(Contains, lines[0], "\"skipped_variant\": null, \"error\": null}");
  EXPECT_PRED_FORMAT2(Contains, lines[5],
                      "\"errors\": 0, \"agree\": 4, \"disagree\": 0, \"skipped\": 1, "
                      "\"skipped_variants\": {\"Atomic\": 1}");
  r = Arbiter("verify --format csv " + kSample);
  EXPECT_PRED_FORMAT2(Contains, r.out, ",error,error_line,error_column,skipped_variant\n");
  EXPECT_PRED_FORMAT2(Contains, r.out, ",,,,Atomic\n");

  // The report: a skipped count and a per-variant table, no card; an index
  // entry (with its link) for each disputed game.
  const fs::path dir = FreshDir("report_cli_variants");
  const fs::path games = dir / "games.pgn", html = dir / "report.html";
  std::ofstream(games) << ReadFile(kSample) << "\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n";
  r = Arbiter("verify " + games.string() + " --report " + html.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const std::string page = ReadFile(html);
  EXPECT_EQ(Count(page, "<article"), 1u) << page;
  EXPECT_PRED_FORMAT2(Contains, page,
                      "<tr><th>skipped (other variants)</th><td class=\"n\">1</td></tr>");
  EXPECT_PRED_FORMAT2(Contains, page, "<h2>Skipped: other variants</h2>");
  EXPECT_PRED_FORMAT2(Contains, page,
                      "<nav class=\"index\"><h2>Disputed games</h2><ol><li><a "
                      "href=\"#game-6\">#6</a> 1-0 &rarr; 0-1 by checkmate (FIDE 5.1.1)");
  EXPECT_LT(page.find("<nav class=\"index\">"), page.find("<article"));
}

}  // namespace
}  // namespace arbiter
