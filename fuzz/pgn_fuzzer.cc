// The PGN reader, game replay and the verdict of every game, on plain text
// (input that starts with the zstd magic bytes takes the zstd path, which
// pgn_zstd_fuzzer.cc covers on purpose). The input is read twice, keeping
// comments and not, which must give the same games; then every game (at
// most kMaxGames) is replayed and verified with a tiny search budget: a bad
// game must become an error, never a crash or a hang.
#include "fuzz/fuzz_support.h"
#include "fuzz/pgn_checks.h"

namespace arbiter::fuzz {

void PgnTarget(std::string_view input) {
  std::vector<RawGame> games = ReadGames(ByteSource::FromString(std::string(input)), true);
  CheckSameGames(games, ReadGames(ByteSource::FromString(std::string(input)), false),
                 /*comments_dropped=*/true);
  CheckGames(games);
}

}  // namespace arbiter::fuzz

#ifndef ARBITER_FUZZ_REGRESSION_TEST  // the regression test calls PgnTarget by name
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  arbiter::fuzz::PgnTarget(arbiter::fuzz::AsText(data, size));
  return 0;
}
#endif
