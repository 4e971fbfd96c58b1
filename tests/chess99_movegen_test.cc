// Chess 99 move generation (§3–4) by perft counts. Every count below was
// checked by hand: the enumeration is in the comment above it.
#include <algorithm>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/chess99/movegen.h"
#include "core/chess99/notation.h"
#include "core/chess99/perft.h"
#include "core/chess99/position.h"
#include "gtest/gtest.h"
#include "tests/chess99_test_support.h"

namespace arbiter::chess99 {
namespace {

std::vector<std::string> Moves(const Position& pos) {
  std::vector<std::string> out;
  for (const Move& m : GenerateMoves(pos)) out.push_back(MoveToCoordinate(m));
  std::sort(out.begin(), out.end());
  return out;
}

bool Has(const Position& pos, std::string_view coordinate) {
  const auto moves = Moves(pos);
  return std::find(moves.begin(), moves.end(), coordinate) != moves.end();
}

int CountFrom(const Position& pos, Square from) {
  int n = 0;
  for (const Move& m : GenerateMoves(pos)) n += m.from == from;
  return n;
}

constexpr Square Sq(const char* name) { return MakeSquare(name[0] - 'a', name[1] - '1'); }

// E1: 18 pawn moves (9 pawns x one or two squares), knights b1-a3/c3 and
// h1-g3/i3 (4), paladin f1-e3/g3 (2; its diagonals are blocked), short
// castles Ke1<->Qd1 and Ke1<->Af1 (2): 26.
TEST(Chess99Perft, E1StartPosition) {
  Position pos = Position::Start();
  EXPECT_EQ(Perft(pos, 1), 26u);
  EXPECT_TRUE(Has(pos, "e1d1"));  // short castle with the queen
  EXPECT_TRUE(Has(pos, "e1f1"));  // short castle with the paladin
  EXPECT_TRUE(Has(pos, "f1e3"));
  EXPECT_TRUE(Has(pos, "a2a4"));
  // Depth 2: no first move of either side changes the other side's moves
  // (White's units reach rank 4 at most, Black's rank 6; no e.p. square a
  // Black unit can reach). Black's count is 26 by symmetry, so 26 * 26.
  EXPECT_EQ(Perft(pos, 2), 676u);
}

// E2: paladin e5 has 4 bishop rays of 4 squares (16) and 8 knight leaps
// (c4 c6 d3 d7 f3 f7 g4 g6): 24. The king a3 adds a2 a4 b2 b3 b4 (5): 29.
TEST(Chess99Perft, E2PaladinRange) {
  Position pos = Pos("9/8k/9/9/4A4/9/9/K8/9 w - - 0 1");
  EXPECT_EQ(CountFrom(pos, Sq("e5")), 24);
  EXPECT_EQ(Perft(pos, 1), 29u);
}

// E3 after b3b5, Black: king e9 to d9 f9 d8 e8 (f8 is own bishop; no castle
// partner on rank 9): 4. Bishop f8: g9 (1); g7 h6 i5 (3); e7 d6 c5 b4 a3
// (5); plus the e.p. capture f8b4* (1): 10. Total 14.
TEST(Chess99Perft, E3BishopTakesEnPassant) {
  Position pos = Pos("4k4/5b3/9/9/1P7/9/9/9/4K4 b - b4 0 20");
  EXPECT_EQ(Perft(pos, 1), 14u);
  EXPECT_TRUE(Has(pos, "f8b4*"));
  EXPECT_TRUE(Has(pos, "f8b4"));  // §7.3: the quiet move to the e.p. square
  // Any other Black move lets the right lapse.
  pos.MakeMove(*ParseMove(pos, "e9d9"));
  EXPECT_EQ(pos.ep_square(), kNoSquare);
}

// E4 before: pawn b7 to b8 (1) and b9 three ways (stays a pawn, =B, =N);
// captures a8/c8 empty: 4. King e1 d1 f1 d2 e2 f2: 5. Total 9.
// E4 after b7b9=B, Black: king c9 takes b9 (1), goes d9 c8 d8 (3), goes to
// the e.p. square b8 quietly (1) or captures there (1): 6.
TEST(Chess99Perft, E4DoubleStepOntoLastRank) {
  Position pos = Pos("2k6/9/1P7/9/9/9/9/9/4K4 w - - 0 40");
  EXPECT_EQ(Perft(pos, 1), 9u);
  EXPECT_TRUE(Has(pos, "b7b9"));
  EXPECT_TRUE(Has(pos, "b7b9=B"));
  EXPECT_TRUE(Has(pos, "b7b9=N"));
  Position after = Pos("1Bk6/9/9/9/9/9/9/9/4K4 b - b8 0 40");
  EXPECT_EQ(Perft(after, 1), 6u);
  EXPECT_TRUE(Has(after, "c9b8*"));
  // Forced promotion on arrival: b7b9 (unpromoted) disappears: 8.
  Options forced;
  forced.promotion = Options::PromotionTiming::kForcedOnArrival;
  Position f = Pos("2k6/9/1P7/9/9/9/9/9/4K4 w - - 0 40", forced);
  EXPECT_EQ(Perft(f, 1), 8u);
  EXPECT_FALSE(Has(f, "b7b9"));
}

// E5, Black: pawn d6 to d5, d4 (2) and d6e5* (1): 3. Knight c4: a3 a5 b2 b6
// d2 e3 e5 (d6 is own pawn) (7) plus c4e5* (1): 8. King e9: d9 f9 d8 e8 f8
// (5). Total 16; without the quiet move to the e.p. square (§7.3 off): 15.
TEST(Chess99Perft, E5EnPassantChoices) {
  Position pos = Pos("4k4/9/9/3pP4/9/2n6/9/9/4K4 b - e5 0 30");
  EXPECT_EQ(Perft(pos, 1), 16u);
  EXPECT_TRUE(Has(pos, "d6e5*"));
  EXPECT_TRUE(Has(pos, "c4e5*"));
  EXPECT_TRUE(Has(pos, "c4e5"));
  Options no_quiet;
  no_quiet.quiet_move_to_ep_square = false;
  Position strict = Pos("4k4/9/9/3pP4/9/2n6/9/9/4K4 b - e5 0 30", no_quiet);
  EXPECT_EQ(Perft(strict, 1), 15u);
  EXPECT_FALSE(Has(strict, "c4e5"));
  // Both e.p. captures remove the pawn on e6.
  for (const char* m : {"d6e5*", "c4e5*"}) {
    Position p = pos;
    p.MakeMove(*ParseMove(p, m));
    EXPECT_EQ(p.piece_on(Sq("e6")), kNoPiece) << m;
  }
}

// E6: pawn c5 to c6 only (c7 occupied, so no double step; b6 d6 empty): 1.
// King e1: 5. Total 6. A pawn on c3 with c4, c5 empty double-steps.
TEST(Chess99Perft, E6MidBoardPawn) {
  Position pos = Pos("4k4/9/2p6/9/2P6/9/9/9/4K4 w - - 0 12");
  EXPECT_EQ(Perft(pos, 1), 6u);
  EXPECT_FALSE(Has(pos, "c5c7"));
  Position c3 = Pos("4k4/9/2p6/9/9/9/2P6/9/4K4 w - - 0 12");
  EXPECT_TRUE(Has(c3, "c3c5"));
  Position c7 = Pos("4k4/9/2P6/9/9/9/9/9/4K4 w - - 0 12");
  EXPECT_TRUE(Has(c7, "c7c9"));  // §4.1: two squares from any rank, even to the last
}

// E7: rook a1: b1 c1 d1 (3) and a2..a9 (8): 11. Paladin f1: knight d2 e3 g3
// h2 (4), bishop e2 d3 c4 b5 a6 (5) and g2 h3 i4 (3): 12. King: d1 d2 e2 f2
// (4). Castles e1f1 (swap with the paladin) and e1d1&a1 (2). Total 29.
TEST(Chess99Perft, E7CastlingOutOfCheck) {
  Position pos = Pos("4r2k1/9/9/9/9/9/9/9/R3KA3 w - - 0 25");
  EXPECT_TRUE(pos.InCheck(kWhite));
  EXPECT_EQ(Perft(pos, 1), 29u);
  EXPECT_TRUE(Has(pos, "e1f1"));
  EXPECT_TRUE(Has(pos, "e1d1&a1"));
  EXPECT_TRUE(Has(pos, "e1d1"));  // and the plain king step
}

// E8: king d1 f1 d2 e2 f2 (5) and e1f1&g1 (1; the rook i1 is not the
// nearest unit): 6. Bishop g1: f2 e3 d4 c5 b6 a7 (6), h2 i3 (2): 8. Rook i1:
// h1 (1), i2..i9 (8): 9. Total 23.
TEST(Chess99Perft, E8LongCastlingAndBlocking) {
  Position pos = Pos("3k5/9/9/9/9/9/9/9/4K1B1R w - - 0 25");
  EXPECT_EQ(Perft(pos, 1), 23u);
  EXPECT_TRUE(Has(pos, "e1f1&g1"));
  EXPECT_FALSE(Has(pos, "e1f1&i1"));
  EXPECT_TRUE(Has(pos, "e1f1"));
  pos.MakeMove(*ParseMove(pos, "e1f1&g1"));
  EXPECT_EQ(TypeOf(pos.piece_on(Sq("e1"))), kBishop);
  EXPECT_TRUE(IsDarkSquare(Sq("e1")));  // the bishop stays on dark squares
}

// Black castles on rank 9 on both sides. King e9: d9 f9 d8 e8 f8 (5);
// e9d9&a9 and e9f9&g9 (2). Rook a9: b9 c9 d9 (3), a8..a1 (8): 11. Knight g9:
// e8 f7 h7 i8 (4). Rook i9: h9 (1), i8..i1 (8): 9. Total 31. Off the first
// rank a king never castles: with the king on e8, king 8 steps; rook a9
// b9..f9 (5) and a8..a1 (8); knight g9 f7 h7 i8 (3, e8 is the king); rook
// i9 9: 33, no castle among them.
TEST(Chess99Perft, BlackCastlesBothWays) {
  Position pos = Pos("r3k1n1r/9/9/9/9/9/9/9/4K4 b - - 0 1");
  EXPECT_EQ(Perft(pos, 1), 31u);
  EXPECT_TRUE(Has(pos, "e9d9&a9"));
  EXPECT_TRUE(Has(pos, "e9f9&g9"));
  Position off = Pos("r5n1r/4k4/9/9/9/9/9/9/4K4 b - - 0 1");
  EXPECT_EQ(Perft(off, 1), 33u);
  for (const Move& m : GenerateMoves(off)) EXPECT_FALSE(m.is_castle());
}

// E14: king a1 to a2 b1 b2 (3); nothing to castle with. Each reply lets the
// queen b3 take the king: after Ka2 (b3xa2), Kb1 (b3xb1 down the file), Kb2
// (b3xb2).
TEST(Chess99Perft, E14NoStalemate) {
  Position pos = Pos("7k1/9/9/9/9/9/1q7/9/K8 w - - 0 45");
  EXPECT_EQ(Perft(pos, 1), 3u);
  for (const Move& m : GenerateMoves(pos)) {
    pos.MakeMove(m);
    EXPECT_TRUE(CanCaptureKing(pos)) << MoveToCoordinate(m);
    pos.UnmakeMove(m);
  }
}

// E15: king a9: b9 a8 b8 (3). Pawn b1: b1=B and b1=N alone (2); the new
// bishop: a2 (1), c2 d3 e4 f5 g6 h7 i8 (7); the new knight: a3 c3 d2 (3).
// Total 16. No promotion to Q, R or paladin exists.
TEST(Chess99Perft, E15DeferredPromotion) {
  Position pos = Pos("k8/9/9/9/9/9/9/9/1p6K b - - 0 60");
  EXPECT_EQ(Perft(pos, 1), 16u);
  EXPECT_TRUE(Has(pos, "b1=B"));
  EXPECT_TRUE(Has(pos, "b1=N"));
  EXPECT_TRUE(Has(pos, "b1=Be4"));
  EXPECT_TRUE(Has(pos, "b1=Nd2"));
  EXPECT_FALSE(ParseMove(pos, "b1=Q").ok());
  EXPECT_FALSE(ParseMove(pos, "b1=Ae4").ok());
}

// A deferred promotion whose new knight takes en passant. White pawn d9
// waits unpromoted; Black just played e8e6 (e.p. e7). King e1: d1 f1 d2 e2
// f2 (5; the black king on i1 is the nearest unit to the right, no
// castle). d9=B / d9=N alone (2); bishop c8 b7 a6, e8 f7 g6 h5 i4 (8);
// knight b8 c7 f8 and e7 quietly (4) plus d9=Ne7* (1). Total 20.
TEST(Chess99Perft, DeferredPromotionThenEnPassant) {
  Position pos = Pos("3P5/9/9/4p4/9/9/9/9/4K3k w - e7 0 30");
  EXPECT_EQ(Perft(pos, 1), 20u);
  EXPECT_TRUE(Has(pos, "d9=Ne7*"));
  pos.MakeMove(*ParseMove(pos, "d9=Ne7*"));
  EXPECT_EQ(pos.Fen(), "9/9/4N4/9/9/9/9/9/4K3k b - - 0 30");
}

// Pawn c8 onto the last rank: straight c9 (3 ways), takes the knight b9 (3
// ways) and the king d9 (3 ways): 9. King e1: 5. Total 14. An unpromoted
// pawn on the last rank has no pawn moves and gives no check.
TEST(Chess99Perft, PromotionsIncludingKingCapture) {
  Position pos = Pos("1n1k5/2P6/9/9/9/9/9/9/4K4 w - - 0 1");
  EXPECT_EQ(Perft(pos, 1), 14u);
  EXPECT_TRUE(Has(pos, "c8d9=N"));
  Position waiting = Pos("2Pk5/9/9/9/9/9/9/9/4K4 w - - 0 1");
  EXPECT_FALSE(waiting.InCheck(kBlack));
}

// A captured king ends the game: no moves after it, so perft stops there.
TEST(Chess99Perft, NoMovesAfterKingCapture) {
  Position pos = Pos("4k4/9/p8/9/9/4Q4/9/9/4K4 w - - 0 50");  // E9
  pos.MakeMove(*ParseMove(pos, "e4e9"));
  EXPECT_EQ(pos.king_square(kBlack), kNoSquare);
  EXPECT_EQ(Perft(pos, 1), 0u);
}

// Make/unmake over the whole depth-3 tree of the start position: every
// position and key comes back.
TEST(Chess99Perft, MakeUnmakeOverDepth3) {
  Position pos = Position::Start();
  const Position start = pos;
  uint64_t leaves = 0;
  for (const Move& a : GenerateMoves(pos)) {
    const Position p1 = pos;
    pos.MakeMove(a);
    for (const Move& b : GenerateMoves(pos)) {
      const Position p2 = pos;
      pos.MakeMove(b);
      for (const Move& c : GenerateMoves(pos)) {
        const Position p3 = pos;
        pos.MakeMove(c);
        ++leaves;
        pos.UnmakeMove(c);
        ASSERT_TRUE(pos == p3);
      }
      pos.UnmakeMove(b);
      ASSERT_TRUE(pos == p2);
    }
    pos.UnmakeMove(a);
    ASSERT_TRUE(pos == p1);
  }
  EXPECT_TRUE(pos == start);
  EXPECT_EQ(leaves, Perft(pos, 3));
  // Divide sums to the total.
  uint64_t sum = 0;
  for (const auto& [move, n] : PerftDivide(pos, 3)) sum += n;
  EXPECT_EQ(sum, leaves);
}

// Random playouts: perft(2) make/unmake leaves each visited position intact.
TEST(Chess99Perft, MakeUnmakeFromRandomPlayouts) {
  std::mt19937 rng(2024);
  for (int game = 0; game < 40; ++game) {
    Position pos = Position::Start();
    for (int ply = 0; ply < 120; ++ply) {
      const std::vector<Move> moves = GenerateMoves(pos);
      if (moves.empty()) break;
      const Position before = pos;
      Perft(pos, 2);
      ASSERT_TRUE(pos == before) << pos.Fen();
      pos.MakeMove(moves[rng() % moves.size()]);
    }
  }
}

// An independent, deliberately naive generator written from §3–4 directly
// (coordinates and deltas, no shared tables), compared with GenerateMoves on
// every position of random games: same moves, no duplicates.
std::set<std::string> ReferenceMoves(const Position& pos) {
  std::set<std::string> out;
  if (pos.king_square(kWhite) == kNoSquare || pos.king_square(kBlack) == kNoSquare) return out;
  const Color us = pos.side_to_move();
  const int dir = us == kWhite ? 1 : -1;
  const int last = us == kWhite ? 8 : 0;
  const int first = us == kWhite ? 0 : 8;
  const Square ep = pos.ep_square();
  auto at = [&](int f, int r) { return pos.piece_on(MakeSquare(f, r)); };
  auto own = [&](Piece p) { return p != kNoPiece && ColorOf(p) == us; };
  auto name = [](int f, int r) { return SquareName(MakeSquare(f, r)); };
  // Moves of a non-pawn of type t standing on (f, r), each written after `prefix`.
  auto piece_moves = [&](int f, int r, PieceType t, const std::string& prefix) {
    std::vector<std::pair<int, int>> leaps, slides;
    if (t == kKnight || t == kPaladin) {
      leaps = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    }
    if (t == kKing) leaps = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    if (t == kRook || t == kQueen) slides = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    if (t == kBishop || t == kQueen || t == kPaladin) {
      for (auto d : std::vector<std::pair<int, int>>{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}) {
        slides.push_back(d);
      }
    }
    auto target = [&](int tf, int tr) {
      const Piece p = at(tf, tr);
      if (own(p)) return;
      out.insert(prefix + name(tf, tr));
      if (p == kNoPiece && MakeSquare(tf, tr) == ep) out.insert(prefix + name(tf, tr) + "*");
    };
    for (auto [df, dr] : leaps) {
      if (OnBoard(f + df, r + dr)) target(f + df, r + dr);
    }
    for (auto [df, dr] : slides) {
      for (int k = 1; OnBoard(f + k * df, r + k * dr); ++k) {
        target(f + k * df, r + k * dr);
        if (at(f + k * df, r + k * dr) != kNoPiece) break;
      }
    }
  };
  auto arrive = [&](const std::string& move, int to_rank) {
    out.insert(move);
    if (to_rank == last) {
      out.insert(move + "=B");
      out.insert(move + "=N");
    }
  };
  for (int r = 0; r < 9; ++r) {
    for (int f = 0; f < 9; ++f) {
      const Piece p = at(f, r);
      if (!own(p)) continue;
      const std::string from = name(f, r);
      if (TypeOf(p) != kPawn) {
        piece_moves(f, r, TypeOf(p), from);
      } else if (r == last) {
        for (auto [t, letter] : {std::pair{kBishop, "=B"}, std::pair{kKnight, "=N"}}) {
          out.insert(from + letter);
          piece_moves(f, r, t, from + letter);
        }
      } else {
        if (at(f, r + dir) == kNoPiece) {
          arrive(from + name(f, r + dir), r + dir);
          if (OnBoard(f, r + 2 * dir) && at(f, r + 2 * dir) == kNoPiece) {
            arrive(from + name(f, r + 2 * dir), r + 2 * dir);
          }
        }
        for (int df : {-1, 1}) {
          if (!OnBoard(f + df, r + dir)) continue;
          const Piece q = at(f + df, r + dir);
          if (q != kNoPiece && !own(q)) arrive(from + name(f + df, r + dir), r + dir);
          if (q == kNoPiece && MakeSquare(f + df, r + dir) == ep) {
            arrive(from + name(f + df, r + dir) + "*", r + dir);
          }
        }
      }
      if (TypeOf(p) == kKing && r == first) {
        for (int df : {-1, 1}) {
          int g = f + df;
          while (g >= 0 && g < 9 && at(g, r) == kNoPiece) g += df;
          if (g < 0 || g > 8) continue;
          const Piece q = at(g, r);
          if (!own(q) || TypeOf(q) == kPawn || TypeOf(q) == kKing) continue;
          out.insert(from + name(f + df, r) + (g == f + df ? "" : "&" + name(g, r)));
        }
      }
    }
  }
  return out;
}

TEST(Chess99Perft, AgreesWithANaiveGeneratorOnRandomGames) {
  std::mt19937 rng(81);
  int positions = 0;
  // How often each special move came up, so that the comparison covers them.
  int ep = 0, short_castle = 0, long_castle = 0, arrival = 0, deferred = 0;
  for (int game = 0; game < 150; ++game) {
    Position pos = Position::Start();
    for (int ply = 0; ply < 300; ++ply) {
      const std::vector<Move> moves = GenerateMoves(pos);
      std::set<std::string> mine;
      for (const Move& m : moves) {
        mine.insert(MoveToCoordinate(m));
        ep += m.is_en_passant();
        short_castle += m.is_short_castle();
        long_castle += m.is_long_castle();
        arrival += m.promotion != kNoPieceType;
        deferred += m.deferred != kNoPieceType;
      }
      ASSERT_EQ(mine.size(), moves.size()) << "duplicate moves in " << pos.Fen();
      ASSERT_EQ(mine, ReferenceMoves(pos)) << pos.Fen();
      ++positions;
      if (moves.empty()) break;
      pos.MakeMove(moves[rng() % moves.size()]);
    }
  }
  EXPECT_GT(positions, 10000);
  EXPECT_GT(ep, 100);
  EXPECT_GT(short_castle, 100);
  EXPECT_GT(long_castle, 100);
  EXPECT_GT(arrival, 100);
  EXPECT_GT(deferred, 100);
  std::printf(
      "positions %d: e.p. %d, short castles %d, long castles %d, promotions %d, deferred %d\n",
      positions, ep, short_castle, long_castle, arrival, deferred);
}

// Perft(3) and perft(4) from the start, counted by the naive generator at
// every node of the depth-3 tree (checking each interior node's move list
// against GenerateMoves on the way).
TEST(Chess99Perft, StartDepth4ByTheNaiveGenerator) {
  Position pos = Position::Start();
  uint64_t depth3 = 0, depth4 = 0;
  auto same = [](const Position& p) {
    std::set<std::string> mine;
    for (const Move& m : GenerateMoves(p)) mine.insert(MoveToCoordinate(m));
    return mine == ReferenceMoves(p);
  };
  for (const Move& a : GenerateMoves(pos)) {
    pos.MakeMove(a);
    for (const Move& b : GenerateMoves(pos)) {
      pos.MakeMove(b);
      ASSERT_TRUE(same(pos)) << pos.Fen();
      for (const Move& c : GenerateMoves(pos)) {
        ++depth3;
        pos.MakeMove(c);
        depth4 += ReferenceMoves(pos).size();
        pos.UnmakeMove(c);
      }
      pos.UnmakeMove(b);
    }
    pos.UnmakeMove(a);
  }
  EXPECT_EQ(depth3, 20217u);
  EXPECT_EQ(depth4, 603314u);
  EXPECT_EQ(Perft(pos, 3), depth3);
  EXPECT_EQ(Perft(pos, 4), depth4);
}

}  // namespace
}  // namespace arbiter::chess99
