// Chess 99 move notation: our coordinate form and the site's SAN-like form.
#include <random>
#include <string>
#include <vector>

#include "core/chess99/movegen.h"
#include "core/chess99/notation.h"
#include "core/chess99/position.h"
#include "gtest/gtest.h"
#include "tests/chess99_test_support.h"

namespace arbiter::chess99 {
namespace {

// Site text -> coordinate form, or the error message.
std::string Site(const Position& pos, std::string_view text) {
  auto m = ParseSite(pos, text);
  return m.ok() ? MoveToCoordinate(*m) : std::string(m.status().message());
}

std::string SiteOf(const Position& pos, std::string_view coordinate) {
  auto m = ParseCoordinate(pos, coordinate);
  EXPECT_TRUE(m.ok()) << coordinate << ": " << m.status();
  return m.ok() ? MoveToSite(pos, *m) : "";
}

void ExpectRoundTrips(const Position& pos) {
  for (const Move& m : GenerateMoves(pos)) {
    const std::string coordinate = MoveToCoordinate(m);
    auto back = ParseCoordinate(pos, coordinate);
    ASSERT_TRUE(back.ok()) << pos.Fen() << " " << coordinate << ": " << back.status();
    EXPECT_TRUE(*back == m) << pos.Fen() << " " << coordinate;
    const std::string site = MoveToSite(pos, m);
    auto from_site = ParseSite(pos, site);
    ASSERT_TRUE(from_site.ok()) << pos.Fen() << " " << site << ": " << from_site.status();
    EXPECT_TRUE(*from_site == m) << pos.Fen() << " " << site << " read as "
                                 << MoveToCoordinate(*from_site) << ", not " << coordinate;
    auto any = ParseMove(pos, site);
    ASSERT_TRUE(any.ok()) << site;
    EXPECT_TRUE(*any == m) << pos.Fen() << " " << site;
  }
}

TEST(Chess99Notation, CoordinateForms) {
  EXPECT_EQ(SiteOf(Position::Start(), "e1f1"), "Kf1");  // short castle with the paladin
  Position e7 = Pos("4r2k1/9/9/9/9/9/9/9/R3KA3 w - - 0 25");
  auto longc = ParseCoordinate(e7, "e1d1&a1");
  ASSERT_TRUE(longc.ok());
  EXPECT_TRUE(longc->is_long_castle());
  auto step = ParseCoordinate(e7, "e1d1");
  ASSERT_TRUE(step.ok());
  EXPECT_FALSE(step->is_castle());
  Position e3 = Pos("4k4/5b3/9/9/1P7/9/9/9/4K4 b - b4 0 20");
  auto ep = ParseCoordinate(e3, "f8b4*");
  ASSERT_TRUE(ep.ok());
  EXPECT_TRUE(ep->is_en_passant());
  Position e4 = Pos("2k6/9/1P7/9/9/9/9/9/4K4 w - - 0 40");
  EXPECT_EQ(ParseCoordinate(e4, "b7b9=B")->promotion, kBishop);
  EXPECT_EQ(ParseCoordinate(e4, "b7b9n")->promotion, kKnight);  // UCI style
  EXPECT_EQ(ParseCoordinate(e4, "b7b9")->promotion, kNoPieceType);
  Position e15 = Pos("k8/9/9/9/9/9/9/9/1p6K b - - 0 60");
  EXPECT_EQ(ParseCoordinate(e15, "b1=B")->kind, MoveKind::kPromoteOnly);
  EXPECT_EQ(ParseCoordinate(e15, "b1=Be4")->deferred, kBishop);
}

TEST(Chess99Notation, CoordinateErrors) {
  const Position start = Position::Start();
  auto e = ParseCoordinate(start, "e2e5");
  EXPECT_EQ(e.status().message(),
            "illegal move 'e2e5' in rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w - - 0 1");
  EXPECT_EQ(ParseCoordinate(start, "e4e5").status().message(),
            "illegal move 'e4e5' in rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w - - 0 1: "
            "no white unit on e4");
  EXPECT_EQ(ParseCoordinate(start, "e2").status().message(),
            "cannot read move 'e2': expected a destination square such as e4");
  EXPECT_EQ(ParseCoordinate(start, "j2j4").status().message(),
            "cannot read move 'j2j4': expected an origin square such as e2");
  Position e15 = Pos("k8/9/9/9/9/9/9/9/1p6K b - - 0 60");
  EXPECT_EQ(ParseCoordinate(e15, "b1=Q").status().message(),
            "cannot read move 'b1=Q': a pawn promotes only to a bishop or a knight (=B or =N, "
            "§4.3)");
  // A long castle needs its partner named: e1f1&i1 is not legal in E8.
  Position e8 = Pos("3k5/9/9/9/9/9/9/9/4K1B1R w - - 0 25");
  EXPECT_FALSE(ParseCoordinate(e8, "e1f1&i1").ok());
}

TEST(Chess99Notation, SiteExamplesFromTheSpec) {
  // §4.2 / E3: b35 then Bxb4*.
  Position e3 = Pos("4k4/5b3/9/9/9/9/1P7/9/4K4 w - - 0 20");
  EXPECT_EQ(Site(e3, "b35"), "b3b5");
  EXPECT_EQ(SiteOf(e3, "b3b5"), "b35");
  Position e3b = Pos("4k4/5b3/9/9/1P7/9/9/9/4K4 b - b4 0 20");
  EXPECT_EQ(Site(e3b, "Bxb4*"), "f8b4*");
  EXPECT_EQ(Site(e3b, "Bb4*"), "f8b4*");
  EXPECT_EQ(Site(e3b, "Bxb4"), "f8b4*");  // x onto the empty e.p. square: the e.p. capture
  EXPECT_EQ(Site(e3b, "Bb4"), "f8b4");    // the quiet move there
  EXPECT_EQ(Site(e3b, "B×b4(*)"), "f8b4*");
  EXPECT_EQ(SiteOf(e3b, "f8b4*"), "Bxb4*");
  // E4: b79=B, then Kxb8(B*).
  Position e4 = Pos("2k6/9/1P7/9/9/9/9/9/4K4 w - - 0 40");
  EXPECT_EQ(Site(e4, "b79=B"), "b7b9=B");
  EXPECT_EQ(Site(e4, "b9=B"), "b7b9=B");
  EXPECT_EQ(Site(e4, "b9"), "b7b9");
  EXPECT_EQ(SiteOf(e4, "b7b9=N"), "b79=N");
  Position e4b = Pos("1Bk6/9/9/9/9/9/9/9/4K4 b - b8 0 40");
  EXPECT_EQ(Site(e4b, "Kxb8(B*)"), "c9b8*");
  EXPECT_EQ(Site(e4b, "Kxb9(B)"), "c9b9");
  EXPECT_NE(Site(e4b, "Kxb9(N)"), "c9b9");  // the captured unit must match
  // §2: Bc1a3 and Nh9g7 (origin squares, the newer site form).
  Position start = Position::Start();
  start.MakeMove(*ParseSite(start, "b4"));
  EXPECT_EQ(Site(start, "Nh9g7"), "h9g7");
  start.MakeMove(*ParseSite(start, "Nh9g7"));
  EXPECT_EQ(Site(start, "Bc1a3"), "c1a3");
  EXPECT_EQ(Site(start, "Ba3"), "c1a3");
  // The paladin is P in site notation; A is read too.
  const Position s = Position::Start();
  EXPECT_EQ(Site(s, "Pe3"), "f1e3");
  EXPECT_EQ(Site(s, "Ae3"), "f1e3");
  EXPECT_EQ(SiteOf(s, "f1e3"), "Pe3");
  EXPECT_EQ(Site(s, "e4"), "e2e4");
  EXPECT_EQ(Site(s, "e24"), "e2e4");
  EXPECT_EQ(Site(s, "e2-e4"), "e2e4");
  EXPECT_EQ(SiteOf(s, "e2e3"), "e3");
  // E15: b=Be4 and b=N, deferred promotion.
  Position e15 = Pos("k8/9/9/9/9/9/9/9/1p6K b - - 0 60");
  EXPECT_EQ(Site(e15, "b=Be4"), "b1=Be4");
  EXPECT_EQ(Site(e15, "b1=Be4"), "b1=Be4");
  EXPECT_EQ(Site(e15, "b=N"), "b1=N");
  EXPECT_EQ(Site(e15, "b1=N"), "b1=N");
  EXPECT_EQ(Site(e15, "b=Nd2+"), "b1=Nd2");
  EXPECT_EQ(SiteOf(e15, "b1=Be4"), "b=Be4");
  EXPECT_EQ(SiteOf(e15, "b1=B"), "b=B");
  EXPECT_NE(Site(e15, "b=Qe4").find("promotes only to a bishop or a knight"), std::string::npos);
}

TEST(Chess99Notation, SiteCastlingAndKingCaptures) {
  const Position s = Position::Start();
  EXPECT_EQ(Site(s, "Kf1"), "e1f1");  // onto the friendly paladin: the swap
  EXPECT_EQ(Site(s, "Kd1"), "e1d1");
  Position e7 = Pos("4r2k1/9/9/9/9/9/9/9/R3KA3 w - - 0 25");
  EXPECT_EQ(Site(e7, "Kd1"), "e1d1");  // the plain step
  EXPECT_EQ(Site(e7, "Kd1&a1"), "e1d1&a1");
  EXPECT_EQ(Site(e7, "Kd1&R"), "e1d1&a1");
  EXPECT_EQ(Site(e7, "Kd1&Ra1"), "e1d1&a1");
  EXPECT_EQ(Site(e7, "Kf1&f1"), "e1f1");  // a short castle may name its partner too
  EXPECT_EQ(SiteOf(e7, "e1d1&a1"), "Kd1&a1");
  EXPECT_EQ(SiteOf(e7, "e1f1"), "Kf1");
  // E9 / E10: king captures carry (K).
  Position e9 = Pos("4k4/9/p8/9/9/4Q4/9/9/4K4 w - - 0 50");
  EXPECT_EQ(SiteOf(e9, "e4e9"), "Qxe9(K)");
  EXPECT_EQ(Site(e9, "Qxe9(K)"), "e4e9");
  EXPECT_EQ(Site(e9, "Qe9"), "e4e9");
  EXPECT_EQ(Site(e9, "Qxe9#"), "e4e9");
  Position e10 = Pos("9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60");
  EXPECT_EQ(Site(e10, "Nxe5(K)"), "c6e5");
  EXPECT_EQ(Site(e10, "Kxe5(K)"), "d5e5");
}

TEST(Chess99Notation, SiteDisambiguationAndErrors) {
  // Knights b1 and f1 both reach d2; knights b1 and b3 both reach d2 too.
  Position pos = Pos("4k4/9/9/9/9/9/1N7/9/1N3N2K w - - 0 1");
  EXPECT_NE(Site(pos, "Nd2").find("is ambiguous"), std::string::npos);
  EXPECT_EQ(Site(pos, "Nfd2"), "f1d2");
  EXPECT_EQ(Site(pos, "N3d2"), "b3d2");
  EXPECT_EQ(Site(pos, "Nb1d2"), "b1d2");
  EXPECT_EQ(SiteOf(pos, "f1d2"), "Nfd2");
  EXPECT_EQ(SiteOf(pos, "b3d2"), "N3d2");
  EXPECT_EQ(SiteOf(pos, "b1d2"), "Nb1d2");
  EXPECT_NE(Site(pos, "Qd2").find("illegal move 'Qd2'"), std::string::npos);
  EXPECT_NE(Site(pos, "Nxd2").find("illegal move"), std::string::npos);  // nothing to take
  EXPECT_NE(Site(pos, "Zd2").find("cannot read move"), std::string::npos);
  EXPECT_NE(Site(pos, "").find("empty"), std::string::npos);
}

// The draw-rules page's line (seed 002): 96... b42 97. Ki1 b1 98. Kh1 b=Be4
// 99. Ki1 Ng1 100. Kh1 Bxh1(K), on a position we rebuilt around it.
TEST(Chess99Notation, DrawRulesPageLine) {
  Position pos = Pos("9/9/9/9/9/1p7/6k2/4n4/7K1 b - - 0 96");
  for (const char* san : {"b42", "Ki1", "b1", "Kh1", "b=Be4", "Ki1", "Ng1", "Kh1", "Bxh1(K)"}) {
    auto m = ParseSite(pos, san);
    ASSERT_TRUE(m.ok()) << san << ": " << m.status();
    EXPECT_EQ(MoveToSite(pos, *m), san);
    pos.MakeMove(*m);
  }
  EXPECT_EQ(pos.king_square(kWhite), kNoSquare);
  EXPECT_EQ(pos.fullmove_number(), 101);
}

TEST(Chess99Notation, EveryMoveRoundTripsInExamplePositions) {
  std::vector<std::string> fens(std::begin(kSpecialPositions), std::end(kSpecialPositions));
  for (const char* fen : {
           "1n1k5/2P6/9/9/9/9/9/9/4K4 w - - 0 1",
           "4k4/9/9/9/9/9/1N7/9/1N3N2K w - - 0 1",
           "9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60",
           // Many same-type units: queens cannot be had by promotion, but rooks
           // and knights crowd on shared squares.
           "r3k3r/9/2N1N4/9/2N1N4/9/R7R/9/4K4 w - - 0 1",
       })
    fens.push_back(fen);
  for (const std::string& fen : fens) {
    ExpectRoundTrips(Pos(fen));
  }
}

TEST(Chess99Notation, EveryMoveRoundTripsInRandomGames) {
  std::mt19937 rng(7);
  for (int game = 0; game < 60; ++game) {
    Position pos = Position::Start();
    for (int ply = 0; ply < 250; ++ply) {
      const std::vector<Move> moves = GenerateMoves(pos);
      if (moves.empty()) break;
      ExpectRoundTrips(pos);
      if (HasFailure()) return;
      pos.MakeMove(moves[rng() % moves.size()]);
    }
  }
}

}  // namespace
}  // namespace arbiter::chess99
