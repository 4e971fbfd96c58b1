// FEN-9 (spec §2.1) reading and writing for Position.
#include <charconv>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/chess99/position.h"

namespace arbiter::chess99 {
namespace {

constexpr int kMaxFullmove = 1000000;  // keeps every counter far from overflow

std::vector<std::string> SplitFields(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

PieceType TypeFromFenLetter(char c) {
  switch (c | 0x20) {  // lower case
    case 'p':
      return kPawn;
    case 'n':
      return kKnight;
    case 'b':
      return kBishop;
    case 'r':
      return kRook;
    case 'q':
      return kQueen;
    case 'a':
      return kPaladin;
    case 'k':
      return kKing;
    default:
      return kNoPieceType;
  }
}

const char* ColorName(Color c) { return c == kWhite ? "white" : "black"; }

absl::Status Error(std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("FEN-9: ", std::string(what)));
}

bool ParseInt(std::string_view s, int* out) {
  if (s.empty()) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

}  // namespace

absl::StatusOr<Position> Position::FromFen(std::string_view fen, const Options& options) {
  const std::vector<std::string> fields = SplitFields(fen);
  if (fields.size() != 6 && fields.size() != 4) {
    return Error(
        absl::StrCat("expected 6 fields (placement side castling ep halfmove "
                     "fullmove) or 4, got ",
                     fields.size()));
  }
  Position pos;
  pos.options_ = options;

  // ---- placement ----
  std::vector<std::string> ranks;
  for (size_t start = 0;;) {
    const size_t slash = fields[0].find('/', start);
    ranks.push_back(fields[0].substr(start, slash == std::string::npos ? slash : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  if (ranks.size() != kRanks) {
    return Error(absl::StrCat("placement has ", ranks.size(), " ranks, expected 9"));
  }
  std::array<int, 2> kings{0, 0};
  for (int i = 0; i < kRanks; ++i) {
    const int rank = kRanks - 1 - i;  // the first field is rank 9
    const std::string rank_name = absl::StrCat("rank ", rank + 1);
    int file = 0;
    bool last_was_digit = false;
    for (char c : ranks[i]) {
      if (c >= '1' && c <= '9') {
        if (last_was_digit) {
          return Error(absl::StrCat(rank_name, ": two digits in a row ('", ranks[i],
                                    "'); a run of empty squares is one digit"));
        }
        file += c - '0';
        last_was_digit = true;
      } else {
        const PieceType t = TypeFromFenLetter(c);
        if (t == kNoPieceType) {
          return Error(absl::StrCat(rank_name, ": unknown piece letter '", std::string(1, c),
                                    "' (KQARBNP, uppercase White)"));
        }
        if (file >= kFiles) {
          return Error(absl::StrCat(rank_name, " has more than 9 squares ('", ranks[i], "')"));
        }
        const Color color = (c >= 'a') ? kBlack : kWhite;
        const Square s = MakeSquare(file, rank);
        if (t == kPawn && rank == FirstRank(color)) {
          return Error(absl::StrCat(ColorName(color), " pawn on ", SquareName(s),
                                    ", its own first rank (pawns never stand there, §4.1)"));
        }
        if (t == kPawn && rank == LastRank(color) &&
            options.promotion == Options::PromotionTiming::kForcedOnArrival) {
          return Error(absl::StrCat(ColorName(color), " pawn on ", SquareName(s),
                                    ", its last rank: promotion is forced on arrival"));
        }
        if (t == kKing) ++kings[color];
        pos.Put(MakePiece(color, t), s);
        ++file;
        last_was_digit = false;
      }
    }
    if (file != kFiles) {
      return Error(
          absl::StrCat(rank_name, " adds up to ", file, " squares, expected 9 ('", ranks[i], "')"));
    }
  }
  for (Color c : {kWhite, kBlack}) {
    if (kings[c] != 1) {
      return Error(absl::StrCat(ColorName(c), " has ", kings[c],
                                " kings; a game position has exactly one per side"));
    }
  }

  // ---- side, castling ----
  if (fields[1] == "w") {
    pos.side_ = kWhite;
  } else if (fields[1] == "b") {
    pos.side_ = kBlack;
  } else {
    return Error(absl::StrCat("side to move must be 'w' or 'b', got '", fields[1], "'"));
  }
  if (fields[2] != "-") {
    return Error(
        absl::StrCat("castling field must be '-' (Chess 99 castling has no rights "
                     "to record, §3.8), got '",
                     fields[2], "'"));
  }

  // ---- en passant ----
  if (fields[3] != "-") {
    const std::string& ep = fields[3];
    if (ep.size() != 2 || ep[0] < 'a' || ep[0] > 'i' || ep[1] < '1' || ep[1] > '9') {
      return Error(absl::StrCat("e.p. field must be '-' or a square a1..i9, got '", ep, "'"));
    }
    const Square s = MakeSquare(ep[0] - 'a', ep[1] - '1');
    const Color mover = Opponent(pos.side_);  // the side that double-stepped
    const int victim_rank = RankOf(s) + (mover == kWhite ? 1 : -1);
    const int origin_rank = RankOf(s) - (mover == kWhite ? 1 : -1);
    if (!OnBoard(0, victim_rank) || !OnBoard(0, origin_rank) || origin_rank == FirstRank(mover)) {
      return Error(absl::StrCat("e.p. square ", ep, ": no ", ColorName(mover),
                                " double step can pass over it"));
    }
    const Square victim = MakeSquare(FileOf(s), victim_rank);
    const Square origin = MakeSquare(FileOf(s), origin_rank);
    const Piece v = pos.board_[victim];
    const bool pawn = v == MakePiece(mover, kPawn);
    const bool promoted = (v == MakePiece(mover, kBishop) || v == MakePiece(mover, kKnight)) &&
                          victim_rank == LastRank(mover);
    if (!pawn && !promoted) {
      return Error(absl::StrCat("e.p. square ", ep, ": no ", ColorName(mover),
                                " pawn (or B/N promoted on arrival) on ", SquareName(victim)));
    }
    if (!pos.empty(s) || !pos.empty(origin)) {
      return Error(absl::StrCat("e.p. square ", ep, ": ", SquareName(s), " and ",
                                SquareName(origin), " must be empty after a double step"));
    }
    pos.ep_ = s;
  }

  // ---- counters ----
  if (fields.size() == 6) {
    if (!ParseInt(fields[4], &pos.halfmove_) || pos.halfmove_ < 0 || pos.halfmove_ > kMaxFullmove) {
      return Error(absl::StrCat("halfmove clock must be a number 0..", kMaxFullmove, ", got '",
                                fields[4], "'"));
    }
    if (!ParseInt(fields[5], &pos.fullmove_) || pos.fullmove_ < 1 || pos.fullmove_ > kMaxFullmove) {
      return Error(absl::StrCat("fullmove number must be a number 1..", kMaxFullmove, ", got '",
                                fields[5], "'"));
    }
  }
  pos.key_ = pos.ComputeKey();
  return pos;
}

std::string Position::Fen() const {
  std::string out;
  for (int rank = kRanks - 1; rank >= 0; --rank) {
    int empty_run = 0;
    for (int file = 0; file < kFiles; ++file) {
      const Piece p = board_[MakeSquare(file, rank)];
      if (p == kNoPiece) {
        ++empty_run;
        continue;
      }
      if (empty_run > 0) out += char('0' + empty_run);
      empty_run = 0;
      const char letter = FenLetter(TypeOf(p));
      out += ColorOf(p) == kWhite ? letter : char(letter | 0x20);
    }
    if (empty_run > 0) out += char('0' + empty_run);
    if (rank > 0) out += '/';
  }
  absl::StrAppend(&out, side_ == kWhite ? " w - " : " b - ",
                  ep_ == kNoSquare ? "-" : SquareName(ep_), " ", halfmove_, " ", fullmove_);
  return out;
}

}  // namespace arbiter::chess99
