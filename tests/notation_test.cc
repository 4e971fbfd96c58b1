#include "core/chess/notation.h"

#include <gtest/gtest.h>

#include "core/chess/movegen.h"

namespace arbiter {
namespace {

Position FromFen(const char* fen) {
  absl::StatusOr<Position> pos = Position::FromFen(fen);
  EXPECT_TRUE(pos.ok()) << pos.status();
  return *pos;
}

std::string San(const char* fen, const char* uci) {
  Position pos = FromFen(fen);
  absl::StatusOr<Move> m = ParseUci(pos, uci);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? ToSan(pos, *m) : "";
}

std::string UciOfSan(const char* fen, const char* san) {
  Position pos = FromFen(fen);
  absl::StatusOr<Move> m = ParseSan(pos, san);
  return m.ok() ? ToUci(pos, *m) : "error: " + std::string(m.status().message());
}

constexpr char kStart[] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

TEST(Notation, WritesSan) {
  EXPECT_EQ(San(kStart, "g1f3"), "Nf3");
  EXPECT_EQ(San(kStart, "e2e4"), "e4");
  // File, rank and full-square disambiguation.
  EXPECT_EQ(San("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2"), "Nbd2");
  EXPECT_EQ(San("4k3/8/8/8/8/1N6/8/1N2K3 w - - 0 1", "b1d2"), "N1d2");
  EXPECT_EQ(San("7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "a4b3"), "Qa4b3");
  // Promotion, capture, check and mate marks.
  EXPECT_EQ(San("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q"), "exd8=Q+");
  EXPECT_EQ(San("7k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n"), "e8=N");
  EXPECT_EQ(San("6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8"), "Ra8#");
  EXPECT_EQ(San("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"), "O-O");
  EXPECT_EQ(San("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1"), "O-O-O");
  EXPECT_EQ(San("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 3", "e5d6"), "exd6");
}

TEST(Notation, ReadsRealWorldSanVariants) {
  const char* castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  EXPECT_EQ(UciOfSan(castle, "O-O"), "e1g1");
  EXPECT_EQ(UciOfSan(castle, "0-0"), "e1g1");
  EXPECT_EQ(UciOfSan(castle, "O-O-O+"), "e1c1");
  EXPECT_EQ(UciOfSan(castle, "0-0-0"), "e1c1");
  const char* promo = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
  EXPECT_EQ(UciOfSan(promo, "e8=Q"), "e7e8q");
  EXPECT_EQ(UciOfSan(promo, "e8Q"), "e7e8q");
  EXPECT_EQ(UciOfSan(promo, "e8(N)"), "e7e8n");
  EXPECT_EQ(UciOfSan(promo, "e8=r"), "e7e8r");
  EXPECT_EQ(UciOfSan(promo, "exd8=Q+!"), "e7d8q");
  EXPECT_EQ(UciOfSan(promo, "ed8Q"), "e7d8q");
  EXPECT_EQ(UciOfSan(kStart, "Nf3!?"), "g1f3");
  EXPECT_EQ(UciOfSan(kStart, "Ng1-f3"), "g1f3");
  EXPECT_EQ(UciOfSan(kStart, "e2-e4"), "e2e4");
  EXPECT_EQ(UciOfSan(kStart, "e2e4"), "e2e4");
  EXPECT_EQ(UciOfSan(kStart, "Pe4"), "e2e4");
  EXPECT_EQ(UciOfSan("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 3", "exd6 e.p."), "e5d6");
  EXPECT_EQ(UciOfSan("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 3", "exd6e.p."), "e5d6");
  // Pawn push "b4" and bishop "Bb4" never confused.
  EXPECT_EQ(UciOfSan("4k3/8/8/8/8/8/1P6/2B1K3 w - - 0 1", "b4"), "b2b4");
  EXPECT_EQ(UciOfSan("4k3/8/8/8/8/8/1P6/2B1K3 w - - 0 1", "Bb2").substr(0, 6), "error:");
}

TEST(Notation, SanErrorsSayWhy) {
  EXPECT_NE(UciOfSan("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2").find("ambiguous"),
            std::string::npos);
  EXPECT_NE(UciOfSan(kStart, "e5").find("not a legal move"), std::string::npos);
  EXPECT_NE(UciOfSan(kStart, "O-O").find("castling is not legal"), std::string::npos);
  EXPECT_NE(UciOfSan(kStart, "Zf3").find("error"), std::string::npos);
  EXPECT_NE(UciOfSan(kStart, "").find("empty move"), std::string::npos);
  EXPECT_NE(UciOfSan("7k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8").find("promotion piece missing"),
            std::string::npos);
}

TEST(Notation, UciCastlingSpellings) {
  Position pos = FromFen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  absl::StatusOr<Move> a = ParseUci(pos, "e1g1");
  absl::StatusOr<Move> b = ParseUci(pos, "e1h1");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(a->kind(), Move::kCastling);
  EXPECT_EQ(ToUci(pos, *a), "e1g1");
  // Chess960: king on f1 with rook on g1. "f1g1" is castling (king takes rook).
  Position c960 = *Position::FromFen("3k4/8/8/8/8/8/8/4RKR1 w G - 0 1");
  ASSERT_TRUE(c960.chess960());
  absl::StatusOr<Move> m = ParseUci(c960, "f1g1");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->kind(), Move::kCastling);
  EXPECT_EQ(ToSan(c960, *m), "O-O");
  EXPECT_FALSE(ParseUci(pos, "e1e3").ok());
  EXPECT_FALSE(ParseUci(pos, "e1").ok());
  EXPECT_FALSE(ParseUci(pos, "e7e8x").ok());
}

}  // namespace
}  // namespace arbiter
