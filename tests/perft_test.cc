// Perft (leaf counts of the legal move tree) against reference numbers. Every
// number below was checked against Stockfish 15.1 (`go perft N`, with
// `UCI_Chess960 true` for the Chess960 tables); the standard positions are
// the chessprogramming wiki "Perft Results" 1-6, the first Chess960 block is
// from the published Chess960 perft table (Reinhard Scharnagl's list, as
// shipped in many engines' fischer.epd), the rest is hand-made for one rule
// each and has only Stockfish as its reference.
#include "core/chess/perft.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/chess/movegen.h"
#include "core/chess/notation.h"

namespace arbiter {
namespace {

struct PerftCase {
  const char* name;  // GoogleTest parameter name: [A-Za-z0-9_] only
  const char* fen;
  bool chess960;
  // nodes[d - 1] is perft(d). Every depth is checked: the shallow ones
  // localise a bug, the last one is the real test.
  std::vector<uint64_t> nodes;
};

void PrintTo(const PerftCase& c, std::ostream* os) { *os << c.name << " (" << c.fen << ")"; }

// Debug builds are roughly ten times slower; drop the deepest level there so
// that the suite stays within its time budget. Release (the default) runs
// everything.
#ifdef NDEBUG
constexpr int kDepthCut = 0;
#else
constexpr int kDepthCut = 1;
#endif

Position Parse(const char* fen, bool chess960) {
  absl::StatusOr<Position> pos = Position::FromFen(fen, chess960);
  EXPECT_TRUE(pos.ok()) << fen << ": " << pos.status();
  return pos.ok() ? *std::move(pos) : Position::Start();
}

void CheckPerft(const PerftCase& c) {
  Position pos = Parse(c.fen, c.chess960);
  const std::string before = pos.Fen();
  const int max_depth = std::max(1, int(c.nodes.size()) - kDepthCut);
  for (int depth = 1; depth <= max_depth; ++depth) {
    EXPECT_EQ(Perft(pos, depth), c.nodes[depth - 1]) << c.fen << " depth " << depth;
  }
  // Perft must leave the position as it found it.
  EXPECT_EQ(pos.Fen(), before);
}

// ---- the six standard positions (chessprogramming wiki) -------------------

const PerftCase kStandard[] = {
    {"Start",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     false,
     {20, 400, 8902, 197281, 4865609, 119060324}},
    {"Kiwipete",
     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     false,
     {48, 2039, 97862, 4085603, 193690690}},
    {"Position3",
     "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
     false,
     {14, 191, 2812, 43238, 674624, 11030083, 178633661}},
    {"Position4",
     "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     false,
     {6, 264, 9467, 422333, 15833292, 706045033}},
    // Colour-mirrored position 4: same counts, so black's code paths are
    // exercised the same way.
    {"Position4Mirrored",
     "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
     false,
     {6, 264, 9467, 422333, 15833292}},
    {"Position5",
     "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
     false,
     {44, 1486, 62379, 2103487, 89941194}},
    {"Position6",
     "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     false,
     {46, 2079, 89890, 3894594, 164075551}},
};

// ---- Chess960 -------------------------------------------------------------

const PerftCase kChess960[] = {
    // From the published Chess960 table; Shredder-FEN castling fields.
    // King on g1 = its own king-side destination, f1 rook adjacent.
    {"C960_bqnb1rkr",
     "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
     true,
     {21, 528, 12189, 326672, 8146062}},
    {"C960_2nnrbkr",
     "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
     true,
     {21, 807, 18002, 667366, 16253601}},
    // King f1 between adjacent rooks e1 and g1.
    {"C960_b1q1rrkb",
     "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
     true,
     {20, 479, 10471, 273318, 6417013}},
    {"C960_qbbnnrkr",
     "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
     true,
     {22, 593, 13440, 382958, 9183776}},
    // En passant square in a Chess960 FEN.
    {"C960_bnqnrbkr_ep",
     "bnqnrbkr/1pp2pp1/p7/3pP2p/4P1P1/8/PPPP3P/BNQNRBKR w HEhe d6 0 9",
     true,
     {31, 984, 28677, 962591, 29032175}},
    {"C960_nqn2krb",
     "nqn2krb/p1prpppp/1pbp4/7P/5P2/8/PPPPPKP1/NQNRB1RB w g - 3 9",
     true,
     {21, 461, 10608, 248069, 6194124}},
    {"C960_1nqr1rbb_none",
     "1nqr1rbb/pppkp1pp/1n3p2/3p4/1P6/5P1P/P1PPPKP1/NNQR1RBB w - - 1 9",
     true,
     {24, 623, 15921, 429446, 11594634}},
    // Black king d8 beside the c8 rook: queen-side castling swaps them.
    {"C960_nnrkbbqr",
     "nnrkbbqr/1p2pppp/p2p4/2p5/8/1N2P1P1/PPPP1P1P/1NKRBBQR w hc - 0 9",
     true,
     {26, 672, 18136, 477801, 13342771}},
    {"C960_nnrkrbbq",
     "nnrkrbbq/pppp2pp/8/4pp2/4P3/P7/1PPPBPPP/NNKRR1BQ w c - 0 9",
     true,
     {25, 792, 19883, 636041, 16473376}},
    // King d1 with rooks c1 and e1 adjacent on both sides.
    {"C960_n1rk1qbb_Shredder",
     "n1rk1qbb/pppprpp1/2n4p/4p3/2PP3P/8/PP2PPP1/NNRKRQBB w ECc - 1 9",
     true,
     {25, 622, 16031, 425247, 11420973}},
    {"C960_n1rk1qbb_XFen",
     "n1rk1qbb/pppprpp1/2n4p/4p3/2PP3P/8/PP2PPP1/NNRKRQBB w KQq - 1 9",
     true,
     {25, 622, 16031, 425247, 11420973}},
    {"C960_nnrqbkrb",
     "nnrqbkrb/pppp1pp1/7p/4p3/6P1/2N2B2/PPPPPP1P/NR1QBKR1 w Ggc - 2 9",
     true,
     {29, 658, 19364, 476620, 14233587}},
    {"C960_1nrbkr1q",
     "1nrbkr1q/1pppp1pp/1n6/p4p2/N1b4P/8/PPPPPPPB/N1RBKR1Q w FCfc - 2 9",
     true,
     {27, 862, 24141, 755171, 22027695}},
    {"C960_nb1r1nkr",
     "nb1r1nkr/ppp1ppp1/2bp4/7p/3P2qP/P6R/1PP1PPP1/NBQRBNK1 w Dhd - 1 9",
     true,
     {38, 1691, 60060, 2526992, 88557078}},
    {"C960_bbnnrkrq",
     "bbnnrkrq/ppp1pp2/6p1/3p4/7p/7P/PPPPPPP1/BBNNRRKQ w ge - 0 9",
     true,
     {20, 559, 12242, 355326, 8427161}},
    // Same positions with X-FEN (KQkq = outermost rook) castling fields.
    {"C960_bqnb1rkr_XFen",
     "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
     true,
     {21, 528, 12189, 326672, 8146062}},
    {"C960_b1q1rrkb_XFen",
     "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w KQ - 1 9",
     true,
     {20, 479, 10471, 273318, 6417013}},

    // Hand-made (Stockfish is the reference).
    // King d1 stands on the rook's queen-side destination and the c1 rook on
    // the king's: castling swaps them. Black mirrors this on the king side
    // (f8 king, g8 rook).
    {"C960_SwapShredder",
     "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/2RK1R2 w CFbg - 0 1",
     true,
     {24, 576, 13494, 317210, 7314153}},
    {"C960_SwapXFen",
     "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/2RK1R2 w KQkq - 0 1",
     true,
     {24, 576, 13494, 317210, 7314153}},
    // Black bishop h4 attacks e1 on the white king's long way b1-g1 (no O-O);
    // the white knight e6 attacks d8 and f8 on black's (no O-O for black).
    {"C960_AttackedPath",
     "rk5r/8/4N3/8/7b/8/8/RK5R w HAha - 0 1",
     true,
     {27, 626, 17623, 451531, 12805736}},
    // f1/f8 attacked: the king that stays on g1 may still castle king side
    // (only the rook crosses f1) but not queen side (the king crosses f1).
    {"C960_RookMayCrossAttacked",
     "r5kr/8/8/2B5/2b5/8/8/R5KR w HAha - 0 1",
     true,
     {32, 918, 27641, 801640, 24013049}},
    // The castling rook b1 shields the c1 king from the a1 rook: O-O-O would
    // leave the king in check on c1, which a test on the pre-castling board
    // misses.
    {"C960_RookShieldsKingShredder",
     "2k5/8/8/8/8/8/8/rRK4R w BH - 0 1",
     true,
     {17, 170, 3775, 50973, 1235647}},
    {"C960_RookShieldsKingXFen",
     "2k5/8/8/8/8/8/8/rRK4R w KQ - 0 1",
     true,
     {17, 170, 3775, 50973, 1235647}},
    // The same on the king side: f1 king, g1 rook, black rook h1.
    {"C960_RookShieldsKingSide",
     "4k3/8/8/8/8/8/8/R4KRr w AG - 0 1",
     true,
     {17, 187, 4101, 57426, 1402021}},
    // X-FEN file letters for inner rooks: F (h1 stands further out) and b
    // (a8 stands further out). The f1 rook is on its destination already.
    {"C960_InnerRookXFen",
     "rr2k3/8/8/8/8/8/8/4KR1R w Fb - 0 1",
     true,
     {21, 386, 8895, 205372, 5019092}},
};

// ---- hand-made tricky positions (standard chess) --------------------------

const PerftCase kTricky[] = {
    // c7-c5 is followed by bxc6 e.p., which would expose the a5 king to the
    // h5 rook along the fifth rank: both pawns leave it at once.
    {"EpRankDiscoveredCheckWhite",
     "8/2p5/8/KP5r/8/8/8/6k1 b - - 0 1",
     false,
     {20, 66, 1271, 6563, 127452, 747544}},
    {"EpRankDiscoveredCheckBlack",
     "8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1",
     false,
     {23, 117, 2857, 16860, 421722, 2352811}},
    // Two capturers: bxc6 leaves the a6-d3 diagonal pin, dxc6 is legal.
    {"EpOneOfTwoCapturersPinned",
     "8/8/K7/1PpP4/8/3b4/8/6k1 w - c6 0 2",
     false,
     {6, 95, 637, 9435, 65480, 963812}},
    // d2-d4 gave check to c5; exd3 e.p. removes the checker.
    // e5 is pinned on the e-file: e5xd6 would open it, c5xd6 is legal.
    {"EpOneOfTwoCapturersPinnedOnFile",
     "4r1k1/8/8/2PpP3/8/8/8/4K3 w - d6 0 2",
     false,
     {8, 109, 835, 12605, 100228, 1593294}},
    {"EpEvadesPawnCheck",
     "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
     false,
     {9, 50, 379, 2369, 17879, 111840}},
    {"EpEvadesPawnCheckTwoCapturers",
     "8/8/8/2k5/2pPp3/8/8/4K3 b - d3 0 1",
     false,
     {9, 48, 389, 2336, 19279, 114930}},
    // bxa8 and bxc8 promote with capture (bxa8 also takes black's castling
    // right), and so does gxh1 for black (taking white's).
    {"PromotionCaptures",
     "r1n1k3/1P6/8/8/8/8/6p1/4K2R w Kq - 0 1",
     false,
     {25, 466, 8983, 171891, 3524789}},
    // In check from a8; bxa8 would capture the checker but b7 is pinned by c8.
    {"PinnedPromotionInCheck",
     "r1b1k3/1P6/K7/8/8/8/8/8 w q - 0 1",
     false,
     {2, 38, 454, 7409, 81937, 1459219}},
    {"PromotionRace",
     "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
     false,
     {24, 496, 9483, 182838, 3605103}},
    {"PromoteOutOfCheck",
     "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
     false,
     {11, 133, 1442, 19174, 266199, 3821001}},
    // Knight d3 and rook e8 both check e1: Qxd3 and castling are out, only
    // king moves remain.
    {"DoubleCheck", "4r1k1/8/8/8/8/3n4/2Q5/R3K2R w KQ - 0 1", false, {3, 69, 2649, 48827, 1870156}},
    {"DiscoveredCheck",
     "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",
     false,
     {29, 165, 5160, 31961, 1004658}},
    {"CastlingThroughAttacks",
     "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
     false,
     {26, 1141, 27826, 1274206}},
    {"CastlingPrevented",
     "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
     false,
     {44, 1494, 50509, 1720476}},
};

// Every test name starts with "perft" in lower case: ctest -R is case
// sensitive and `ctest -R perft` is how these are run.
class StandardPerft : public ::testing::TestWithParam<PerftCase> {};
class Chess960Perft : public ::testing::TestWithParam<PerftCase> {};
class TrickyPerft : public ::testing::TestWithParam<PerftCase> {};

TEST_P(StandardPerft, MatchesReference) { CheckPerft(GetParam()); }
TEST_P(Chess960Perft, MatchesReference) { CheckPerft(GetParam()); }
TEST_P(TrickyPerft, MatchesReference) { CheckPerft(GetParam()); }

auto CaseName = [](const ::testing::TestParamInfo<PerftCase>& info) {
  return std::string(info.param.name);
};
INSTANTIATE_TEST_SUITE_P(perft, StandardPerft, ::testing::ValuesIn(kStandard), CaseName);
INSTANTIATE_TEST_SUITE_P(perft, Chess960Perft, ::testing::ValuesIn(kChess960), CaseName);
INSTANTIATE_TEST_SUITE_P(perft, TrickyPerft, ::testing::ValuesIn(kTricky), CaseName);

// ---- root moves of the rules above, by name -------------------------------

std::vector<std::string> RootMoves(const char* fen, bool chess960) {
  Position pos = Parse(fen, chess960);
  std::vector<std::string> out;
  for (Move m : MoveList(pos)) out.push_back(ToUci(pos, m));
  return out;
}

bool Has(const std::vector<std::string>& moves, const std::string& m) {
  return std::find(moves.begin(), moves.end(), m) != moves.end();
}

TEST(perft, RootMovesChess960Castling) {
  // Chess960 UCI castling is king-takes-rook.
  auto swap = RootMoves("1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/2RK1R2 w CFbg - 0 1", true);
  EXPECT_TRUE(Has(swap, "d1c1"));
  EXPECT_TRUE(Has(swap, "d1f1"));
  auto attacked = RootMoves("r5kr/8/8/2B5/2b5/8/8/R5KR w HAha - 0 1", true);
  EXPECT_TRUE(Has(attacked, "g1h1"));
  EXPECT_FALSE(Has(attacked, "g1a1"));
  auto shield = RootMoves("2k5/8/8/8/8/8/8/rRK4R w BH - 0 1", true);
  EXPECT_TRUE(Has(shield, "c1h1"));
  EXPECT_FALSE(Has(shield, "c1b1"));
  auto shield_k = RootMoves("4k3/8/8/8/8/8/8/R4KRr w AG - 0 1", true);
  EXPECT_TRUE(Has(shield_k, "f1a1"));
  EXPECT_FALSE(Has(shield_k, "f1g1"));
  auto path = RootMoves("rk5r/8/4N3/8/7b/8/8/RK5R w HAha - 0 1", true);
  EXPECT_TRUE(Has(path, "b1a1"));
  EXPECT_FALSE(Has(path, "b1h1"));
}

TEST(perft, RootMovesEnPassant) {
  // After c7-c5 in the rank-pin position no e.p. capture may appear.
  Position pos = Parse("8/2p5/8/KP5r/8/8/8/6k1 b - - 0 1", false);
  absl::StatusOr<Move> push = ParseUci(pos, "c7c5");
  ASSERT_TRUE(push.ok()) << push.status();
  pos.DoMove(*push);
  for (Move m : MoveList(pos)) EXPECT_NE(m.kind(), Move::kEnPassant) << ToUci(pos, m);
  EXPECT_EQ(pos.ep_square(), kNoSquare);

  auto pinned = RootMoves("8/8/K7/1PpP4/8/3b4/8/6k1 w - c6 0 2", false);
  EXPECT_TRUE(Has(pinned, "d5c6"));
  EXPECT_FALSE(Has(pinned, "b5c6"));
  auto file_pin = RootMoves("4r1k1/8/8/2PpP3/8/8/8/4K3 w - d6 0 2", false);
  EXPECT_TRUE(Has(file_pin, "c5d6"));
  EXPECT_FALSE(Has(file_pin, "e5d6"));
  auto evade = RootMoves("8/8/8/2k5/2pPp3/8/8/4K3 b - d3 0 1", false);
  EXPECT_TRUE(Has(evade, "c4d3"));
  EXPECT_TRUE(Has(evade, "e4d3"));
}

TEST(perft, RootMovesDoubleCheckOnlyKing) {
  Position pos = Parse("4r1k1/8/8/8/8/3n4/2Q5/R3K2R w KQ - 0 1", false);
  ASSERT_EQ(PopCount(pos.checkers()), 2);
  for (Move m : MoveList(pos)) EXPECT_EQ(m.from(), kE1) << ToUci(pos, m);
}

TEST(perft, DivideSumsToPerft) {
  for (const PerftCase& c : kStandard) {
    Position pos = Parse(c.fen, c.chess960);
    uint64_t sum = 0;
    for (const auto& [move, count] : PerftDivide(pos, 3)) sum += count;
    EXPECT_EQ(sum, c.nodes[2]) << c.fen;
  }
}

// Shredder-FEN and X-FEN spellings must give the same position.
TEST(perft, FenCastlingSpellingsAgree) {
  const std::pair<const char*, const char*> kPairs[] = {
      {"1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/2RK1R2 w CFbg - 0 1",
       "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/2RK1R2 w KQkq - 0 1"},
      {"2k5/8/8/8/8/8/8/rRK4R w BH - 0 1", "2k5/8/8/8/8/8/8/rRK4R w KQ - 0 1"},
      {"n1rk1qbb/pppprpp1/2n4p/4p3/2PP3P/8/PP2PPP1/NNRKRQBB w ECc - 1 9",
       "n1rk1qbb/pppprpp1/2n4p/4p3/2PP3P/8/PP2PPP1/NNRKRQBB w KQq - 1 9"},
  };
  for (const auto& [shredder, xfen] : kPairs) {
    Position a = Parse(shredder, true), b = Parse(xfen, true);
    EXPECT_EQ(a.Fen(), b.Fen());
    EXPECT_EQ(a.key(), b.key());
    EXPECT_EQ(a.castling_rights(), b.castling_rights());
  }
}

// ---- make/unmake and incremental Zobrist keys ------------------------------

struct WalkStats {
  uint64_t nodes = 0;
  uint64_t terminal = 0;  // checkmates and stalemates met
  int failures = 0;
};

// Walks the whole tree to `depth`. At every node: the key after DoMove equals
// the key of the same position built from scratch from its FEN, and
// DoMove+UndoMove restores FEN, key and check state exactly; HasLegalMove
// and CountLegalMoves (at every cap from 1 to 3) agree with the full
// generator, and so do the moves GenerateLegalMovesFrom
// gives square by square (together, as a set). Stops reporting
// after a few failures so that one bug does not print a million lines.
void Walk(Position& pos, int depth, WalkStats& stats) {
  const bool any = !MoveList(pos).empty();
  stats.terminal += !any;
  if (HasLegalMove(pos) != any && stats.failures++ < 5)
    ADD_FAILURE() << pos.Fen() << ": HasLegalMove says " << !any;
  const MoveList list(pos);
  for (int cap = 1; cap <= 3; ++cap) {
    const int expected = std::min(int(list.size()), cap);
    if (CountLegalMoves(pos, cap) != expected && stats.failures++ < 5)
      ADD_FAILURE() << pos.Fen() << ": CountLegalMoves(" << cap << ") says "
                    << CountLegalMoves(pos, cap) << ", not " << expected;
  }
  std::vector<Move> all(list.begin(), list.end()), by_square;
  for (int sq = 0; sq < 64; ++sq) {
    Move moves[kMaxMoves];
    by_square.insert(by_square.end(), moves, GenerateLegalMovesFrom(pos, Square(sq), moves));
  }
  std::sort(all.begin(), all.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
  std::sort(by_square.begin(), by_square.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
  if (all != by_square && stats.failures++ < 5)
    ADD_FAILURE() << pos.Fen() << ": GenerateLegalMovesFrom differs from the full generator";
  if (depth == 0) return;
  const std::string fen = pos.Fen();
  const uint64_t key = pos.key();
  const Bitboard checkers = pos.checkers();
  for (Move m : MoveList(pos)) {
    ++stats.nodes;
    const std::string uci = ToUci(pos, m);
    pos.DoMove(m);
    const std::string child_fen = pos.Fen();
    absl::StatusOr<Position> fresh = Position::FromFen(child_fen, pos.chess960());
    if (!fresh.ok()) {
      if (stats.failures++ < 5) ADD_FAILURE() << fen << " " << uci << ": " << fresh.status();
    } else if (fresh->key() != pos.key() || fresh->Fen() != child_fen ||
               fresh->checkers() != pos.checkers()) {
      if (stats.failures++ < 5)
        ADD_FAILURE() << fen << " after " << uci << " -> " << child_fen
                      << ": incremental key/state differs from a fresh parse";
    }
    Walk(pos, depth - 1, stats);
    pos.UndoMove(m);
    if (pos.Fen() != fen || pos.key() != key || pos.checkers() != checkers) {
      if (stats.failures++ < 5)
        ADD_FAILURE() << fen << ": " << uci << " then undo gives " << pos.Fen();
    }
  }
}

TEST(perft, MakeUnmakeRestoresStateAndKeysMatchFromScratch) {
  struct Case {
    const char* fen;
    bool chess960;
    int depth;
  };
  const Case kCases[] = {
      {kStandard[0].fen, false, 4},  // start
      {kStandard[1].fen, false, 3},  // Kiwipete: castling, e.p.
      {kStandard[2].fen, false, 4},  // e.p. pins
      {kStandard[3].fen, false, 3},  // promotions
      {kStandard[5].fen, false, 3},  // promotion with capture
      {kChess960[0].fen, true, 3},   // Chess960 castling
      {"1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/2RK1R2 w CFbg - 0 1", true, 3},
      {"rr2k3/8/8/8/8/8/8/4KR1R w Fb - 0 1", true, 4},  // inner rooks
      {"r1n1k3/1P6/8/8/8/8/6p1/4K2R w Kq - 0 1", false, 4},
      {"8/8/8/2k5/2pPp3/8/8/4K3 b - d3 0 1", false, 4},
  };
  uint64_t terminal = 0;
  for (const Case& c : kCases) {
    Position pos = Parse(c.fen, c.chess960);
    WalkStats stats;
    Walk(pos, c.depth, stats);
    terminal += stats.terminal;
    EXPECT_EQ(stats.failures, 0) << c.fen;
    EXPECT_GT(stats.nodes, 0u);
    EXPECT_EQ(pos.plies_played(), 0);
  }
  EXPECT_GT(terminal, 0u) << "no mate or stalemate reached: HasLegalMove's false is untested";
}

// A copy is of the position, not of its history: the same FEN, key and
// check state, an undo stack of its own that starts at the copy, and moves
// played on it undo back to it; the original is untouched.
TEST(perft, CopyStartsItsOwnUndoStack) {
  Position game = Position::Start();
  for (const char* uci : {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}) {
    absl::StatusOr<Move> m = ParseUci(game, uci);
    ASSERT_TRUE(m.ok()) << uci;
    game.DoMove(*m);
  }
  ASSERT_EQ(game.plies_played(), 5);
  Position copy = game;
  EXPECT_EQ(copy.plies_played(), 0);
  EXPECT_EQ(copy.Fen(), game.Fen());
  EXPECT_EQ(copy.key(), game.key());
  EXPECT_EQ(copy.checkers(), game.checkers());
  WalkStats stats;
  Walk(copy, 2, stats);
  EXPECT_EQ(stats.failures, 0);
  EXPECT_EQ(copy.plies_played(), 0);
  Position assigned = Position::Start();
  assigned = copy;
  EXPECT_EQ(assigned.Fen(), game.Fen());
  EXPECT_EQ(assigned.plies_played(), 0);
  EXPECT_EQ(game.plies_played(), 5);
}

}  // namespace
}  // namespace arbiter
