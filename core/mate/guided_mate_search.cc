#include "core/mate/guided_mate_search.h"

#include <algorithm>
#include <bit>

#include "core/chess/bitboard.h"
#include "core/chess/movegen.h"
#include "core/chess/zobrist.h"

namespace arbiter {
namespace {

constexpr Square kCorners[] = {kA1, kH1, kA8, kH8};

// Men of the side to move whose departure may uncover a check by a slider.
Bitboard DiscoveredCheckCandidates(const Position& pos) {
  const Color us = pos.side_to_move();
  const Square king = pos.king_square(~us);
  Bitboard snipers = (BishopAttacks(king, 0) & pos.pieces(us, kBishop, kQueen)) |
                     (RookAttacks(king, 0) & pos.pieces(us, kRook, kQueen));
  Bitboard candidates = 0;
  while (snipers) {
    // BetweenBB includes its target square: leave the king out.
    const Bitboard between = BetweenBB(PopLsb(snipers), king) & pos.pieces() & ~SquareBB(king);
    if (between && !MoreThanOne(between) && (between & pos.pieces(us))) candidates |= between;
  }
  return candidates;
}

// The key of the position after `m`, only to prefetch its table slot:
// exact for plain moves and captures; castling, e.p. captures, promotions
// and lost castling rights give another key, which costs one useless
// prefetch.
uint64_t KeyHint(const Position& pos, Move m) {
  const Piece piece = pos.piece_on(m.from());
  uint64_t key = pos.key() ^ zobrist::side ^ zobrist::piece_square[piece][m.from()] ^
                 zobrist::piece_square[piece][m.to()];
  if (pos.ep_square() != kNoSquare) key ^= zobrist::ep_file[FileOf(pos.ep_square())];
  if (const Piece captured = pos.piece_on(m.to()); captured != kNoPiece)
    key ^= zobrist::piece_square[captured][m.to()];
  return key;
}

constexpr size_t kFirstTtEntries = 1024;
// Tables smaller than this stay in the cache: no prefetching.
constexpr size_t kPrefetchFrom = size_t{1} << 16;

// Replies to a progress move that cost nothing (see Search).
constexpr int kDiscountedReplies = 2;
// The cost MoveCosts gives those: nothing, but no progress either.
constexpr int kDiscounted = 3;

// Credit is spent in whole moves; beyond this the search is hopeless anyway.
constexpr int kMaxCredit = 48;

}  // namespace

// Squares from which each kind of man of the side to move would check the
// other king, for the current occupancy: one lookup per move instead of an
// attack computation (the idea of Stockfish's checkSquares).
struct GuidedMateSearch::CheckSquares {
  explicit CheckSquares(const Position& pos) : pos(pos) {
    const Color us = pos.side_to_move();
    king = pos.king_square(~us);
    by_type[kPawn] = PawnAttacks(~us, king);
    by_type[kKnight] = KnightAttacks(king);
    by_type[kBishop] = BishopAttacks(king, pos.pieces());
    by_type[kRook] = RookAttacks(king, pos.pieces());
    by_type[kQueen] = by_type[kBishop] | by_type[kRook];
    king_lines = QueenAttacks(king, 0);
  }

  // Whether `m`, a move of a `type`, checks directly (discovered checks are
  // DiscoveredCheck's).
  bool Direct(Move m, PieceType type) const {
    if (m.kind() == Move::kCastling) return false;
    if (m.kind() == Move::kPromotion) type = m.promotion();
    if (type == kKing) return false;
    // A slider moving along a line through the king uncovers squares the
    // table, built with it in place, does not show: compute those exactly.
    if (type != kPawn && type != kKnight && (king_lines & SquareBB(m.from())) &&
        Aligned(m.from(), king, m.to())) {
      const Bitboard occupied = (pos.pieces() ^ SquareBB(m.from())) | SquareBB(m.to());
      return Attacks(type, m.to(), occupied) & SquareBB(king);
    }
    return by_type[type] & SquareBB(m.to());
  }

  const Position& pos;
  Square king;
  Bitboard by_type[kQueen + 1] = {};
  Bitboard king_lines = 0;  // the king's lines on an empty board
};

GuidedMateSearch::GuidedMateSearch(Color winner, uint64_t node_budget, size_t tt_bytes,
                                   uint64_t move_budget)
    : winner_(winner), budget_(node_budget), move_budget_(move_budget) {
  size_t entries = std::min(tt_bytes / tt_.kSlotBytes, size_t(2 * node_budget));
  max_tt_entries_ = std::bit_floor(std::max<size_t>(entries, kFirstTtEntries));
}

// The mating picture: the loser's king in a corner. A lone bishop (or
// bishops of one colour) can only mate in a corner of its colour. Corners
// are tried nearest first.
std::vector<Square> GuidedMateSearch::CandidateCorners(const Position& pos) {
  const Square king = pos.king_square(~winner_);
  minor_only_ = !pos.pieces(winner_, kQueen, kRook) && !pos.pieces(winner_, kPawn);
  Bitboard allowed = ~Bitboard{0};
  const Bitboard bishops = pos.pieces(winner_, kBishop);
  if (minor_only_ && !pos.pieces(winner_, kKnight) && bishops) {
    if (!(bishops & ~kDarkSquares)) allowed = kDarkSquares;
    if (!(bishops & kDarkSquares)) allowed = ~kDarkSquares;
  }
  loser_needs_men_ = minor_only_ && !pos.pieces(~winner_, kQueen, kRook) &&
                     !pos.pieces(~winner_, kBishop, kKnight);
  std::vector<Square> corners;
  for (Square corner : kCorners)
    if (allowed & SquareBB(corner)) corners.push_back(corner);
  std::stable_sort(corners.begin(), corners.end(),
                   [&](Square a, Square b) { return Distance(king, a) < Distance(king, b); });
  return corners;
}

// Costs are computed for every move of every node, so this is the search's
// inner loop: one pass, the side's branch hoisted, distances from a table.
// Without `exact`, a cost above zero may be given as 1 when it is 2 (a node
// without credit searches only the free moves), except for the first
// `discounts` moves of cost 1, in generation order (king steps first, then
// pawn moves, then the pieces'), which are marked kDiscounted.
void GuidedMateSearch::MoveCosts(const Position& pos, const Move* moves, int count, bool exact,
                                 int discounts, int* costs) const {
  const Bitboard enemies = pos.pieces(~pos.side_to_move());
  const uint8_t* dist = corner_distance_;
  if (pos.side_to_move() == winner_) {
    // Captures simplify toward a bare king, except that a lone minor piece
    // needs the loser's men as blockers.
    const int capture = minor_only_ ? 1 : 0;
    for (int i = 0; i < count; ++i) {
      const Move m = moves[i];
      const Square from = m.from(), to = m.to();
      int cost = 1;
      if (m.kind() == Move::kPromotion) {
        cost = m.promotion() == kQueen ? 0 : m.promotion() == kKnight ? 1 : 2;
      } else if (m.kind() == Move::kEnPassant ||
                 (m.kind() != Move::kCastling && (enemies & SquareBB(to)))) {
        cost = capture;
      } else if (m.kind() != Move::kCastling) {
        switch (TypeOf(pos.piece_on(from))) {
          case kPawn:
            cost = 0;
            break;
          case kKing:
            // The king stops two squares from the corner, where it takes
            // the flight squares; a knight may come all the way.
            cost = dist[to] < dist[from] && dist[to] >= 2 ? 0 : dist[to] > dist[from] ? 2 : 1;
            break;
          case kKnight:
            cost = dist[to] < dist[from] && dist[to] >= 1 ? 0 : 1;
            break;
          default:
            break;
        }
      }
      if (cost == 1 && discounts > 0) {
        cost = kDiscounted;
        --discounts;
      }
      costs[i] = cost;
    }
    return;
  }
  const CheckSquares checks(pos);
  for (int i = 0; i < count; ++i) {
    const Move m = moves[i];
    const Square from = m.from(), to = m.to();
    const PieceType type = TypeOf(pos.piece_on(from));
    int cost;
    switch (type) {
      case kKing:
        cost = dist[to] < dist[from] ? 0 : dist[to] > dist[from] ? 2 : 1;
        break;
      case kPawn:
        // A lone minor piece may need a blocker that only a promotion
        // gives, or a pawn out of the way of its diagonal.
        cost = minor_only_ && m.kind() != Move::kPromotion ? 0 : 1;
        break;
      default:
        // Blockers: the loser's own men beside the cornered king, and on
        // their way there from one step farther (within 3 of the corner:
        // on CHA's test vector, 4 more helpmates than within 2, where the
        // bishops shut their own king in; 1 fewer within 4 or anywhere).
        cost = dist[to] < dist[from] && dist[to] <= 3 ? 0 : 1;
        break;
    }
    // The loser checking or capturing only delays the mate. The check test
    // is the dearest: skipped where 1 and 2 make no difference.
    if ((cost == 0 || (cost == 1 && (exact || discounts > 0))) &&
        (m.kind() == Move::kEnPassant ||
         (m.kind() != Move::kCastling && (enemies & SquareBB(to))) || checks.Direct(m, type)))
      cost = 2;
    if (cost == 1 && discounts > 0) {
      cost = kDiscounted;
      --discounts;
    }
    costs[i] = cost;
  }
}

bool GuidedMateSearch::MateInOne(Position& pos, const Move* moves, int count) {
  const Bitboard discoverers = DiscoveredCheckCandidates(pos);
  const CheckSquares checks(pos);
  // A plain move checks only onto a check square, or from the king's lines
  // (a slider along one; a man uncovering a slider): most moves are passed
  // over on two bit tests.
  const Bitboard check_squares =
      checks.by_type[kPawn] | checks.by_type[kKnight] | checks.by_type[kQueen];
  const Bitboard check_origins = checks.king_lines | discoverers;
  // Mate needs every flight square of the loser's king covered. Those the
  // winner does not attack now must be attacked by the moved man from its
  // new square, unless its leaving opens a line toward them: a cheap test
  // that spares most probes (sliders are given the loser's king off the
  // board, so that it cannot hide behind itself).
  const Square loser_king = pos.king_square(~winner_);
  const Bitboard without_king = pos.pieces() ^ SquareBB(loser_king);
  const Bitboard open_flights =
      KingAttacks(loser_king) & ~pos.pieces(~winner_) & ~pos.AttackedSquares(winner_, without_king);
  Bitboard lines_to_flights = 0;
  for (Bitboard f = open_flights; f;) lines_to_flights |= QueenAttacks(PopLsb(f), 0);
  for (int i = 0; i < count; ++i) {
    // Only a move that may check can mate: castling and en passant are
    // rare enough to play out.
    const Move m = moves[i];
    if (m.kind() == Move::kNormal && !(check_squares & SquareBB(m.to())) &&
        !(check_origins & SquareBB(m.from())))
      continue;
    if (m.kind() != Move::kCastling && m.kind() != Move::kEnPassant &&
        !(discoverers & SquareBB(m.from())) && !checks.Direct(m, TypeOf(pos.piece_on(m.from()))))
      continue;
    if (open_flights && m.kind() == Move::kNormal && !(lines_to_flights & SquareBB(m.from()))) {
      const PieceType type = TypeOf(pos.piece_on(m.from()));
      const Bitboard cover = type == kPawn
                                 ? PawnAttacks(winner_, m.to())
                                 : Attacks(type, m.to(), without_king ^ SquareBB(m.from()));
      if (open_flights & ~cover) continue;
    }
    ++nodes_;
    pos.DoMove(moves[i]);
    bool mate = pos.in_check() && !HasLegalMove(pos);
    pos.UndoMove(moves[i]);
    if (mate) {
      line_.push_back(moves[i]);
      return true;
    }
  }
  return false;
}

bool GuidedMateSearch::Search(Position& pos, int credit, int ply, bool after_progress) {
  if (Exhausted()) return false;
  ++nodes_;
  // Most positions are settled in a few hundred nodes: the table starts
  // small (little memory to touch) and grows, emptied, as the search
  // outgrows it.
  if (nodes_ > tt_.size() / 2 && tt_.size() < max_tt_entries_) {
    tt_.Reset(tt_.size() * 4 > max_tt_entries_ ? max_tt_entries_ : tt_.size() * 4);
  }
  // A position searched with at least this credit (mate in one included)
  // has nothing new to give.
  if (const int16_t* searched = tt_.Find(pos.key()); searched && *searched >= credit) return false;

  const bool winner_to_move = pos.side_to_move() == winner_;
  MoveBuffer buffer;
  Move* const moves = buffer.moves;
  const int count = int(GenerateLegalMoves(pos, moves) - moves);
  moves_ += uint64_t(count);
  if (winner_to_move && MateInOne(pos, moves, count)) return true;
  // A non-mating move here needs two more plies to end in mate; and the
  // game ends at 75 moves without capture or pawn move (9.6.2).
  if (ply + 2 >= max_plies_ || pos.halfmove_clock() >= 149) return false;

  // A reply to a move that made progress may be one cheaper: the mover made
  // its contribution, and the other side may need a move to keep pace (a
  // tempo move, or giving up a man to a pawn that must pass). Only a few
  // replies get the discount (king moves first, then pawn moves), or every
  // free reply of a many-piece side would multiply the free tree. A
  // discounted move costs nothing but is no progress itself.
  int costs[kMaxMoves];
  MoveCosts(pos, moves, count, /*exact=*/credit > 0, after_progress ? kDiscountedReplies : 0,
            costs);
  // Each child looks up its slot first thing: in a large table (the longer
  // dive's) that miss was a third of the search's time. Loading the slots
  // of the children to be searched now overlaps the misses.
  if (tt_.size() > kPrefetchFrom) {
    for (int i = 0; i < count; ++i)
      if ((costs[i] == kDiscounted ? 0 : costs[i]) <= credit) tt_.Prefetch(KeyHint(pos, moves[i]));
  }

  for (int cost = 0; cost <= std::min(credit, 2); ++cost) {
    for (int i = 0; i < count; ++i) {
      if ((costs[i] == kDiscounted ? 0 : costs[i]) != cost) continue;
      pos.DoMove(moves[i]);
      bool found = Search(pos, credit - cost, ply + 1, costs[i] == 0);
      pos.UndoMove(moves[i]);
      if (found) {
        line_.push_back(moves[i]);
        return true;
      }
      if (Exhausted()) return false;
    }
  }
  // The table may have grown (and been emptied) during the search below.
  tt_.Store(pos.key(), int16_t(credit));
  return false;
}

bool GuidedMateSearch::Find(Position& pos, int max_plies, std::vector<Move>* line) {
  max_plies_ = max_plies;
  const uint64_t total = budget_, total_moves = move_budget_;
  const std::vector<Square> corners = CandidateCorners(pos);
  for (size_t i = 0; i < corners.size(); ++i) {
    // The nearest corner gets half the budget, the others share the rest.
    corner_ = corners[i];
    for (int sq = 0; sq < 64; ++sq) corner_distance_[sq] = uint8_t(Distance(Square(sq), corner_));
    auto share = [&](uint64_t spent, uint64_t whole) {
      const uint64_t left = whole - std::min(spent, whole);
      return spent + (i + 1 == corners.size() ? left
                      : i == 0                ? left / 2
                                              : left / (corners.size() - i));
    };
    budget_ = share(nodes_, total);
    move_budget_ = share(moves_, total_moves);
    tt_.Reset(kFirstTtEntries);
    for (int credit = 0; credit <= kMaxCredit && !Exhausted(); ++credit) {
      line_.clear();
      if (Search(pos, credit, 0, false)) {
        line->assign(line_.rbegin(), line_.rend());
        budget_ = total;
        move_budget_ = total_moves;
        return true;
      }
    }
  }
  budget_ = total;
  move_budget_ = total_moves;
  return false;
}

}  // namespace arbiter
