// The PGN reader, game replay and the verdict of every game, on plain text
// (input that starts with the zstd magic bytes takes the zstd path, which
// pgn_zstd_fuzzer.cc covers on purpose). The input is read twice, keeping
// comments and not, which must give the same games; every text field of
// every game read must be valid UTF-8 (a game that is not is converted from
// Windows-1252, core/pgn/game_encoding.h); then every game (at most
// kMaxGames) is replayed and verified with a tiny search budget: a bad game
// must become an error, never a crash or a hang.
#include "core/util/text_encoding.h"
#include "fuzz/fuzz_support.h"
#include "fuzz/pgn_checks.h"

namespace arbiter::fuzz {
namespace {

// `field` (and `line`, when not 0) say where `text` is; the message is
// built only on failure.
void CheckUtf8(std::string_view text, const RawGame& game, const char* field, int64_t line = 0) {
  ARBITER_FUZZ_CHECK(
      IsValidUtf8(text),
      absl::StrCat("game ", game.index, ": ", field, line ? absl::StrCat(" on line ", line) : "",
                   " is not UTF-8 (encoding \"", ToString(game.encoding),
                   "\"): ", ReplaceInvalidUtf8(std::string(text))));
}

// Every text field of every game, and the error message that may quote the
// input, in UTF-8.
void CheckGamesAreUtf8(const std::vector<RawGame>& games) {
  for (const RawGame& game : games) {
    for (const auto& [name, value] : game.tags) {
      CheckUtf8(name, game, "a tag name");
      CheckUtf8(value, game, "a tag value");
    }
    for (const RawMove& move : game.moves) {
      CheckUtf8(move.san, game, "the SAN of a move", move.line);
      CheckUtf8(move.comment, game, "the comment of a move", move.line);
    }
    CheckUtf8(game.closing_comment, game, "closing_comment");
    CheckUtf8(game.result_token, game, "result_token");
    CheckUtf8(std::string(game.error.message()), game, "the error message");
  }
}

}  // namespace

void PgnTarget(std::string_view input) {
  std::vector<RawGame> games = ReadGames(ByteSource::FromString(std::string(input)), true);
  std::vector<RawGame> lean = ReadGames(ByteSource::FromString(std::string(input)), false);
  CheckGamesAreUtf8(games);
  CheckGamesAreUtf8(lean);
  // (CheckSameGames compares the text, not RawGame::encoding.)
  for (size_t g = 0; g < games.size() && g < lean.size(); ++g)
    ARBITER_FUZZ_CHECK(
        games[g].encoding == lean[g].encoding,
        absl::StrCat("game ", g + 1, ": encoding \"", ToString(games[g].encoding),
                     "\" with comments, \"", ToString(lean[g].encoding), "\" without"));
  CheckSameGames(games, lean, /*comments_dropped=*/true);
  CheckGames(games);
}

}  // namespace arbiter::fuzz

#ifndef ARBITER_FUZZ_REGRESSION_TEST  // the regression test calls PgnTarget by name
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  arbiter::fuzz::PgnTarget(arbiter::fuzz::AsText(data, size));
  return 0;
}
#endif
