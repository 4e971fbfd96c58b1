#include <gtest/gtest.h>

#include "core/chess/position.h"

namespace arbiter {
namespace {

std::string ErrorOf(const std::string& fen) {
  absl::StatusOr<Position> pos = Position::FromFen(fen);
  return pos.ok() ? "" : std::string(pos.status().message());
}

TEST(Fen, RoundTripsCanonicalFens) {
  for (const char* fen : {
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
           "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
           "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
           "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 3",
           "8/8/8/8/8/8/8/K6k b - - 99 150",
       }) {
    absl::StatusOr<Position> pos = Position::FromFen(fen);
    ASSERT_TRUE(pos.ok()) << fen << ": " << pos.status();
    EXPECT_EQ(pos->Fen(), fen);
  }
}

TEST(Fen, AcceptsFourFieldEpd) {
  absl::StatusOr<Position> pos =
      Position::FromFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_EQ(pos->halfmove_clock(), 0);
  EXPECT_EQ(pos->fullmove_number(), 1);
  EXPECT_EQ(pos->key(), Position::Start().key());
}

TEST(Fen, EnPassantSquareKeptOnlyWhenCaptureIsLegal) {
  // No black pawn can capture: the square is dropped (FIDE 9.2.3 identity).
  absl::StatusOr<Position> pos =
      Position::FromFen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_EQ(pos->ep_square(), kNoSquare);
  EXPECT_EQ(pos->Fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  // The capturing pawn is pinned against its king along the rank: illegal.
  pos = Position::FromFen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 2");
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_EQ(pos->ep_square(), kNoSquare);
  pos = Position::FromFen("8/8/8/K2pP3/8/8/8/7k w - d6 0 2");
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_EQ(pos->ep_square(), kD6);
}

TEST(Fen, ReadsChess960CastlingFields) {
  // Shredder-FEN (file letters) and X-FEN (KQkq for outermost rooks).
  const char* shredder = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";
  const char* xfen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1";
  absl::StatusOr<Position> a = Position::FromFen(shredder);
  absl::StatusOr<Position> b = Position::FromFen(xfen);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_TRUE(a->chess960());
  EXPECT_TRUE(b->chess960());
  EXPECT_EQ(a->key(), b->key());
  EXPECT_EQ(a->castling_rook(kWhiteOO), kG1);
  EXPECT_EQ(a->castling_rook(kWhiteOOO), kE1);
  EXPECT_EQ(a->castling_rook(kBlackOO), kG8);
  EXPECT_EQ(a->Fen(), xfen);
  absl::StatusOr<Position> inner = Position::FromFen("rk2r3/8/8/8/8/8/8/RK2R3 w Ee - 0 1");
  ASSERT_TRUE(inner.ok()) << inner.status();
  EXPECT_EQ(inner->castling_rook(kWhiteOO), kE1);
  // e1 is the only rook on the king side, so X-FEN writes plain K.
  EXPECT_EQ(inner->Fen(), "rk2r3/8/8/8/8/8/8/RK2R3 w Kk - 0 1");
  // An inner rook (another stands further out) needs its file letter.
  absl::StatusOr<Position> two = Position::FromFen("1k1r3r/8/8/8/8/8/8/1K1R3R w Dd - 0 1");
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_EQ(two->castling_rook(kWhiteOO), kD1);
  EXPECT_EQ(two->Fen(), "1k1r3r/8/8/8/8/8/8/1K1R3R w Dd - 0 1");
}

TEST(Fen, StandardCastlingStaysStandard) {
  absl::StatusOr<Position> pos = Position::FromFen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_FALSE(pos->chess960());
  EXPECT_EQ(pos->Fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
}

TEST(Fen, ErrorsSayWhatAndWhere) {
  struct Case {
    const char* fen;
    const char* expected;
  } cases[] = {
      {"", "FEN must have 6 fields"},
      {"8/8/8/8/8/8/8/8 w - - 0 1", "white has 0 kings"},
      {"kk6/8/8/8/8/8/8/K7 w - - 0 1", "black has 2 kings"},
      {"k7/8/8/8/8/8/8/K6P w - - 0 1", "pawn on h1 (first or last rank)"},
      {"k6p/8/8/8/8/8/8/K7 w - - 0 1", "pawn on h8"},
      {"k7/8/8/8/8/8/8/K7 x - - 0 1", "field 2 (side to move) \"x\": must be 'w' or 'b'"},
      {"k7/8/8/8/8/8/8/R6K w - - 0 1", "black (not to move) is in check"},
      {"k7/8/8/8/8/8/K7/R6R w KQ - 0 1", "the king is not on its back rank"},
      {"4k3/8/8/8/8/8/8/4K3 w K - 0 1", "no white rook is in place"},
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQkX - 0 1", "unexpected character 'X'"},
      {"4k3/8/8/8/8/8/8/4K3 w - e4 0 1", "must be on rank 6 when white is to move"},
      {"4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "no pawn on e5"},
      {"4k3/8/8/4p3/8/8/8/4K3 w - e9 0 1", "not a square"},
      {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 3 2", "must be 0 when an en passant square is given"},
      {"4k3/8/8/8/8/8/8/4K3 w - - x 1", "field 5 (halfmove clock) \"x\": not a non-negative"},
      {"4k3/8/8/8/8/8/8/4K3 w - - -1 1", "not a non-negative integer"},
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1x", "field 6 (fullmove number)"},
      {"4k3/8/8/8/8/8/8/4K3 w - - 0", "found 5"},
      {"4k3/8/8/8/8/8/4K3 w - - 0 1", "fewer than 8 ranks"},
      {"4k3/9/8/8/8/8/8/4K3 w - - 0 1", "unexpected character '9'"},
      {"4k3/8/8/8/8/8/8/4K4 w - - 0 1", "more than 8 squares"},
      {"4k3/8/8/8/8/8/8/4K2 w - - 0 1", "rank 1 has 7 squares"},
      {"4k3/ppppppppp/8/8/8/8/8/4K3 w - - 0 1", "more than 8 squares"},
      {"4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "black has more than 8 pawns"},
  };
  for (const Case& c : cases) {
    EXPECT_NE(ErrorOf(c.fen).find(c.expected), std::string::npos)
        << "FEN: " << c.fen << "\nerror: " << ErrorOf(c.fen) << "\nexpected: " << c.expected;
  }
}

TEST(Fen, KeyIgnoresCountersButNotState) {
  auto key = [](const char* fen) { return Position::FromFen(fen)->key(); };
  EXPECT_EQ(key("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), key("4k3/8/8/8/8/8/8/R3K3 w Q - 40 70"));
  EXPECT_NE(key("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), key("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
  EXPECT_NE(key("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), key("4k3/8/8/8/8/8/8/R3K3 b - - 0 1"));
}

}  // namespace
}  // namespace arbiter
