#include "core/chess99/notation.h"

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/chess99/movegen.h"

namespace arbiter::chess99 {
namespace {

bool IsFile(char c) { return c >= 'a' && c <= 'i'; }
bool IsRank(char c) { return c >= '1' && c <= '9'; }
bool IsSquareAt(std::string_view s, size_t i) {
  return i + 1 < s.size() && IsFile(s[i]) && IsRank(s[i + 1]);
}
Square SquareAt(std::string_view s, size_t i) { return MakeSquare(s[i] - 'a', s[i + 1] - '1'); }

// Site move letters: the paladin is P (pawns have none); A is read too.
PieceType SiteLetterType(char c) {
  switch (c) {
    case 'K':
      return kKing;
    case 'Q':
      return kQueen;
    case 'R':
      return kRook;
    case 'B':
      return kBishop;
    case 'N':
      return kKnight;
    case 'P':
    case 'A':
      return kPaladin;
    default:
      return kNoPieceType;
  }
}
char SiteLetter(PieceType t) {
  constexpr char kLetters[] = "  NBRQPK";
  return kLetters[t];
}
// =B / =N; lower case accepted. kNoPieceType for any other letter.
PieceType PromotionType(char c) {
  if (c == 'B' || c == 'b') return kBishop;
  if (c == 'N' || c == 'n') return kKnight;
  return kNoPieceType;
}

absl::Status Syntax(std::string_view text, std::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("cannot read move '", std::string(text), "': ", std::string(what)));
}

// What a move text says. Unset fields match anything.
struct Pattern {
  PieceType piece = kNoPieceType;  // moving unit (kPawn for pawn moves and deferred promotions)
  int from_file = -1;
  int from_rank = -1;
  Square to = kNoSquare;
  bool capture = false;  // x / × written
  bool ep = false;       // * written
  bool castle = false;   // & written
  Square partner = kNoSquare;
  PieceType partner_type = kNoPieceType;
  PieceType promotion = kNoPieceType;  // on arrival
  PieceType deferred = kNoPieceType;   // deferred promotion
  bool promote_only = false;
  bool captured_named = false;  // (X) written
  PieceType captured = kNoPieceType;
  // Site notation: an e.p. capture may be written without `*` when the text
  // says it captures (x, or a pawn's diagonal move).
  bool implicit_ep = false;
};

bool Matches(const Position& pos, const Move& m, const Pattern& p) {
  if (p.from_file >= 0 && FileOf(m.from) != p.from_file) return false;
  if (p.from_rank >= 0 && RankOf(m.from) != p.from_rank) return false;
  if (m.deferred != p.deferred) return false;
  if (p.deferred != kNoPieceType) {
    if (p.promote_only) return m.kind == MoveKind::kPromoteOnly;
    if (m.kind == MoveKind::kPromoteOnly) return false;
  } else {
    if (m.kind == MoveKind::kPromoteOnly) return false;
    if (TypeOf(pos.MovingPiece(m)) != p.piece) return false;
    if (m.promotion != p.promotion) return false;
  }
  if (m.to != p.to) return false;
  const Piece captured = pos.CapturedPiece(m);
  if (p.castle) {
    if (!m.is_castle()) return false;
    if (p.partner != kNoSquare && m.partner != p.partner) return false;
    if (p.partner_type != kNoPieceType && TypeOf(pos.piece_on(m.partner)) != p.partner_type) {
      return false;
    }
  } else if (p.ep) {
    if (!m.is_en_passant()) return false;
  } else if (m.is_en_passant()) {
    const bool pawn_diagonal = p.piece == kPawn && p.deferred == kNoPieceType;
    if (!p.implicit_ep || !(p.capture || p.captured_named || pawn_diagonal)) return false;
  } else if (m.is_castle() && !m.is_short_castle()) {
    return false;  // a long castle must name its partner
  }
  if ((p.capture || p.captured_named) && captured == kNoPiece) return false;
  if (p.captured_named && p.captured != kNoPieceType && TypeOf(captured) != p.captured) {
    return false;
  }
  return true;
}

absl::StatusOr<Move> Resolve(const Position& pos, std::string_view text, const Pattern& p) {
  std::vector<Move> found;
  for (const Move& m : GenerateMoves(pos)) {
    if (Matches(pos, m, p)) found.push_back(m);
  }
  if (found.size() == 1) return found[0];
  if (found.size() > 1) {
    std::vector<std::string> names;
    for (const Move& m : found) names.push_back(MoveToCoordinate(m));
    return absl::InvalidArgumentError(
        absl::StrCat("move '", std::string(text), "' is ambiguous: ", absl::StrJoin(names, ", ")));
  }
  std::string why;
  if (pos.king_square(kWhite) == kNoSquare || pos.king_square(kBlack) == kNoSquare) {
    why = ": a king has been captured, the game is over";
  } else if (p.to != kNoSquare && p.from_file >= 0 && p.from_rank >= 0) {
    const Piece u = pos.piece_on(MakeSquare(p.from_file, p.from_rank));
    if (u == kNoPiece || ColorOf(u) != pos.side_to_move()) {
      why = absl::StrCat(": no ", pos.side_to_move() == kWhite ? "white" : "black", " unit on ",
                         SquareName(MakeSquare(p.from_file, p.from_rank)));
    }
  }
  if (why.empty() && p.to != kNoSquare && RankOf(p.to) == LastRank(pos.side_to_move()) &&
      p.promotion == kNoPieceType && p.piece == kPawn && p.deferred == kNoPieceType &&
      pos.options().promotion == Options::PromotionTiming::kForcedOnArrival) {
    why = ": promotion to B or N is forced on arrival";
  }
  return absl::InvalidArgumentError(
      absl::StrCat("illegal move '", std::string(text), "' in ", pos.Fen(), why));
}

// Reads `=X` at text[i] (X must be B or N).
absl::StatusOr<PieceType> ReadPromotion(std::string_view text, size_t i) {
  if (i + 1 >= text.size()) return Syntax(text, "'=' must be followed by B or N");
  const PieceType t = PromotionType(text[i + 1]);
  if (t == kNoPieceType) {
    return Syntax(text, "a pawn promotes only to a bishop or a knight (=B or =N, §4.3)");
  }
  return t;
}

// Replaces × (U+00D7) by x and drops annotation marks (+ # ! ?) and '-'.
std::string Normalize(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i, 2) == "\xC3\x97") {
      out += 'x';
      ++i;
      continue;
    }
    const char c = text[i];
    if (c == '+' || c == '#' || c == '!' || c == '?' || c == '-') continue;
    out += c;
  }
  return out;
}

// Site suffixes, in any order: (X) (X*) (*), *, &[letter][square], =B/=N.
absl::Status ReadSuffixes(std::string_view text, size_t i, bool pawn, Pattern* p) {
  while (i < text.size()) {
    const char c = text[i];
    if (c == '*') {
      p->ep = true;
      ++i;
    } else if (c == '(') {
      const size_t close = text.find(')', i);
      if (close == std::string_view::npos) return Syntax(text, "'(' without ')'");
      std::string_view inner = text.substr(i + 1, close - i - 1);
      p->captured_named = true;
      if (!inner.empty() && inner.back() == '*') {
        p->ep = true;
        inner.remove_suffix(1);
      }
      if (inner.size() > 1) return Syntax(text, "(...) names one captured unit, e.g. (K)");
      if (inner.size() == 1) {
        p->captured = SiteLetterType(inner[0]);
        if (p->captured == kNoPieceType) {
          return Syntax(text, "unknown captured unit letter in (...) (K Q R B N P A)");
        }
      } else {
        p->captured = kPawn;  // "()" / "(*)": pawns have no letter
      }
      i = close + 1;
    } else if (c == '&') {
      p->castle = true;
      ++i;
      if (i < text.size() && SiteLetterType(text[i]) != kNoPieceType) {
        p->partner_type = SiteLetterType(text[i]);
        ++i;
      }
      if (IsSquareAt(text, i)) {
        p->partner = SquareAt(text, i);
        i += 2;
      }
      if (p->partner == kNoSquare && p->partner_type == kNoPieceType) {
        return Syntax(text,
                      "'&' must name the castling partner (a square such as i1, or a letter)");
      }
    } else if (c == '=' && pawn) {
      auto t = ReadPromotion(text, i);
      if (!t.ok()) return t.status();
      p->promotion = *t;
      i += 2;
    } else {
      return Syntax(text, absl::StrCat("unexpected '", std::string(1, c), "'"));
    }
  }
  return absl::OkStatus();
}

// The squares part: [origin file][origin rank][x]dest. Returns the index
// after it.
absl::StatusOr<size_t> ReadCore(std::string_view text, size_t i, bool pawn, Pattern* p) {
  std::string core;  // without x
  size_t x_at = std::string::npos;
  while (i < text.size() && (IsFile(text[i]) || IsRank(text[i]) || text[i] == 'x')) {
    if (text[i] == 'x') {
      if (x_at != std::string::npos) return Syntax(text, "two capture marks");
      x_at = core.size();
    } else {
      core += text[i];
    }
    ++i;
  }
  p->capture = x_at != std::string::npos;
  if (core.size() < 2 || !IsSquareAt(core, core.size() - 2)) {
    // b35: the site's pawn form, file + from rank + to rank.
    if (pawn && core.size() == 3 && IsFile(core[0]) && IsRank(core[1]) && IsRank(core[2]) &&
        !p->capture) {
      p->from_file = core[0] - 'a';
      p->from_rank = core[1] - '1';
      p->to = MakeSquare(core[0] - 'a', core[2] - '1');
      return i;
    }
    return Syntax(text, "expected a destination square such as e4");
  }
  p->to = SquareAt(core, core.size() - 2);
  const std::string origin = core.substr(0, core.size() - 2);
  if (x_at != std::string::npos && x_at != origin.size()) {
    return Syntax(text, "'x' goes right before the destination square");
  }
  if (origin.size() == 2 && IsFile(origin[0]) && IsRank(origin[1])) {
    p->from_file = origin[0] - 'a';
    p->from_rank = origin[1] - '1';
  } else if (origin.size() == 1 && IsFile(origin[0])) {
    p->from_file = origin[0] - 'a';
  } else if (origin.size() == 1 && IsRank(origin[0])) {
    p->from_rank = origin[0] - '1';
  } else if (!origin.empty()) {
    return Syntax(text, "bad origin (a file, a rank or a square)");
  }
  return i;
}

}  // namespace

std::string MoveToCoordinate(const Move& m) {
  std::string out = SquareName(m.from);
  if (m.deferred != kNoPieceType) {
    absl::StrAppend(&out, "=", std::string(1, SiteLetter(m.deferred)));
    if (m.kind == MoveKind::kPromoteOnly) return out;
  }
  out += SquareName(m.to);
  if (m.is_en_passant()) out += '*';
  if (m.promotion != kNoPieceType)
    absl::StrAppend(&out, "=", std::string(1, SiteLetter(m.promotion)));
  if (m.is_long_castle()) absl::StrAppend(&out, "&", SquareName(m.partner));
  return out;
}

absl::StatusOr<Move> ParseCoordinate(const Position& pos, std::string_view text) {
  Pattern p;
  if (!IsSquareAt(text, 0)) return Syntax(text, "expected an origin square such as e2");
  p.from_file = text[0] - 'a';
  p.from_rank = text[1] - '1';
  size_t i = 2;
  if (i < text.size() && text[i] == '=') {
    auto t = ReadPromotion(text, i);
    if (!t.ok()) return t.status();
    p.deferred = *t;
    i += 2;
    if (i == text.size()) {
      p.promote_only = true;
      return Resolve(pos, text, p);
    }
  }
  if (!IsSquareAt(text, i)) return Syntax(text, "expected a destination square such as e4");
  p.to = SquareAt(text, i);
  i += 2;
  if (i < text.size() && text[i] == '*') {
    p.ep = true;
    ++i;
  }
  if (p.deferred == kNoPieceType) {
    p.piece = TypeOf(pos.piece_on(MakeSquare(p.from_file, p.from_rank)));
    if (i < text.size() && text[i] == '=') {
      auto t = ReadPromotion(text, i);
      if (!t.ok()) return t.status();
      p.promotion = *t;
      i += 2;
    } else if (i + 1 == text.size() && PromotionType(text[i]) != kNoPieceType) {
      p.promotion = PromotionType(text[i]);  // UCI style b7b9b
      ++i;
    }
    if (i < text.size() && text[i] == '&') {
      if (!IsSquareAt(text, i + 1))
        return Syntax(text, "'&' must be followed by the partner's square");
      p.castle = true;
      p.partner = SquareAt(text, i + 1);
      i += 3;
    }
  }
  if (i != text.size()) return Syntax(text, "unexpected characters at the end");
  if (p.piece == kNoPieceType && p.deferred == kNoPieceType) {
    return Resolve(pos, text, p);  // no unit there: Resolve explains
  }
  return Resolve(pos, text, p);
}

absl::StatusOr<Move> ParseSite(const Position& pos, std::string_view raw) {
  const std::string norm = Normalize(raw);
  const std::string_view text = norm;
  if (text.empty()) return Syntax(raw, "empty");
  Pattern p;
  p.implicit_ep = true;
  const PieceType letter = SiteLetterType(text[0]);
  if (letter != kNoPieceType) {
    p.piece = letter;
    auto end = ReadCore(text, 1, false, &p);
    if (!end.ok()) return end.status();
    if (auto s = ReadSuffixes(text, *end, false, &p); !s.ok()) return s;
    return Resolve(pos, raw, p);
  }
  if (!IsFile(text[0])) {
    return Syntax(raw, "expected a piece letter (K Q R B N P) or a pawn's file a..i");
  }
  // Deferred promotion: file [rank] =X [[x]dest suffixes]. With a rank and
  // nothing after =X the text may also be a promotion on arrival (b9=B).
  const size_t eq = text.find('=');
  if (eq == 1 || (eq == 2 && IsRank(text[1]))) {
    auto t = ReadPromotion(text, eq);
    if (!t.ok()) return t.status();
    Pattern d = p;
    d.piece = kPawn;
    d.deferred = *t;
    d.from_file = text[0] - 'a';
    d.from_rank = LastRank(pos.side_to_move());
    if (eq == 2 && text[1] - '1' != d.from_rank) {
      // Only an arrival promotion can be meant, e.g. b8=N is not valid.
      return Syntax(raw, "a pawn promotes on its last rank");
    }
    const size_t after = eq + 2;
    if (after == text.size()) {
      d.promote_only = true;
      if (eq == 1) return Resolve(pos, raw, d);
      // b9=B: deferred promotion of the pawn on b9, or a pawn arriving there.
      Pattern a = p;
      a.piece = kPawn;
      a.to = MakeSquare(text[0] - 'a', text[1] - '1');
      a.from_file = text[0] - 'a';
      a.promotion = *t;
      auto deferred = Resolve(pos, raw, d);
      return deferred.ok() ? deferred : Resolve(pos, raw, a);
    }
    Pattern core;
    auto end = ReadCore(text, after, false, &core);
    if (!end.ok()) return end.status();
    if (core.from_file >= 0 || core.from_rank >= 0) {
      return Syntax(raw,
                    "after b=B only the destination follows (the origin is the pawn's square)");
    }
    d.to = core.to;
    d.capture = core.capture;
    if (auto s = ReadSuffixes(text, *end, false, &d); !s.ok()) return s;
    return Resolve(pos, raw, d);
  }
  p.piece = kPawn;
  auto end = ReadCore(text, 0, true, &p);
  if (!end.ok()) return end.status();
  if (auto s = ReadSuffixes(text, *end, true, &p); !s.ok()) return s;
  if (p.from_file < 0 && !p.capture && !p.ep && !p.captured_named) p.from_file = FileOf(p.to);
  return Resolve(pos, raw, p);
}

absl::StatusOr<Move> ParseMove(const Position& pos, std::string_view text) {
  auto coordinate = ParseCoordinate(pos, text);
  if (coordinate.ok()) return coordinate;
  auto site = ParseSite(pos, text);
  if (site.ok()) return site;
  // Report in the notation the text looks like.
  const bool looks_coordinate =
      IsSquareAt(text, 0) && (IsSquareAt(text, 2) || (text.size() > 2 && text[2] == '='));
  return looks_coordinate ? coordinate : site;
}

std::string MoveToSite(const Position& pos, const Move& m) {
  const Piece captured = pos.CapturedPiece(m);
  const std::string x = captured != kNoPiece ? "x" : "";
  const std::string ep = m.is_en_passant() ? "*" : "";
  const std::string king = TypeOf(captured) == kKing ? "(K)" : "";
  const std::string to = SquareName(m.to);
  const std::string file(1, char('a' + FileOf(m.from)));
  std::vector<std::string> candidates;
  if (m.is_castle()) {
    candidates.push_back(
        absl::StrCat("K", to, m.is_long_castle() ? "&" + SquareName(m.partner) : ""));
  } else if (m.deferred != kNoPieceType) {
    const std::string head = absl::StrCat(file, "=", std::string(1, SiteLetter(m.deferred)));
    candidates.push_back(m.kind == MoveKind::kPromoteOnly ? head
                                                          : absl::StrCat(head, x, to, ep, king));
  } else {
    const std::string promo = m.promotion != kNoPieceType
                                  ? absl::StrCat("=", std::string(1, SiteLetter(m.promotion)))
                                  : "";
    if (TypeOf(pos.MovingPiece(m)) == kPawn) {
      if (FileOf(m.from) != FileOf(m.to)) {
        candidates.push_back(absl::StrCat(file, "x", to, ep, promo, king));
      } else if (std::abs(m.to - m.from) == 2 * kFiles) {
        // The site writes a double step with its origin rank: b35, b79=B.
        candidates.push_back(absl::StrCat(SquareName(m.from), to.substr(1), promo));
      } else {
        candidates.push_back(absl::StrCat(to, promo));
      }
      candidates.push_back(absl::StrCat(SquareName(m.from), x, to, ep, promo, king));
    } else {
      const std::string letter(1, SiteLetter(TypeOf(pos.MovingPiece(m))));
      const std::string rank(1, char('1' + RankOf(m.from)));
      for (const std::string& origin : {std::string(), file, rank, SquareName(m.from)}) {
        candidates.push_back(absl::StrCat(letter, origin, x, to, ep, king));
      }
    }
  }
  for (const std::string& c : candidates) {
    auto back = ParseSite(pos, c);
    if (back.ok() && *back == m) return c;
  }
  return candidates.back();
}

}  // namespace arbiter::chess99
