// Chess 99 board, FEN-9 (§2.1), attacks (§3) and make/unmake.
#include <random>
#include <string>

#include "core/chess99/movegen.h"
#include "core/chess99/notation.h"
#include "core/chess99/position.h"
#include "gtest/gtest.h"
#include "tests/chess99_test_support.h"

namespace arbiter::chess99 {
namespace {

std::string FenError(std::string_view fen, const Options& options = {}) {
  auto pos = Position::FromFen(fen, options);
  return pos.ok() ? "" : std::string(pos.status().message());
}

TEST(Chess99Board, SquareColoursAndNames) {
  // §1: the four corners and e5 are dark.
  for (Square s :
       {MakeSquare(0, 0), MakeSquare(8, 0), MakeSquare(0, 8), MakeSquare(8, 8), MakeSquare(4, 4)}) {
    EXPECT_TRUE(IsDarkSquare(s)) << SquareName(s);
  }
  EXPECT_FALSE(IsDarkSquare(MakeSquare(1, 0)));  // b1
  EXPECT_EQ(SquareName(0), "a1");
  EXPECT_EQ(SquareName(80), "i9");
  EXPECT_EQ(SquareName(MakeSquare(4, 4)), "e5");
}

TEST(Chess99Fen, StartPosition) {
  const Position pos = Position::Start();
  EXPECT_EQ(pos.Fen(), Position::kStartFen);
  EXPECT_EQ(TypeOf(pos.piece_on(MakeSquare(3, 0))), kQueen);    // Qd1: left of White's king
  EXPECT_EQ(TypeOf(pos.piece_on(MakeSquare(5, 0))), kPaladin);  // paladin f1
  EXPECT_EQ(TypeOf(pos.piece_on(MakeSquare(3, 8))), kPaladin);  // paladin d9
  EXPECT_EQ(TypeOf(pos.piece_on(MakeSquare(5, 8))), kQueen);    // Qf9: Black's king's left
  EXPECT_EQ(pos.unit_count(kWhite), 18);
  EXPECT_EQ(pos.unit_count(kBlack), 18);
  // §2: all four bishops start on dark squares.
  for (Square s : {MakeSquare(2, 0), MakeSquare(6, 0), MakeSquare(2, 8), MakeSquare(6, 8)}) {
    EXPECT_EQ(TypeOf(pos.piece_on(s)), kBishop);
    EXPECT_TRUE(IsDarkSquare(s));
  }
}

TEST(Chess99Fen, RoundTrips) {
  for (const char* fen : {
           "rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w - - 0 1",
           "4k4/5b3/9/9/1P7/9/9/9/4K4 b - b4 0 20",
           "1Bk6/9/9/9/9/9/9/9/4K4 b - b8 0 40",
           "4k4/9/9/3pP4/9/2n6/9/9/4K4 b - e5 0 30",
           "k8/9/9/9/9/9/9/9/1p6K b - - 0 60",
           "3P5/9/9/4p4/9/9/9/9/4K3k w - e7 0 30",
           "9/8k/9/9/4A4/9/9/K8/9 w - - 7 123",
       }) {
    EXPECT_EQ(Pos(fen).Fen(), fen);
  }
  // Four fields: halfmove 0, fullmove 1.
  EXPECT_EQ(Pos("4k4/9/9/9/9/9/9/9/4K4 w - -").Fen(), "4k4/9/9/9/9/9/9/9/4K4 w - - 0 1");
}

TEST(Chess99Fen, ErrorsSayWhatAndWhere) {
  EXPECT_EQ(FenError("4k4/9/9/9/9/9/9/9/4K4 w - - 0"),
            "FEN-9: expected 6 fields (placement side castling ep halfmove fullmove) or 4, got 5");
  EXPECT_EQ(FenError("4k4/9/9/9/9/9/9/4K4 w - - 0 1"), "FEN-9: placement has 8 ranks, expected 9");
  EXPECT_EQ(FenError("4k4/9/9/9/9/8/9/9/4K4 w - - 0 1"),
            "FEN-9: rank 4 adds up to 8 squares, expected 9 ('8')");
  EXPECT_EQ(FenError("4k5/9/9/9/9/9/9/9/4K4 w - - 0 1"),
            "FEN-9: rank 9 adds up to 10 squares, expected 9 ('4k5')");
  EXPECT_EQ(FenError("4k4/9/9/9/9/9/9/9/4K3X w - - 0 1"),
            "FEN-9: rank 1: unknown piece letter 'X' (KQARBNP, uppercase White)");
  EXPECT_EQ(FenError("4k4/9/9/9/9/9/9/9/P3K4 w - - 0 1"),
            "FEN-9: white pawn on a1, its own first rank (pawns never stand there, §4.1)");
  EXPECT_EQ(FenError("4kp3/9/9/9/9/9/9/9/4K4 w - - 0 1"),
            "FEN-9: black pawn on f9, its own first rank (pawns never stand there, §4.1)");
  EXPECT_EQ(FenError("9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
            "FEN-9: black has 0 kings; a game position has exactly one per side");
  EXPECT_EQ(FenError("4k4/9/9/9/9/9/9/9/3KK4 w - - 0 1"),
            "FEN-9: white has 2 kings; a game position has exactly one per side");
  EXPECT_EQ(FenError("4k4/9/9/9/9/9/9/9/4K4 x - - 0 1"),
            "FEN-9: side to move must be 'w' or 'b', got 'x'");
  EXPECT_NE(FenError("4k4/9/9/9/9/9/9/9/4K4 w KQkq - 0 1").find("castling field must be '-'"),
            std::string::npos);
  EXPECT_EQ(FenError("4k4/9/9/9/9/9/9/9/4K4 w - j3 0 1"),
            "FEN-9: e.p. field must be '-' or a square a1..i9, got 'j3'");
  EXPECT_EQ(FenError("4k4/9/9/9/9/9/9/9/4K4 b - b4 0 1"),
            "FEN-9: e.p. square b4: no white pawn (or B/N promoted on arrival) on b5");
  EXPECT_EQ(FenError("4k4/9/9/9/9/9/9/9/4K4 b - b9 0 1"),
            "FEN-9: e.p. square b9: no white double step can pass over it");
  EXPECT_EQ(FenError("4k4/9/9/9/9/9/9/9/4K4 w - - x 1"),
            "FEN-9: halfmove clock must be a number 0..1000000, got 'x'");
  EXPECT_EQ(FenError("4k4/9/9/9/9/9/9/9/4K4 w - - 0 0"),
            "FEN-9: fullmove number must be a number 1..1000000, got '0'");
  EXPECT_EQ(FenError("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1 extra"),
            "FEN-9: expected 6 fields (placement side castling ep halfmove fullmove) or 4, got 7");
  EXPECT_EQ(FenError("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1 extra"),
            "FEN-9: expected 6 fields (placement side castling ep halfmove fullmove) or 4, got 7");
  EXPECT_EQ(FenError("4k4/9/9/9/9/9/9/9/45 w - - 0 1"),
            "FEN-9: rank 1: two digits in a row ('45'); a run of empty squares is one digit");
  // A B/N standing on the last rank may be the e.p. victim (§4.3); elsewhere not.
  EXPECT_EQ(FenError("1Bk6/9/9/9/9/9/9/9/4K4 b - b8 0 40"), "");
  EXPECT_NE(FenError("2k6/9/1B7/9/9/9/9/9/4K4 b - b6 0 40"), "");
  // Forced promotion on arrival: no pawn may wait on its last rank.
  Options forced;
  forced.promotion = Options::PromotionTiming::kForcedOnArrival;
  EXPECT_EQ(FenError("k8/9/9/9/9/9/9/9/1p6K b - - 0 60", forced),
            "FEN-9: black pawn on b1, its last rank: promotion is forced on arrival");
  EXPECT_EQ(FenError("k8/9/9/9/9/9/9/9/1p6K b - - 0 60"), "");
}

TEST(Chess99Position, CompletedMovesFromFullmove) {
  // §2.1: White completed fullmove-1 with White to move, else fullmove;
  // Black completed fullmove-1.
  const Position w = Pos("4k4/9/9/9/9/9/9/9/4K4 w - - 0 99");
  EXPECT_EQ(w.CompletedMoves(kWhite), 98);
  EXPECT_EQ(w.CompletedMoves(kBlack), 98);
  const Position b = Pos("4k4/9/9/9/9/9/9/9/4K4 b - - 0 99");
  EXPECT_EQ(b.CompletedMoves(kWhite), 99);
  EXPECT_EQ(b.CompletedMoves(kBlack), 98);
}

TEST(Chess99Position, AttacksFollowSection3) {
  // E10: kings adjacent, the black bishop c3 sees e5 through d4.
  const Position e10 = Pos("9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60");
  EXPECT_TRUE(e10.InCheck(kWhite));
  EXPECT_TRUE(e10.InCheck(kBlack));
  EXPECT_TRUE(e10.Attacked(MakeSquare(4, 4), kBlack));  // e5 by the bishop through d4
  // A pawn attacks diagonally forward only; a last-rank pawn attacks nothing.
  const Position pawns = Pos("1P2k4/9/9/9/4p4/9/9/9/4K4 w - - 0 1");
  EXPECT_TRUE(pawns.Attacked(MakeSquare(3, 3), kBlack));   // d4 by e5
  EXPECT_TRUE(pawns.Attacked(MakeSquare(5, 3), kBlack));   // f4 by e5
  EXPECT_FALSE(pawns.Attacked(MakeSquare(4, 3), kBlack));  // e4: straight ahead
  EXPECT_FALSE(pawns.Attacked(MakeSquare(3, 5), kBlack));  // d6: backward
  // The white pawn waiting on b9 gives no check to the king on e9's
  // neighbours: nothing on rank 8 is attacked by it.
  EXPECT_FALSE(pawns.Attacked(MakeSquare(0, 7), kWhite));  // a8
  EXPECT_FALSE(pawns.Attacked(MakeSquare(2, 7), kWhite));  // c8
  // Paladin: knight leap over units, bishop slide blocked.
  const Position pal = Pos("4k4/9/9/9/4A4/3PP4/9/9/4K4 w - - 0 1");
  EXPECT_TRUE(pal.Attacked(MakeSquare(3, 2), kWhite));   // d3 by knight leap over d4/e4
  EXPECT_FALSE(pal.Attacked(MakeSquare(2, 2), kWhite));  // c3 behind d4 on the diagonal
  EXPECT_TRUE(pal.Attacked(MakeSquare(8, 8), kWhite));   // i9 along the open diagonal
}

TEST(Chess99Position, MakeUnmakeRestoresEverything) {
  // Every move of a few positions with e.p., castling and deferred promotion.
  for (const char* fen : kSpecialPositions) {
    Position pos = Pos(fen);
    const Position before = pos;
    for (const Move& m : GenerateMoves(pos)) {
      pos.MakeMove(m);
      if (pos.king_square(kWhite) != kNoSquare && pos.king_square(kBlack) != kNoSquare) {
        // The incremental key equals the key of the same position read afresh.
        const Position fresh = Pos(pos.Fen());
        EXPECT_EQ(fresh.key(), pos.key()) << fen << " " << MoveToCoordinate(m);
        EXPECT_TRUE(fresh == pos) << fen << " " << MoveToCoordinate(m);
      }
      pos.UnmakeMove(m);
      EXPECT_TRUE(pos == before) << fen << " " << MoveToCoordinate(m);
      EXPECT_EQ(pos.Fen(), fen);
    }
  }
}

TEST(Chess99Position, MoveEffects) {
  // E3: Bf8 takes b5 en passant from b4.
  Position e3 = Pos("4k4/5b3/9/9/9/9/1P7/9/4K4 w - - 0 20");
  auto push = ParseMove(e3, "b3b5");
  ASSERT_TRUE(push.ok());
  e3.MakeMove(*push);
  EXPECT_EQ(e3.Fen(), "4k4/5b3/9/9/1P7/9/9/9/4K4 b - b4 0 20");
  auto ep = ParseMove(e3, "f8b4*");
  ASSERT_TRUE(ep.ok()) << ep.status();
  e3.MakeMove(*ep);
  EXPECT_EQ(e3.Fen(), "4k4/9/9/9/9/1b7/9/9/4K4 w - - 0 21");
  // E4: b7b9=B gives the bishop on b9 and e.p. b8; Kc9xb8* removes it.
  Position e4 = Pos("2k6/9/1P7/9/9/9/9/9/4K4 w - - 0 40");
  e4.MakeMove(*ParseMove(e4, "b7b9=B"));
  EXPECT_EQ(e4.Fen(), "1Bk6/9/9/9/9/9/9/9/4K4 b - b8 0 40");
  e4.MakeMove(*ParseMove(e4, "c9b8*"));
  EXPECT_EQ(e4.Fen(), "9/1k7/9/9/9/9/9/9/4K4 w - - 0 41");
  EXPECT_TRUE(e4.bare_kings());
  // E7: short castle swaps, long castle jumps the partner over the king.
  Position e7 = Pos("4r2k1/9/9/9/9/9/9/9/R3KA3 w - - 0 25");
  Position e7b = e7;
  e7.MakeMove(*ParseMove(e7, "e1f1"));
  EXPECT_EQ(e7.Fen(), "4r2k1/9/9/9/9/9/9/9/R3AK3 b - - 1 25");
  e7b.MakeMove(*ParseMove(e7b, "e1d1&a1"));
  EXPECT_EQ(e7b.Fen(), "4r2k1/9/9/9/9/9/9/9/3KRA3 b - - 1 25");
  // E15: deferred promotion and move.
  Position e15 = Pos("k8/9/9/9/9/9/9/9/1p6K b - - 0 60");
  e15.MakeMove(*ParseMove(e15, "b1=Be4"));
  EXPECT_EQ(e15.Fen(), "k8/9/9/9/9/4b4/9/9/8K w - - 0 61");
}

TEST(Chess99Position, RandomPlayoutsKeepKeyAndUndo) {
  std::mt19937 rng(99);
  for (int game = 0; game < 200; ++game) {
    Position pos = Position::Start();
    std::vector<Move> played;
    std::vector<Position> history{pos};
    for (int ply = 0; ply < 300; ++ply) {
      const std::vector<Move> moves = GenerateMoves(pos);
      if (moves.empty()) break;  // a king was captured
      const Move m = moves[rng() % moves.size()];
      pos.MakeMove(m);
      played.push_back(m);
      history.push_back(pos);
      if (pos.king_square(kWhite) != kNoSquare && pos.king_square(kBlack) != kNoSquare) {
        const Position fresh = Pos(pos.Fen());
        ASSERT_EQ(fresh.key(), pos.key()) << pos.Fen();
        ASSERT_TRUE(fresh == pos) << pos.Fen();
      }
    }
    // Unmake all the way back, checking every intermediate position.
    for (size_t i = played.size(); i-- > 0;) {
      pos.UnmakeMove(played[i]);
      ASSERT_TRUE(pos == history[i]) << "game " << game << " ply " << i;
    }
  }
}

// The §3 attack test agrees with move generation: the side to move attacks
// the enemy king exactly when one of its ordinary (non-deferred) moves
// captures it.
TEST(Chess99Position, AttackTestAgreesWithMoveGeneration) {
  std::mt19937 rng(3);
  int checks = 0;
  for (int game = 0; game < 100; ++game) {
    Position pos = Position::Start();
    for (int ply = 0; ply < 300; ++ply) {
      const std::vector<Move> moves = GenerateMoves(pos);
      if (moves.empty()) break;
      bool captures = false;
      for (const Move& m : moves) {
        captures |= m.deferred == kNoPieceType && TypeOf(pos.CapturedPiece(m)) == kKing;
      }
      ASSERT_EQ(pos.InCheck(Opponent(pos.side_to_move())), captures) << pos.Fen();
      checks += captures;
      pos.MakeMove(moves[rng() % moves.size()]);
    }
  }
  EXPECT_GT(checks, 50);
}

}  // namespace
}  // namespace arbiter::chess99
