// Tests of core/util/text_encoding.h (UTF-8 checking, Windows-1252 to UTF-8)
// and of the UTF-8 guarantee of core/render/json.h's strings. Suite names
// contain "Encoding" or "Json" for `ctest -R`.
#include "core/util/text_encoding.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>

#include "core/render/json.h"

namespace arbiter {
namespace {

using namespace std::string_literals;

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// An independent reading of UTF-8 by its bit patterns: the code point of a
// sequence, then the rules on it (shortest form, no surrogate, at most
// U+10FFFF).
bool ReferenceIsValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const uint8_t b = uint8_t(s[i]);
    int extra;
    uint32_t cp;
    if ((b & 0x80) == 0) {
      ++i;
      continue;
    } else if ((b & 0xE0) == 0xC0) {
      extra = 1;
      cp = b & 0x1F;
    } else if ((b & 0xF0) == 0xE0) {
      extra = 2;
      cp = b & 0x0F;
    } else if ((b & 0xF8) == 0xF0) {
      extra = 3;
      cp = b & 0x07;
    } else {
      return false;
    }
    if (i + size_t(extra) >= s.size()) return false;  // truncated
    for (int k = 1; k <= extra; ++k) {
      const uint8_t c = uint8_t(s[i + size_t(k)]);
      if ((c & 0xC0) != 0x80) return false;
      cp = cp << 6 | (c & 0x3F);
    }
    static constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return false;
    i += size_t(extra) + 1;
  }
  return true;
}

TEST(TextEncoding, AcceptsWellFormedUtf8) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("1. e4 e5 2. Nf3 {[%clk 0:03:00]} *"));
  EXPECT_TRUE(IsValidUtf8("M\xC3\xBCller, J\xC3\xB6rg"));         // Müller, Jörg
  EXPECT_TRUE(IsValidUtf8("\xE2\x82\xAC 12\xE2\x80\xA6"));        // € 12…
  EXPECT_TRUE(IsValidUtf8("\xF0\x9F\x98\x80"));                   // U+1F600
  EXPECT_TRUE(IsValidUtf8("\xC2\x80"));                           // U+0080, the first 2-byte
  EXPECT_TRUE(IsValidUtf8("\xDF\xBF"));                           // U+07FF
  EXPECT_TRUE(IsValidUtf8("\xE0\xA0\x80"));                       // U+0800, the first 3-byte
  EXPECT_TRUE(IsValidUtf8("\xED\x9F\xBF"));                       // U+D7FF, below the surrogates
  EXPECT_TRUE(IsValidUtf8("\xEE\x80\x80"));                       // U+E000, above them
  EXPECT_TRUE(IsValidUtf8("\xEF\xBF\xBF"));                       // U+FFFF
  EXPECT_TRUE(IsValidUtf8("\xF0\x90\x80\x80"));                   // U+10000, the first 4-byte
  EXPECT_TRUE(IsValidUtf8("\xF4\x8F\xBF\xBF"));                   // U+10FFFF, the last
  EXPECT_TRUE(IsValidUtf8("\0\x7F"s));                            // NUL and DEL are ASCII
  EXPECT_TRUE(IsValidUtf8(std::string(1000, 'a') + "\xC3\xA9"));  // after the fast path
}

TEST(TextEncoding, RejectsIllFormedUtf8) {
  // Latin-1 / Windows-1252 bytes, as in over-the-board files.
  EXPECT_FALSE(IsValidUtf8("M\xFCller"));
  EXPECT_FALSE(IsValidUtf8("\x80"));  // a lone continuation byte
  EXPECT_FALSE(IsValidUtf8("\xBF"));
  // Overlong forms.
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));          // '/' in two bytes
  EXPECT_FALSE(IsValidUtf8("\xC1\xBF"));          // U+007F in two bytes
  EXPECT_FALSE(IsValidUtf8("\xE0\x80\xAF"));      // '/' in three
  EXPECT_FALSE(IsValidUtf8("\xE0\x9F\xBF"));      // U+07FF in three
  EXPECT_FALSE(IsValidUtf8("\xF0\x80\x80\xAF"));  // '/' in four
  EXPECT_FALSE(IsValidUtf8("\xF0\x8F\xBF\xBF"));  // U+FFFF in four
  // Surrogates (CESU-8 / WTF-8).
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));              // U+D800
  EXPECT_FALSE(IsValidUtf8("\xED\xBF\xBF"));              // U+DFFF
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\xBD\xED\xB8\x80"));  // a surrogate pair
  // Beyond U+10FFFF, and bytes that never occur.
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));  // U+110000
  EXPECT_FALSE(IsValidUtf8("\xF5\x80\x80\x80"));
  EXPECT_FALSE(IsValidUtf8("\xF8\x88\x80\x80\x80"));  // the old 5-byte form
  EXPECT_FALSE(IsValidUtf8("\xFE"));
  EXPECT_FALSE(IsValidUtf8("\xFF"));
  // Truncated sequences: at the end, and followed by ASCII.
  EXPECT_FALSE(IsValidUtf8("\xC3"));
  EXPECT_FALSE(IsValidUtf8("\xE2\x82"));
  EXPECT_FALSE(IsValidUtf8("\xF0\x9F\x98"));
  EXPECT_FALSE(
      IsValidUtf8("ab\xE2\x82"
                  "c"));
  EXPECT_FALSE(
      IsValidUtf8("\xF0\x9F\x98"
                  "abcdefgh"));
  // An invalid byte after a long ASCII run (behind the eight-byte fast path)
  // and at every position of a word.
  for (size_t at = 0; at < 40; ++at) {
    std::string s(40, 'x');
    s[at] = '\xE9';
    EXPECT_FALSE(IsValidUtf8(s)) << at;
    EXPECT_FALSE(IsAscii(s)) << at;
  }
}

// Every string of one to three bytes, and four-byte strings over every lead
// and second byte: the same answer as the reference reading.
TEST(TextEncoding, AgreesWithReferenceOnAllShortStrings) {
  std::string s;
  for (int a = 0; a < 256; ++a) {
    s.assign(1, char(a));
    ASSERT_EQ(IsValidUtf8(s), ReferenceIsValidUtf8(s)) << a;
    for (int b = 0; b < 256; ++b) {
      s.assign({char(a), char(b)});
      ASSERT_EQ(IsValidUtf8(s), ReferenceIsValidUtf8(s)) << a << " " << b;
      for (int c = 0; c < 256; ++c) {
        s.assign({char(a), char(b), char(c)});
        ASSERT_EQ(IsValidUtf8(s), ReferenceIsValidUtf8(s)) << a << " " << b << " " << c;
      }
    }
  }
  std::mt19937 rng(26);
  for (int a = 0xC0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      for (int k = 0; k < 8; ++k) {
        // Mostly continuation bytes, sometimes anything.
        auto tail = [&] { return char(rng() % 4 ? 0x80 + rng() % 64 : rng() % 256); };
        s.assign({char(a), char(b), tail(), tail()});
        ASSERT_EQ(IsValidUtf8(s), ReferenceIsValidUtf8(s)) << a << " " << b;
      }
    }
  }
}

TEST(TextEncoding, SequenceLengthGivesMaximalSubparts) {
  EXPECT_EQ(Utf8SequenceLength("a"), 1);
  EXPECT_EQ(Utf8SequenceLength("\xC3\xA9"), 2);
  EXPECT_EQ(Utf8SequenceLength("\xE2\x82\xAC"), 3);
  EXPECT_EQ(Utf8SequenceLength("\xF0\x9F\x98\x80"), 4);
  EXPECT_EQ(Utf8SequenceLength("\xE9t\xE9"), -1);
  EXPECT_EQ(Utf8SequenceLength("\xE2\x82"
                               "a"),
            -2);
  EXPECT_EQ(Utf8SequenceLength("\xF0\x9F\x98"), -3);
  EXPECT_EQ(Utf8SequenceLength("\xE0\x80\x80"), -1);  // overlong: the lead alone
  EXPECT_EQ(Utf8SequenceLength("\xED\xA0\x80"), -1);  // surrogate: the lead alone
}

TEST(TextEncoding, ReplacesIllFormedSequencesLikeTheUnicodeStandard) {
  // The example of Unicode 15 section 3.9 ("U+FFFD Substitution of Maximal
  // Subparts"): 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64.
  const std::string r(kReplacement);
  EXPECT_EQ(ReplaceInvalidUtf8("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"),
            "a" + r + r + r + "b" + r + "c" + r + r + "d");
  EXPECT_EQ(ReplaceInvalidUtf8("M\xFCller"), "M" + r + "ller");
  EXPECT_EQ(ReplaceInvalidUtf8("M\xC3\xBCller"), "M\xC3\xBCller");
  EXPECT_EQ(ReplaceInvalidUtf8(""), "");
}

// Windows-1252's 0x80..0x9F, from the code page's specification (Microsoft's
// cp1252 table, as the WHATWG Encoding Standard's index-windows-1252 gives
// it, undefined bytes as the C1 controls), in UTF-8.
struct Mapping {
  int byte;
  const char* utf8;
};
constexpr Mapping kWindows1252High[] = {
    {0x80, "\xE2\x82\xAC"},  // U+20AC EURO SIGN
    {0x81, "\xC2\x81"},      // U+0081 undefined: C1 control
    {0x82, "\xE2\x80\x9A"},  // U+201A SINGLE LOW-9 QUOTATION MARK
    {0x83, "\xC6\x92"},      // U+0192 LATIN SMALL LETTER F WITH HOOK
    {0x84, "\xE2\x80\x9E"},  // U+201E DOUBLE LOW-9 QUOTATION MARK
    {0x85, "\xE2\x80\xA6"},  // U+2026 HORIZONTAL ELLIPSIS
    {0x86, "\xE2\x80\xA0"},  // U+2020 DAGGER
    {0x87, "\xE2\x80\xA1"},  // U+2021 DOUBLE DAGGER
    {0x88, "\xCB\x86"},      // U+02C6 MODIFIER LETTER CIRCUMFLEX ACCENT
    {0x89, "\xE2\x80\xB0"},  // U+2030 PER MILLE SIGN
    {0x8A, "\xC5\xA0"},      // U+0160 LATIN CAPITAL LETTER S WITH CARON
    {0x8B, "\xE2\x80\xB9"},  // U+2039 SINGLE LEFT-POINTING ANGLE QUOTATION MARK
    {0x8C, "\xC5\x92"},      // U+0152 LATIN CAPITAL LIGATURE OE
    {0x8D, "\xC2\x8D"},      // U+008D undefined: C1 control
    {0x8E, "\xC5\xBD"},      // U+017D LATIN CAPITAL LETTER Z WITH CARON
    {0x8F, "\xC2\x8F"},      // U+008F undefined: C1 control
    {0x90, "\xC2\x90"},      // U+0090 undefined: C1 control
    {0x91, "\xE2\x80\x98"},  // U+2018 LEFT SINGLE QUOTATION MARK
    {0x92, "\xE2\x80\x99"},  // U+2019 RIGHT SINGLE QUOTATION MARK
    {0x93, "\xE2\x80\x9C"},  // U+201C LEFT DOUBLE QUOTATION MARK
    {0x94, "\xE2\x80\x9D"},  // U+201D RIGHT DOUBLE QUOTATION MARK
    {0x95, "\xE2\x80\xA2"},  // U+2022 BULLET
    {0x96, "\xE2\x80\x93"},  // U+2013 EN DASH
    {0x97, "\xE2\x80\x94"},  // U+2014 EM DASH
    {0x98, "\xCB\x9C"},      // U+02DC SMALL TILDE
    {0x99, "\xE2\x84\xA2"},  // U+2122 TRADE MARK SIGN
    {0x9A, "\xC5\xA1"},      // U+0161 LATIN SMALL LETTER S WITH CARON
    {0x9B, "\xE2\x80\xBA"},  // U+203A SINGLE RIGHT-POINTING ANGLE QUOTATION MARK
    {0x9C, "\xC5\x93"},      // U+0153 LATIN SMALL LIGATURE OE
    {0x9D, "\xC2\x9D"},      // U+009D undefined: C1 control
    {0x9E, "\xC5\xBE"},      // U+017E LATIN SMALL LETTER Z WITH CARON
    {0x9F, "\xC5\xB8"},      // U+0178 LATIN CAPITAL LETTER Y WITH DIAERESIS
};

TEST(TextEncoding, MapsEveryWindows1252Byte) {
  // 0x80..0x9F: the table above.
  for (const Mapping& m : kWindows1252High) {
    EXPECT_EQ(Windows1252ToUtf8(std::string(1, char(m.byte))), m.utf8) << std::hex << m.byte;
  }
  // 0xA0..0xFF: U+00A0..U+00FF (ISO-8859-1), two bytes: C2 or C3, then
  // 80..BF.
  for (int b = 0xA0; b < 0x100; ++b) {
    const std::string expected = {char(b < 0xC0 ? 0xC2 : 0xC3), char(0x80 | (b & 0x3F))};
    EXPECT_EQ(Windows1252ToUtf8(std::string(1, char(b))), expected) << std::hex << b;
  }
  // Spot checks in readable form.
  EXPECT_EQ(Windows1252ToUtf8("\x80"), "\u20AC");  // €
  EXPECT_EQ(Windows1252ToUtf8("\xE9"), "\u00E9");  // é
  EXPECT_EQ(Windows1252ToUtf8("\xA0"), "\u00A0");  // no-break space
  EXPECT_EQ(Windows1252ToUtf8("\xFF"), "\u00FF");  // ÿ
  EXPECT_EQ(Windows1252ToUtf8("\x9F"), "\u0178");  // Ÿ
  EXPECT_EQ(Windows1252ToUtf8("\x99"), "\u2122");  // ™
  // Every byte converts to valid UTF-8.
  for (int b = 0; b < 0x100; ++b)
    EXPECT_TRUE(IsValidUtf8(Windows1252ToUtf8(std::string(1, char(b))))) << b;
}

TEST(TextEncoding, ConvertsWindows1252Text) {
  EXPECT_EQ(Windows1252ToUtf8(""), "");
  EXPECT_EQ(Windows1252ToUtf8("Nf3 {[%clk 0:03:00]}"), "Nf3 {[%clk 0:03:00]}");
  EXPECT_EQ(Windows1252ToUtf8("\0\x7F"s), "\0\x7F"s);  // ASCII unchanged, NUL included
  EXPECT_EQ(Windows1252ToUtf8("M\xFCller, J\xF6rg"), "M\u00FCller, J\u00F6rg");
  EXPECT_EQ(Windows1252ToUtf8("\x93Zugzwang\x94 \x96 \x80"
                              "5"),
            "\u201CZugzwang\u201D \u2013 \u20AC5");
  // UTF-8 read as Windows-1252 is mojibake, but valid UTF-8.
  EXPECT_EQ(Windows1252ToUtf8("\xC3\xA9"), "\u00C3\u00A9");
}

TEST(TextEncoding, IsAsciiAtEveryLength) {
  for (size_t n = 0; n < 24; ++n) {
    std::string s(n, 'a');
    EXPECT_TRUE(IsAscii(s)) << n;
    for (size_t at = 0; at < n; ++at) {
      s[at] = '\x80';
      EXPECT_FALSE(IsAscii(s)) << n << " " << at;
      s[at] = '\x7F';
      EXPECT_TRUE(IsAscii(s)) << n << " " << at;
      s[at] = 'a';
    }
  }
}

// ---- json strings -----------------------------------------------------------

TEST(JsonString, EmitsValidUtf8Unchanged) {
  EXPECT_EQ(JsonQuote("M\xC3\xBCller"), "\"M\xC3\xBCller\"");
  EXPECT_EQ(JsonQuote("\xF0\x9F\x98\x80 \xE2\x82\xAC"), "\"\xF0\x9F\x98\x80 \xE2\x82\xAC\"");
  EXPECT_EQ(JsonQuote("a\"b\\c\nd\re\tf\x01g\x7F"), "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\x7F\"");
  EXPECT_EQ(JsonQuote(""), "\"\"");
  EXPECT_EQ(JsonQuote("\0"s), "\"\\u0000\"");
}

TEST(JsonString, ReplacesInvalidBytesWithReplacementCharacter) {
  const std::string r(kReplacement);
  EXPECT_EQ(JsonQuote("M\xFCller"), "\"M" + r + "ller\"");
  EXPECT_EQ(JsonQuote("\xFF"), "\"" + r + "\"");
  EXPECT_EQ(JsonQuote("unexpected token \"\xE2\x82\""), "\"unexpected token \\\"" + r + "\\\"\"");
  EXPECT_EQ(JsonQuote("\xED\xA0\x80"), "\"" + r + r + r + "\"");  // a surrogate
  EXPECT_EQ(JsonQuote("\xC3\xA9\xE9\n\xC3\xA9"), "\"\xC3\xA9" + r + "\\n\xC3\xA9\"");
  // An object's values and keys too.
  EXPECT_EQ(JsonObject().Add("w\xE9", "J\xF6rg").Close(), "{\"w" + r + "\": \"J" + r + "rg\"}");
  // Always valid, whatever the bytes.
  std::mt19937 rng(6);
  for (int i = 0; i < 2000; ++i) {
    std::string s(rng() % 20, '\0');
    for (char& c : s) c = char(rng() % 4 == 0 ? rng() % 128 : 0x80 + rng() % 128);
    EXPECT_TRUE(IsValidUtf8(JsonQuote(s))) << i;
    // Valid text that needs no escape comes out as it is.
    bool plain = IsValidUtf8(s);
    for (char c : s) plain = plain && uint8_t(c) >= 0x20 && c != '"' && c != '\\';
    if (plain) {
      EXPECT_EQ(JsonQuote(s), "\"" + s + "\"");
    }
  }
}

}  // namespace
}  // namespace arbiter
