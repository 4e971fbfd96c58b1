#include "core/verdict/assessment.h"

#include "core/chess/movegen.h"
#include "core/mate/fortress.h"
#include "core/mate/guided_mate_search.h"
#include "core/mate/reachability.h"

namespace arbiter {

const char* ToString(GameStatus s) {
  switch (s) {
    case GameStatus::kOngoing:
      return "ongoing";
    case GameStatus::kCheckmate:
      return "checkmate";
    case GameStatus::kStalemate:
      return "stalemate";
    case GameStatus::kDeadPosition:
      return "dead";
    case GameStatus::kFivefold:
      return "fivefold";
    case GameStatus::kSeventyFiveMoves:
      return "seventy_five_moves";
  }
  return "ongoing";
}

std::string ProofName(const DeadPositionProof& proof) {
  if (proof.white == proof.black) return ToString(proof.white);
  return std::string(ToString(proof.white)) + "+" + ToString(proof.black);
}

std::optional<DeadPositionProof> DeadProofOf(const Assessment& a) {
  if (!a.dead.value_or(false)) return std::nullopt;
  return DeadPositionProof{.white = a.white.proof, .black = a.black.proof};
}

const char* ArticleOf(GameStatus s) {
  switch (s) {
    case GameStatus::kOngoing:
      return "";
    case GameStatus::kCheckmate:
      return "5.1.1";
    case GameStatus::kStalemate:
      return "5.2.1";
    case GameStatus::kDeadPosition:
      return "5.2.2";
    case GameStatus::kFivefold:
      return "9.6.1";
    case GameStatus::kSeventyFiveMoves:
      return "9.6.2";
  }
  return "";
}

namespace {

// `legal_moves` is the number of moves of the side to move, counted up to 2.
GameStatus Ending(Game& game, size_t legal_moves, const MateAbility& white,
                  const MateAbility& black) {
  const Position& pos = game.position();
  if (legal_moves == 0) return pos.in_check() ? GameStatus::kCheckmate : GameStatus::kStalemate;
  if (white.answer == CanMate::kNo && black.answer == CanMate::kNo)
    return GameStatus::kDeadPosition;
  if (game.Occurrences() >= 5) return GameStatus::kFivefold;
  if (pos.halfmove_clock() >= 150) return GameStatus::kSeventyFiveMoves;
  return GameStatus::kOngoing;
}

// Pawns that can never move again unless something is captured: each is
// blocked by a pawn, attacks no enemy piece, and none may take en passant.
bool AllPawnsLocked(const Position& pos) {
  if (!AllPawnsBlocked(pos) || pos.ep_square() != kNoSquare) return false;
  return !(PawnAttacksBB(kWhite, pos.pieces(kWhite, kPawn)) & pos.pieces(kBlack)) &&
         !(PawnAttacksBB(kBlack, pos.pieces(kBlack, kPawn)) & pos.pieces(kWhite));
}

// A king (with pawns at most) down to one legal move: stalemate traps, where
// every line may end in stalemate; small enough to explore.
bool NearlyStalemated(const Position& pos, size_t legal_moves) {
  Color us = pos.side_to_move();
  return legal_moves == 1 && !(pos.pieces(us) & ~pos.pieces(kKing, kPawn));
}

// Pawn structure plus the number of men of each kind.
uint64_t StructureSignature(const Position& pos) {
  uint64_t counts = 0;
  for (Color c : {kWhite, kBlack})
    for (PieceType t : {kPawn, kKnight, kBishop, kRook, kQueen})
      counts = counts * 17 + uint64_t(PopCount(pos.pieces(c, t)));
  return pos.pieces(kPawn) ^ (counts * 0x9E3779B97F4A7C15ULL) ^ 1;
}

// A short guided dive before a probe's exploration. A mate it finds, and
// that replays, shows that `side` can mate: neither the exploration nor the
// tables, both exact, could then prove "no", so both are spared. Nothing is
// memoised from it, so a later position of the same structure is probed
// again (it is cheap, and that position may be the dead one). On the shared
// Lichess file it settles 7,700 of 9,000 probes at 66 nodes each; the
// explorations it spares cost 250 to 4,000 positions each.
constexpr uint64_t kProbeDiveNodes = 300;
constexpr size_t kProbeDiveTableBytes = size_t{64} << 10;

bool ShortDiveMates(const Position& pos, Color side) {
  GuidedMateSearch dive(side, kProbeDiveNodes, kProbeDiveTableBytes);
  Position work = pos;
  std::vector<Move> line;
  return dive.Find(work, kGuidedMaxPlies, &line) && LineIsPlayable(pos, side, line);
}

// A "no" for `side` from the cheap closed-position checks, or "unknown".
// `side` is known not to lack material, so a forced line needs an only move
// now: with more than one move the follower would stop at once.
MateAbility ClosedPositionProbe(Game& game, Color side, size_t legal_moves, uint64_t budget,
                                RetrogradeSolver* retrograde) {
  const Position& pos = game.position();
  MateAbility m;
  if (legal_moves == 1 && ForcedLineDeniesMate(pos, side)) {
    m.answer = CanMate::kNo;
    m.proof = MateProof::kForcedLine;
  } else if (bool locked = pos.pieces(kPawn) && AllPawnsLocked(pos);
             locked || NearlyStalemated(pos, legal_moves)) {
    if (locked && FortressDeniesMate(pos, side)) {
      m.answer = CanMate::kNo;
      m.proof = MateProof::kFortress;
      return m;
    }
    uint64_t signature = StructureSignature(pos);
    if (signature == game.exhausted_probe_signature) return m;
    if (ShortDiveMates(pos, side)) return m;
    // A stalemate trap is decided within a few hundred positions or not at
    // all; fortresses behind locked pawns take more.
    ReachabilityResult r = ExploreReachable(pos, side, locked ? budget : budget / 16);
    if (r.outcome == ReachabilityResult::kNoMate) {
      m.answer = CanMate::kNo;
      m.proof = r.proof();
    } else if (r.outcome == ReachabilityResult::kBudgetExhausted) {
      // A locked endgame of at most 4 men the budget could not close:
      // retrograde analysis settles it exactly. (Not for every small
      // position: a table per material signature costs seconds to build.)
      // Only when the caller gives tables: a K+P v K+P game verified
      // without them built them anyway (19 s; minutes under the
      // sanitizers, a hang for the fuzzers).
      if (locked && retrograde) {
        m = RetrogradeMateAbility(pos, side, *retrograde);
        if (m.answer == CanMate::kNo) return m;
      }
      game.exhausted_probe_signature = signature;
    }
  }
  return m;
}

}  // namespace

GameStatus AutomaticEnding(Game& game, uint64_t closed_budget, RetrogradeSolver* retrograde,
                           DeadPositionProof* dead_proof) {
  const Position& pos = game.position();
  // Mate, stalemate and the probes ask only for none, one or more legal
  // moves; a game that has ended by mate or stalemate needs no probe.
  const size_t legal_moves = size_t(CountLegalMoves(pos, 2));
  if (legal_moves == 0) return Ending(game, legal_moves, {}, {});
  MateAbility white = MaterialMateAbility(pos, kWhite);
  MateAbility black = MaterialMateAbility(pos, kBlack);
  if (closed_budget && (white.answer != CanMate::kNo || black.answer != CanMate::kNo)) {
    if (white.answer != CanMate::kNo)
      white = ClosedPositionProbe(game, kWhite, legal_moves, closed_budget, retrograde);
    if (white.answer == CanMate::kNo && black.answer != CanMate::kNo)
      black = ClosedPositionProbe(game, kBlack, legal_moves, closed_budget, retrograde);
  }
  const GameStatus status = Ending(game, legal_moves, white, black);
  if (dead_proof && status == GameStatus::kDeadPosition) *dead_proof = {white.proof, black.proof};
  return status;
}

Assessment Assess(Game& game, const MateSearchOptions& options, std::optional<Color> only_side) {
  const Position& pos = game.position();
  Assessment a;
  a.only_side = only_side;
  if (a.Asked(kWhite)) a.white = AnalyzeMateAbility(pos, kWhite, options);
  if (a.Asked(kBlack)) a.black = AnalyzeMateAbility(pos, kBlack, options);
  a.status = Ending(game, MoveList(pos).size(), a.white, a.black);
  if (a.status == GameStatus::kCheckmate) {
    // The side that delivered mate evidently could: an empty line.
    MateAbility& winner = pos.side_to_move() == kWhite ? a.black : a.white;
    winner = MateAbility{CanMate::kYes, MateProof::kNone, {}};
  }
  if (a.white.answer == CanMate::kNo && a.black.answer == CanMate::kNo)
    a.dead = true;
  else if (a.white.answer == CanMate::kYes || a.black.answer == CanMate::kYes)
    a.dead = false;
  if (a.status != GameStatus::kOngoing) return a;

  a.claims.threefold_now = game.Occurrences() >= 3;
  a.claims.fifty_now = pos.halfmove_clock() >= 100;
  for (Move m : MoveList(pos)) {
    if (game.OccurrencesAfter(m) >= 3) a.claims.threefold_moves.push_back(m);
    bool zeroing = TypeOf(pos.piece_on(m.from())) == kPawn ||
                   (m.kind() != Move::kCastling && !pos.empty(m.to()));
    if (!zeroing && pos.halfmove_clock() + 1 >= 100) a.claims.fifty_moves.push_back(m);
  }
  return a;
}

}  // namespace arbiter
