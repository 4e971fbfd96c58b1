// The transposition table of the mate searches (helpmate_search.h,
// guided_mate_search.h): one slot per key index, the newest entry wins.
//
// Searches run by the thousand, one or more per position ruled on, and most
// are small: allocating and zeroing a table for each was a visible share of
// their cost (about 6% of a PGN fuzz input's time under AddressSanitizer
// went to the guided search's tables alone). So each thread keeps its table
// memory from one search to the next, and emptying the table bumps a
// generation number instead of clearing it: a slot whose generation is not
// the table's current one is empty. What a search sees is exactly what a
// freshly zeroed table of the same size would show it.
//
// Every thread has its own memory, so workers running searches on several
// threads share nothing. A second table of the same type on one thread (a
// search inside a search) gets memory of its own for its lifetime.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>

namespace arbiter {

template <typename Value>
class TranspositionTable {
 public:
  // Memory a thread keeps after a search: the default table_bytes of
  // MateSearchOptions. A larger table is freed when its search ends.
  static constexpr size_t kMaxRetainedBytes = size_t{16} << 20;
  // Memory per slot, to size a table by bytes.
  static constexpr size_t kSlotBytes = 16;

  TranspositionTable() {
    Storage& mine = ThreadStorage();
    if (mine.leased) {
      own_ = std::make_unique<Storage>();
      storage_ = own_.get();
    } else {
      storage_ = &mine;
    }
    storage_->leased = true;
  }

  ~TranspositionTable() {
    storage_->leased = false;
    if (storage_->slots.size() * sizeof(Slot) > kMaxRetainedBytes) storage_->slots = SlotArray();
  }

  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;

  // Empties the table and gives it `entries` slots, a power of two.
  // Constant time unless the thread's memory has to grow.
  void Reset(size_t entries) {
    if (storage_->slots.size() < entries) {
      // Fresh slots have generation 0, which is never current.
      storage_->slots = SlotArray(entries);
    }
    if (++storage_->generation == 0) {
      // After 2^32 resets, old slots could look current again.
      for (Slot& slot : storage_->slots) slot.generation = 0;
      storage_->generation = 1;
    }
    slots_ = storage_->slots.data();
    size_ = entries;
  }

  size_t size() const { return size_; }

  // The value stored for `key`, or nullptr when its slot holds another key
  // or nothing.
  const Value* Find(uint64_t key) const {
    const Slot& slot = slots_[key & (size_ - 1)];
    return slot.generation == storage_->generation && slot.key == key ? &slot.value : nullptr;
  }

  // Starts loading the slot of `key` into the cache, for a Find later (in a
  // table of megabytes a slot is a cache miss). A hint: any key will do.
  void Prefetch(uint64_t key) const { __builtin_prefetch(&slots_[key & (size_ - 1)]); }

  // Stores `value` for `key`, replacing whatever its slot held.
  void Store(uint64_t key, Value value) {
    Slot& slot = slots_[key & (size_ - 1)];
    slot.key = key;
    slot.generation = storage_->generation;
    slot.value = value;
  }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t generation = 0;
    Value value{};
  };
  static_assert(sizeof(Slot) == kSlotBytes, "a value too big for the slot");

  // Slots in memory the kernel may back with huge pages: a probe into a
  // table of megabytes is otherwise a TLB miss as well as a cache miss
  // (the slowest sides of CHA's test vector, in 16 MB tables, ~7% faster
  // with them).
  class SlotArray {
   public:
    SlotArray() = default;
    explicit SlotArray(size_t size) : size_(size) {
      const size_t bytes = size * sizeof(Slot);
      if (bytes >= kHugePage) {
        data_ = static_cast<Slot*>(
            std::aligned_alloc(kHugePage, (bytes + kHugePage - 1) & ~(kHugePage - 1)));
        if (data_) ::madvise(data_, bytes, MADV_HUGEPAGE);
      } else {
        data_ = static_cast<Slot*>(std::malloc(bytes));
      }
      if (!data_) throw std::bad_alloc();
      for (size_t i = 0; i < size; ++i) new (&data_[i]) Slot{};
    }
    SlotArray(SlotArray&& other) noexcept : data_(other.data_), size_(other.size_) {
      other.data_ = nullptr;
      other.size_ = 0;
    }
    SlotArray& operator=(SlotArray&& other) noexcept {
      std::swap(data_, other.data_);
      std::swap(size_, other.size_);
      return *this;
    }
    ~SlotArray() { std::free(data_); }
    size_t size() const { return size_; }
    Slot* data() { return data_; }
    Slot* begin() { return data_; }
    Slot* end() { return data_ + size_; }

   private:
    static constexpr size_t kHugePage = size_t{2} << 20;
    Slot* data_ = nullptr;
    size_t size_ = 0;
  };

  struct Storage {
    SlotArray slots;
    uint32_t generation = 0;
    bool leased = false;  // a table of this thread is using `slots`
  };

  static Storage& ThreadStorage() {
    thread_local Storage storage;
    return storage;
  }

  Storage* storage_ = nullptr;
  std::unique_ptr<Storage> own_;  // when the thread's storage was taken
  Slot* slots_ = nullptr;
  size_t size_ = 0;
};

}  // namespace arbiter
