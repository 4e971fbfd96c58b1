// Chess 99 text: FEN-9 (chess99::Position::FromFen) and moves in both of its
// notations (ParseMove, ParseSite, ParseCoordinate), then the game judge and
// the can-win search on what was read. The input's first line is a FEN-9
// position (the start position when it does not parse); the rest is
// whitespace-separated move text.
//
// Checked: a FEN-9 that reads writes back to itself when read again; a move
// either reader accepts is one the generator lists; both written forms of
// it read back as it; the judge's counts are consistent; every "yes" line of
// the analysis (budget 300 nodes, 3 plies) replays to a winning king capture.
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/chess99/endings.h"
#include "core/chess99/movegen.h"
#include "core/chess99/notation.h"
#include "core/chess99/position.h"
#include "core/chess99/win_ability.h"
#include "fuzz/fuzz_support.h"

namespace arbiter::fuzz {
namespace {

using chess99::Move;
using chess99::Position;

constexpr int kMaxTokens = 64;

bool Listed(const Position& pos, const Move& m) {
  for (const Move& g : chess99::GenerateMoves(pos))
    if (g == m) return true;
  return false;
}

bool Over(const Position& pos) {
  return pos.king_square(chess99::kWhite) == chess99::kNoSquare ||
         pos.king_square(chess99::kBlack) == chess99::kNoSquare;
}

void CheckWritten(const Position& pos, const Move& m, std::string_view token) {
  const std::string where = absl::StrCat(pos.Fen(), " \"", std::string(token), "\"");
  ARBITER_FUZZ_CHECK(Listed(pos, m), where);
  const std::string site = chess99::MoveToSite(pos, m);
  absl::StatusOr<Move> from_site = chess99::ParseSite(pos, site);
  ARBITER_FUZZ_CHECK(from_site.ok() && *from_site == m, absl::StrCat(where, " site ", site));
  const std::string coordinate = chess99::MoveToCoordinate(m);
  absl::StatusOr<Move> from_coordinate = chess99::ParseCoordinate(pos, coordinate);
  ARBITER_FUZZ_CHECK(from_coordinate.ok() && *from_coordinate == m,
                     absl::StrCat(where, " coordinate ", coordinate));
}

}  // namespace

void Chess99Target(std::string_view input) {
  const size_t eol = input.find('\n');
  const std::string_view fen_line = input.substr(0, eol);
  const std::string_view moves = eol == std::string_view::npos ? "" : input.substr(eol + 1);
  absl::StatusOr<Position> parsed = Position::FromFen(fen_line);
  if (parsed.ok()) {
    absl::StatusOr<Position> again = Position::FromFen(parsed->Fen());
    ARBITER_FUZZ_CHECK(again.ok() && again->Fen() == parsed->Fen() && again->key() == parsed->key(),
                       std::string(fen_line));
  } else {
    parsed = Position::Start();
  }
  const Position start = *parsed;
  Position pos = start;

  std::vector<chess99::GamePly> plies;
  int tokens = 0;
  for (size_t begin = 0; begin < moves.size() && tokens < kMaxTokens;) {
    size_t end = moves.find_first_of(" \t\r\n", begin);
    if (end == std::string_view::npos) end = moves.size();
    const std::string_view token = moves.substr(begin, end - begin);
    begin = end + 1;
    if (token.empty()) continue;
    ++tokens;
    chess99::GamePly ply;
    ply.move = std::string(token);
    // The token's first byte also picks a draw call, so that the judge sees
    // offers, claims and acceptances.
    const unsigned char pick = static_cast<unsigned char>(token[0]);
    ply.call = pick % 7 == 0   ? chess99::DrawCall::kClaim
               : pick % 7 == 1 ? chess99::DrawCall::kOffer
                               : chess99::DrawCall::kNone;
    ply.accepts_offer = pick % 11 == 0;
    plies.push_back(ply);
    if (Over(pos)) continue;
    absl::StatusOr<Move> m = chess99::ParseMove(pos, token);
    if (!m.ok()) continue;
    CheckWritten(pos, *m, token);
    pos.MakeMove(*m);
  }

  chess99::GameJudgement j = chess99::JudgeGame(start, plies);
  ARBITER_FUZZ_CHECK(j.plies_played >= 0 && j.plies_played <= int(plies.size()),
                     std::string(input.substr(0, 200)));
  ARBITER_FUZZ_CHECK(j.ended_at_ply <= j.plies_played, std::string(input.substr(0, 200)));
  ARBITER_FUZZ_CHECK(
      (j.result == GameResult::kUnfinished) == (j.rule == Rule::kUnfinished) || !j.error.empty(),
      absl::StrCat(ToString(j.result), " ", ToString(j.rule)));

  if (Over(pos)) return;
  // A small search: enough to find short wins and check their lines, cheap
  // enough to keep the target fast under the sanitizers.
  chess99::SearchLimits limits;
  limits.node_budget = 300;
  limits.max_plies = 3;
  chess99::PositionAnalysis a = chess99::AnalyzePosition(pos, limits);
  for (chess99::Color side : {chess99::kWhite, chess99::kBlack}) {
    const chess99::SideWinAbility& s = a.can_win[side];
    if (s.answer != chess99::WinAbility::kYes) continue;
    std::vector<chess99::GamePly> line;
    for (const std::string& mv : s.line) line.push_back(chess99::GamePly{mv, false, {}});
    chess99::GameJudgement won = chess99::JudgeGame(pos, line);
    ARBITER_FUZZ_CHECK(won.rule == Rule::kKingCapture && won.winner == side, pos.Fen());
  }
}

}  // namespace arbiter::fuzz

#ifndef ARBITER_FUZZ_REGRESSION_TEST  // the regression test calls Chess99Target by name
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  arbiter::fuzz::Chess99Target(arbiter::fuzz::AsText(data, size));
  return 0;
}
#endif
