#include "core/pgn/pgn_reader.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/pgn/game_encoding.h"
#include "core/pgn/variant.h"
#include "core/util/text_encoding.h"

namespace arbiter {
namespace {

// The buffer starts small and grows to kChunkBytes once the input proves
// longer than kFirstChunkBytes: a reader per short text (a request's PGN, a
// test, a fuzz input: a few KiB) then does not allocate 1 MiB, which under
// AddressSanitizer costs a map, a poisoning and an unmap per reader.
constexpr size_t kFirstChunkBytes = 16 << 10;
constexpr size_t kChunkBytes = 1 << 20;
constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // "…" in UTF-8
constexpr std::string_view kBom = "\xEF\xBB\xBF";

enum CharClass : uint8_t { kPunct, kBlank, kNewline, kToken };

// Token characters are everything printable that does not delimit a token;
// bytes >= 0x80 are included so that "12…" and a BOM arrive as tokens.
constexpr std::array<uint8_t, 256> MakeClasses() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) t[c] = c > ' ' && c != 0x7F ? kToken : kPunct;
  for (unsigned char c : std::string_view("{}()[];$\"%")) t[c] = kPunct;
  for (unsigned char c : std::string_view(" \t\r\v\f")) t[c] = kBlank;
  t['\n'] = kNewline;
  return t;
}
constexpr std::array<uint8_t, 256> kClass = MakeClasses();

// Characters that may appear in a SAN move as real-world files write it
// (including lower-case promotion letters, "e.p.", long algebraic and
// Crazyhouse drops "N@f3", so that such games reach the variant check).
constexpr std::array<bool, 256> MakeSanChars() {
  std::array<bool, 256> t{};
  for (unsigned char c : std::string_view("abcdefgh12345678NBRQKPOo0xXnrqkp=+#-:/.!?@"))
    t[c] = true;
  return t;
}
constexpr std::array<bool, 256> kSanChar = MakeSanChars();

// First characters of a move (castling with zeros and drops take the slow
// path).
constexpr std::array<bool, 256> MakeSanStarts() {
  std::array<bool, 256> t{};
  for (unsigned char c : std::string_view("abcdefghNBRQKPO")) t[c] = true;
  return t;
}
constexpr std::array<bool, 256> kSanStart = MakeSanStarts();

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsBlank(char c) { return kClass[static_cast<unsigned char>(c)] == kBlank; }

// "!" = $1, "?" = $2, "!!" = $3, "??" = $4, "!?" = $5, "?!" = $6; 0 if none.
// The game termination markers of the PGN standard (8.2.6).
bool IsResultToken(std::string_view tok) {
  return tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*";
}

int SuffixNag(std::string_view s) {
  static constexpr std::string_view kSuffixes[] = {"!", "?", "!!", "??", "!?", "?!"};
  for (int i = 0; i < 6; ++i)
    if (s == kSuffixes[i]) return i + 1;
  return 0;
}

// Parses "[%clk h:mm:ss]" or "[%clk h:mm:ss.f]" anywhere in a comment.
// Written without loops where it can be: every Lichess move carries one.
int ParseClock(std::string_view text) {
  constexpr std::string_view kLichess = " [%clk ";  // how Lichess writes it
  size_t at = text.starts_with(kLichess) ? 2 : text.find("%clk");
  if (at == std::string_view::npos) return -1;
  const char* p = text.data() + at + 4;
  const char* end = text.data() + text.size();
  while (p < end && IsBlank(*p)) ++p;
  int hours = 0;
  const char* digits = p;
  while (p < end && IsDigit(*p) && p - digits < 4) hours = hours * 10 + (*p++ - '0');
  if (p == digits || end - p < 6 || p[0] != ':' || p[3] != ':' || !IsDigit(p[1]) ||
      !IsDigit(p[2]) || !IsDigit(p[4]) || !IsDigit(p[5]))
    return -1;
  const int minutes = (p[1] - '0') * 10 + (p[2] - '0');
  const int seconds = (p[4] - '0') * 10 + (p[5] - '0');
  p += 6;
  if (hours >= 5000 || minutes >= 60 || seconds >= 60) return -1;  // int centiseconds
  int centis = ((hours * 60 + minutes) * 60 + seconds) * 100;
  if (p < end && *p == '.') {
    ++p;
    int scale = 10;
    for (; p < end && IsDigit(*p); ++p, scale /= 10) centis += (*p - '0') * scale;
  }
  return centis;
}

// First byte in [p, end) equal to one of kChars, or null. Eight bytes at a
// time: clock comments and tag values are scanned for every move and tag.
template <char... kChars>
const char* FindFirstOf(const char* p, const char* end) {
  if constexpr (std::endian::native == std::endian::little) {
    constexpr uint64_t kOnes = 0x0101010101010101ULL;
    constexpr uint64_t kHighs = 0x8080808080808080ULL;
    // The classic "has a zero byte" test on word ^ c: the lowest flagged
    // byte is always a true match.
    auto zero_bytes = [](uint64_t x) { return (x - kOnes) & ~x & kHighs; };
    while (end - p >= 8) {
      uint64_t word;
      std::memcpy(&word, p, 8);
      const uint64_t hits = (zero_bytes(word ^ (kOnes * uint8_t(kChars))) | ...);
      if (hits != 0) return p + std::countr_zero(hits) / 8;
      p += 8;
    }
  }
  for (; p < end; ++p)
    if (((*p == kChars) || ...)) return p;
  return nullptr;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (IsBlank(s.front()) || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (IsBlank(s.back()) || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

std::string Printable(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  if (u > ' ' && u < 0x7F) return std::string(1, c);
  static constexpr char kHex[] = "0123456789ABCDEF";
  return {'\\', 'x', kHex[u >> 4], kHex[u & 15]};
}

// Appends a default element to `v`, recycling one from `spare` (whose
// strings keep their heap buffers) when possible.
template <typename T>
T& NextSlot(std::vector<T>& v, std::vector<T>& spare) {
  if (spare.empty()) return v.emplace_back();
  v.push_back(std::move(spare.back()));
  spare.pop_back();
  return v.back();
}
template <typename T>
void Recycle(std::vector<T>& v, std::vector<T>& spare) {
  for (T& x : v) spare.push_back(std::move(x));
  v.clear();
}

}  // namespace

const std::string* RawGame::Tag(std::string_view name) const {
  for (const auto& [key, value] : tags)
    if (key == name) return &value;
  return nullptr;
}

PgnReader::PgnReader(std::unique_ptr<ByteSource> source, PgnReaderOptions options)
    : source_(std::move(source)), options_(options) {
  Grow(kFirstChunkBytes);
}

void PgnReader::Grow(size_t new_cap) {
  // One spare byte for the '\n' supplied after an unterminated last line.
  // Not zero-filled: only bytes read into it are ever looked at, and a
  // reader per short text would otherwise spend most of its time clearing.
  auto bigger = std::make_unique_for_overwrite<char[]>(new_cap + 1);
  const size_t used = buf_ ? size_t(data_end_ - buf_.get()) : 0;
  if (used > 0) std::memcpy(bigger.get(), buf_.get(), used);
  buf_ = std::move(bigger);
  column_line_ = 0;
  cap_ = new_cap;
  p_ = lines_end_ = buf_.get();
  data_end_ = p_ + used;
}

PgnReader::~PgnReader() = default;

bool PgnReader::Refill() {
  if (!io_error_.ok()) return false;
  char* const base = buf_.get();
  size_t keep = size_t(data_end_ - p_);
  if (keep > 0 && p_ != base) std::memmove(base, p_, keep);
  p_ = lines_end_ = base;
  column_line_ = 0;
  data_end_ = base + keep;
  // The input has filled the first buffer: read it in full-sized chunks.
  if (cap_ < kChunkBytes && !source_eof_ && bytes_read_ >= int64_t(cap_)) Grow(kChunkBytes);
  for (;;) {
    if (source_eof_) {
      if (data_end_ == p_) return false;
      *data_end_++ = '\n';
      lines_end_ = data_end_;
      return true;
    }
    size_t used = size_t(data_end_ - buf_.get());
    if (used == cap_) {
      if (cap_ >= kMaxLineBytes) {
        io_error_ = absl::InvalidArgumentError(
            absl::StrCat("line ", line_, " is longer than ", kMaxLineBytes >> 20, " MiB"));
        return false;
      }
      Grow(std::min(cap_ * 2, kMaxLineBytes));
      continue;
    }
    absl::StatusOr<size_t> got = source_->Read(data_end_, cap_ - used);
    if (!got.ok()) {
      io_error_ = got.status();
      return false;
    }
    if (*got == 0) {
      source_eof_ = true;
      continue;
    }
    bytes_read_ += int64_t(*got);
    char* fresh = data_end_;
    data_end_ += *got;
    if (void* nl = ::memrchr(fresh, '\n', *got)) {
      lines_end_ = static_cast<char*>(nl) + 1;
      return true;
    }
  }
}

void PgnReader::BeginGame(RawGame* game) {
  game->index = ++games_;
  game->first_line = line_;
}

int32_t PgnReader::ColumnOf(const char* at) {
  const char* const base = buf_.get();
  if (at == nullptr || at < base || at >= data_end_) return 0;
  if (column_line_ != line_) {
    // The buffer starts at a line start (Refill keeps whole lines).
    const void* nl = ::memrchr(base, '\n', size_t(at - base));
    column_line_start_ = nl ? static_cast<const char*>(nl) + 1 : base;
    column_line_ = line_;
  }
  return int32_t(std::min<ptrdiff_t>(at - column_line_start_ + 1, INT32_MAX));
}

void PgnReader::Fail(RawGame* game, int64_t line, std::string_view reason, const char* at) {
  if (phase_ == Phase::kBefore) BeginGame(game);
  game->error = absl::InvalidArgumentError(std::string(reason));
  game->error_line = line;
  game->error_column = line == line_ ? ColumnOf(at) : 0;
  resync_ = true;
  resync_from_tag_line_ = line_is_tag_;
}

bool PgnReader::InputEnded(RawGame* game, int64_t line, std::string_view what) {
  if (io_error_.ok()) {
    Fail(game, line, what);
    return false;
  }
  if (phase_ == Phase::kBefore) BeginGame(game);
  game->error = absl::Status(io_error_.code(), io_error_.message());
  game->error_line = line_;
  done_ = true;
  return false;
}

void PgnReader::SkipRestOfLine() {
  // Complete lines are buffered, so the '\n' is there.
  p_ = static_cast<char*>(std::memchr(p_, '\n', size_t(lines_end_ - p_)));
}

void PgnReader::SkipToNextGame() {
  // The game start is a line beginning with '[' whose previous line was not
  // a tag pair: the header of a broken game is skipped as a whole.
  bool previous_was_tag = resync_from_tag_line_;
  // (p_ == lines_end_ is a line start too: the buffer holds whole lines.)
  if (!at_line_start_ && p_ < lines_end_) {
    SkipRestOfLine();
    ++p_;
    ++line_;
    at_line_start_ = true;
    previous_was_tag = line_is_tag_;
  }
  while (Available()) {
    while (IsBlank(*p_)) ++p_;
    if (*p_ == '[' && !previous_was_tag) break;
    previous_was_tag = *p_ == '[';
    SkipRestOfLine();
    ++p_;
    ++line_;
  }
  at_line_start_ = true;
  line_is_tag_ = false;
  blank_line_seen_ = false;
}

// Whether `game` already has a tag of the name the tag at `bracket` (a
// '[' in the line buffer, which ends with '\n') gives.
bool PgnReader::HasTagNamedAt(const RawGame& game, const char* bracket) {
  const char* q = bracket + 1;
  while (IsBlank(*q)) ++q;
  const char* name = q;
  while (kClass[static_cast<unsigned char>(*q)] == kToken && *q != ']') ++q;
  const std::string_view wanted(name, size_t(q - name));
  for (const auto& [tag, value] : game.tags)
    if (tag == wanted) return true;
  return false;
}

bool PgnReader::Next(RawGame* game) {
  if (!ReadGame(game)) return false;
  ConvertGameToUtf8(game, dropped_text_invalid_);
  return true;
}

bool PgnReader::ReadGame(RawGame* game) {
  if (done_) return false;
  // Moves are cleared, not recycled: SAN and clock-only comments fit in the
  // small-string buffer, so clear() keeps the storage that matters.
  game->moves.clear();
  Recycle(game->tags, spare_tags_);
  game->result_token.clear();
  game->closing_comment.clear();
  game->error = absl::OkStatus();
  game->error_line = 0;
  game->error_column = 0;
  game->encoding = RecordEncoding::kUtf8;
  dropped_text_invalid_ = false;
  game->index = 0;
  game->first_line = 0;
  phase_ = Phase::kBefore;
  chess99_ = false;
  blank_line_seen_ = false;
  if (resync_) {
    resync_ = false;
    SkipToNextGame();
  }

  for (;;) {
    if (p_ == lines_end_ && !Refill()) break;
    unsigned char c = static_cast<unsigned char>(*p_);
    switch (kClass[c]) {
      case kNewline:
        if (at_line_start_) blank_line_seen_ = true;
        ++p_;
        ++line_;
        at_line_start_ = true;
        line_is_tag_ = false;
        continue;
      case kBlank:
        ++p_;
        continue;
      case kToken: {
        // A byte-order mark (at the start, or where files were concatenated).
        // Short-circuiting stops at the line's '\n', so the peek is in bounds.
        if (c == 0xEF && p_[1] == kBom[1] && p_[2] == kBom[2]) {
          p_ += 3;
          continue;
        }
        at_line_start_ = false;
        bool game_over = false;
        if (!ReadToken(game, &game_over) || game_over) return true;
        if (phase_ == Phase::kMovetext && !chess99_) ScanPlainMovetext(game);
        continue;
      }
      default:
        break;
    }

    const bool line_start = at_line_start_;
    at_line_start_ = false;
    switch (c) {
      case '[':
        // A tag after movetext starts the next game: leave it for the next
        // call. So does a tag after a blank line following tags (a game of
        // tags only, then the next game's), unless the game has no tag of
        // that name yet: ChessBase writes a blank line inside one game's
        // tags, and python-chess and pgn-extract read those as one game.
        if (phase_ == Phase::kMovetext ||
            (phase_ == Phase::kHeader && blank_line_seen_ && HasTagNamedAt(*game, p_))) {
          at_line_start_ = line_start;
          return true;
        }
        if (line_start) line_is_tag_ = true;
        if (phase_ == Phase::kBefore) BeginGame(game);
        phase_ = Phase::kHeader;
        if (!ReadTag(game)) return true;
        blank_line_seen_ = false;
        break;
      case '{':
        if (!ReadComment(game)) return true;
        break;
      case ';': {
        char* text = p_ + 1;
        SkipRestOfLine();
        if (size_t(p_ - text) > kMaxCommentBytes) {
          Fail(game, line_, "comment longer than 1 MiB", text - 1);
          return true;
        }
        AttachComment(game, std::string_view(text, size_t(p_ - text)));
        break;
      }
      case '%':
        // Escape mechanism: the whole line is for other software.
        if (!line_start) {
          Fail(game, line_, "unexpected '%' (allowed only at the start of a line)", p_);
          return true;
        }
        SkipRestOfLine();
        break;
      case '(':
        if (!SkipVariation(game)) return true;
        break;
      case ')':
        Fail(game, line_, "unbalanced ')'", p_);
        ++p_;
        return true;
      case '$': {
        char* q = p_ + 1;
        int nag = 0;
        while (IsDigit(*q) && q - p_ <= 3) nag = nag * 10 + (*q++ - '0');
        if (q == p_ + 1 || IsDigit(*q)) {
          Fail(game, line_, "'$' must be followed by a number from 0 to 999", p_);
          p_ = q;
          return true;
        }
        p_ = q;
        if (phase_ == Phase::kMovetext && !game->moves.empty())
          game->moves.back().nags.push_back(nag);
        break;
      }
      case '\0':
        // Padding some writers leave before a game (a cutechess log began
        // with 525,108 NUL bytes): skipped, as pgn-extract skips it. Inside
        // a game it is an error, below.
        if (phase_ == Phase::kBefore) {
          at_line_start_ = line_start;
          ++p_;
          break;
        }
        [[fallthrough]];
      default:
        Fail(game, line_, absl::StrCat("unexpected character '", Printable(char(c)), "'"), p_);
        ++p_;
        return true;
    }
  }

  // End of input (or an I/O error).
  if (!io_error_.ok()) {
    InputEnded(game, line_, "");
    return true;
  }
  // A record that declares a result in its tags writes it after the moves
  // too (PGN 8.2.6): movetext that the input ends in without it is a file
  // cut off, not a finished game.
  if (phase_ == Phase::kMovetext && game->error.ok() && game->result_token.empty() &&
      game->Tag("Result") != nullptr) {
    Fail(game, game->moves.empty() ? line_ : game->moves.back().line,
         "the input ends inside this game's moves, before the result its Result tag declares: "
         "the file may be cut off");
  }
  if (phase_ != Phase::kBefore) return true;
  done_ = true;
  return false;
}

bool PgnReader::ReadTag(RawGame* game) {
  // The whole line is buffered and ends with '\n', which stops every scan.
  const int64_t line = line_;
  char* q = p_ + 1;
  auto fail = [&](std::string_view reason) {
    Fail(game, line, reason, q);  // where the scan stopped
    p_ = q;
    return false;
  };
  while (IsBlank(*q)) ++q;
  char* name = q;
  while (kClass[static_cast<unsigned char>(*q)] == kToken && *q != ']') ++q;
  if (q == name) return fail("malformed tag pair: missing tag name");
  if (size_t(q - name) > kMaxTagBytes) return fail("tag name longer than 64 KiB");
  auto& tag = NextSlot(game->tags, spare_tags_);
  tag.first.assign(name, size_t(q - name));
  tag.second.clear();
  auto fail_and_drop = [&](std::string_view reason) {
    spare_tags_.push_back(std::move(game->tags.back()));
    game->tags.pop_back();
    return fail(reason);
  };
  while (IsBlank(*q)) ++q;
  if (*q != '"') return fail_and_drop("malformed tag pair: expected '\"' after the tag name");
  ++q;
  for (;;) {
    char* run = q;
    q = const_cast<char*>(FindFirstOf<'"', '\\', '\n'>(q, lines_end_));
    tag.second.append(run, size_t(q - run));
    if (tag.second.size() > kMaxTagBytes) return fail_and_drop("tag value longer than 64 KiB");
    if (*q == '"') break;
    if (*q == '\n') return fail_and_drop("unterminated string in tag pair");
    // Backslash: PGN escapes only '"' and '\'; keep any other one verbatim.
    if (q[1] == '"' || q[1] == '\\') {
      tag.second += q[1];
      q += 2;
    } else {
      tag.second += '\\';
      ++q;
    }
  }
  ++q;
  while (IsBlank(*q)) ++q;
  if (*q != ']') return fail_and_drop("malformed tag pair: expected ']' after the value");
  p_ = q + 1;
  return true;
}

bool PgnReader::ReadComment(RawGame* game) {
  const int64_t start_line = line_;
  ++p_;  // '{'
  // Fast paths: a short comment (a clock, typically) is scanned inline;
  // otherwise memchr, when it closes within the buffered lines.
  char* end = p_;
  char* const short_limit = p_ + std::min<size_t>(48, size_t(lines_end_ - p_));
  int64_t newlines = 0;
  while (end < short_limit && *end != '}') newlines += *end++ == '\n';
  if (end == short_limit) {
    end = static_cast<char*>(std::memchr(p_, '}', size_t(lines_end_ - p_)));
    if (end != nullptr) newlines = std::count(p_, end, '\n');
  }
  if (end != nullptr) {
    if (newlines > 0) {
      line_ += newlines;
      line_is_tag_ = false;
    }
    if (size_t(end - p_) > kMaxCommentBytes) {
      p_ = end;
      Fail(game, start_line, "comment longer than 1 MiB");
      return false;
    }
    std::string_view text(p_, size_t(end - p_));
    p_ = end + 1;
    AttachComment(game, text);
    return true;
  }
  comment_.clear();
  for (;;) {
    end = static_cast<char*>(std::memchr(p_, '}', size_t(lines_end_ - p_)));
    char* seg_end = end ? end : lines_end_;
    newlines = std::count(p_, seg_end, '\n');
    if (newlines > 0) {
      line_ += newlines;
      line_is_tag_ = false;
    }
    if (comment_.size() + size_t(seg_end - p_) > kMaxCommentBytes) {
      p_ = seg_end;
      at_line_start_ = end == nullptr;
      Fail(game, start_line, "comment longer than 1 MiB");
      return false;
    }
    comment_.append(p_, seg_end);
    if (end) {
      p_ = end + 1;
      at_line_start_ = false;
      AttachComment(game, comment_);
      return true;
    }
    p_ = lines_end_;
    at_line_start_ = true;
    if (!Refill()) return InputEnded(game, start_line, "unterminated comment");
  }
}

bool PgnReader::SkipVariation(RawGame* game) {
  const int64_t start_line = line_;
  int depth = 0;
  for (;;) {
    if (p_ == lines_end_ && !Refill())
      return InputEnded(game, start_line, "unterminated variation");
    char c = *p_;
    switch (c) {
      case '(':
        ++depth;
        break;
      case ')':
        if (--depth == 0) {
          ++p_;
          at_line_start_ = false;
          return true;
        }
        break;
      case '{': {
        // Comments may contain parentheses; skip them whole.
        const int64_t comment_line = line_;
        ++p_;
        for (;;) {
          char* end = static_cast<char*>(std::memchr(p_, '}', size_t(lines_end_ - p_)));
          char* seg_end = end ? end : lines_end_;
          line_ += std::count(p_, seg_end, '\n');
          if (end) {
            p_ = end;  // consumed below
            break;
          }
          p_ = lines_end_;
          if (!Refill()) return InputEnded(game, comment_line, "unterminated comment");
        }
        break;
      }
      case ';':
        SkipRestOfLine();
        continue;
      case '\n':
        ++line_;
        ++p_;
        at_line_start_ = true;
        line_is_tag_ = false;
        continue;
      case '[':
        // A tag pair at the start of a line: the variation was never closed
        // and the next game begins here.
        if (at_line_start_) {
          Fail(game, start_line, "unterminated variation");
          return false;
        }
        break;
      default:
        if (IsBlank(c)) {
          ++p_;
          continue;
        }
        break;
    }
    at_line_start_ = false;
    ++p_;
  }
}

void PgnReader::ScanPlainMovetext(RawGame* game) {
  // A local cursor: stores into strings (char) may alias members, so working
  // on p_ directly would reload it after every move.
  const char* p = p_;
  for (;;) {
    const unsigned char c = static_cast<unsigned char>(*p);
    if (c == ' ' || c == '\r' || c == '\t') {
      ++p;
    } else if (kSanStart[c]) {
      const char* q = p;
      while (kSanChar[static_cast<unsigned char>(*q)]) ++q;
      if (kClass[static_cast<unsigned char>(*q)] == kToken || game->moves.size() >= kMaxPlies)
        break;
      AddSan(game, std::string_view(p, size_t(q - p)), line_);
      p = q;
    } else if (IsDigit(char(c))) {
      const char* q = p;
      while (IsDigit(*q)) ++q;
      if (*q != '.') break;  // a result, "0-0", ...
      while (*q == '.') ++q;
      // "12." alone, or glued to its move ("1.e4", read next round).
      if (kClass[static_cast<unsigned char>(*q)] == kToken &&
          !kSanStart[static_cast<unsigned char>(*q)])
        break;
      p = q;
    } else if (c == '{') {
      // A comment closed on this line, such as a clock.
      const char* q = FindFirstOf<'}', '\n'>(p + 1, lines_end_);
      if (q == nullptr || *q != '}' || size_t(q - p - 1) > kMaxCommentBytes) break;
      AttachComment(game, std::string_view(p + 1, size_t(q - p - 1)));
      p = q + 1;
    } else {
      break;
    }
  }
  p_ = const_cast<char*>(p);
}

void PgnReader::EnterMovetext(RawGame* game) {
  const std::string* variant = game->Tag("Variant");
  if (variant == nullptr && !options_.untagged_variant.empty()) {
    game->tags.emplace_back("Variant", options_.untagged_variant);
    variant = &game->tags.back().second;
  }
  chess99_ = variant != nullptr && IsChess99Variant(*variant);
  BeginMovetext(game);
}

bool PgnReader::ReadChess99Token(RawGame* game, bool* game_over) {
  const int64_t line = line_;
  char* start = p_;
  char* q = p_;
  auto is_token = [](char c) { return kClass[static_cast<unsigned char>(c)] == kToken; };
  while (is_token(*q)) ++q;
  std::string_view tok(start, size_t(q - start));
  if (IsResultToken(tok)) {
    p_ = q;
    return EndWithResult(game, tok, game_over);
  }
  // A move number, alone ("12.", "12...") or glued to its move ("12.e24").
  size_t i = 0;
  while (i < tok.size() && IsDigit(tok[i])) ++i;
  if (i > 0) {
    const size_t digits_end = i;
    while (i < tok.size() && tok[i] == '.') ++i;
    if (i == digits_end) {
      p_ = q;
      return UnexpectedToken(game, tok, line);
    }
    start += i;
    if (start == q) {
      p_ = q;
      return true;
    }
  }
  if (*start == '!' || *start == '?') {
    p_ = q;
    return AddNag(game, std::string_view(start, size_t(q - start)), line);
  }
  // The captured unit named after the move: "(K)", "(B*)", "()", glued.
  while (*q == '(') {
    char* close = q + 1;
    while (close - q <= 4 && is_token(*close)) ++close;
    if (*close != ')') break;
    q = close + 1;
    while (is_token(*q)) ++q;
  }
  p_ = q;
  return AddSan(game, std::string_view(start, size_t(q - start)), line);
}

bool PgnReader::ReadToken(RawGame* game, bool* game_over) {
  if (phase_ != Phase::kMovetext) EnterMovetext(game);
  if (chess99_) return ReadChess99Token(game, game_over);
  const int64_t line = line_;
  char* start = p_;
  char* q = p_;
  // Fast path for the common case, a token that starts like a move and
  // consists of SAN characters only: "e4", "Nf3", "O-O", "exd8=Q+!?".
  if (kSanStart[static_cast<unsigned char>(*q)]) {
    while (kSanChar[static_cast<unsigned char>(*q)]) ++q;
    if (kClass[static_cast<unsigned char>(*q)] != kToken) {
      p_ = q;
      return AddSan(game, std::string_view(start, size_t(q - start)), line);
    }
  }
  // Fast path for move numbers: "12." or "12...".
  if (IsDigit(*q)) {
    while (IsDigit(*q)) ++q;
    if (*q == '.') {
      while (*q == '.') ++q;
      if (kClass[static_cast<unsigned char>(*q)] != kToken) {
        p_ = q;
        BeginMovetext(game);
        return true;
      }
    }
    q = start;
  }
  while (kClass[static_cast<unsigned char>(*q)] == kToken) ++q;
  p_ = q;
  std::string_view tok(start, size_t(q - start));

  auto garbage = [&] { return UnexpectedToken(game, tok, line); };

  if (IsResultToken(tok)) return EndWithResult(game, tok, game_over);
  if ((IsDigit(tok[0]) && !tok.starts_with("0-0")) || tok[0] == '.' || tok.starts_with(kEllipsis)) {
    // Move number: digits, then periods or "…" ("12.", "12...", "12…"),
    // possibly glued to the move ("1.e4"); a detached "..." is accepted too.
    size_t i = 0;
    while (i < tok.size() && IsDigit(tok[i])) ++i;
    const size_t digits_end = i;
    for (;;) {
      if (i < tok.size() && tok[i] == '.') {
        ++i;
      } else if (tok.substr(i, kEllipsis.size()) == kEllipsis) {
        i += kEllipsis.size();
      } else {
        break;
      }
    }
    BeginMovetext(game);
    if (i == tok.size()) return true;
    if (i == digits_end) return garbage();  // e.g. "12e4"
    tok.remove_prefix(i);
  }
  if (tok[0] == '!' || tok[0] == '?') return AddNag(game, tok, line);
  for (char c : tok)
    if (!kSanChar[static_cast<unsigned char>(c)]) return garbage();
  if (tok[0] == '+' || tok[0] == '#' || tok[0] == '=' || tok[0] == ':' || tok[0] == '/' ||
      (tok[0] == '-' && tok != "--") || (tok[0] >= '1' && tok[0] <= '8'))
    return garbage();
  return AddSan(game, tok, line);
}

bool PgnReader::EndWithResult(RawGame* game, std::string_view token, bool* game_over) {
  BeginMovetext(game);
  game->result_token.assign(token);
  *game_over = true;
  return true;
}

bool PgnReader::AddNag(RawGame* game, std::string_view token, int64_t line) {
  const int nag = SuffixNag(token);
  if (nag == 0) return UnexpectedToken(game, token, line);
  if (phase_ == Phase::kMovetext && !game->moves.empty()) game->moves.back().nags.push_back(nag);
  return true;
}

bool PgnReader::UnexpectedToken(RawGame* game, std::string_view token, int64_t line) {
  Fail(game, line,
       absl::StrCat("unexpected token \"", std::string(token.substr(0, 40)),
                    token.size() > 40 ? "...\"" : "\""),
       token.data());
  return false;
}

void PgnReader::BeginMovetext(RawGame* game) {
  if (phase_ == Phase::kBefore) BeginGame(game);
  phase_ = Phase::kMovetext;
}

bool PgnReader::AddSan(RawGame* game, std::string_view tok, int64_t line) {
  // Suffix annotations glued to the move become NAGs. The token does not
  // start with one, so the move itself is not empty.
  size_t san_end = tok.size();
  while (tok[san_end - 1] == '!' || tok[san_end - 1] == '?') --san_end;
  BeginMovetext(game);
  if (!AddMove(game, tok.substr(0, san_end), line)) return false;
  if (san_end < tok.size())
    if (int nag = SuffixNag(tok.substr(san_end)); nag != 0) game->moves.back().nags.push_back(nag);
  return true;
}

bool PgnReader::AddMove(RawGame* game, std::string_view san, int64_t line) {
  if (game->moves.size() >= kMaxPlies) {
    Fail(game, line, absl::StrCat("game has more than ", kMaxPlies, " plies"), san.data());
    return false;
  }
  game->moves.emplace_back(san, line, line == line_ ? ColumnOf(san.data()) : 0);
  game->closing_comment.clear();
  return true;
}

void PgnReader::AttachComment(RawGame* game, std::string_view text) {
  // The latest comment of the movetext, until a move follows it: where
  // FICS, ICC and engine matches say how the game ended (assign reuses the
  // string's memory, so this costs a short copy per comment).
  if (phase_ != Phase::kBefore) game->closing_comment.assign(Trim(text));
  // Comments before the first move (game comments) are not kept.
  if (phase_ != Phase::kMovetext || game->moves.empty()) return;
  RawMove& move = game->moves.back();
  if (int clock = ParseClock(text); clock >= 0) move.clock_centis = clock;
  // Chess 99 records carry draw offers and claims in comments
  // (core/verdict/chess99_verdict.h), and chess records their [%claim]
  // commands (core/verdict/ruling.h): they are kept whatever the option says.
  if (!options_.keep_comments && !chess99_ && text.find("[%claim ") == std::string_view::npos) {
    // It still counts for the game's encoding (game_encoding.h).
    dropped_text_invalid_ = dropped_text_invalid_ || !IsValidUtf8(text);
    return;
  }
  text = Trim(text);
  if (text.empty()) return;
  if (!move.comment.empty()) move.comment += ' ';
  move.comment.append(text);
}

RawGame ReadFirstGame(std::string text, int64_t index, const PgnReaderOptions& options) {
  RawGame raw;
  ReadFirstGame(std::move(text), index, options, &raw);
  return raw;
}

void ReadFirstGame(std::string text, int64_t index, const PgnReaderOptions& options,
                   RawGame* game) {
  PgnReader reader(ByteSource::FromString(std::move(text)), options);
  if (!reader.Next(game)) {
    *game = RawGame{};
    game->error = absl::InvalidArgumentError("no game in the PGN text");
  }
  game->index = index;
}

}  // namespace arbiter
