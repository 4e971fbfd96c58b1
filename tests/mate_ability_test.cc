// A labelled set for "can this side still mate?", one case per method, with
// the reason for each label. Every "yes" line is replayed to checkmate.
#include "core/mate/mate_ability.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "core/io/byte_source.h"
#include "core/mate/corner_mate_search.h"
#include "core/mate/guided_mate_search.h"
#include "core/mate/move_limit_search.h"
#include "core/mate/reachability.h"
#include "core/pgn/game_replay.h"
#include "core/pgn/pgn_reader.h"
#include "core/verdict/position_analysis.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

using testing::ExpectMatingLine;
using testing::ExpectOnlyMateFound;
using testing::FromFen;
using testing::ShortestHelpmateByFen;
using testing::TestTables;
using testing::WithTables;

struct Case {
  const char* fen;
  Color side;
  CanMate expected;
  const char* proof;  // for "no"
  const char* why;
};

const Case kCases[] = {
    {"8/8/8/4k3/8/8/8/4K3 w - - 0 1", kWhite, CanMate::kNo, "material", "bare kings"},
    {"5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1", kWhite, CanMate::kNo, "material",
     "bishops on one colour: no blocker can stand on the other colour"},
    {"8/8/8/4k3/8/8/3q4/1N2K3 w - - 0 1", kWhite, CanMate::kNo, "material",
     "K+N v K+Q: no mate position with these men exists"},
    {"8/8/8/4k3/8/8/3q4/1N2K3 w - - 0 1", kBlack, CanMate::kYes, "", "the queen side mates"},
    {"k7/1R6/8/2K5/8/8/8/8 b - - 0 1", kWhite, CanMate::kNo, "forced_line",
     "the only legal move Kxb7 leaves bare kings"},
    {"8/8/1k6/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1", kWhite, CanMate::kNo, "fortress",
     "pawn wall: the kings can never meet a pawn or each other"},
    {"8/8/1k6/p1p1p1p1/P1P1P1P1/3B4/3K4/8 w - - 0 1", kWhite, CanMate::kNo, "fortress",
     "pawn wall, light bishop: it can never attack the dark pawns or help mate"},
    {"2b5/8/1k6/p1p1p1p1/P1P1P1P1/3B4/3K4/8 w - - 0 1", kBlack, CanMate::kYes, "",
     "no fortress: the light bishop can give itself up on b5 and open the wall"},
    {"8/8/1k6/p1p1p1p1/P1P1P1P1/8/3K4/2B5 w - - 0 1", kWhite, CanMate::kYes, "",
     "no fortress: the dark bishop can take a pawn or be taken, opening the wall"},
    {"8/5Q1R/8/6kp/8/6KP/6P1/8 b - - 4 53", kWhite, CanMate::kNo, "exhaustive_search",
     "real stalemate trap: ...h4+ is forced and every reply stalemates"},
    {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", kWhite, CanMate::kYes, "", "back-rank mate in one"},
    {"8/8/8/8/1k1K4/p7/B7/8 w - - 2 49", kBlack, CanMate::kYes, "",
     "real flag fall: the bishop steps off the pawn's path, a1=Q, then mate"},
    {"6k1/2N3p1/8/P2pPP1p/1pbP3P/6K1/8/8 w - - 0 39", kBlack, CanMate::kYes, "",
     "real flag fall: ...b3-b2-b1=Q and mate with queen and bishop"},
    {"7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", kWhite, CanMate::kYes, "",
     "white to move mates (the side to move can still mate)"},
};

// Helpmates where the loser's own men must block a flight square and the
// winner has only minor pieces: the searches rarely find them; retrograde
// analysis (at most 4 men) gives a shortest line. The answer must be "yes"
// with a line that mates.
const Case kHardHelpmates[] = {
    {"2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1", kWhite, CanMate::kYes, "",
     "opposite bishops: the black bishop blocks a corner flight square"},
    {"8/8/8/4k3/8/8/8/1N2KN2 w - - 0 1", kWhite, CanMate::kYes, "",
     "K+N+N v K mates with help (cannot be forced, but that does not matter)"},
    {"8/8/8/4k3/8/8/3r4/1N2K3 w - - 0 1", kWhite, CanMate::kYes, "",
     "K+N v K+R: the rook can block a flight square"},
    {"8/1b6/8/2n3K1/1k6/8/B7/8 b - - 0 57", kWhite, CanMate::kYes, "",
     "real flag fall, K+B v K+B+N: trade down to a 4-man endgame the tables settle"},
    {"5k2/8/4KPP1/8/2p5/2P4b/8/8 w - - 3 61", kBlack, CanMate::kYes, "",
     "real flag fall, a lone bishop against pawns: give men away, then the tables' line"},
    {"8/6p1/7p/4kp2/KB1p4/4r3/8/8 b - - 0 57", kWhite, CanMate::kYes, "",
     "real flag fall, a lone bishop against a rook and pawns: the rook is given up, the bishop "
     "eats the pawns while the king walks to a1, a pawn promotes to a blocking bishop"},
    {"8/2B3p1/5pk1/8/5p2/4r1bK/8/8 b - - 0 48", kWhite, CanMate::kYes, "",
     "real flag fall, the same picture with a black bishop too"},
};

TEST(MateAbility, HardHelpmatesAreFound) {
  for (const Case& c : kHardHelpmates) {
    SCOPED_TRACE(std::string(c.fen) + ": " + c.why);
    absl::StatusOr<Position> pos = Position::FromFen(c.fen);
    ASSERT_TRUE(pos.ok()) << pos.status();
    MateAbility m = AnalyzeMateAbility(*pos, c.side, WithTables());
    ASSERT_EQ(ToString(m.answer), std::string("yes"));
    ExpectMatingLine(*pos, c.side, m.line);
  }
}

// The longest helpmate among all positions of at most 4 men: a scan of
// every 3-4-man table (RetrogradeTable::ForEachPosition) finds no mate
// distance above 32 plies, reached here: the pawn must promote to a blocker
// and walk it into place while the bishop's king herds. The tables prove
// that no shorter mate exists, and the analysis must return a line of
// exactly that length. (Longer ones need more men: see
// KingMarchThatFirstFreesASpareMove.)
TEST(MateAbility, LongestHelpmateOfAtMostFourMen) {
  const Position pos = FromFen("8/8/1p6/8/8/8/k1K5/1B6 b - - 0 1");
  absl::StatusOr<std::optional<int>> shortest = TestTables().MateDistance(pos, kWhite);
  ASSERT_TRUE(shortest.ok()) << shortest.status();
  ASSERT_EQ(shortest->value_or(-1), 32);
  MateAbility m = AnalyzeMateAbility(pos, kWhite, WithTables());
  ASSERT_EQ(ToString(m.answer), std::string("yes"));
  EXPECT_EQ(m.line.size(), 32u);
  ExpectMatingLine(pos, kWhite, m.line);
}

// A locked position whose only mate is 37 plies (19 White moves) away, from
// Chess Stack Exchange question 18587 ("the kingside is necessary"). White
// mates with Kxb7, Kxc6, b7, b8=Q and Qb6, but Kxb7 stalemates Black unless
// Black has a spare move: only ...g7-g6 can give one, after the white king
// has walked round to take the g6 pawn. The breadth-first search over all
// reachable positions proves that no shorter mate exists; the analysis must
// find a line that mates, however long.
TEST(MateAbility, KingMarchThatFirstFreesASpareMove) {
  const Position pos = FromFen("8/1p4p1/1Pp3p1/k1P3p1/1pP3Pb/1P4p1/6P1/7K w - - 0 1");
  testing::Exhaustive proof = ShortestHelpmateByFen(pos, kWhite, 100000);
  ASSERT_TRUE(proof.complete) << proof.states << " positions";
  ASSERT_EQ(proof.plies.value_or(-1), 37);
  // Every man but the kings is stuck for good, so no "still men" set can
  // mate and no table is generated for one (that once took two minutes).
  const size_t generated = TestTables().tables_generated();
  MateAbility m = AnalyzeMateAbility(pos, kWhite, WithTables());
  EXPECT_EQ(TestTables().tables_generated(), generated);
  ASSERT_EQ(ToString(m.answer), std::string("yes"));
  EXPECT_GE(m.line.size(), 37u);
  ExpectMatingLine(pos, kWhite, m.line);
  Position replay = pos;
  bool spare_move = false;
  for (Move move : m.line) {
    spare_move |= ToUci(replay, move) == "g7g6";
    replay.DoMove(move);
  }
  EXPECT_TRUE(spare_move) << "the line must give Black its spare move ...g7-g6";
}

// A composed locked position whose only mate is 45 plies (23 White moves)
// away, found by tools/helpmate_composer from the king march above. The
// white king is caged on a3 and must first let its bishop out of the way
// (Ka2, Ka1, Ba2, Kb1), walk round to take g6 so that Black gets its spare
// move ...g7-g6, and come back to take b7 and c6 before b7, b8=Q and Qb6
// mate. Its legality: every pawn file change is paid for by a capture
// (White's 7 pawns stand on files that need 5 captures, and 6 black men are
// gone; Black's 8 pawns need 6, and 7 white men are gone), the pawns on b7,
// g7, c2 and g2 are unmoved, and each piece can have walked to its square
// before the pawns closed the way (the light bishop by a2, the dark one by
// e7). The exploration's depth-first line crosses the 75-move limit, so the
// analysis must find the line breadth-first.
TEST(MateAbility, ComposedOnlyMateTwentyThreeMovesAway) {
  const Position pos = FromFen("8/1p4p1/1Pp3p1/k1P3p1/1pP3Pb/KPp3p1/2P3P1/1B6 w - - 0 1");
  const ReachabilityResult depth_first = ExploreReachable(pos, kWhite, 200000);
  ASSERT_EQ(depth_first.outcome, ReachabilityResult::kMateFound);
  EXPECT_FALSE(LineIsPlayable(pos, kWhite, depth_first.line)) << depth_first.line.size();
  ExpectOnlyMateFound(pos, 45);
}

// An only-mate 49 plies (25 White moves) away, found by
// tools/helpmate_composer with the queenside of the position above kept
// (--frozen-files abc). Black has nothing useful to do but shuffle Ka5-a6,
// so the length is the number of White moves the mate needs, in turn: the
// king leaves its cage past its bishop (Ka2, Ka1, Ba2, Kb1) and walks the
// first rank (c3 and the black f-pawns close d2 to g4), while the h-pawns
// step up out of its way to h5 and h6; it climbs the h-file, goes round by
// f6 and g7 to take h7, and the h-pawn promotes: Qa8 mates. Its legality:
// White's 8 pawns stand on files that need 5 captures and 7 black men are
// gone; Black's 8 need 4 and 6 white men are gone; c2, f2, h2, b7 and h7
// are unmoved; the light bishop reached b1 by c4 and a2 before the pawns
// stood there; White is in check from ...b5-b4, Black's last move.
// The guided dive, with 20 nodes per unit of budget, reaches a mate there
// before the breadth-first search does: a longer line, which is evidence
// all the same.
TEST(MateAbility, ComposedOnlyMateTwentyFiveMovesAway) {
  ExpectOnlyMateFound(FromFen("8/1p5p/1Pp5/k1P2p2/1pP2p2/KPp2p1P/2P2P1P/1B6 w - - 0 1"), 49, 100000,
                      {}, /*analysis_finds_shortest=*/false);
}

TEST(MateAbility, LabelledSet) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::string(c.fen) + " (" + (c.side == kWhite ? "white" : "black") +
                 "): " + c.why);
    absl::StatusOr<Position> pos = Position::FromFen(c.fen);
    ASSERT_TRUE(pos.ok()) << pos.status();
    MateAbility m = AnalyzeMateAbility(*pos, c.side, WithTables());
    EXPECT_EQ(ToString(m.answer), std::string(ToString(c.expected)));
    if (c.expected == CanMate::kNo) {
      EXPECT_EQ(ToString(m.proof), std::string(c.proof));
    }
    if (m.answer == CanMate::kYes) {
      ExpectMatingLine(*pos, c.side, m.line);
    }
  }
}

// Final positions of real "Time forfeit" games: the side with time left is
// judged with verify's budget; every "yes" line must replay to mate and
// every "no" must name its proof.
TEST(MateAbility, RealTimeForfeitPositions) {
  std::string dir = arbiter::testing::SharedDir();
  if (dir.empty()) GTEST_SKIP() << "shared game records not found (set ARBITER_SHARED)";
  absl::StatusOr<std::unique_ptr<ByteSource>> source =
      ByteSource::Open(dir + "/games/lichess_jishanshaikh4_37221.pgn.zst");
  ASSERT_TRUE(source.ok()) << source.status();
  PgnReader reader(*std::move(source));
  RawGame raw;
  ReplayedGame game;
  int judged = 0, yes = 0, no = 0, unknown = 0;
  while (judged < 400 && reader.Next(&raw)) {
    const std::string* termination = raw.Tag("Termination");
    const std::string* result = raw.Tag("Result");
    if (!termination || *termination != "Time forfeit" || !result || *result == "1/2-1/2") continue;
    ReplayGame(raw, &game);
    if (!game.error.ok() || MoveList(game.end).empty()) continue;
    Color winner = *result == "1-0" ? kWhite : kBlack;
    MateAbility m = AnalyzeMateAbility(game.end, winner, WithTables({.node_budget = 20000}));
    ++judged;
    if (m.answer == CanMate::kYes) {
      ++yes;
      ExpectMatingLine(game.end, winner, m.line);
    } else if (m.answer == CanMate::kNo) {
      ++no;
      EXPECT_TRUE(m.proof == MateProof::kMaterial || m.proof == MateProof::kForcedLine ||
                  m.proof == MateProof::kExhaustiveSearch)
          << ToString(m.proof);
    } else {
      ++unknown;
    }
  }
  std::cout << "time-forfeit final positions judged: " << judged << ", yes " << yes << ", no " << no
            << ", unknown " << unknown << "\n";
  EXPECT_EQ(judged, 400);
  EXPECT_GT(yes, 300);  // most winners on time can mate; a regression shows here
}

TEST(MateAbility, DeterministicForABudget) {
  absl::StatusOr<Position> pos =
      Position::FromFen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9");
  ASSERT_TRUE(pos.ok());
  MateSearchOptions options = WithTables({.node_budget = 5000});
  MateAbility a = AnalyzeMateAbility(*pos, kWhite, options);
  MateAbility b = AnalyzeMateAbility(*pos, kWhite, options);
  EXPECT_EQ(a.answer, b.answer);
  EXPECT_EQ(a.line, b.line);
  if (a.answer == CanMate::kYes) {
    ExpectMatingLine(*pos, kWhite, a.line);
  }
}

TEST(MateAbility, TinyBudgetSaysUnknownNotNo) {
  // A middlegame: with 10 nodes nothing can be proven either way.
  absl::StatusOr<Position> pos =
      Position::FromFen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9");
  ASSERT_TRUE(pos.ok());
  MateAbility m = AnalyzeMateAbility(*pos, kWhite, WithTables({.node_budget = 10}));
  EXPECT_NE(m.answer, CanMate::kNo);
}

TEST(MateAbility, MateAfterTheSeventyFiveMoveLimitDoesNotCount) {
  // Mate needs more plies than the 75-move rule leaves: the line found must
  // not cross it (9.6.2), so no "yes" may come with a line that does.
  // K+N+N v K at clock 147: three plies left, no capture or pawn move
  // possible, no mate inside them: the rule decides "no" and says so.
  MateAbility m =
      AnalyzeMateAbility(FromFen("8/8/8/4k3/8/8/8/1N2KN2 w - - 147 200"), kWhite, WithTables());
  EXPECT_EQ(m.answer, CanMate::kNo);
  EXPECT_EQ(m.proof, MateProof::kSeventyFiveMoveRule);
  // The same men far from the limit: not decided by the rule.
  EXPECT_NE(
      AnalyzeMateAbility(FromFen("8/8/8/4k3/8/8/8/1N2KN2 w - - 0 200"), kWhite, WithTables()).proof,
      MateProof::kSeventyFiveMoveRule);
  // K+Q v K, mate in two plies with one ply to spare.
  Position qk = FromFen("7k/8/5K2/8/8/8/8/6Q1 w - - 147 200");
  m = AnalyzeMateAbility(qk, kWhite, WithTables());
  ASSERT_EQ(m.answer, CanMate::kYes);
  ExpectMatingLine(qk, kWhite, m.line);
  EXPECT_LE(m.line.size(), 3u);
  // A capture inside the horizon restarts the clock: the rule alone cannot
  // decide, and the answer comes from the other methods.
  m = AnalyzeMateAbility(FromFen("7k/8/5K2/8/8/8/6r1/6Q1 w - - 148 200"), kWhite, WithTables());
  EXPECT_NE(m.proof, MateProof::kSeventyFiveMoveRule);
}

// Three plies before the automatic draw, a clock-restarting move opens a
// mate within the next 75 moves: forced (Black's only way to keep the game
// going is its pawn; K+R v K then mates) or chosen (White pushes its pawn
// first). Both were "unknown" when step 3 stopped at the restart.
TEST(MateAbility, ARestartOfTheClockOpensAMate) {
  for (const char* fen :
       {"6k1/8/8/6R1/5p2/8/8/2K5 b - - 147 1", "7k/8/8/8/8/8/1P6/K5R1 w - - 148 1"}) {
    const Position pos = FromFen(fen);
    const MoveLimitResult limit = SearchBeforeMoveLimit(pos, kWhite, 50000);
    EXPECT_EQ(limit.outcome, MoveLimitResult::kOpen) << fen;
    EXPECT_FALSE(limit.resets.empty()) << fen;
    const MateAbility m = AnalyzeMateAbility(pos, kWhite, WithTables());
    ASSERT_EQ(m.answer, CanMate::kYes) << fen;
    ExpectMatingLine(pos, kWhite, m.line);
    EXPECT_TRUE(LineIsPlayable(pos, kWhite, m.line)) << fen;
  }
}

// Long composed mates through walls of bishops and pawns (60 to 150
// plies), which the guided dives leave unknown and the corner dive finds:
// the bishop wall that CHA's line proves, and two of CHA's test vector.
TEST(CornerMateSearch, FindsTheLongMatesThroughWalls) {
  for (const auto& [fen, side] : std::vector<std::pair<const char*, Color>>{
           {"2B3B1/pBpBpBpB/P1P1P1P1/4k3/2B5/8/4K3/8 w - - 0 1", kWhite},
           {"8/1p1p1p1p/1P6/KP6/PP6/8/3P1P1P/k7 w - - 0 1", kWhite},
           {"k7/p1p1p3/8/8/8/6p1/P1P1P1Pp/7K w - - 0 1", kWhite}}) {
    Position pos = FromFen(fen);
    CornerMateSearch search(side, 3'000'000);
    std::vector<Move> line;
    ASSERT_TRUE(search.Find(pos, 160, &line)) << fen;
    EXPECT_EQ(pos.key(), FromFen(fen).key()) << "the position is restored";
    EXPECT_TRUE(LineIsPlayable(pos, side, line)) << fen;
    const MateAbility m = AnalyzeMateAbility(pos, side, WithTables());
    ASSERT_EQ(m.answer, CanMate::kYes) << fen;
    ExpectMatingLine(pos, side, m.line);
  }
}

// Mate in one by a discovered check only (the knight leaves the h-file and
// uncovers the rook): the dive's check filter must see it.
TEST(GuidedMateSearch, FindsDiscoveredMateInOne) {
  Position pos = FromFen("6rk/6p1/6P1/8/7N/8/8/K6R w - - 0 1");
  GuidedMateSearch search(kWhite, 5000, 1 << 20);
  std::vector<Move> line;
  Position work = pos;
  ASSERT_TRUE(search.Find(work, 60, &line));
  EXPECT_EQ(line.size(), 1u);
  ExpectMatingLine(pos, kWhite, line);
}

// The move budget stops a dive among many mobile men long before its node
// budget would: eight bishops a side, where White's mate needs Black to
// promote first (a dive of 4 M nodes does not find it).
TEST(GuidedMateSearch, StopsAtItsMoveBudget) {
  Position pos = FromFen("3b1b1k/2b1bpb1/1b1b1b2/2b5/4KB2/4B1B1/3B1B1B/2B1B1B1 w - - 0 1");
  std::vector<Move> line;
  GuidedMateSearch by_nodes(kWhite, 20000, 1 << 20);
  EXPECT_FALSE(by_nodes.Find(pos, 120, &line));
  EXPECT_GE(by_nodes.nodes(), 20000u);
  GuidedMateSearch by_moves(kWhite, 20000, 1 << 20, /*move_budget=*/50000);
  EXPECT_FALSE(by_moves.Find(pos, 120, &line));
  // One node's moves may pass the bound before it is checked.
  EXPECT_GE(by_moves.moves_generated(), 50000u);
  EXPECT_LT(by_moves.moves_generated(), 50000u + kMaxMoves);
  EXPECT_LT(by_moves.nodes(), by_nodes.nodes() / 2);
  EXPECT_EQ(pos.Fen(), "3b1b1k/2b1bpb1/1b1b1b2/2b5/4KB2/4B1B1/3B1B1B/2B1B1B1 w - - 0 1");
}

}  // namespace
}  // namespace arbiter

namespace arbiter {
namespace {

// Moves from UCI text, each read in the position it is played from.
std::vector<Move> UciMoves(const Position& start, const std::vector<std::string>& uci) {
  std::vector<Move> out;
  Position pos = start;
  for (const std::string& text : uci) {
    absl::StatusOr<Move> m = ParseUci(pos, text);
    EXPECT_TRUE(m.ok()) << text;
    if (!m.ok()) break;
    out.push_back(*m);
    pos.DoMove(*m);
  }
  return out;
}

// How often the most frequent position of `line` from `start` occurs
// (placement, side, castling, en passant: the first four FEN fields).
int MostRepeated(const Position& start, const std::vector<Move>& line) {
  std::map<std::string, int> seen;
  Position pos = start;
  auto count = [&] {
    const std::string fen = pos.Fen();
    return ++seen[fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1))];
  };
  int most = count();
  for (Move m : line) {
    pos.DoMove(m);
    most = std::max(most, count());
  }
  return most;
}

TEST(MateLines, ACycleIsCutOut) {
  const Position start = Position::Start();
  // Fool's mate, with the knights' shuffle first: the start position twice.
  const std::vector<Move> line =
      UciMoves(start, {"g1f3", "g8f6", "f3g1", "f6g8", "f2f3", "e7e5", "g2g4", "d8h4"});
  EXPECT_EQ(WithoutRepetitions(start, line), UciMoves(start, {"f2f3", "e7e5", "g2g4", "d8h4"}));
  EXPECT_EQ(WithoutRepetitions(start, {}), std::vector<Move>{});
}

// A "yes" line that passed a fivefold repetition before the mate (issue 43's
// sweep: the position after 1...Kb6 2.Kb8 recurred a fifth time at ply 61,
// the mate at ply 119): shown, it repeats no position.
TEST(MateLines, ShownLinesRepeatNoPosition) {
  for (const auto& [fen, side] :
       std::vector<std::pair<std::string, Color>>{{"2K5/8/2b5/2k5/1n6/8/7B/8 b - - 0 1", kBlack},
                                                  {"8/8/8/4k3/4p3/4N3/4K3/8 w - - 0 1", kWhite}}) {
    absl::StatusOr<PositionAnalysis> a =
        AnalyzePosition(fen, false, {}, WithTables(), nullptr, side);
    ASSERT_TRUE(a.ok()) << a.status();
    const MateAbility& m = side == kWhite ? a->assessment.white : a->assessment.black;
    ASSERT_EQ(m.answer, CanMate::kYes) << fen;
    EXPECT_TRUE(LineIsPlayable(a->position, side, m.line)) << fen;
    EXPECT_EQ(MostRepeated(a->position, m.line), 1) << fen;
    EXPECT_EQ(m.line_san.size(), m.line.size()) << fen;
  }
}

// The exhaustive exploration's depth-first line here ran 787 plies (its
// pawn moves restart the clock, so it was playable); a line that long is
// looked for again breadth first, which finds one of 49.
TEST(MateLines, ALongExploredLineIsShortened) {
  const Position pos = FromFen("k1bK4/1p1p4/1P1Pp3/4Pp2/1p3P2/1p6/1P6/8 w - - 0 1");
  const MateAbility m = AnalyzeMateAbility(pos, kWhite, WithTables());
  ASSERT_EQ(m.answer, CanMate::kYes);
  ExpectMatingLine(pos, kWhite, m.line);
  EXPECT_LE(m.line.size(), 150u);
}

}  // namespace
}  // namespace arbiter
