#include "core/util/text_encoding.h"

#include <array>
#include <cstdint>
#include <cstring>

namespace arbiter {
namespace {

using text_encoding_internal::kHighBits;

// Windows-1252's 0x80..0x9F (the WHATWG Encoding Standard's
// index-windows-1252; the undefined bytes map to the C1 control of the same
// value).
constexpr char16_t kWindows1252C1[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,  // 0x80
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,  // 0x88
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,  // 0x90
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,  // 0x98
};

// The UTF-8 form of each byte 0x80..0xFF read as Windows-1252 (two or three
// bytes: every code point is below U+10000).
struct Utf8Bytes {
  char bytes[3];
  uint8_t size;
};

constexpr Utf8Bytes EncodeBmp(char16_t cp) {
  if (cp < 0x800) return {{char(0xC0 | (cp >> 6)), char(0x80 | (cp & 0x3F)), 0}, 2};
  return {{char(0xE0 | (cp >> 12)), char(0x80 | ((cp >> 6) & 0x3F)), char(0x80 | (cp & 0x3F))}, 3};
}

constexpr std::array<Utf8Bytes, 128> MakeHighHalf() {
  std::array<Utf8Bytes, 128> t{};
  for (int b = 0x80; b < 0x100; ++b)
    t[b - 0x80] = EncodeBmp(b < 0xA0 ? kWindows1252C1[b - 0x80] : char16_t(b));
  return t;
}
constexpr std::array<Utf8Bytes, 128> kHighHalf = MakeHighHalf();

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

int Utf8SequenceLength(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  const unsigned char lead = p[0];
  if (lead < 0x80) return 1;
  // The well-formed sequences (Unicode table 3-7): the lead byte fixes the
  // length and the range of the second byte, which excludes overlong forms
  // (E0, F0), surrogates (ED) and code points above U+10FFFF (F4).
  int size;
  unsigned char low = 0x80, high = 0xBF;
  if (lead < 0xC2) {
    return -1;  // a continuation byte, or the lead of an overlong 2-byte form
  } else if (lead < 0xE0) {
    size = 2;
  } else if (lead < 0xF0) {
    size = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead < 0xF5) {
    size = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return -1;
  }
  if (n < 2 || p[1] < low || p[1] > high) return -1;
  for (int i = 2; i < size; ++i)
    if (size_t(i) >= n || (p[i] & 0xC0) != 0x80) return -i;
  return size;
}

namespace text_encoding_internal {

bool IsValidNonAsciiUtf8(std::string_view s) {
  const char* p = s.data();
  const char* const end = p + s.size();
  while (p < end) {
    // ASCII eight bytes at a time, then byte by byte up to the next
    // non-ASCII byte.
    if (end - p >= 8) {
      uint64_t word;
      std::memcpy(&word, p, 8);
      if ((word & kHighBits) == 0) {
        p += 8;
        continue;
      }
    }
    if (static_cast<unsigned char>(*p) < 0x80) {
      ++p;
      continue;
    }
    const int size = Utf8SequenceLength(std::string_view(p, size_t(end - p)));
    if (size < 0) return false;
    p += size;
  }
  return true;
}

}  // namespace text_encoding_internal

std::string ReplaceInvalidUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const int size = Utf8SequenceLength(s.substr(i));
    if (size > 0) {
      out.append(s.substr(i, size_t(size)));
      i += size_t(size);
    } else {
      out.append(kReplacementCharacter);
      i += size_t(-size);
    }
  }
  return out;
}

std::string Windows1252ToUtf8(std::string_view s) {
  if (IsAscii(s)) return std::string(s);
  std::string out;
  // Mostly ASCII with a few two-byte characters: one allocation, usually.
  out.reserve(s.size() + s.size() / 4 + 8);
  for (char c : s) {
    const unsigned char b = static_cast<unsigned char>(c);
    if (b < 0x80) {
      out.push_back(c);
    } else {
      const Utf8Bytes& u = kHighHalf[b - 0x80];
      out.append(u.bytes, u.size);
    }
  }
  return out;
}

}  // namespace arbiter
