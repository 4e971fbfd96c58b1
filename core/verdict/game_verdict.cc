#include "core/verdict/game_verdict.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "core/chess/notation.h"
#include "core/verdict/chess99_verdict.h"

namespace arbiter {

std::string LocatedError(const GameVerdict& v) {
  return absl::StrCat(
      "game ", v.game, v.error_line ? absl::StrCat(", line ", v.error_line) : "",
      v.error_line && v.error_column ? absl::StrCat(", column ", v.error_column) : "", ": ",
      v.error);
}

void VerifyGame(const RawGame& raw, const MateSearchOptions& options, ReplayedGame* scratch,
                GameVerdict* out, const SyzygyTablebase* tables) {
  const Ruleset rules = options.rules;
  *out = GameVerdict{};
  out->game = raw.index;
  if (const std::string* site = raw.Tag("Site")) out->site = *site;
  if (const std::string* result = raw.Tag("Result")) out->declared = *result;
  if (out->declared.empty()) out->declared = raw.result_token;
  if (const std::string* t = raw.Tag("Termination")) out->termination = *t;
  out->plies = int(raw.moves.size());
  out->encoding = raw.encoding;
  if (IsChess99Game(raw)) {
    out->rules = Ruleset::kChess99;
    if (raw.error.ok()) {
      VerifyChess99Game(raw, out);
    } else {
      out->error = std::string(raw.error.message());
      out->error_line = raw.error_line;
      out->error_column = raw.error_column;
    }
    if (tables) out->tablebase = NoPositionJudgement("a Chess 99 game: no tablebase covers it");
    return;
  }

  if (rules != Ruleset::kChess99) out->rules = rules;
  if (std::optional<std::string> variant = UnsupportedVariant(raw)) {
    out->skipped_variant = *std::move(variant);
    if (tables) out->tablebase = NoPositionJudgement("a game of another variant: not ruled");
    return;
  }
  ReplayGame(raw, scratch);
  const std::string* white = raw.Tag("White");
  const std::string* black = raw.Tag("Black");
  const std::string* time_control = raw.Tag("TimeControl");
  // Claims in comments; only those on moves that were replayed count.
  std::vector<RecordedClaim> claims;
  for (size_t i = 0; i < raw.moves.size() && i < scratch->moves.size(); ++i)
    if (std::optional<RecordedClaim> c = ReadClaimCommand(raw.moves[i].comment, int(i) + 1))
      claims.push_back(*c);
  const DeclaredOutcome declared{
      .result = out->declared,
      .termination = out->termination,
      .closing_comment = raw.closing_comment,
      .players = {white ? std::string_view(*white) : "", black ? std::string_view(*black) : ""},
      .clock_centis = scratch->clock_centis,
      .time_control = time_control ? *time_control : std::string(),
      .claims = claims};

  // Moves recorded after a checkmate or stalemate cannot be played: a game
  // with a bad move is ruled on the moves before it, if it ended on the
  // board there.
  std::optional<Ruling> ruled;
  if (scratch->error.ok() || scratch->bad_move >= 0) {
    ruled = RuleGame(scratch->start, scratch->moves, declared, options);
    if (!scratch->error.ok() && !ruled->ended_on_board) ruled.reset();
  }
  if (!ruled) {
    out->error = std::string(scratch->error.message());
    out->error_line = scratch->error_line;
    out->error_column = scratch->error_column;
    if (tables) out->tablebase = NoPositionJudgement("the game could not be replayed");
    return;
  }
  Ruling ruling = *std::move(ruled);
  if (ruling.ended_on_board) {
    const int end_ply = *ruling.ended_at_ply;
    ruling.moves_after_end = int(raw.moves.size()) - end_ply;
    if (ruling.moves_after_end > 0) out->first_move_after_end = raw.moves[end_ply].san;
  }
  // The position where the game was ruled: the replay's last, unless the
  // game ended on the board before its last recorded move.
  const int end = ruling.ended_at_ply.value_or(int(scratch->moves.size()));
  std::optional<Position> earlier;
  if (end != int(scratch->moves.size())) {
    earlier = scratch->start;
    for (int i = 0; i < end; ++i) earlier->DoMove(scratch->moves[i]);
  }
  const Position& pos = earlier ? *earlier : scratch->end;
  out->end_fen = pos.Fen();
  if (tables) out->tablebase = JudgeDeclaredResult(*tables, pos, ruling, declared, rules);
  out->winner_line = UciLine(pos, ruling.winner_can_mate.line);
  out->winner_line_san = ruling.winner_can_mate.line_san;
  out->ruling = std::move(ruling);
}

}  // namespace arbiter
