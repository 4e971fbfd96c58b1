// Move text: UCI (ParseUci) and SAN (ParseSan, and ResolveSan, its fast path
// for game replay). The input's first line is a FEN (read in Chess960 mode
// when it starts with '@'); when it does not parse, the first byte picks one
// of a few seed positions. The rest is whitespace-separated move text.
//
// Checked: a move either reader accepts is legal; ResolveSan and ParseSan
// agree (documented: same results); ToUci and ToSan of a move read back as
// that move, for the tokens and for every legal move of the last position.
// The first accepted reading of each token is played.
#include <array>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "core/chess/position.h"
#include "core/pgn/san_resolver.h"
#include "fuzz/fuzz_support.h"

namespace arbiter::fuzz {
namespace {

struct SeedPosition {
  const char* fen;
  bool chess960;
};
// Castling, en passant, promotions, checks and pins, standard and Chess960.
constexpr std::array<SeedPosition, 12> kSeeds = {{
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false},
    {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},
    {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", false},
    {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", false},
    {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},
    {"4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1", false},
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
    {"2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1", true},
    {"rkr5/pppppppp/8/8/8/8/PPPPPPPP/RKR5 w CAca - 0 1", true},
    {"1k6/8/8/8/8/8/2N1N3/1K1N1N2 w - - 0 1", false},
}};

std::string Describe(const Position& pos, std::string_view token) {
  return absl::StrCat(pos.Fen(), " \"", std::string(token), "\"");
}

// `m` is legal in `pos`, and its UCI and SAN read back as `m`.
void CheckWritten(Position& pos, Move m, std::string_view token) {
  ARBITER_FUZZ_CHECK(IsLegalMove(pos, m), Describe(pos, token));
  const std::string uci = ToUci(pos, m);
  absl::StatusOr<Move> from_uci = ParseUci(pos, uci);
  ARBITER_FUZZ_CHECK(from_uci.ok() && *from_uci == m, absl::StrCat(Describe(pos, token), " ", uci));
  const std::string san = ToSan(pos, m);
  absl::StatusOr<Move> from_san = ParseSan(pos, san);
  ARBITER_FUZZ_CHECK(from_san.ok() && *from_san == m, absl::StrCat(Describe(pos, token), " ", san));
  absl::StatusOr<Move> resolved = ResolveSan(pos, san);
  ARBITER_FUZZ_CHECK(resolved.ok() && *resolved == m, absl::StrCat(Describe(pos, token), " ", san));
}

void CheckEveryMove(Position& pos) {
  for (Move m : MoveList(pos)) CheckWritten(pos, m, "");
}

// Reads `token` every way; returns the move to play, or None.
Move CheckToken(Position& pos, std::string_view token) {
  absl::StatusOr<Move> uci = ParseUci(pos, token);
  if (uci.ok()) CheckWritten(pos, *uci, token);
  absl::StatusOr<Move> san = ParseSan(pos, token);
  absl::StatusOr<Move> resolved = ResolveSan(pos, token);
  ARBITER_FUZZ_CHECK(
      san.ok() == resolved.ok() && (!san.ok() || *san == *resolved),
      absl::StrCat(
          Describe(pos, token),
          " ParseSan: ", san.ok() ? ToUci(pos, *san) : san.status().ToString(),
          " ResolveSan: ", resolved.ok() ? ToUci(pos, *resolved) : resolved.status().ToString()));
  if (san.ok()) CheckWritten(pos, *san, token);
  if (san.ok()) return *san;
  if (uci.ok()) return *uci;
  return Move::None();
}

constexpr int kMaxTokens = 128;

}  // namespace

void MoveTarget(std::string_view input) {
  if (input.empty()) return;
  size_t eol = input.find('\n');
  std::string_view fen_line = input.substr(0, eol);
  std::string_view moves = eol == std::string_view::npos ? "" : input.substr(eol + 1);
  bool chess960 = false;
  if (!fen_line.empty() && fen_line[0] == '@') {
    chess960 = true;
    fen_line.remove_prefix(1);
  }
  absl::StatusOr<Position> parsed = Position::FromFen(fen_line, chess960);
  if (!parsed.ok()) {
    const SeedPosition& seed = kSeeds[uint8_t(input[0]) % kSeeds.size()];
    parsed = Position::FromFen(seed.fen, seed.chess960);
    ARBITER_FUZZ_CHECK(parsed.ok(), seed.fen);
  }
  Position& pos = *parsed;

  int tokens = 0;
  for (size_t start = 0; start < moves.size() && tokens < kMaxTokens;) {
    size_t end = moves.find_first_of(" \t\r\n", start);
    if (end == std::string_view::npos) end = moves.size();
    if (end > start) {
      ++tokens;
      Move m = CheckToken(pos, moves.substr(start, end - start));
      if (!m.is_none()) pos.DoMove(m);
    }
    start = end + 1;
  }
  CheckEveryMove(pos);
}

}  // namespace arbiter::fuzz

#ifndef ARBITER_FUZZ_REGRESSION_TEST  // the regression test calls MoveTarget by name
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  arbiter::fuzz::MoveTarget(arbiter::fuzz::AsText(data, size));
  return 0;
}
#endif
