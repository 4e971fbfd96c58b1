#include "core/chess/notation.h"

#include "absl/strings/str_cat.h"
#include "core/chess/movegen.h"

namespace arbiter {
namespace {

constexpr std::string_view kPieceLetters = "  NBRQK";

bool IsFile(char c) { return c >= 'a' && c <= 'h'; }
bool IsRank(char c) { return c >= '1' && c <= '8'; }

}  // namespace

PieceType PieceFromSanLetter(char c) {
  switch (c) {
    case 'N':
      return kKnight;
    case 'B':
      return kBishop;
    case 'R':
      return kRook;
    case 'Q':
      return kQueen;
    case 'K':
      return kKing;
    default:
      return kNoPieceType;
  }
}

namespace {

PieceType PromotionFromLetter(char c) {
  if (c >= 'a' && c <= 'z') c = char(c - 32);
  PieceType t = PieceFromSanLetter(c);
  return t == kKing ? kNoPieceType : t;
}

// Destination of the king when castling, whatever the encoding.
Square CastlingKingTarget(Move m) {
  return MakeSquare(m.to() > m.from() ? 6 : 2, RankOf(m.from()));
}

}  // namespace

std::string SquareName(Square s) { return {char('a' + FileOf(s)), char('1' + RankOf(s))}; }

std::string ToUci(const Position& pos, Move m) {
  if (m.is_none()) return "0000";
  Square to = m.to();
  if (m.kind() == Move::kCastling && !pos.chess960()) to = CastlingKingTarget(m);
  std::string s = SquareName(m.from()) + SquareName(to);
  if (m.kind() == Move::kPromotion) s += "  nbrq"[m.promotion()];
  return s;
}

std::vector<std::string> UciLine(const Position& start, const std::vector<Move>& line) {
  std::vector<std::string> out;
  out.reserve(line.size());
  Position pos = start;
  for (Move m : line) {
    out.push_back(ToUci(pos, m));
    pos.DoMove(m);
  }
  return out;
}

absl::StatusOr<Move> ParseUci(const Position& pos, std::string_view text) {
  if (text.size() < 4 || text.size() > 5 || !IsFile(text[0]) || !IsRank(text[1]) ||
      !IsFile(text[2]) || !IsRank(text[3]))
    return absl::InvalidArgumentError(
        absl::StrCat("\"", std::string(text), "\" is not a UCI move"));
  Square from = MakeSquare(text[0] - 'a', text[1] - '1');
  Square to = MakeSquare(text[2] - 'a', text[3] - '1');
  PieceType promo = kNoPieceType;
  if (text.size() == 5 && (promo = PromotionFromLetter(text[4])) == kNoPieceType)
    return absl::InvalidArgumentError(
        absl::StrCat("\"", std::string(text), "\": bad promotion piece"));
  Move castle_alt = Move::None();
  for (Move m : MoveList(pos)) {
    if (m.from() != from) continue;
    if (m.kind() == Move::kCastling) {
      Square primary = pos.chess960() ? m.to() : CastlingKingTarget(m);
      Square alternative = pos.chess960() ? CastlingKingTarget(m) : m.to();
      if (to == primary && !promo) return m;
      if (to == alternative && !promo) castle_alt = m;
      continue;
    }
    if (m.to() != to) continue;
    if (m.kind() == Move::kPromotion ? m.promotion() == promo : promo == kNoPieceType) return m;
  }
  // The other castling spelling, used only when no ordinary king move means
  // the same text (e.g. Chess960 Kf1-g1 vs. castling).
  if (!castle_alt.is_none()) return castle_alt;
  return absl::InvalidArgumentError(
      absl::StrCat("\"", std::string(text), "\" is not a legal move in ", pos.Fen()));
}

std::string ToSan(Position& pos, Move m) {
  std::string san;
  if (m.kind() == Move::kCastling) {
    san = m.to() > m.from() ? "O-O" : "O-O-O";
  } else {
    Square from = m.from(), to = m.to();
    PieceType type = TypeOf(pos.piece_on(from));
    bool capture = !pos.empty(to) || m.kind() == Move::kEnPassant;
    if (type == kPawn) {
      if (capture) san += char('a' + FileOf(from));
    } else {
      san += kPieceLetters[type];
      // Disambiguate among other pieces of the same type reaching `to`.
      // Most moves have no such rival attacking `to`, and need no move
      // generation.
      const Bitboard rivals = type == kKing
                                  ? 0
                                  : Attacks(type, to, pos.pieces()) &
                                        pos.pieces(pos.side_to_move(), type) & ~SquareBB(from);
      bool same_file = false, same_rank = false, ambiguous = false;
      if (rivals) {
        for (Move other : MoveList(pos)) {
          if (other == m || other.to() != to || other.kind() == Move::kCastling ||
              TypeOf(pos.piece_on(other.from())) != type)
            continue;
          ambiguous = true;
          same_file |= FileOf(other.from()) == FileOf(from);
          same_rank |= RankOf(other.from()) == RankOf(from);
        }
      }
      if (ambiguous) {
        if (!same_file)
          san += char('a' + FileOf(from));
        else if (!same_rank)
          san += char('1' + RankOf(from));
        else
          san += SquareName(from);
      }
    }
    if (capture) san += 'x';
    san += SquareName(to);
    if (m.kind() == Move::kPromotion) {
      san += '=';
      san += kPieceLetters[m.promotion()];
    }
  }
  pos.DoMove(m);
  if (pos.in_check()) san += HasLegalMove(pos) ? '+' : '#';
  pos.UndoMove(m);
  return san;
}

absl::StatusOr<Move> ParseSan(const Position& pos, std::string_view text) {
  auto error = [&](std::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("\"", std::string(text), "\": ", std::string(why)));
  };
  std::string_view s = text;
  // Strip trailing annotations and check marks.
  while (!s.empty() && (s.back() == '+' || s.back() == '#' || s.back() == '!' || s.back() == '?' ||
                        s.back() == ' '))
    s.remove_suffix(1);
  if (s.size() >= 4 && s.substr(s.size() - 4) == "e.p.") s.remove_suffix(4);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  if (s.empty()) return error("empty move");

  // Castling: O-O, 0-0, O-O-O, 0-0-0 (letter O, digit zero, any case).
  auto is_o = [](char c) { return c == 'O' || c == '0' || c == 'o'; };
  if (s.size() >= 3 && is_o(s[0]) && s[1] == '-' && is_o(s[2])) {
    bool queen_side = s.size() >= 5 && s[3] == '-' && is_o(s[4]);
    if (s.size() != (queen_side ? 5u : 3u)) return error("malformed castling");
    for (Move m : MoveList(pos))
      if (m.kind() == Move::kCastling && (m.to() < m.from()) == queen_side) return m;
    return error(absl::StrCat("castling is not legal in ", pos.Fen()));
  }

  // Promotion suffix: "=Q", "Q", "(Q)", "/Q", lower case accepted.
  PieceType promo = kNoPieceType;
  if (s.size() >= 3 && s.back() == ')' && s[s.size() - 3] == '(') {
    promo = PromotionFromLetter(s[s.size() - 2]);
    s.remove_suffix(3);
  } else if (s.size() >= 3 && !IsRank(s.back()) && IsRank(s[s.size() - 2])) {
    promo = PromotionFromLetter(s.back());
    s.remove_suffix(1);
    if (!s.empty() && (s.back() == '=' || s.back() == '/')) s.remove_suffix(1);
  } else if (s.size() >= 4 && (s[s.size() - 2] == '=' || s[s.size() - 2] == '/')) {
    promo = PromotionFromLetter(s.back());
    s.remove_suffix(2);
  }
  if (s.size() < 2 || !IsFile(s[s.size() - 2]) || !IsRank(s.back()))
    return error("no destination square");
  Square to = MakeSquare(s[s.size() - 2] - 'a', s.back() - '1');
  s.remove_suffix(2);
  if (!s.empty() && (s.back() == 'x' || s.back() == ':' || s.back() == '-')) s.remove_suffix(1);

  PieceType type = kPawn;
  if (!s.empty() && PieceFromSanLetter(s.front()) != kNoPieceType) {
    type = PieceFromSanLetter(s.front());
    s.remove_prefix(1);
  } else if (!s.empty() && s.front() == 'P') {
    s.remove_prefix(1);
  }
  // What remains is disambiguation: file, rank or both.
  int from_file = -1, from_rank = -1;
  for (char c : s) {
    if (IsFile(c) && from_file < 0 && from_rank < 0)
      from_file = c - 'a';
    else if (IsRank(c) && from_rank < 0)
      from_rank = c - '1';
    else
      return error(absl::StrCat("unexpected '", std::string(1, c), "'"));
  }
  if (promo == kNoPieceType && type == kPawn && RelativeRank(pos.side_to_move(), to) == 7)
    return error("promotion piece missing");

  Move found = Move::None();
  int matches = 0;
  for (Move m : MoveList(pos)) {
    if (m.kind() == Move::kCastling || m.to() != to) continue;
    Square from = m.from();
    if (TypeOf(pos.piece_on(from)) != type) continue;
    if (from_file >= 0 && FileOf(from) != from_file) continue;
    if (from_rank >= 0 && RankOf(from) != from_rank) continue;
    if (m.kind() == Move::kPromotion ? m.promotion() != promo : promo != kNoPieceType) continue;
    // "e4" must not match a pawn capture landing on e4.
    if (type == kPawn && from_file < 0 && FileOf(from) != FileOf(to)) continue;
    found = m;
    ++matches;
  }
  if (matches == 1) return found;
  if (matches > 1) return error(absl::StrCat("ambiguous in ", pos.Fen()));
  return error(absl::StrCat("not a legal move in ", pos.Fen()));
}

}  // namespace arbiter
