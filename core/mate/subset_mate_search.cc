#include "core/mate/subset_mate_search.h"

#include <algorithm>
#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "core/chess/bitboard.h"
#include "core/chess/movegen.h"
#include "core/chess/random_placement.h"
#include "core/mate/mate_ability.h"

namespace arbiter {
namespace {

// `pos` with only the kings and the men on `kept`: same side to move, no
// castling rights or e.p. square, clocks 0; nullopt when that position is
// illegal (the side not to move in check).
std::optional<Position> WithOnly(const Position& pos, Bitboard kept) {
  std::string board(64, '.');
  for (Bitboard b = kept | pos.pieces(kKing); b;) {
    const Square s = PopLsb(b);
    board[s] = FenChar(pos.piece_on(s));
  }
  absl::StatusOr<Position> reduced = Position::FromFen(
      FenPlacement(board) + (pos.side_to_move() == kWhite ? " w - - 0 1" : " b - - 0 1"));
  if (!reduced.ok()) return std::nullopt;
  return *std::move(reduced);
}

// Whether a man on `kept` could ever move while the men off it stand
// still. Looked at with the kings off the board (a king only blocks, and
// it can step aside): a man with no move onto an empty square or onto an
// enemy kept man has none later either, for nothing that could open a way
// for it ever moves. A set whose men are all stuck can move only its kings,
// which never mate: its table need not be probed (or generated: without
// stored tables, the pawn tables take about a minute in all).
bool AnyKeptManCanMove(const Position& pos, Bitboard kept) {
  const Bitboard occupied = pos.pieces() & ~pos.pieces(kKing);
  for (Bitboard b = kept; b;) {
    const Square s = PopLsb(b);
    const Color us = ColorOf(pos.piece_on(s));
    const Bitboard prey = kept & pos.pieces(~us);
    if (TypeOf(pos.piece_on(s)) == kPawn) {
      const Square ahead = Square(us == kWhite ? s + 8 : s - 8);
      Bitboard captures = prey;
      if (pos.ep_square() != kNoSquare) captures |= SquareBB(pos.ep_square());
      if (!(occupied & SquareBB(ahead)) || (PawnAttacks(us, s) & captures)) return true;
    } else if (Attacks(TypeOf(pos.piece_on(s)), s, occupied) & (~occupied | prey)) {
      return true;
    }
  }
  return false;
}

struct Candidate {
  int distance;
  Bitboard kept;
};

// Depth-first over the shortest helpmates of the reduced position `reduced`
// (the tables' distances fall by one each ply), played in the full
// position `full` by the kept men and the kings only; a move onto a still
// man is not taken. Both positions move in step.
class StillMenWalk {
 public:
  StillMenWalk(Color winner, RetrogradeSolver& solver, uint64_t probes)
      : winner_(winner), solver_(solver), probes_left_(probes) {}

  bool Run(Position& full, Position& reduced, int distance, std::vector<Move>* line) {
    if (distance == 0) {
      return full.side_to_move() != winner_ && full.in_check() && !HasLegalMove(full);
    }
    if (full.halfmove_clock() >= 150) return false;  // 9.6.2 comes first
    // Lines of king moves reach the same position by many orders. The
    // still men never move and are never taken, so the full position (its
    // key) determines the reduced one, and its distance; only the clock
    // differs between the orders, and a position that failed with a clock
    // fails with any later clock too. (A key collision can only lose a
    // line, never make one: lines are replayed.) On 10,000 Lichess time
    // forfeits x 2 sides this step answers 76 sides instead of 72.
    if (auto it = failed_.find(full.key());
        it != failed_.end() && it->second <= full.halfmove_clock())
      return false;
    if (Walk(full, reduced, distance, line)) return true;
    // Out of probes, the failure proves nothing.
    if (probes_left_ > 0) failed_[full.key()] = full.halfmove_clock();
    return false;
  }

 private:
  bool Walk(Position& full, Position& reduced, int distance, std::vector<Move>* line) {
    const Bitboard still = full.pieces() & ~reduced.pieces();
    // The reduced position's moves are few (kings and at most two men);
    // each must also be legal in the full one (not blocked or pinned there)
    // and take no still man.
    for (Move m : MoveList(reduced)) {
      if (still & SquareBB(m.to())) continue;
      if (m.kind() == Move::kEnPassant && (still & SquareBB(Square(m.to() ^ 8)))) continue;
      if (!IsLegalMove(full, m)) continue;
      if (probes_left_ == 0) return false;
      --probes_left_;
      reduced.DoMove(m);
      absl::StatusOr<std::optional<int>> d = solver_.MateDistance(reduced, winner_);
      bool found = false;
      if (d.ok() && d->has_value() && **d == distance - 1) {
        full.DoMove(m);
        found = Run(full, reduced, distance - 1, line);
        full.UndoMove(m);
      }
      reduced.UndoMove(m);
      if (found) {
        line->push_back(m);
        return true;
      }
    }
    return false;
  }

  Color winner_;
  RetrogradeSolver& solver_;
  uint64_t probes_left_;
  // Positions from which no line is left, with the earliest clock seen.
  absl::flat_hash_map<uint64_t, int> failed_;
};

}  // namespace

bool FindMateWithStillMen(const Position& pos, Color winner, RetrogradeSolver& solver,
                          size_t max_sets, uint64_t probes_per_set, std::vector<Move>* line) {
  const Bitboard others = pos.pieces() & ~pos.pieces(kKing);
  if (PopCount(others) + 2 <= kMaxMen) return false;  // the tables settle it whole
  static_assert(kMaxMen == 4, "the sets below are pairs and singles");
  // Sets of one or two men, at least one the winner's (a bare king never
  // mates), in square order: deterministic.
  std::vector<Candidate> candidates;
  auto consider = [&](Bitboard kept) {
    if (!(kept & pos.pieces(winner)) || !AnyKeptManCanMove(pos, kept)) return;
    std::optional<Position> reduced = WithOnly(pos, kept);
    if (!reduced) return;
    absl::StatusOr<std::optional<int>> d = solver.MateDistance(*reduced, winner);
    if (d.ok() && d->has_value()) candidates.push_back({**d, kept});
  };
  for (Bitboard a = others; a;) {
    const Bitboard first = SquareBB(PopLsb(a));
    consider(first);
    for (Bitboard b = a; b;) consider(first | SquareBB(PopLsb(b)));
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& x, const Candidate& y) { return x.distance < y.distance; });
  if (candidates.size() > max_sets) candidates.resize(max_sets);
  for (const Candidate& c : candidates) {
    std::optional<Position> reduced = WithOnly(pos, c.kept);
    Position full = pos;
    std::vector<Move> reversed;
    StillMenWalk walk(winner, solver, probes_per_set);
    if (walk.Run(full, *reduced, c.distance, &reversed)) {
      line->assign(reversed.rbegin(), reversed.rend());
      if (LineIsPlayable(pos, winner, *line)) return true;
    }
  }
  return false;
}

}  // namespace arbiter
