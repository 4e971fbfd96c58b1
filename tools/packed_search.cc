#include "tools/packed_search.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "core/chess/random_placement.h"

namespace arbiter::tools {
namespace {

// A position as the breadth-first search stores it: a FEN letter code per
// square (4 bits each), the side to move, the castling rights and the e.p.
// square. 40 bytes where a Position with its undo stack takes more than a
// kilobyte, which is what lets one search hold a hundred million positions.
// The castling rooks' squares never change within a search (a right is
// lost when its rook or king moves), so they are kept once, in Castling.
struct Packed {
  std::array<uint64_t, 4> squares{};
  uint8_t side = 0;
  uint8_t castling = 0;
  uint8_t ep = 0xFF;
};

// The FEN castling letter of each right of the start position (Shredder
// letters, the rook's file, which also reads standard positions), and
// whether its castling is Chess960's.
struct Castling {
  explicit Castling(const Position& start) : chess960(start.chess960()) {
    for (int i = 0; i < 4; ++i) {
      const CastlingRight right = CastlingRight(1 << i);
      if (!start.can_castle(right)) continue;
      const char file = char('a' + FileOf(start.castling_rook(right)));
      letters[i] = i < 2 ? char(file - 'a' + 'A') : file;
    }
  }
  std::string Field(uint8_t rights) const {
    std::string field;
    for (int i = 0; i < 4; ++i)
      if (rights & (1 << i)) field += letters[i];
    return field.empty() ? "-" : field;
  }
  std::array<char, 4> letters{};
  bool chess960;
};

constexpr std::string_view kPackedLetters = ".PNBRQKpnbrqk";

Packed Pack(const Position& pos) {
  Packed p;
  for (int s = 0; s < 64; ++s) {
    const Piece piece = pos.piece_on(Square(s));
    const uint64_t code = piece == kNoPiece ? 0 : kPackedLetters.find(FenChar(piece));
    p.squares[s / 16] |= code << (4 * (s % 16));
  }
  p.side = pos.side_to_move() == kWhite ? 0 : 1;
  p.castling = pos.castling_rights();
  if (pos.ep_square() != kNoSquare) p.ep = uint8_t(pos.ep_square());
  return p;
}

Position Unpack(const Packed& p, const Castling& castling) {
  std::string a1_first(64, '.');
  for (int s = 0; s < 64; ++s)
    a1_first[s] = kPackedLetters[(p.squares[s / 16] >> (4 * (s % 16))) & 15];
  std::string fen =
      FenPlacement(a1_first) + (p.side ? " b " : " w ") + castling.Field(p.castling) + " ";
  if (p.ep == 0xFF) {
    fen += '-';
  } else {
    fen += char('a' + p.ep % 8);
    fen += char('1' + p.ep / 8);
  }
  // Every packed position came from a legal one, so it parses.
  return *Position::FromFen(fen + " 0 1", castling.chess960);
}

// The Zobrist keys of the positions seen: open addressing, linear probing,
// 8 bytes a slot (an unordered_set spends about five times that).
class KeySet {
 public:
  explicit KeySet(size_t expected) {
    size_t slots = 1024;
    while (slots < 2 * expected) slots *= 2;
    slots_.assign(slots, 0);
  }
  // Whether `key` was new. The table grows before it is half full.
  bool Insert(uint64_t key) {
    if (key == 0) key = 1;  // 0 marks an empty slot
    if (2 * (count_ + 1) > slots_.size()) Grow();
    return Place(key);
  }
  size_t size() const { return count_; }

 private:
  bool Place(uint64_t key) {
    const size_t mask = slots_.size() - 1;
    for (size_t i = (key * 0x9E3779B97F4A7C15ull) >> 17 & mask;; i = (i + 1) & mask) {
      if (slots_[i] == key) return false;
      if (slots_[i] == 0) {
        slots_[i] = key;
        ++count_;
        return true;
      }
    }
  }
  void Grow() {
    std::vector<uint64_t> old(2 * slots_.size(), 0);
    old.swap(slots_);
    count_ = 0;
    for (uint64_t key : old)
      if (key != 0) Place(key);
  }
  std::vector<uint64_t> slots_;
  size_t count_ = 0;
};

}  // namespace

// With `line` the search keeps every layer (only then: the composer scores
// every candidate and should not pay for it) and walks back from the mate,
// finding in each earlier layer a position with a move to the one after it.
HelpmateSearch ShortestHelpmate(const Position& start, Color winner, size_t cap,
                                std::string* line) {
  const Castling castling(start);
  KeySet seen(std::min<size_t>(cap, 1 << 20));
  seen.Insert(start.key());
  std::vector<std::vector<Packed>> layers;
  std::vector<Packed> frontier{Pack(start)}, next;
  for (int depth = 0; !frontier.empty(); ++depth) {
    next.clear();
    for (const Packed& packed : frontier) {
      Position pos = Unpack(packed, castling);
      MoveList moves(pos);
      if (moves.empty()) {
        if (!pos.in_check() || pos.side_to_move() == winner) continue;
        if (line) {
          std::vector<std::string> moves_back;
          uint64_t target = pos.key();
          for (int d = depth - 1; d >= 0; --d) {
            bool found = false;
            for (const Packed& earlier : layers[d]) {
              Position prev = Unpack(earlier, castling);
              for (Move m : MoveList(prev)) {
                prev.DoMove(m);
                found = prev.key() == target;
                prev.UndoMove(m);
                if (found) {
                  moves_back.push_back(ToUci(prev, m));
                  target = prev.key();
                  break;
                }
              }
              if (found) break;
            }
          }
          line->clear();
          for (auto it = moves_back.rbegin(); it != moves_back.rend(); ++it) {
            if (!line->empty()) line->push_back(' ');
            line->append(*it);
          }
        }
        return {depth, true, seen.size()};
      }
      for (Move m : moves) {
        pos.DoMove(m);
        if (seen.Insert(pos.key())) next.push_back(Pack(pos));
        pos.UndoMove(m);
      }
      if (seen.size() > cap) return {-1, false, seen.size()};
    }
    if (line) {
      layers.push_back(std::move(frontier));  // kept for the walk back, not copied
      frontier = std::move(next);
      next = {};
    } else {
      frontier.swap(next);
    }
  }
  return {-1, true, seen.size()};
}

}  // namespace arbiter::tools
