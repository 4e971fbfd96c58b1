#include "core/verdict/chess99_analysis.h"

#include "absl/strings/str_cat.h"
#include "core/chess99/notation.h"

namespace arbiter {

absl::StatusOr<Chess99Report> AnalyzeChess99Position(std::string_view fen,
                                                     const std::vector<std::string>& moves,
                                                     int64_t node_budget) {
  absl::StatusOr<chess99::Position> pos = chess99::Position::FromFen(fen);
  if (!pos.ok()) return pos.status();
  for (size_t i = 0; i < moves.size(); ++i) {
    if (pos->king_square(chess99::kWhite) == chess99::kNoSquare ||
        pos->king_square(chess99::kBlack) == chess99::kNoSquare || pos->bare_kings())
      return absl::InvalidArgumentError(
          absl::StrCat("move ", i + 1, " (", moves[i], "): the game is already over"));
    absl::StatusOr<chess99::Move> m = chess99::ParseMove(*pos, moves[i]);
    if (!m.ok())
      return absl::InvalidArgumentError(absl::StrCat("move ", i + 1, ": ", m.status().message()));
    pos->MakeMove(*m);
  }
  if (pos->king_square(chess99::kWhite) == chess99::kNoSquare ||
      pos->king_square(chess99::kBlack) == chess99::kNoSquare)
    return absl::InvalidArgumentError("the moves capture a king: the game is over (§5.1)");
  Chess99Report r;
  r.fen = pos->Fen();
  chess99::SearchLimits limits;
  if (node_budget > 0) limits.node_budget = node_budget;
  r.analysis = chess99::AnalyzePosition(*pos, limits);
  return r;
}

}  // namespace arbiter
