// One byte array of a retrograde table (its codes, its mate distances).
//
// A generated table owns its arrays and writes them while it is built; a
// table read from disk only looks at its file, mapped read-only into memory
// (retrograde_store.cc), so that loading costs neither a copy nor zeroed
// pages: reading the whole 3-4-man set into vectors took ~1.5 s per
// process, most of it page faults on fresh memory and the copy out of the
// page cache.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace arbiter {

class TableArray {
 public:
  TableArray() = default;
  // Owned, every byte `fill`.
  TableArray(size_t size, uint8_t fill) : owned_(size, fill), view_(owned_) {}
  explicit TableArray(std::vector<uint8_t> bytes) : owned_(std::move(bytes)), view_(owned_) {}
  // A view of `bytes`, which `keep_alive` keeps valid (a file mapping).
  TableArray(std::shared_ptr<const void> keep_alive, std::span<const uint8_t> bytes)
      : keep_alive_(std::move(keep_alive)), view_(bytes) {}

  // Moving a vector keeps its buffer, so the view stays valid; a copy would
  // not, and no table needs one.
  TableArray(TableArray&&) = default;
  TableArray& operator=(TableArray&&) = default;
  TableArray(const TableArray&) = delete;
  TableArray& operator=(const TableArray&) = delete;

  uint8_t operator[](size_t i) const { return view_[i]; }
  const uint8_t* data() const { return view_.data(); }
  size_t size() const { return view_.size(); }

  // Generation only: an owned array's bytes.
  uint8_t& Mutable(size_t i) { return owned_[i]; }

 private:
  std::vector<uint8_t> owned_;
  std::shared_ptr<const void> keep_alive_;
  std::span<const uint8_t> view_;
};

}  // namespace arbiter
