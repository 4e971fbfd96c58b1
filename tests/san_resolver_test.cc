// ResolveSan must agree with ParseSan on every input: same move, or an error
// with the same message. Suite names contain "pgn" for `ctest -R pgn`.
#include "core/pgn/san_resolver.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "core/io/byte_source.h"
#include "core/pgn/game_replay.h"
#include "core/pgn/pgn_reader.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

using arbiter::testing::FromFen;

// Empty when both agree, else a description of the difference.
std::string Disagreement(const Position& pos, const std::string& san) {
  absl::StatusOr<Move> fast = ResolveSan(pos, san);
  absl::StatusOr<Move> slow = ParseSan(pos, san);
  if (fast.ok() == slow.ok() && (fast.ok() ? *fast == *slow : fast.status() == slow.status()))
    return {};
  auto show = [&](const absl::StatusOr<Move>& m) {
    return m.ok() ? ToUci(pos, *m) : std::string(m.status().message());
  };
  return pos.Fen() + " \"" + san + "\": ResolveSan " + show(fast) + ", ParseSan " + show(slow);
}

// Every SAN-like spelling of piece, disambiguation, capture mark, target and
// promotion, legal or not.
std::vector<std::string> Spellings() {
  std::vector<std::string> out;
  for (std::string piece : {"", "N", "B", "R", "Q", "K"}) {
    std::vector<std::string> disambiguations = {""};
    for (char f = 'a'; f <= 'h'; ++f) disambiguations.push_back(std::string(1, f));
    for (char r = '1'; r <= '8'; ++r) disambiguations.push_back(std::string(1, r));
    if (!piece.empty()) disambiguations.push_back("e2");
    for (const std::string& d : disambiguations)
      for (std::string x : {"", "x"})
        for (int sq = 0; sq < 64; ++sq)
          for (std::string promo : {"", "=Q", "=N"})
            out.push_back(piece + d + x + SquareName(Square(sq)) + promo + (sq % 7 ? "" : "+"));
  }
  for (const char* castling : {"O-O", "O-O-O", "O-O+", "O-O-O#", "0-0", "0-0-0", "O-O-O-O", "O-"})
    out.push_back(castling);
  return out;
}

const char* const kTrickyFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Kiwipete: castling, pins, promotions nearby.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    // En passant, including one that would expose the king.
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",
    "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 2",
    // Pinned pieces and checks.
    "4k3/4r3/8/8/8/2b5/3N4/4K2R w K - 0 1",
    "4k3/8/8/1b6/8/3N4/4B3/4K2r w - - 0 1",
    "4k3/8/8/8/4r3/8/3NPN2/4K3 w - - 0 1",
    "4k3/8/8/8/4r3/5n2/3P4/4K3 w - - 0 1",  // double check
    "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",      // pawn check
    // Promotions with captures, several knights and queens.
    "1r2k1r1/P1P3P1/8/8/8/8/1p4p1/R3K2R w KQ - 0 1",
    "1r2k1r1/P1P3P1/8/8/8/8/1p4p1/R3K2R b KQ - 0 1",
    "7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1",
    "4k3/8/8/8/8/1N3N2/8/1N2K1N1 w - - 0 1",
    // Castling: through an attacked square, out of check, blocked, Chess960
    // with king and rook on their own target squares.
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "r3k2r/8/8/8/5q2/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/4q3/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1",
    "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1",
    "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1",
    "2r1k1r1/8/8/8/8/8/8/2R1K1R1 w KQkq - 0 1",
    "1k6/8/8/8/8/8/8/R5KR w KQ - 0 1",
    "k7/8/8/8/8/8/8/1RK5 w Q - 0 1",
};

TEST(pgn_san_resolver, AgreesWithParseSanOnEverySpelling) {
  const std::vector<std::string> spellings = Spellings();
  for (const char* fen : kTrickyFens) {
    Position pos = FromFen(fen);
    int disagreements = 0;
    for (const std::string& san : spellings) {
      std::string diff = Disagreement(pos, san);
      if (!diff.empty() && ++disagreements <= 5) ADD_FAILURE() << diff;
    }
    // And every legal move written the canonical way.
    for (Move m : MoveList(pos)) {
      std::string san = ToSan(pos, m);
      absl::StatusOr<Move> back = ResolveSan(pos, san);
      ASSERT_TRUE(back.ok()) << fen << " " << san << ": " << back.status();
      EXPECT_EQ(*back, m) << fen << " " << san;
    }
  }
}

TEST(pgn_san_resolver, HandlesPinsChecksAndEnPassant) {
  auto uci = [](const std::string& fen, const std::string& san) {
    Position pos = FromFen(fen);
    absl::StatusOr<Move> m = ResolveSan(pos, san);
    return m.ok() ? ToUci(pos, *m) : "error";
  };
  // The d2 knight is pinned by the c3 bishop; only the other knight moves.
  EXPECT_EQ(uci("4k3/8/8/8/8/2b5/3N4/4K1N1 w - - 0 1", "Nf3"), "g1f3");
  EXPECT_EQ(uci("4k3/8/8/8/8/2b5/3N4/4K3 w - - 0 1", "Nf3"), "error");
  // A pinned rook may slide along the pin.
  EXPECT_EQ(uci("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1", "Rxe7+"), "e2e7");
  EXPECT_EQ(uci("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1", "Rd2"), "error");
  // In check: block or capture only.
  EXPECT_EQ(uci("4k3/8/8/8/4r3/8/8/R3K3 w Q - 0 1", "Ra4"), "error");
  EXPECT_EQ(uci("4k3/8/8/8/4r3/8/8/3RK3 w - - 0 1", "Re1"), "error");
  EXPECT_EQ(uci("4k3/8/8/8/4r3/8/8/4K2R w K - 0 1", "Rh4"), "error");
  EXPECT_EQ(uci("4k3/8/8/8/r3r3/8/8/R3K3 w Q - 0 1", "Rxa4"), "error");
  EXPECT_EQ(uci("4k3/8/8/8/4r3/8/8/4KR2 w - - 0 1", "Re1"), "error");
  EXPECT_EQ(uci("4k3/8/8/8/4r3/8/3R4/4K3 w - - 0 1", "Re2"), "d2e2");
  // The king may not step along the checking line.
  EXPECT_EQ(uci("4k3/8/8/8/4r3/8/8/4K3 w - - 0 1", "Ke2"), "error");
  EXPECT_EQ(uci("4k3/8/8/8/4r3/8/8/4K3 w - - 0 1", "Kd2"), "e1d2");
  // En passant, and the one that would expose the king along the rank.
  EXPECT_EQ(uci("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6"), "e5d6");
  EXPECT_EQ(uci("8/8/8/K2pP2r/8/8/8/7k w - d6 0 2", "exd6"), "error");
  // Promotion with capture; double push.
  EXPECT_EQ(uci("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "axb8=N"), "a7b8n");
  EXPECT_EQ(uci("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e4"), "e2e4");
  EXPECT_EQ(uci("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e4"), "error");
}

// Every move of the real collection resolves as ParseSan resolves it.
TEST(pgn_san_resolver, AgreesWithParseSanOnLichessGames) {
  std::string shared = testing::SharedDir();
  std::string path = shared + "/games/lichess_jishanshaikh4_37221.pgn.zst";
  if (shared.empty() || !std::filesystem::exists(path))
    GTEST_SKIP() << "shared game collection not found (set ARBITER_SHARED)";
  absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(path);
  ASSERT_TRUE(source.ok()) << source.status();
  PgnReader reader(std::move(*source), PgnReaderOptions{.keep_comments = false});
  RawGame raw;
  ReplayedGame game;
  int64_t moves = 0;
  int failures = 0;
  while (reader.Next(&raw) && failures < 5) {
    RawGame header_only = raw;
    header_only.moves.clear();
    ReplayGame(header_only, &game);
    if (!game.error.ok()) continue;  // unsupported variants
    Position pos = game.start;
    for (const RawMove& m : raw.moves) {
      std::string diff = Disagreement(pos, m.san);
      if (!diff.empty()) {
        ADD_FAILURE() << "game " << raw.index << ": " << diff;
        ++failures;
        break;
      }
      absl::StatusOr<Move> move = ParseSan(pos, m.san);
      if (!move.ok()) break;
      pos.DoMove(*move);
      ++moves;
    }
  }
  EXPECT_GT(moves, 2000000);
}

}  // namespace
}  // namespace arbiter
