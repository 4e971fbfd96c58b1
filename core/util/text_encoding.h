// Text encodings of input files: checking UTF-8, and converting the legacy
// single-byte encoding that older PGN files use (Windows-1252) to it.
//
// Arbiter's output (JSON lines, the wire's text) is UTF-8. Game records come
// in whatever their tools wrote: UTF-8 for Lichess and current software, but
// Windows-1252 (or ISO-8859-1, whose printable characters it includes) for
// many over-the-board files, whose names ("Müller"), sites and comments then
// hold bytes that are not UTF-8. core/pgn/game_encoding.h decides per game
// which one it is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace arbiter {

namespace text_encoding_internal {

inline constexpr uint64_t kHighBits = 0x8080808080808080ULL;

// The bytes of `s` ORed together in the lanes of a word: a byte >= 0x80
// sets a high bit of kHighBits. No loop below 8 bytes (a SAN) and a round
// or two for a clock comment: every field of every game read goes through
// it.
inline uint64_t OrOfBytes(std::string_view s) {
  const char* p = s.data();
  const size_t n = s.size();
  if (n >= 8) {
    uint64_t seen = 0;
    uint64_t word;
    for (size_t i = 0; i + 8 <= n; i += 8) {
      std::memcpy(&word, p + i, 8);
      seen |= word;
    }
    std::memcpy(&word, p + n - 8, 8);  // the last 1..8 bytes, overlapping
    return seen | word;
  }
  if (n >= 4) {
    uint32_t head, tail;  // two words overlapping: 4..7 bytes
    std::memcpy(&head, p, 4);
    std::memcpy(&tail, p + n - 4, 4);
    return head | tail;
  }
  if (n == 0) return 0;
  // 1..3 bytes: the first, the middle and the last cover them all.
  return uint8_t(p[0]) | uint8_t(p[n / 2]) | uint8_t(p[n - 1]);
}

bool IsValidNonAsciiUtf8(std::string_view s);

}  // namespace text_encoding_internal

// True when every byte of `s` is below 0x80 (then it is valid UTF-8 and
// Windows-1252 alike, and converting it changes nothing).
inline bool IsAscii(std::string_view s) {
  return (text_encoding_internal::OrOfBytes(s) & text_encoding_internal::kHighBits) == 0;
}

// True when `s` is well-formed UTF-8 (Unicode 15, table 3-7): no overlong
// forms, no surrogates (U+D800..U+DFFF), nothing above U+10FFFF, no
// truncated sequence. ASCII, the common case, is recognised inline, eight
// bytes at a time.
inline bool IsValidUtf8(std::string_view s) {
  return IsAscii(s) || text_encoding_internal::IsValidNonAsciiUtf8(s);
}

// The length of the UTF-8 sequence at the start of non-empty `s` when it is
// well-formed (1 to 4), else minus the length of its maximal subpart (the
// longest prefix that could start a well-formed sequence, at least 1): the
// bytes that one U+FFFD replaces under Unicode's recommended practice
// (section 3.9, "U+FFFD Substitution of Maximal Subparts").
int Utf8SequenceLength(std::string_view s);

// `s` with every ill-formed sequence (maximal subpart) replaced by U+FFFD;
// well-formed input comes back unchanged.
std::string ReplaceInvalidUtf8(std::string_view s);

// `s`, read as Windows-1252, in UTF-8. Windows-1252 is what Windows-era chess
// programs (ChessBase, the DOS and Windows PGN tools) wrote, and it is a
// superset of ISO-8859-1's printable characters: 0xA0..0xFF are U+00A0..
// U+00FF in both, and it gives 0x80..0x9F, control codes in ISO-8859-1 that
// text never uses, typographic characters (€, quotes, dashes, Š, Œ, Ÿ, ...).
// So Latin-1 text converts correctly too. The five bytes Windows-1252 leaves
// undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) become the C1 controls of the same
// value, as ISO-8859-1 and the WHATWG Encoding Standard's decoder have them:
// every byte string converts, and nothing is lost.
std::string Windows1252ToUtf8(std::string_view s);

}  // namespace arbiter
