// FEN reading and writing, and the moves of every position read: the input
// is a FEN, read in standard and in Chess960 mode. For a position that
// parses, Fen() must parse back to the same position (FEN, Zobrist key,
// FIDE 9.2.3 identity), and each legal move must leave the mover's king safe,
// give a position whose FEN reads back with the same incrementally updated
// key, and be undone exactly.
#include <string>

#include "absl/strings/str_cat.h"
#include "core/chess/movegen.h"
#include "core/chess/position.h"
#include "fuzz/fuzz_support.h"

namespace arbiter::fuzz {
namespace {

// `pos` written and read back: the same FEN and the same key.
void CheckFenRoundTrip(const Position& pos) {
  const std::string fen = pos.Fen();
  absl::StatusOr<Position> again = Position::FromFen(fen, pos.chess960());
  ARBITER_FUZZ_CHECK(again.ok(), absl::StrCat(fen, ": ", again.status().ToString()));
  ARBITER_FUZZ_CHECK(again->Fen() == fen, absl::StrCat(fen, " reads back as ", again->Fen()));
  ARBITER_FUZZ_CHECK(again->key() == pos.key(), fen);
  ARBITER_FUZZ_CHECK(again->identity() == pos.identity(), fen);
  ARBITER_FUZZ_CHECK(again->chess960() == pos.chess960(), fen);
}

void CheckPosition(Position& pos) {
  CheckFenRoundTrip(pos);
  const std::string fen = pos.Fen();
  const uint64_t key = pos.key();
  const Color us = pos.side_to_move();
  ARBITER_FUZZ_CHECK(pos.checkers() == (pos.AttackersTo(pos.king_square(us)) & pos.pieces(~us)),
                     fen);
  for (Move m : MoveList(pos)) {
    Position child = pos;
    child.DoMove(m);
    ARBITER_FUZZ_CHECK(!child.IsAttacked(child.king_square(us), ~us, child.pieces()),
                       absl::StrCat(fen, " move ", m.raw(), " leaves the king in check"));
    CheckFenRoundTrip(child);
    pos.DoMove(m);
    pos.UndoMove(m);
    ARBITER_FUZZ_CHECK(pos.key() == key && pos.Fen() == fen,
                       absl::StrCat(fen, " move ", m.raw(), " undone gives ", pos.Fen()));
  }
}

}  // namespace

void FenTarget(std::string_view input) {
  for (bool chess960 : {false, true}) {
    absl::StatusOr<Position> pos = Position::FromFen(input, chess960);
    if (pos.ok()) CheckPosition(*pos);
  }
}

}  // namespace arbiter::fuzz

#ifndef ARBITER_FUZZ_REGRESSION_TEST  // the regression test calls FenTarget by name
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  arbiter::fuzz::FenTarget(arbiter::fuzz::AsText(data, size));
  return 0;
}
#endif
