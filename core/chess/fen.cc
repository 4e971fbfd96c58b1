// FEN reading and writing for Position, with errors that say what is wrong
// and where (field number and text).
#include <algorithm>
#include <charconv>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/chess/notation.h"
#include "core/chess/position.h"
#include "core/chess/zobrist.h"

namespace arbiter {
namespace {

constexpr std::string_view kPieceChars = " PNBRQK  pnbrqk";

// The largest fullmove number read, far beyond any game the Laws allow (the
// 75-move and fivefold rules end every game within 8,849 moves).
constexpr int kMaxFullmove = 100000;

absl::Status FenError(int field, std::string_view text, const std::string& why) {
  static constexpr const char* kFieldNames[] = {"placement",  "side to move",   "castling",
                                                "en passant", "halfmove clock", "fullmove number"};
  return absl::InvalidArgumentError(absl::StrCat("FEN field ", field + 1, " (", kFieldNames[field],
                                                 ") \"", std::string(text), "\": ", why));
}

absl::StatusOr<int> ParseCounter(int field, std::string_view text, int min, int max) {
  int value = 0;
  if (text.empty() || text[0] == '-' || text[0] == '+')
    return FenError(field, text, "not a non-negative integer");
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    return FenError(field, text, "not a non-negative integer");
  if (value < min || value > max)
    return FenError(field, text, absl::StrCat("out of range ", min, "..", max));
  return value;
}

}  // namespace

// Keeps FEN parsing out of the Position class body while using its internals.
class FenParser {
 public:
  static absl::StatusOr<Position> Parse(std::string_view fen, bool chess960);
  static absl::Status ParseCastling(Position& pos, std::string_view text);
};

void Position::SetCastlingRight(Color c, Square rook) {
  Square king = king_square(c);
  CastlingSide side = rook > king ? kKingSide : kQueenSide;
  CastlingRight right = MakeCastlingRight(c, side);
  int index = RightIndex(right);
  st().castling |= right;
  castling_rook_[index] = rook;
  castling_mask_[king] |= right;
  castling_mask_[rook] |= right;
  Square king_to = MakeSquare(side == kKingSide ? 6 : 2, RankOf(king));
  Square rook_to = MakeSquare(side == kKingSide ? 5 : 3, RankOf(king));
  castling_path_[index] =
      (BetweenBB(rook, rook_to) | BetweenBB(king, king_to)) & ~(SquareBB(king) | SquareBB(rook));
}

absl::Status FenParser::ParseCastling(Position& pos, std::string_view text) {
  constexpr int kField = 2;
  if (text == "-") return absl::OkStatus();
  for (char ch : text) {
    Color c = (ch >= 'a' && ch <= 'z') ? kBlack : kWhite;
    char upper = char(c == kBlack ? ch - 32 : ch);
    Square ksq = pos.king_square(c);
    int back_rank = c == kWhite ? 0 : 7;
    if (RankOf(ksq) != back_rank)
      return FenError(
          kField, text,
          absl::StrCat("castling right '", std::string(1, ch),
                       "' but the king is not on its back rank (on ", SquareName(ksq), ")"));
    Bitboard rooks = pos.pieces(c, kRook) & RankBB(back_rank);
    Square rook = kNoSquare;
    if (upper == 'K' || upper == 'Q') {
      // X-FEN: the outermost rook on that side of the king.
      Bitboard side_rooks =
          rooks & (upper == 'K' ? ~((SquareBB(ksq) << 1) - 1) : (SquareBB(ksq) - 1));
      if (side_rooks)
        rook = upper == 'K' ? Square(63 - std::countl_zero(side_rooks)) : Lsb(side_rooks);
    } else if (upper >= 'A' && upper <= 'H') {
      Square s = MakeSquare(upper - 'A', back_rank);
      if (rooks & SquareBB(s)) rook = s;
      if (s == ksq)
        return FenError(
            kField, text,
            absl::StrCat("castling file '", std::string(1, ch), "' is the king's file"));
    } else {
      return FenError(kField, text,
                      absl::StrCat("unexpected character '", std::string(1, ch), "'"));
    }
    if (rook == kNoSquare)
      return FenError(kField, text,
                      absl::StrCat("castling right '", std::string(1, ch), "' but no ",
                                   c == kWhite ? "white" : "black", " rook is in place"));
    CastlingRight right = MakeCastlingRight(c, rook > ksq ? kKingSide : kQueenSide);
    if (pos.st().castling & right)
      return FenError(kField, text, "the same castling right is given twice");
    pos.SetCastlingRight(c, rook);
    // Castling rights that standard chess cannot express switch to Chess960.
    if (FileOf(ksq) != 4 || (FileOf(rook) != 0 && FileOf(rook) != 7)) pos.chess960_ = true;
  }
  return absl::OkStatus();
}

absl::StatusOr<Position> FenParser::Parse(std::string_view fen, bool chess960) {
  InitBitboards();
  zobrist::Init();
  std::vector<std::string_view> fields;
  for (size_t i = 0; i < fen.size();) {
    if (fen[i] == ' ' || fen[i] == '\t') {
      ++i;
      continue;
    }
    size_t end = fen.find_first_of(" \t", i);
    if (end == std::string_view::npos) end = fen.size();
    fields.push_back(fen.substr(i, end - i));
    i = end;
  }
  if (fields.size() != 4 && fields.size() != 6)
    return absl::InvalidArgumentError(absl::StrCat(
        "FEN must have 6 fields (or 4, without the move counters); found ", fields.size()));

  Position pos;
  pos.chess960_ = chess960;
  pos.states_.reserve(256);
  pos.states_.push_back(Position::State{0, 0, 0, 0, kNoSquare, kNoPiece, 0});

  // Field 1: placement, rank 8 first.
  std::string_view placement = fields[0];
  int rank = 7, file = 0;
  for (size_t i = 0; i < placement.size(); ++i) {
    char ch = placement[i];
    if (ch == '/') {
      if (file != 8)
        return FenError(0, placement,
                        absl::StrCat("rank ", rank + 1, " has ", file, " squares instead of 8"));
      if (--rank < 0) return FenError(0, placement, "more than 8 ranks");
      file = 0;
    } else if (ch >= '1' && ch <= '8') {
      file += ch - '0';
      if (file > 8)
        return FenError(0, placement, absl::StrCat("rank ", rank + 1, " has more than 8 squares"));
    } else {
      size_t idx = kPieceChars.find(ch);
      if (ch == ' ' || idx == std::string_view::npos)
        return FenError(
            0, placement,
            absl::StrCat("unexpected character '", std::string(1, ch), "' at offset ", i));
      if (file > 7)
        return FenError(0, placement, absl::StrCat("rank ", rank + 1, " has more than 8 squares"));
      pos.PutPiece(Piece(idx), MakeSquare(file, rank));
      ++file;
    }
  }
  if (rank != 0 || file != 8)
    return FenError(
        0, placement,
        rank != 0 ? "fewer than 8 ranks" : absl::StrCat("rank 1 has ", file, " squares"));
  for (Color c : {kWhite, kBlack}) {
    const char* name = c == kWhite ? "white" : "black";
    int kings = PopCount(pos.pieces(c, kKing));
    if (kings != 1)
      return FenError(0, placement, absl::StrCat(name, " has ", kings, " kings; exactly 1 needed"));
    if (PopCount(pos.pieces(c)) > 16)
      return FenError(0, placement, absl::StrCat(name, " has more than 16 pieces"));
    if (PopCount(pos.pieces(c, kPawn)) > 8)
      return FenError(0, placement, absl::StrCat(name, " has more than 8 pawns"));
  }
  if (Bitboard bad = pos.pieces(kPawn) & (RankBB(0) | RankBB(7)))
    return FenError(0, placement,
                    absl::StrCat("pawn on ", SquareName(Lsb(bad)), " (first or last rank)"));

  // Field 2: side to move.
  if (fields[1] != "w" && fields[1] != "b") return FenError(1, fields[1], "must be 'w' or 'b'");
  pos.side_to_move_ = fields[1] == "w" ? kWhite : kBlack;

  // Field 3: castling.
  if (absl::Status s = ParseCastling(pos, fields[2]); !s.ok()) return s;

  // Fields 5-6: counters (read before e.p., which is checked against them).
  int halfmove = 0, fullmove = 1;
  if (fields.size() == 6) {
    absl::StatusOr<int> h = ParseCounter(4, fields[4], 0, 65535);
    if (!h.ok()) return h.status();
    // Some writers emit fullmove 0; it is harmless and read as 1.
    absl::StatusOr<int> f = ParseCounter(5, fields[5], 0, kMaxFullmove);
    if (!f.ok()) return f.status();
    halfmove = *h;
    fullmove = std::max(*f, 1);
  }
  pos.st().halfmove_clock = uint16_t(halfmove);
  pos.game_ply_ = 2 * (fullmove - 1) + (pos.side_to_move_ == kBlack);

  // Field 4: en passant target square.
  Square ep = kNoSquare;
  std::string_view ep_text = fields[3];
  if (ep_text != "-") {
    if (ep_text.size() != 2 || ep_text[0] < 'a' || ep_text[0] > 'h' || ep_text[1] < '1' ||
        ep_text[1] > '8')
      return FenError(3, ep_text, "not a square");
    ep = MakeSquare(ep_text[0] - 'a', ep_text[1] - '1');
    Color us = pos.side_to_move_;
    int want_rank = us == kWhite ? 5 : 2;
    Square pawn_sq = Square(us == kWhite ? ep - 8 : ep + 8);
    Square origin = Square(us == kWhite ? ep + 8 : ep - 8);
    if (RankOf(ep) != want_rank)
      return FenError(3, ep_text,
                      absl::StrCat("must be on rank ", want_rank + 1, " when ",
                                   us == kWhite ? "white" : "black", " is to move"));
    if (pos.piece_on(pawn_sq) != MakePiece(~us, kPawn))
      return FenError(3, ep_text,
                      absl::StrCat("no pawn on ", SquareName(pawn_sq),
                                   " that could just have moved two squares"));
    if (!pos.empty(ep) || !pos.empty(origin))
      return FenError(3, ep_text,
                      absl::StrCat(SquareName(ep), " and ", SquareName(origin),
                                   " must be empty after a double pawn push"));
    if (halfmove != 0)
      return FenError(4, fields[4], "must be 0 when an en passant square is given");
  }

  // The side not to move must not be in check.
  Color them = ~pos.side_to_move_;
  if (pos.AttackersTo(pos.king_square(them)) & pos.pieces(pos.side_to_move_))
    return FenError(0, placement,
                    absl::StrCat(them == kWhite ? "white" : "black", " (not to move) is in check"));
  pos.UpdateCheckInfo();
  pos.st().key = pos.ComputeKey();
  // Only a legal e.p. capture is kept, so that keys and FEN output follow the
  // FIDE 9.2.3 notion of position identity.
  if (ep != kNoSquare) pos.SetEpSquareIfLegal(ep);
  return pos;
}

absl::StatusOr<Position> Position::FromFen(std::string_view fen, bool chess960) {
  return FenParser::Parse(fen, chess960);
}

Position Position::Start() {
  // Parsed once: a copy costs far less than parsing, and every ReplayedGame
  // starts from two of these.
  static const Position* const kStart =
      new Position(*FromFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
  return *kStart;
}

std::string Position::Fen() const {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    int empty_run = 0;
    for (int file = 0; file < 8; ++file) {
      Piece p = board_[MakeSquare(file, rank)];
      if (p == kNoPiece) {
        ++empty_run;
        continue;
      }
      if (empty_run) out += char('0' + empty_run);
      empty_run = 0;
      out += kPieceChars[p];
    }
    if (empty_run) out += char('0' + empty_run);
    if (rank) out += '/';
  }
  out += side_to_move_ == kWhite ? " w " : " b ";
  bool any = false;
  for (Color c : {kWhite, kBlack}) {
    for (CastlingSide side : {kKingSide, kQueenSide}) {
      CastlingRight r = MakeCastlingRight(c, side);
      if (!can_castle(r)) continue;
      any = true;
      Square rook = castling_rook(r);
      char ch = side == kKingSide ? 'K' : 'Q';
      if (chess960_) {
        // X-FEN: a file letter only when another rook stands further out.
        Bitboard outer = pieces(c, kRook) & RankBB(RankOf(rook)) &
                         (side == kKingSide ? ~((SquareBB(rook) << 1) - 1) : SquareBB(rook) - 1);
        if (outer) ch = char('A' + FileOf(rook));
      }
      out += c == kWhite ? ch : char(ch + 32);
    }
  }
  if (!any) out += '-';
  out += ' ';
  out += ep_square() == kNoSquare ? "-" : SquareName(ep_square());
  // Moves played from a FEN near the limit count past it; the number
  // written stops there so that every FEN written reads back. (A verdict's
  // end_fen is parsed again when it crosses the wire, and the client stops
  // a run at a verdict that does not parse.) It is no part of the identity.
  absl::StrAppend(&out, " ", halfmove_clock(), " ", std::min(fullmove_number(), kMaxFullmove));
  return out;
}

char FenChar(Piece p) { return kPieceChars[p]; }

}  // namespace arbiter
