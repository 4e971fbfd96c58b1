#include "core/render/annotated_pgn.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/render/disputes.h"
#include "core/render/san_line.h"

namespace arbiter {
namespace {

constexpr size_t kLineWidth = 79;

// A tag name PGN can hold: letters, digits and _+#=:- (its symbol tokens).
bool IsTagName(std::string_view name) {
  if (name.empty() || !absl::ascii_isalnum(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) &&
        std::string_view("_+#=:-").find(c) == std::string_view::npos)
      return false;
  return true;
}

void AppendTag(std::string* out, std::string_view name, std::string_view value) {
  out->append("[").append(name).append(" \"");
  for (char c : value) {
    if (c == '\\' || c == '"') {
      out->push_back('\\');
      out->push_back(c);
    } else {
      out->push_back(static_cast<unsigned char>(c) < 0x20 ? ' ' : c);
    }
  }
  out->append("\"]\n");
}

// [%clk h:mm:ss], with the fraction the record had ("0:00:01.5").
std::string Clock(int centis) {
  char buf[40];
  const int seconds = centis / 100, fraction = centis % 100;
  int n = std::snprintf(buf, sizeof buf, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60,
                        seconds % 60);
  if (fraction % 10 == 0 && fraction)
    std::snprintf(buf + n, sizeof buf - size_t(n), ".%d", fraction / 10);
  else if (fraction)
    std::snprintf(buf + n, sizeof buf - size_t(n), ".%02d", fraction);
  return absl::StrCat("[%clk ", buf, "]");
}

// Movetext as tokens, then wrapped.
class Movetext {
 public:
  void Token(std::string token) { tokens_.push_back(std::move(token)); }
  // A comment, split into words so that it wraps like the moves.
  void Comment(std::string_view text) {
    std::vector<std::string> words = absl::StrSplit(PgnCommentText(text), ' ', absl::SkipEmpty());
    if (words.empty()) return;
    words.front() = absl::StrCat("{", words.front());
    words.back() += "}";
    for (std::string& w : words) tokens_.push_back(std::move(w));
  }
  // Lines of at most kLineWidth characters where the tokens allow; a token
  // never starts a line with '%', which would make the line an escape.
  std::string Wrapped() const {
    std::string out, line;
    for (const std::string& t : tokens_) {
      if (!line.empty() && line.size() + 1 + t.size() > kLineWidth && t[0] != '%') {
        absl::StrAppend(&out, line, "\n");
        line.clear();
      }
      if (!line.empty()) line += ' ';
      line += t;
    }
    if (!line.empty()) absl::StrAppend(&out, line, "\n");
    return out;
  }

 private:
  std::vector<std::string> tokens_;
};

// Whether a closing comment says something: not when it only holds the
// last move's commands ("[%clk 0:06:37]", "[%eval 0.3]"), which the reader
// also files as the closing comment and the clock has already written.
bool HoldsWords(std::string_view comment) {
  size_t depth = 0;
  for (size_t i = 0; i < comment.size(); ++i) {
    if (comment.compare(i, 2, "[%") == 0) {
      ++depth;
      ++i;
    } else if (comment[i] == ']' && depth > 0) {
      --depth;
    } else if (depth == 0 && !absl::ascii_isspace(static_cast<unsigned char>(comment[i]))) {
      return true;
    }
  }
  return false;
}

bool IsResultToken(std::string_view s) {
  return s == "1-0" || s == "0-1" || s == "1/2-1/2" || s == "*";
}

}  // namespace

std::string PgnCommentText(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c == '}')
      c = ')';
    else if (c == '{')
      c = '(';
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
      c = ' ';
  }
  return out;
}

std::string ArbiterComment(const GameVerdict& v) {
  std::string out = absl::StrCat("Arbiter: ", RulingText(v));
  if (v.ruling) {
    if (v.ruling->agrees)
      absl::StrAppend(&out, ", as declared");
    else
      absl::StrAppend(&out, ", not ", v.declared.empty() ? "?" : v.declared, " as declared");
    if (!v.ruling->certain) absl::StrAppend(&out, ", uncertain");
  }
  const std::vector<std::string> evidence = EvidenceOf(v);
  if (!evidence.empty()) absl::StrAppend(&out, ": ", absl::StrJoin(evidence, "; "));
  return out;
}

std::string AnnotatedPgn(const GameVerdict& v, const RawGame& record, ReplayedGame* scratch) {
  std::string out;
  bool annotator = false;
  for (const auto& [name, value] : record.tags) {
    if (!IsTagName(name)) continue;
    if (name == "Annotator") {
      // Whoever annotated it before keeps the credit.
      AppendTag(&out, name, value.empty() ? "Arbiter" : absl::StrCat(value, "; Arbiter"));
      annotator = true;
    } else {
      AppendTag(&out, name, value);
    }
  }
  if (!annotator) AppendTag(&out, "Annotator", "Arbiter");
  out += "\n";

  // The moves that replay are written as moves; from the first that does
  // not (or all of them, for a game Arbiter cannot replay), as a comment.
  ReplayGame(record, scratch);
  const bool replayed = scratch->error.ok() || scratch->bad_move >= 0;
  size_t playable = 0;
  MoveNumber start;
  if (replayed) {
    playable = scratch->error.ok() ? record.moves.size() : size_t(scratch->bad_move);
    start = {scratch->start.fullmove_number(), scratch->start.side_to_move()};
  } else if (const std::string* fen = record.Tag("FEN")) {
    start = MoveNumberOfFen(*fen);
  }
  // The ruled ply: where the game ended, else after the last playable move.
  // A Chess 99 game's moves are no chess PGN reader's: they go into a
  // comment, and the ruling after them.
  const bool chess99 = v.rules == Ruleset::kChess99;
  size_t at = chess99 ? SIZE_MAX : playable;
  if (!chess99 && v.ruling && v.ruling->ended_at_ply)
    at = std::min(playable, size_t(*v.ruling->ended_at_ply));

  Movetext text;
  // Black's move takes its number ("12...") first and after a comment, as
  // PGN's export format writes it.
  bool after_comment = true;
  if (at == 0) text.Comment(ArbiterComment(v));
  for (size_t i = 0; i < playable; ++i) {
    const MoveNumber number = MoveNumberAfter(start, int(i));
    if (number.side_to_move == kWhite)
      text.Token(absl::StrCat(number.fullmove, "."));
    else if (after_comment)
      text.Token(absl::StrCat(number.fullmove, "..."));
    const RawMove& m = record.moves[i];
    text.Token(m.san);
    for (int nag : m.nags) text.Token(absl::StrCat("$", nag));
    after_comment = m.clock_centis >= 0 || i + 1 == at;
    if (m.clock_centis >= 0) text.Comment(Clock(m.clock_centis));
    if (i + 1 == at) text.Comment(ArbiterComment(v));
  }
  if (playable < record.moves.size()) {
    std::vector<std::string> rest;
    for (size_t i = playable; i < record.moves.size(); ++i) rest.push_back(record.moves[i].san);
    text.Comment(absl::StrCat(
        chess99    ? "Arbiter: the record's moves, in Chess 99 notation: "
        : replayed ? "Arbiter: the record goes on with moves that cannot be played here: "
                   : "Arbiter: the record's moves, which it could not replay: ",
        NumberedSan(rest, MoveNumberAfter(start, int(playable)))));
  }
  if (chess99) text.Comment(ArbiterComment(v));
  if (HoldsWords(record.closing_comment)) text.Comment(record.closing_comment);
  // The result the record declared, as its token (or its tag) wrote it.
  std::string result = "*";
  if (IsResultToken(record.result_token))
    result = record.result_token;
  else if (const std::string* tag = record.Tag("Result"); tag && IsResultToken(*tag))
    result = *tag;
  text.Token(result);
  return absl::StrCat(out, text.Wrapped(), "\n");
}

}  // namespace arbiter
