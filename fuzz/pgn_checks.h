// What the two PGN targets (pgn_fuzzer.cc, pgn_zstd_fuzzer.cc) do with the
// games they read: replay and verify each, with a tiny search budget, and
// check that a bad game becomes an error rather than anything worse.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/chess/movegen.h"
#include "core/chess99/position.h"
#include "core/io/byte_source.h"
#include "core/pgn/game_replay.h"
#include "core/pgn/pgn_reader.h"
#include "core/render/game_verdict_json.h"
#include "core/verdict/chess99_verdict.h"
#include "core/verdict/game_verdict.h"
#include "fuzz/fuzz_support.h"

namespace arbiter::fuzz {

// With comments dropped, a move keeps only the comments holding a [%claim]
// command (core/pgn/pgn_reader.h).
inline bool KeptOnlyClaims(const std::string& kept) {
  return kept.empty() || kept.find("[%claim") != std::string::npos;
}

// Games read per input: enough for the reader's resynchronisation paths,
// few enough to keep every input fast.
inline constexpr size_t kMaxGames = 64;

// The search of a flag-fall or resignation ruling: small, and without
// retrograde tables (seconds to build, and not what is fuzzed here).
inline MateSearchOptions FuzzSearchOptions() {
  return MateSearchOptions{.node_budget = 200, .retrograde = nullptr};
}

inline std::vector<RawGame> ReadGames(std::unique_ptr<ByteSource> source, bool keep_comments) {
  PgnReader reader(std::move(source), PgnReaderOptions{.keep_comments = keep_comments});
  std::vector<RawGame> games;
  RawGame game;
  while (games.size() < kMaxGames && reader.Next(&game)) games.push_back(game);
  return games;
}

// The same games; when `comments_dropped`, `b` was read without comments
// (which must then be empty, except in Chess 99 games, whose comments carry
// draw offers and claims and are always kept) and the comments are not
// compared.
inline void CheckSameGames(const std::vector<RawGame>& a_games, const std::vector<RawGame>& b_games,
                           bool comments_dropped) {
  const std::vector<RawGame>& with = a_games;
  const std::vector<RawGame>& without = b_games;
  ARBITER_FUZZ_CHECK(with.size() == without.size(),
                     absl::StrCat(with.size(), " vs ", without.size(), " games"));
  for (size_t g = 0; g < with.size(); ++g) {
    const RawGame& a = with[g];
    const RawGame& b = without[g];
    const std::string where = absl::StrCat("game ", g + 1);
    ARBITER_FUZZ_CHECK(a.index == b.index && a.first_line == b.first_line && a.tags == b.tags &&
                           a.result_token == b.result_token && a.error == b.error &&
                           a.moves.size() == b.moves.size(),
                       absl::StrCat(where, ": ", a.error.ToString(), " vs ", b.error.ToString()));
    for (size_t i = 0; i < a.moves.size(); ++i) {
      const RawMove& x = a.moves[i];
      const RawMove& y = b.moves[i];
      ARBITER_FUZZ_CHECK(x.san == y.san && x.line == y.line && x.clock_centis == y.clock_centis &&
                             x.nags == y.nags &&
                             (comments_dropped && !IsChess99Game(b) ? KeptOnlyClaims(y.comment)
                                                                    : x.comment == y.comment),
                         absl::StrCat(where, " move ", i + 1, ": ", x.san, " vs ", y.san));
    }
  }
}

// Replays and verifies `raw`: moves are legal, errors are errors, and a
// ruled game's end position and ply are consistent.
// A Chess 99 game: a ruling or an error, never both; a read error stays an
// error; the end position is FEN-9 that reads back.
inline void CheckChess99Game(const RawGame& raw, ReplayedGame* scratch, GameVerdict* verdict) {
  const std::string where = absl::StrCat("Chess 99 game ", raw.index);
  VerifyGame(raw, FuzzSearchOptions(), scratch, verdict);
  ARBITER_FUZZ_CHECK(verdict->rules == Ruleset::kChess99, where);
  ARBITER_FUZZ_CHECK(verdict->ruling.has_value() == verdict->error.empty(), where);
  if (!raw.error.ok()) ARBITER_FUZZ_CHECK(!verdict->error.empty(), where);
  if (verdict->ruling) {
    const Ruling& r = *verdict->ruling;
    ARBITER_FUZZ_CHECK(
        !r.ended_at_ply || (*r.ended_at_ply >= 0 && *r.ended_at_ply <= verdict->plies), where);
    ARBITER_FUZZ_CHECK(r.moves_after_end >= 0 && r.moves_after_end <= verdict->plies, where);
    // A captured king is missing from the end position, which FEN-9 then
    // (rightly) refuses; every other end position reads back.
    if (r.rule != Rule::kKingCapture && r.rule != Rule::kDrawnKingCapture &&
        r.rule != Rule::kLoneKing) {
      absl::StatusOr<chess99::Position> end = chess99::Position::FromFen(verdict->end_fen);
      ARBITER_FUZZ_CHECK(end.ok() && end->Fen() == verdict->end_fen,
                         absl::StrCat(where, ": end FEN ", verdict->end_fen));
    }
  }
  ARBITER_FUZZ_CHECK(!GameVerdictJson(*verdict).empty(), where);
}

inline void CheckGame(const RawGame& raw, ReplayedGame* replayed, ReplayedGame* scratch,
                      GameVerdict* verdict) {
  if (IsChess99Game(raw)) return CheckChess99Game(raw, scratch, verdict);
  ReplayGame(raw, replayed);
  const std::string where = absl::StrCat("game ", raw.index);
  if (!raw.error.ok()) ARBITER_FUZZ_CHECK(!replayed->error.ok(), where);
  if (replayed->error.ok()) {
    ARBITER_FUZZ_CHECK(replayed->moves.size() == raw.moves.size() &&
                           replayed->clock_centis.size() == raw.moves.size(),
                       where);
    // Every move legal, in order, and the end position is where they lead.
    Position pos = replayed->start;
    for (Move m : replayed->moves) {
      ARBITER_FUZZ_CHECK(IsLegalMove(pos, m), absl::StrCat(where, ": illegal move in ", pos.Fen()));
      pos.DoMove(m);
    }
    ARBITER_FUZZ_CHECK(pos.key() == replayed->end.key() && pos.Fen() == replayed->end.Fen(), where);
  }

  VerifyGame(raw, FuzzSearchOptions(), scratch, verdict);
  // A game of another variant is skipped: neither ruled nor an error (its
  // replay is an error, "unsupported variant").
  if (UnsupportedVariant(raw)) {
    ARBITER_FUZZ_CHECK(!replayed->error.ok(), where);
    ARBITER_FUZZ_CHECK(
        !verdict->skipped_variant.empty() && !verdict->ruling && verdict->error.empty(), where);
    ARBITER_FUZZ_CHECK(!GameVerdictJson(*verdict).empty(), where);
    return;
  }
  ARBITER_FUZZ_CHECK(verdict->skipped_variant.empty(), where);
  // A game that cannot be replayed is an error, unless it ended on the board
  // before its first bad move (a move written after checkmate): then it is
  // ruled there, and that move and the rest count as moves after the end.
  const bool ruled_before_bad_move =
      !replayed->error.ok() && verdict->ruling && verdict->ruling->ended_on_board;
  ARBITER_FUZZ_CHECK(verdict->error.empty() == (replayed->error.ok() || ruled_before_bad_move),
                     absl::StrCat(where, ": ", verdict->error));
  if (ruled_before_bad_move) {
    ARBITER_FUZZ_CHECK(replayed->bad_move >= 0, where);
    const int end = verdict->ruling->ended_at_ply.value_or(-1);
    ARBITER_FUZZ_CHECK(end >= 0 && end <= replayed->bad_move, where);
    ARBITER_FUZZ_CHECK(verdict->ruling->moves_after_end == int(raw.moves.size()) - end, where);
    ARBITER_FUZZ_CHECK(verdict->first_move_after_end == raw.moves[size_t(end)].san, where);
  }
  ARBITER_FUZZ_CHECK(verdict->ruling.has_value() == verdict->error.empty(), where);
  if (verdict->ruling) {
    const Ruling& r = *verdict->ruling;
    ARBITER_FUZZ_CHECK(
        !r.ended_at_ply || (*r.ended_at_ply >= 0 && *r.ended_at_ply <= verdict->plies), where);
    ARBITER_FUZZ_CHECK(r.moves_after_end >= 0 && r.moves_after_end <= verdict->plies, where);
    absl::StatusOr<Position> end = Position::FromFen(verdict->end_fen, replayed->chess960);
    ARBITER_FUZZ_CHECK(end.ok(), absl::StrCat(where, ": end FEN ", verdict->end_fen));
  }
  // The record's JSON is built for every game of a run.
  ARBITER_FUZZ_CHECK(!GameVerdictJson(*verdict).empty(), where);
}

inline void CheckGames(const std::vector<RawGame>& games) {
  ReplayedGame replayed;
  ReplayedGame scratch;
  GameVerdict verdict;
  for (const RawGame& raw : games) CheckGame(raw, &replayed, &scratch, &verdict);
}

}  // namespace arbiter::fuzz
