// Retrograde tables (retrograde.h) on disk, so that a process need not
// generate them again: the whole 3-4-man set takes ~30-40 s to generate and
// well under a second to read back. RetrogradeSolver uses this when given a
// cache directory; `arbiter tables build DIR` fills one.
//
// One table per file, <dir>/<canonical signature>.arbt ("KRvKP.arbt").
// Format version 1, every integer little-endian whatever the host:
//
//   offset  size      field
//        0     8      magic "ARBT\r\n\x1a\n" (line-ending and text-mode
//                     mangling show up here)
//        8     4      u32 format version (1)
//       12    16      canonical signature, ASCII, NUL-padded
//       28     1      u8 mate stride: mate-distance bytes per slot (0..2)
//       29     2      i8 mate offset of White, of Black, within a slot's
//                     bytes (-1: that colour can mate nowhere in the table)
//       31     1      0
//       32     8      u64 slots: Layout(canonical).size() when written; a
//                     file whose count differs from what this build computes
//                     was written for another layout and is refused
//       40     8      u64 positions (legal slots)
//       48     8      u64 long-DTZ entries (cursed wins, blessed losses)
//       56  slots     per-slot WDL/DTZ code bytes (RetrogradeTable::code_)
//        .  slots * stride   mate-distance bytes (RetrogradeTable::mate_)
//        .  entries * 10     (u64 slot, i16 DTZ) per long-DTZ entry,
//                            slots strictly ascending
//   end-8      8      u64 checksum: XXH64 (seed 0) of every byte before it
//
// The sub-tables a table's captures and promotions lead into are not in its
// file: they follow from the signature, and the loader fetches them (from
// their own files, or generated) in the order generation does.
//
// Loading checks everything before a table is handed out (size against the
// header before anything past it is read, then the checksum, then that every
// code and long-DTZ entry is one the probes can decode), so a damaged or
// foreign file is an error naming the file and the problem, never a crash
// or a wrong answer. The checksum and code pass is skipped for a file
// stamped as checked and unchanged since (table_stamp.h). A loaded table
// maps its file read-only (table_array.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/tablebase/retrograde.h"
#include "core/tablebase/retrograde_index.h"

namespace arbiter {

inline constexpr uint32_t kTableFormatVersion = 1;
inline constexpr char kTableFileExtension[] = ".arbt";

// <dir>/<signature>.arbt
std::string TableFilePath(const std::string& dir, const std::string& canonical_signature);

// Writes `table` to TableFilePath(dir, its signature), creating `dir` (and
// its parents) if needed. Atomic: the bytes go to a temporary file in `dir`
// that is then renamed over the final name, so a concurrent reader (another
// process sharing the directory) sees the old file, no file, or the whole
// new one; two writers of the same table write the same bytes. Not fsynced:
// after a crash, a torn file fails its checksum and is reported.
absl::Status SaveTable(const RetrogradeTable& table, const std::string& dir);

// The XXH64 the table's file has (or would have): what a table's content
// is known by when servers compare the tables they hold.
uint64_t TableChecksum(const RetrogradeTable& table);

// Where a loaded table gets its sub-tables (RetrogradeSolver passes its own
// cache, so that they are shared and loaded or generated as needed).
using SubtableSource =
    std::function<absl::StatusOr<std::shared_ptr<const RetrogradeTable>>(const Material&)>;

// Reads TableFilePath(dir, canonical.Name()). nullptr (and OK) when there is
// no such file; an error naming the file when it exists but is unreadable,
// of another format version or layout, of another signature, truncated or
// corrupt ("...; delete it to regenerate"); or the error of a sub-table.
absl::StatusOr<std::shared_ptr<const RetrogradeTable>> LoadTable(const std::string& dir,
                                                                 const Material& canonical,
                                                                 const SubtableSource& subtables);

// XXH64 (Yann Collet's public algorithm, seed 0) over data fed in pieces:
// the file checksum. Exposed for tests.
class Xxh64 {
 public:
  void Update(const void* data, size_t size);
  uint64_t Digest() const;

 private:
  uint64_t acc_[4] = {0x9E3779B185EBCA87ull + 0xC2B2AE3D27D4EB4Full, 0xC2B2AE3D27D4EB4Full, 0,
                      0 - 0x9E3779B185EBCA87ull};
  uint64_t total_ = 0;
  uint8_t buffer_[32] = {};
  size_t buffered_ = 0;
};

}  // namespace arbiter
