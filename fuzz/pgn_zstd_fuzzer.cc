// PGN through the zstd path of ByteSource (what `verify games.pgn.zst`
// reads). The first byte picks the mode, the rest is the data:
//   0: the data is a zstd stream (a frame's magic bytes are put in front
//      when it does not start like zstd data, so that it is always decoded): its games are replayed
//      and verified as in pgn_fuzzer.cc; corrupt data must be an error.
//   1: the data is compressed here, as two concatenated frames split at a
//      point the second byte picks: decoding must give back the data exactly
//      (read in chunks of varying size) and the same games as the plain text.
//   2: as 1, then the stream is cut inside its last frame: the reader must
//      report the truncation, never end the input silently.
#include <zstd.h>

#include <cstring>
#include <string>

#include "fuzz/fuzz_support.h"
#include "fuzz/pgn_checks.h"

namespace arbiter::fuzz {
namespace {

constexpr std::string_view kZstdMagic("\x28\xB5\x2F\xFD", 4);

// What ByteSource decodes as zstd: a frame, or a skippable frame (pzstd).
bool LooksCompressed(std::string_view data) {
  return data.starts_with(kZstdMagic) || (data.size() >= 4 && (uint8_t(data[0]) & 0xF0) == 0x50 &&
                                          data.substr(1, 3) == "\x2A\x4D\x18");
}

std::string Compress(std::string_view data, int level) {
  // One context for the process: ZSTD_compress makes and frees one per call,
  // which took a tenth of this target's time under ASan.
  static ZSTD_CCtx* const cctx = ZSTD_createCCtx();
  ARBITER_FUZZ_CHECK(cctx != nullptr, "cannot allocate a zstd compression context");
  std::string out(ZSTD_compressBound(data.size()), '\0');
  size_t n = ZSTD_compressCCtx(cctx, out.data(), out.size(), data.data(), data.size(), level);
  ARBITER_FUZZ_CHECK(!ZSTD_isError(n), ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

// Everything the source serves, in reads of 1, 2, 3, ... bytes (cycling),
// and the error that ended it, if any.
absl::Status ReadAll(ByteSource& source, std::string* out) {
  char buf[256];
  for (size_t i = 0;; ++i) {
    const size_t n = 1 + i % sizeof buf;
    absl::StatusOr<size_t> got = source.Read(buf, n);
    if (!got.ok()) return got.status();
    if (*got == 0) return absl::OkStatus();
    ARBITER_FUZZ_CHECK(*got <= n, absl::StrCat(*got, " > ", n));
    out->append(buf, *got);
  }
}

void DecodeStream(std::string_view data) {
  std::string stream(data);
  if (!LooksCompressed(stream)) stream.insert(0, kZstdMagic);
  CheckGames(ReadGames(ByteSource::FromString(std::move(stream)), true));
}

void RoundTrip(std::string_view text, uint8_t split_byte, int level, bool truncate) {
  const size_t split = text.size() * split_byte / 255;
  const std::string first = Compress(text.substr(0, split), level);
  const std::string stream = first + Compress(text.substr(split), level);

  if (truncate) {
    // Cut strictly inside the last frame (a frame is at least 9 bytes).
    const size_t last_frame = stream.size() - first.size();
    const size_t cut = first.size() + 1 + (split_byte * 31 + text.size()) % (last_frame - 1);
    std::string decoded;
    absl::Status status = ReadAll(*ByteSource::FromString(stream.substr(0, cut)), &decoded);
    ARBITER_FUZZ_CHECK(!status.ok(), absl::StrCat("a stream of ", stream.size(), " bytes cut at ",
                                                  cut, " read without an error"));
    ARBITER_FUZZ_CHECK(text.starts_with(decoded), "decoded bytes differ from the text");
    return;
  }

  std::string decoded;
  absl::Status status = ReadAll(*ByteSource::FromString(stream), &decoded);
  ARBITER_FUZZ_CHECK(status.ok(), status.ToString());
  ARBITER_FUZZ_CHECK(decoded == text,
                     absl::StrCat(decoded.size(), " bytes decoded of ", text.size()));
  // Plain text that itself starts with the magic bytes would be decoded once
  // more when read directly; only the first reading is comparable.
  if (LooksCompressed(text)) return;
  CheckSameGames(ReadGames(ByteSource::FromString(stream), true),
                 ReadGames(ByteSource::FromString(std::string(text)), true),
                 /*comments_dropped=*/false);
}

}  // namespace

void PgnZstdTarget(std::string_view input) {
  if (input.size() < 2) return;
  const uint8_t mode = uint8_t(input[0]);
  const uint8_t split = uint8_t(input[1]);
  switch (mode % 3) {
    case 0:
      DecodeStream(input.substr(1));
      break;
    case 1:
    case 2:
      // Levels 1..3: fast, and enough to vary the block types.
      RoundTrip(input.substr(2), split, 1 + mode / 3 % 3, mode % 3 == 2);
      break;
  }
}

}  // namespace arbiter::fuzz

#ifndef ARBITER_FUZZ_REGRESSION_TEST  // the regression test calls PgnZstdTarget by name
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  arbiter::fuzz::PgnZstdTarget(arbiter::fuzz::AsText(data, size));
  return 0;
}
#endif
