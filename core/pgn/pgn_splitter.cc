#include "core/pgn/pgn_splitter.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/pgn/pgn_reader.h"
#include "core/pgn/variant.h"

namespace arbiter {
namespace {

constexpr size_t kChunkBytes = 1 << 20;
constexpr std::string_view kBom = "\xEF\xBB\xBF";

// The reader's classes (pgn_reader.cc): what delimits a token, what is blank.
bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
constexpr std::array<bool, 256> MakeTokenChars() {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) t[c] = c > ' ' && c != 0x7F;
  for (unsigned char c : std::string_view("{}()[];$\"%")) t[c] = false;
  return t;
}
constexpr std::array<bool, 256> kTokenChar = MakeTokenChars();
bool IsTokenChar(char c) { return kTokenChar[static_cast<unsigned char>(c)]; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsNameChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || IsDigit(c) || c == '_';
}
bool IsResult(std::string_view t) { return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*"; }

const char* Find(const char* p, const char* e, char c) {
  return static_cast<const char*>(std::memchr(p, c, size_t(e - p)));
}

}  // namespace

PgnSplitter::PgnSplitter(std::unique_ptr<ByteSource> source) : source_(std::move(source)) {}

bool PgnSplitter::Fill() {
  buf_.erase(0, cut_);
  cut_ = 0;
  const size_t old = buf_.size();
  buf_.resize(old + kChunkBytes);
  absl::StatusOr<size_t> got = source_->Read(buf_.data() + old, kChunkBytes);
  buf_.resize(old + (got.ok() ? *got : 0));
  // A read error is the real reader's to report, with the games before it.
  if (!got.ok()) failed_ = true;
  if (got.ok() && *got == 0) eof_ = true;
  return got.ok() && *got > 0;
}

int64_t PgnSplitter::GameLength() const {
  const char* const b = buf_.data() + cut_;
  const char* const e = buf_.data() + buf_.size();
  const int64_t more = eof_ ? 0 : -1;  // what running out of bytes means
  const char* p = b;
  // Whether the line at `q` starts (after blanks) with '[': a tag line, where
  // the reader would start the next game after an error in this one, and
  // where a line inside a comment or variation would be mistaken for one.
  // -1: the line is not all there yet.
  auto tag_line_at = [&](const char* q) -> int {
    while (q < e && IsBlank(*q)) ++q;
    if (q == e) return eof_ ? 0 : -1;
    return *q == '[';
  };

  // Tag lines: [Name "value"], nothing else on the line.
  if (size_t(e - p) >= kBom.size() && std::string_view(p, kBom.size()) == kBom) p += kBom.size();
  int tags = 0;
  for (;; ++tags) {
    if (p == e) return more;
    if (*p != '[') break;
    const char* nl = Find(p, e, '\n');
    if (nl == nullptr) {
      if (!eof_) return -1;
      nl = e;
    }
    const char* q = p + 1;
    while (q < nl && IsNameChar(*q)) ++q;
    const std::string_view name(p + 1, size_t(q - p - 1));
    if (name.empty() || q + 1 >= nl || q[0] != ' ' || q[1] != '"') return 0;
    q += 2;
    const char* value = q;
    while (q < nl && *q != '"' && *q != '\\') ++q;
    if (q + 1 >= nl || q[0] != '"' || q[1] != ']') return 0;
    if (size_t(q - value) >= PgnReader::kMaxTagBytes) return 0;
    // Chess 99 movetext is read by rules of its own.
    if (name == "Variant" && IsChess99Variant(std::string_view(value, size_t(q - value)))) return 0;
    q += 2;
    while (q < nl && IsBlank(*q)) ++q;
    if (q != nl) return 0;
    p = nl == e ? e : nl + 1;
  }
  if (tags == 0) return 0;
  // Blank lines, then movetext (a tag line here is ChessBase's blank line
  // inside tags, or a game of tags only: the reader's business).
  for (;;) {
    const char* q = p;
    while (q < e && IsBlank(*q)) ++q;
    if (q == e) return more;
    if (*q == '[') return 0;
    if (*q != '\n') break;
    p = q + 1;
  }

  // Movetext, lexed as the reader lexes it, up to its first result token at
  // the top level: the end of the game. Where the reader would see an error
  // instead, it skips to the next tag line, which no line before the next
  // game's is: that game starts where the result says.
  int depth = 0;  // variations
  if (tag_line_at(p) != 0) return tag_line_at(p) < 0 ? -1 : 0;
  for (;;) {
    if (p == e) return more;
    const char c = *p;
    if (c == '\n') {
      ++p;
      if (const int tag = tag_line_at(p); tag != 0) return tag < 0 ? -1 : 0;
      continue;
    }
    if (IsBlank(c)) {
      ++p;
      continue;
    }
    if (c == '{') {
      const char* close = Find(p + 1, e, '}');
      if (close == nullptr) return more;
      for (const char* nl = Find(p + 1, close, '\n'); nl != nullptr; nl = Find(nl + 1, close, '\n'))
        if (const int tag = tag_line_at(nl + 1); tag != 0) return tag < 0 ? -1 : 0;
      p = close + 1;
      continue;
    }
    if (c == ';') {
      const char* nl = Find(p, e, '\n');
      if (nl == nullptr) return more;
      p = nl;
      continue;
    }
    if (c == '(') {
      ++depth;
      ++p;
      continue;
    }
    if (c == ')') {
      if (depth > 0) --depth;  // else an error of the reader's
      ++p;
      continue;
    }
    if (depth > 0) {
      ++p;  // a variation's moves and words are skipped whole
      continue;
    }
    if (c == '[' || c == '%') return 0;  // the next game inside this line, an escape line
    if (c == '$') {
      const char* q = p + 1;
      while (q < e && IsDigit(*q) && q - p <= 3) ++q;
      p = q;
      continue;
    }
    if (!IsTokenChar(c)) {
      ++p;  // an unexpected character: an error of the reader's
      continue;
    }
    if (static_cast<unsigned char>(c) == 0xEF) return 0;  // maybe a byte-order mark, skipped
    const char* q = p;
    while (q < e && IsTokenChar(*q)) ++q;
    if (q == e && !eof_) return -1;
    const std::string_view token(p, size_t(q - p));
    p = q;
    if (IsResult(token)) break;
  }
  // Blanks to the end of the result's line, blank lines, then the next
  // game's first line or the end of the input.
  while (p < e && IsBlank(*p)) ++p;
  if (p == e) return eof_ ? int64_t(e - b) : -1;
  if (*p != '\n') return 0;
  ++p;
  for (;;) {
    const char* q = p;
    while (q < e && IsBlank(*q)) ++q;
    if (q == e) return eof_ ? int64_t(e - b) : -1;
    if (*q == '[') return int64_t(p - b);
    if (*q != '\n') return 0;  // something else after the game: read by the reader
    p = q + 1;
  }
}

bool PgnSplitter::Next(std::string_view* text, int64_t* first_line) {
  if (ended_ || failed_) return false;
  // Blank lines before the first game are not part of it.
  while (!started_) {
    const char* b = buf_.data() + cut_;
    const char* e = buf_.data() + buf_.size();
    const char* q = b;
    while (q < e && IsBlank(*q)) ++q;
    if (q < e && *q != '\n') {
      started_ = true;
    } else if (q < e) {
      cut_ += size_t(q - b) + 1;
      ++line_;
    } else if (eof_) {
      ended_ = true;
      return false;
    } else if (!Fill() && failed_) {
      return false;
    }
  }
  for (;;) {
    if (cut_ == buf_.size() && eof_) {
      ended_ = true;
      return false;
    }
    const int64_t n = GameLength();
    if (n > 0) {
      *text = std::string_view(buf_.data() + cut_, size_t(n));
      *first_line = line_;
      line_ += std::count(text->begin(), text->end(), '\n');
      cut_ += size_t(n);
      ++games_;
      return true;
    }
    if (n == 0 || buf_.size() - cut_ > kMaxGameBytes) {
      failed_ = true;
      return false;
    }
    if (!Fill() && failed_) return false;
  }
}

}  // namespace arbiter
