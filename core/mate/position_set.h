// The exact set of positions the exhaustive explorations (reachability.h)
// keep: each position's FIDE identity (men on squares, side to move,
// castling rights, e.p. square) packed in 32 bytes, so that a key collision
// can never fake a proof.
//
// Explorations run after every move of a replayed game wherever the pawns
// lock, thousands of them per database, most of a few hundred positions:
// allocating and touching a fresh table for each (4,000 slots, 130 KB) was
// a visible share of their time. So, as the mate searches' transposition
// tables do, each thread keeps its slots from one set to the next, and
// emptying a set bumps a generation number: a slot whose generation is not
// the set's is empty. A second set alive on the same thread (an analysis
// inside an analysis) gets slots of its own for its lifetime.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/chess/bitboard.h"
#include "core/chess/position.h"

namespace arbiter {

class PositionSet {
 public:
  // Slots a thread keeps after a set is destroyed (36 bytes each).
  static constexpr size_t kMaxRetainedSlots = size_t{1} << 17;

  PositionSet() {
    Storage& mine = ThreadStorage();
    if (mine.leased) {
      own_ = std::make_unique<Storage>();
      storage_ = own_.get();
    } else {
      storage_ = &mine;
    }
    storage_->leased = true;
    NextGeneration();
    Grow(kFirstSlots);
  }

  ~PositionSet() {
    storage_->leased = false;
    if (storage_->packed.size() > kMaxRetainedSlots) {
      storage_->packed = {};
      storage_->generations = {};
    }
  }

  PositionSet(const PositionSet&) = delete;
  PositionSet& operator=(const PositionSet&) = delete;

  // Room for `count` positions without growing.
  void Reserve(size_t count) {
    if (2 * count > capacity_) Grow(std::bit_ceil(2 * count));
  }

  // Adds `pos`; true when it was not in the set.
  bool Insert(const Position& pos) {
    if (2 * (size_ + 1) > capacity_) Grow(2 * capacity_);
    return InsertPacked(Pack(pos));
  }

  size_t size() const { return size_; }

 private:
  struct Packed {
    Bitboard occupied;
    uint64_t nibbles[2];  // one piece code per occupied square, in square order
    uint32_t extra;       // side | castling << 1 | ep << 5
    uint32_t hash;        // low bits of the Zobrist key: the slot
    bool operator==(const Packed& o) const {
      return occupied == o.occupied && nibbles[0] == o.nibbles[0] && nibbles[1] == o.nibbles[1] &&
             extra == o.extra;
    }
  };
  struct Storage {
    std::vector<Packed> packed;
    std::vector<uint32_t> generations;  // parallel to `packed`
    uint32_t generation = 0;
    bool leased = false;
  };
  static constexpr size_t kFirstSlots = 1024;

  static Storage& ThreadStorage() {
    thread_local Storage storage;
    return storage;
  }

  static Packed Pack(const Position& pos) {
    Packed p{pos.pieces(), {0, 0}, 0, uint32_t(pos.key())};
    int i = 0;
    for (Bitboard b = pos.pieces(); b; ++i) {
      const Square s = PopLsb(b);
      p.nibbles[i / 16] |= uint64_t(pos.piece_on(s)) << (4 * (i % 16));
    }
    p.extra = uint32_t(pos.side_to_move()) | (uint32_t(pos.castling_rights()) << 1) |
              (uint32_t(pos.ep_square()) << 5);
    return p;
  }

  void NextGeneration() {
    if (++storage_->generation == 0) {
      // After 2^32 sets, old slots could look current again.
      std::fill(storage_->generations.begin(), storage_->generations.end(), 0);
      storage_->generation = 1;
    }
  }

  bool InsertPacked(const Packed& p) {
    const size_t mask = capacity_ - 1;
    const uint32_t current = storage_->generation;
    for (size_t i = p.hash & mask;; i = (i + 1) & mask) {
      if (storage_->generations[i] != current) {
        storage_->generations[i] = current;
        storage_->packed[i] = p;
        ++size_;
        return true;
      }
      if (storage_->packed[i] == p) return false;
    }
  }

  // Uses `slots` (a power of two) from now on, keeping what the set holds.
  void Grow(size_t slots) {
    if (slots <= capacity_) return;
    std::vector<Packed> held;
    held.reserve(size_);
    for (size_t i = 0; i < capacity_; ++i)
      if (storage_->generations[i] == storage_->generation) held.push_back(storage_->packed[i]);
    if (storage_->packed.size() < slots) {
      // Fresh slots have generation 0, which is never current.
      storage_->packed.resize(slots);
      storage_->generations.resize(slots);
    }
    NextGeneration();
    capacity_ = slots;
    size_ = 0;
    for (const Packed& p : held) InsertPacked(p);
  }

  Storage* storage_ = nullptr;
  std::unique_ptr<Storage> own_;
  size_t capacity_ = 0;  // slots in use: the first `capacity_` of storage
  size_t size_ = 0;
};

}  // namespace arbiter
