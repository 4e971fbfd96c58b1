// Differential test of the rules verdicts of `arbiter analyze` against two
// independent JavaScript chess libraries (tests/js/reference.mjs):
//
//  - chessops (the rules library behind lichess.org), whose per-side
//    hasInsufficientMaterial(color) follows FIDE: a side is insufficient only
//    when no sequence of legal moves, however cooperative the opponent, ends
//    in its checkmate. Checkmate, stalemate and the per-side insufficiency
//    must agree exactly with ours;
//  - chess.js, which must agree exactly on checkmate, stalemate and the
//    number of legal moves. Its isInsufficientMaterial() is one answer for the
//    whole board, not per side; the differences that follow from that are
//    counted by class and must all be in the documented classes below.
//
// Positions: seeded random play biased towards few men (and towards
// checkmates, stalemates and under-promotions), positions built for each
// insufficient-material class, hand-picked mates and stalemates, and the
// final positions of the real games in $ARBITER_SHARED/games.
//
// Our side is read through the CLI, exactly as users see it: "white": {
// "can_mate": "no", "proof": "material"} is our insufficient-material
// verdict. Only "no" with proof "material" counts as insufficient, so the
// mate search's other answers ("no" by forced_line or exhaustive_search,
// "yes" with a line) do not disturb the comparison.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/chess/movegen.h"
#include "core/chess/position.h"
#include "core/io/byte_source.h"
#include "core/pgn/game_replay.h"
#include "core/pgn/pgn_reader.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

namespace fs = std::filesystem;

// ---- a small JSON reader for the two programs' output lines ----------------

// Enough JSON for one line of output: objects, arrays, strings, numbers,
// booleans and null. Tests link GoogleTest only, so there is no JSON library
// to lean on.
struct Json {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::vector<std::pair<std::string, Json>> object;

  // Member `key`, or null when absent or when this is not an object, so that
  // lookups chain without checks: j["white"]["proof"].
  const Json& operator[](std::string_view key) const {
    static const Json kMissing;
    for (const auto& [k, v] : object)
      if (k == key) return v;
    return kMissing;
  }
  bool Has(std::string_view key) const {
    return std::any_of(object.begin(), object.end(),
                       [&](const auto& kv) { return kv.first == key; });
  }
  bool IsTrue() const { return kind == kBool && boolean; }
};

class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : s_(text) {}

  // Parses the whole text as one value; false on any syntax error.
  bool Parse(Json* out) {
    if (!Value(out, 0)) return false;
    Space();
    return i_ == s_.size();
  }

 private:
  void Space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool Eat(char c) {
    Space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool Word(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }

  bool Value(Json* out, int depth) {
    if (depth > 32) return false;  // our lines nest three deep
    Space();
    if (i_ >= s_.size()) return false;
    switch (s_[i_]) {
      case '{': {
        ++i_;
        out->kind = Json::kObject;
        if (Eat('}')) return true;
        do {
          std::string key;
          Space();
          if (!String(&key) || !Eat(':')) return false;
          out->object.emplace_back(std::move(key), Json());
          if (!Value(&out->object.back().second, depth + 1)) return false;
        } while (Eat(','));
        return Eat('}');
      }
      case '[': {
        ++i_;
        out->kind = Json::kArray;
        if (Eat(']')) return true;
        do {
          out->array.emplace_back();
          if (!Value(&out->array.back(), depth + 1)) return false;
        } while (Eat(','));
        return Eat(']');
      }
      case '"':
        out->kind = Json::kString;
        return String(&out->string);
      case 't':
        out->kind = Json::kBool;
        out->boolean = true;
        return Word("true");
      case 'f':
        out->kind = Json::kBool;
        return Word("false");
      case 'n':
        return Word("null");
      default: {
        size_t end = s_.find_first_not_of("+-0123456789.eE", i_);
        if (end == std::string_view::npos) end = s_.size();
        if (end == i_) return false;
        std::string digits(s_.substr(i_, end - i_));
        char* stop = nullptr;
        out->kind = Json::kNumber;
        out->number = std::strtod(digits.c_str(), &stop);
        i_ = end;
        return stop && *stop == '\0';
      }
    }
  }

  // A string literal at i_. \uXXXX escapes are kept as written: FENs and
  // verdicts are ASCII, and the rest is only ever printed.
  bool String(std::string* out) {
    if (i_ >= s_.size() || s_[i_] != '"') return false;
    ++i_;
    while (i_ < s_.size()) {
      char c = s_[i_++];
      if (c == '"') return true;
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (i_ >= s_.size()) return false;
      char e = s_[i_++];
      switch (e) {
        case 'n':
          out->push_back('\n');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'u':
          if (i_ + 4 > s_.size()) return false;
          out->append("\\u").append(s_.substr(i_, 4));
          i_ += 4;
          break;
        default:  // \" \\ \/
          out->push_back(e);
      }
    }
    return false;
  }

  std::string_view s_;
  size_t i_ = 0;
};

// ---- test positions ------------------------------------------------------

// FENs in a fixed order, without duplicates, with where each came from.
class FenSet {
 public:
  void Add(const std::string& fen, const char* origin) {
    if (!seen_.insert(fen).second) return;
    fens_.push_back(fen);
    ++by_origin_[origin];
  }
  const std::vector<std::string>& fens() const { return fens_; }
  const std::map<std::string, int>& by_origin() const { return by_origin_; }
  int count(const std::string& origin) const {
    auto it = by_origin_.find(origin);
    return it == by_origin_.end() ? 0 : it->second;
  }

 private:
  std::vector<std::string> fens_;
  std::unordered_set<std::string> seen_;
  std::map<std::string, int> by_origin_;
};

constexpr const char* kRandomPlay = "random play";
constexpr const char* kConstructed = "constructed classes";
constexpr const char* kFixed = "hand-picked";
constexpr const char* kGameFinals = "final positions of real games";

// Starting points of the random games: the initial position (listed twice
// for more full-board games) and endgames rich in minor pieces and pawns,
// where promotions and the insufficient-material classes come up.
constexpr const char* kRandomStarts[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    "2b1kb2/pp4pp/8/8/8/8/PP4PP/2B1KB2 w - - 0 1",
    "1n2k1n1/pp4pp/8/8/8/8/PP4PP/1N2K1N1 w - - 0 1",
    "1nb1kb2/3pp3/8/8/8/8/3PP3/2B1KBN1 w - - 0 1",
    "r3k3/2p5/8/8/8/8/5P2/3NK1B1 b - - 0 1",
    "4k3/2q5/8/8/8/8/1P6/1N2K3 w - - 0 1",
    "4k3/8/2b5/8/8/8/3P4/1N2K1B1 w - - 0 1",
};

// Random play. Captures are favoured so that games reach few men quickly;
// under-promotions so that extra knights and bishops (same-coloured ones
// included) appear; moves that end the game in checkmate or stalemate
// strongly, since uniform random play almost never mates.
Move PickMove(Position& pos, const MoveList& moves, std::mt19937_64& rng) {
  std::vector<double> weights;
  weights.reserve(moves.size());
  for (Move m : moves) {
    double w = 1;
    if (!pos.empty(m.to()) && m.kind() != Move::kCastling) w = 6;
    if (m.kind() == Move::kEnPassant) w = 6;
    if (m.kind() == Move::kPromotion)
      w = m.promotion() == kKnight || m.promotion() == kBishop ? 10 : 4;
    pos.DoMove(m);
    if (MoveList(pos).empty()) w += 40;
    pos.UndoMove(m);
    weights.push_back(w);
  }
  std::discrete_distribution<size_t> pick(weights.begin(), weights.end());
  return moves.begin()[pick(rng)];
}

// Plays one game from `start`, sampling rarely while the board is full and
// every position once few men are left, and stops a while after that:
// endings are where material rules matter.
void PlayRandomGame(Position pos, std::mt19937_64& rng, FenSet* out) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int plies_in_ending = 0;
  for (int ply = 0; ply < 600; ++ply) {
    const int men = PopCount(pos.pieces());
    const double p = men <= 6 ? 1.0 : men <= 12 ? 0.3 : 0.04;
    MoveList moves(pos);
    if (moves.empty() || unit(rng) < p) out->Add(pos.Fen(), kRandomPlay);
    if (moves.empty()) return;
    if (men <= 6 && ++plies_in_ending > 40) return;
    pos.DoMove(PickMove(pos, moves, rng));
  }
}

void AddRandomPlay(std::mt19937_64& rng, int count, FenSet* out) {
  std::vector<Position> starts;
  for (const char* fen : kRandomStarts) {
    absl::StatusOr<Position> pos = Position::FromFen(fen);
    ASSERT_TRUE(pos.ok()) << fen << ": " << pos.status();
    starts.push_back(*pos);
  }
  // The game cap only guards against a generator that stops finding new
  // positions.
  for (int game = 0; out->count(kRandomPlay) < count && game < 100000; ++game)
    PlayRandomGame(starts[size_t(game) % starts.size()], rng, out);
}

// A material class to place at random: the men besides the kings, as FEN
// letters for the first side (placed as White or, mirrored, as Black).
enum class Bishops { kAnySquares, kOneColour, kBothColours };
struct MaterialClass {
  const char* first;
  const char* second;
  Bishops bishops = Bishops::kAnySquares;
};

// The insufficient-material classes and their neighbours on either side of
// the line (one extra man that makes a helpmate possible).
constexpr MaterialClass kClasses[] = {
    {"", ""},
    {"N", ""},
    {"B", ""},
    {"P", ""},
    {"R", ""},
    {"N", "Q"},
    {"N", "QQ"},
    {"N", "R"},
    {"N", "B"},
    {"N", "N"},
    {"N", "P"},
    {"NN", ""},
    {"B", "B", Bishops::kOneColour},
    {"B", "B", Bishops::kBothColours},
    {"BB", "", Bishops::kOneColour},
    {"BB", "", Bishops::kBothColours},
    {"BBB", "BB", Bishops::kOneColour},
    {"BB", "B", Bishops::kBothColours},
    {"B", "N"},
    {"B", "P"},
    {"B", "R"},
    {"B", "Q"},
    {"BB", "Q", Bishops::kOneColour},
    {"B", "RP"},
    {"NB", ""},
};

bool IsDark(int square) { return (SquareBB(Square(square)) & kDarkSquares) != 0; }

// One random legal placement of `c` (either colour first, either side to
// move), or "" when this attempt was illegal (kings in contact, the side not
// to move in check).
std::string RandomPlacement(const MaterialClass& c, std::mt19937_64& rng) {
  std::array<char, 64> board;
  board.fill(0);
  std::uniform_int_distribution<int> square(0, 63), coin(0, 1);
  const bool mirrored = coin(rng);
  const bool dark_first = coin(rng);
  int bishops_placed = 0;
  auto place = [&](char piece) {
    for (;;) {
      int s = square(rng);
      if (board[size_t(s)]) continue;
      if ((piece == 'P' || piece == 'p') && (s < 8 || s >= 56)) continue;
      if (piece == 'B' || piece == 'b') {
        bool dark = dark_first;
        if (c.bishops == Bishops::kBothColours) dark = (bishops_placed % 2 == 0) == dark_first;
        if (c.bishops != Bishops::kAnySquares && IsDark(s) != dark) continue;
        ++bishops_placed;
      }
      board[size_t(s)] = piece;
      return;
    }
  };
  place('K');
  place('k');
  for (const char* p = c.first; *p; ++p) place(mirrored ? char(std::tolower(*p)) : *p);
  for (const char* p = c.second; *p; ++p) place(mirrored ? *p : char(std::tolower(*p)));
  std::string fen;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      char piece = board[size_t(rank * 8 + file)];
      if (!piece) {
        ++empty;
        continue;
      }
      if (empty) fen += char('0' + empty);
      empty = 0;
      fen += piece;
    }
    if (empty) fen += char('0' + empty);
    if (rank) fen += '/';
  }
  fen += coin(rng) ? " w - - 0 1" : " b - - 0 1";
  // Our parser rejects what is not a legal position; round-trip through it
  // so that the FEN is spelled as arbiter spells it.
  absl::StatusOr<Position> pos = Position::FromFen(fen);
  return pos.ok() ? pos->Fen() : std::string();
}

void AddConstructed(std::mt19937_64& rng, int per_class, FenSet* out) {
  for (const MaterialClass& c : kClasses) {
    int added = 0;
    for (int attempt = 0; added < per_class && attempt < 50 * per_class; ++attempt) {
      std::string fen = RandomPlacement(c, rng);
      if (fen.empty()) continue;
      int before = out->count(kConstructed);
      out->Add(fen, kConstructed);
      added += out->count(kConstructed) - before;
    }
  }
}

// Mates and stalemates in the material classes where it matters most that
// a library agrees: each shows that the class is NOT insufficient for the
// side that mates (or that stalemate is still stalemate).
constexpr const char* kHandPicked[] = {
    // Fool's mate.
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    // K+N v K+R: the rook blocks its own king's flight square.
    "6rk/5N2/7K/8/8/8/8/8 b - - 0 1",
    // K+B v K+B on opposite colours (chess.js documents the position before
    // this mate in its source).
    "8/8/8/8/8/2b5/B1k5/K7 w - - 1 2",
    // K+N v K+B (likewise).
    "8/8/8/8/8/8/B1n5/K1k5 w - - 3 2",
    // K+N v K+P: the pawn blocks.
    "5K1k/5N1p/8/8/8/8/8/8 b - - 0 1",
    // K+B v K+P: the pawn blocks.
    "k7/p1K5/8/3B4/8/8/8/8 b - - 0 1",
    // Stalemates: K+Q v K, K+P v K (twice), and K+B v K, where stalemate
    // must win over the dead position.
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "4k3/4P3/4K3/8/8/8/8/8 b - - 0 1",
    "k7/P7/K7/8/8/8/8/8 b - - 0 1",
    "7k/5K2/8/8/8/8/8/1B6 b - - 0 1",
    // Positions the documented chess.js classes below are illustrated with.
    "8/8/8/4k3/8/8/8/4K2R w - - 0 1",
    "8/8/8/4k3/8/2q5/8/3NK3 w - - 0 1",
    "8/8/8/4k3/3r4/8/8/2B1K3 w - - 0 1",
};

// Final positions of the real games: what a rules engine is mostly asked
// about. Games with errors (unsupported variants, bad moves) are skipped,
// and Chess960 games whose end still has castling rights, because chess.js
// reads castling rights as standard-chess ones.
void AddGameFinals(const std::string& shared, FenSet* out, int* games, int* skipped) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fs::path(shared) / "games", ec)) {
    std::string name = entry.path().filename().string();
    if (name.size() > 8 && name.ends_with(".pgn.zst")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());  // a fixed order of FENs, run to run
  RawGame raw;
  ReplayedGame game;
  for (const fs::path& file : files) {
    absl::StatusOr<std::unique_ptr<ByteSource>> source = ByteSource::Open(file.string());
    ASSERT_TRUE(source.ok()) << source.status();
    PgnReader reader(std::move(*source), PgnReaderOptions{.keep_comments = false});
    while (reader.Next(&raw)) {
      ReplayGame(raw, &game);
      if (!game.error.ok() || (game.end.chess960() && game.end.castling_rights() != kNoCastling)) {
        ++*skipped;
        continue;
      }
      ++*games;
      out->Add(game.end.Fen(), kGameFinals);
    }
  }
}

// ---- running the two programs --------------------------------------------

std::string Quote(const std::string& s) { return "'" + s + "'"; }  // paths hold no quotes

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct Output {
  int exit_code = -1;
  std::vector<std::string> lines;
  std::string stderr_text;
};

// A command started through the shell with stdout and stderr sent to files,
// so that both programs run side by side and neither blocks on a full pipe.
class Command {
 public:
  Command(const std::string& command, const std::string& out_path)
      : out_path_(out_path), err_path_(out_path + ".err") {
    pipe_ = popen((command + " >" + Quote(out_path_) + " 2>" + Quote(err_path_)).c_str(), "r");
  }
  ~Command() {
    if (pipe_) pclose(pipe_);
  }

  // Waits for the command and collects what it wrote.
  Output Finish() {
    Output out;
    if (!pipe_) return out;
    int status = pclose(pipe_);
    pipe_ = nullptr;
    out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    const std::string text = ReadFile(out_path_);
    for (size_t start = 0; start < text.size();) {
      size_t nl = text.find('\n', start);
      if (nl == std::string::npos) nl = text.size();
      out.lines.push_back(text.substr(start, nl - start));
      start = nl + 1;
    }
    out.stderr_text = ReadFile(err_path_).substr(0, 2000);
    return out;
  }

 private:
  std::string out_path_, err_path_;
  FILE* pipe_ = nullptr;
};

// ---- classifying chess.js's whole-board answer -----------------------------

// "KRPvKN": White's men, then Black's, strongest first.
std::string MaterialSignature(const Position& pos) {
  std::string out;
  for (Color c : {kWhite, kBlack}) {
    if (c == kBlack) out += 'v';
    out += 'K';
    for (auto [type, letter] :
         {std::pair{kQueen, 'Q'}, std::pair{kRook, 'R'}, std::pair{kBishop, 'B'},
          std::pair{kKnight, 'N'}, std::pair{kPawn, 'P'}})
      out.append(size_t(PopCount(pos.pieces(c, type))), letter);
  }
  return out;
}

// chess.js answers isInsufficientMaterial() for the whole board: true when
// neither side can mate (its classes — K v K, K+minor v K, kings and bishops
// all on one colour — are exactly the positions where both sides are
// insufficient under the FIDE per-side rule, so that comparison must match
// exactly). Read per side, as one would to rule on a flag fall (FIDE 6.9:
// "can the side with time left still mate?"), it says "sufficient" for a
// side that cannot mate whenever the OTHER side can. These are the known,
// explained divergence classes; every per-side difference must be one of
// them, i.e. the side that cannot mate has:
//
//  kBareKing: a bare king, while the opponent has mating material.
//      8/8/8/4k3/8/8/8/4K2R w - - 0 1: Black can never mate (we and chessops
//      say insufficient for Black); chess.js says false for the board.
//  kKnightVsQueens: king and one knight, the opponent only king and queens
//      (a queen beside the mated king always guards the knight's checking
//      square). 8/8/8/4k3/8/2q5/8/3NK3 w - - 0 1: White can never mate.
//  kOneColourBishops: king and bishops on one square colour, with every
//      bishop on the board on that colour and no pawns or knights anywhere
//      (nothing can block a flight square of the other colour), while the
//      opponent has a rook or queen. 8/8/8/4k3/3r4/8/8/2B1K3 w - - 0 1:
//      White can never mate.
//
// A difference the other way (chess.js says insufficient, yet a side can
// mate) has no documented class and fails the test.
enum class Divergence { kBareKing, kKnightVsQueens, kOneColourBishops, kUnexplained };

const char* Name(Divergence d) {
  switch (d) {
    case Divergence::kBareKing:
      return "bare king v mating material";
    case Divergence::kKnightVsQueens:
      return "K+N v K+queen(s)";
    case Divergence::kOneColourBishops:
      return "K+one-colour bishops v rook/queen (no P/N)";
    case Divergence::kUnexplained:
      break;
  }
  return "UNEXPLAINED";
}

// The class of a per-side difference: chess.js said `chessjs_insufficient`
// for the board, we said `ours_insufficient` for `side`.
Divergence Classify(const Position& pos, Color side, bool chessjs_insufficient,
                    bool ours_insufficient) {
  if (chessjs_insufficient || !ours_insufficient) return Divergence::kUnexplained;
  const Bitboard ours = pos.pieces(side), theirs = pos.pieces(~side);
  const Bitboard kings = pos.pieces(kKing);
  if (ours == (ours & kings)) return Divergence::kBareKing;
  if (ours & pos.pieces(kKnight)) {
    return PopCount(ours) == 2 && !(theirs & ~kings & ~pos.pieces(kQueen))
               ? Divergence::kKnightVsQueens
               : Divergence::kUnexplained;
  }
  const Bitboard bishops = pos.pieces(kBishop);
  const bool one_colour = !(bishops & kDarkSquares) || !(bishops & ~kDarkSquares);
  if ((ours & ~kings) == (ours & bishops) && one_colour && !pos.pieces(kPawn, kKnight) &&
      (theirs & pos.pieces(kRook, kQueen)))
    return Divergence::kOneColourBishops;
  return Divergence::kUnexplained;
}

struct ClassStats {
  int count = 0;
  std::map<std::string, int> signatures;
  std::string example;
};

// ---- the test ----------------------------------------------------------------

// Mismatch counters by check, with the first few cases printed in full.
class Mismatches {
 public:
  void Record(const std::string& check, const std::string& fen, const std::string& detail) {
    int& n = counts_[check];
    if (++n <= 5) ADD_FAILURE() << check << " differs for " << fen << "\n  " << detail;
  }
  void Touch(const std::string& check) { counts_[check] += 0; }
  int total() const {
    int t = 0;
    for (const auto& [check, n] : counts_) t += n;
    return t;
  }
  const std::map<std::string, int>& counts() const { return counts_; }

 private:
  std::map<std::string, int> counts_;
};

const char* Yn(bool b) { return b ? "true" : "false"; }

// What one comparison found: the mismatches by check, chess.js's per-side
// differences by class, and how many positions of each kind it reached.
struct Comparison {
  Mismatches chessops, chessjs;
  std::map<Divergence, ClassStats> per_side;
  size_t positions = 0;
  int checkmates = 0, stalemates = 0, dead = 0, one_side_no = 0, mating_lines = 0;
};

// Compares one position: our line `a` (arbiter analyze) with the reference
// line `r` (chessops and chess.js) for `fen`.
void ComparePosition(const std::string& fen, const std::string& ours_line, const Json& a,
                     const std::string& theirs_line, const Json& r, Comparison* c) {
  // Alignment: the same FEN on both lines (arbiter echoes its own spelling,
  // which the input already is).
  ASSERT_EQ(a["fen"].string, fen) << ours_line;
  ASSERT_EQ(r["fen"].string, fen) << theirs_line;
  const Json& ops = r["chessops"];
  const Json& cjs = r["chessjs"];
  ASSERT_FALSE(ops.Has("error")) << fen << ": chessops: " << ops["error"].string;
  ASSERT_FALSE(cjs.Has("error")) << fen << ": chess.js: " << cjs["error"].string;

  const std::string status = a["status"].string;
  const bool mate = status == "checkmate", stale = status == "stalemate";
  bool no[2];
  for (Color side : {kWhite, kBlack}) {
    const Json& verdict = a[side == kWhite ? "white" : "black"];
    no[side] = verdict["can_mate"].string == "no" && verdict["proof"].string == "material";
    // The flat field must say the same as the per-side object.
    ASSERT_EQ(a[side == kWhite ? "white_can_mate" : "black_can_mate"].string,
              verdict["can_mate"].string)
        << ours_line;
  }
  const bool both = no[kWhite] && no[kBlack];
  c->checkmates += mate;
  c->stalemates += stale;
  c->dead += both;
  c->one_side_no += no[kWhite] != no[kBlack];
  for (Color side : {kWhite, kBlack}) {
    // A mating line found by our search refutes an "insufficient" verdict
    // of chessops (and of our material rule) outright.
    const char* name = side == kWhite ? "white" : "black";
    if (a[name]["can_mate"].string != "yes") continue;
    ++c->mating_lines;
    if (ops[side == kWhite ? "insufficient_white" : "insufficient_black"].IsTrue())
      c->chessops.Record("mate found where insufficient", fen,
                         std::string(name) + " has a mating line, chessops says insufficient");
  }

  absl::StatusOr<Position> pos = Position::FromFen(fen);
  ASSERT_TRUE(pos.ok()) << fen;
  const Color stm = pos->side_to_move();
  auto verdict = [&](bool theirs_value, bool ours_value) {
    return std::string("theirs ") + Yn(theirs_value) + ", ours " + Yn(ours_value) + " (status " +
           status + ", white " + a["white"]["can_mate"].string + ", black " +
           a["black"]["can_mate"].string + ")";
  };

  // chessops: everything exactly.
  if (ops["is_checkmate"].IsTrue() != mate)
    c->chessops.Record("checkmate", fen, verdict(ops["is_checkmate"].IsTrue(), mate));
  if (ops["is_stalemate"].IsTrue() != stale)
    c->chessops.Record("stalemate", fen, verdict(ops["is_stalemate"].IsTrue(), stale));
  if (ops["insufficient_white"].IsTrue() != no[kWhite])
    c->chessops.Record("insufficient (white)", fen,
                       verdict(ops["insufficient_white"].IsTrue(), no[kWhite]));
  if (ops["insufficient_black"].IsTrue() != no[kBlack])
    c->chessops.Record("insufficient (black)", fen,
                       verdict(ops["insufficient_black"].IsTrue(), no[kBlack]));
  if (ops["is_insufficient"].IsTrue() != both)
    c->chessops.Record("insufficient (both)", fen, verdict(ops["is_insufficient"].IsTrue(), both));
  // chessops' outcome: mate first, then insufficient material or stalemate
  // is a draw.
  const std::string expected_outcome = mate            ? (stm == kWhite ? "black" : "white")
                                       : stale || both ? "draw"
                                                       : "";
  const std::string their_outcome = ops["outcome"].string;
  if (their_outcome != expected_outcome)
    c->chessops.Record("outcome", fen,
                       "theirs '" + their_outcome + "', expected from ours '" + expected_outcome +
                           "' (status " + status + ")");

  // chess.js: mate, stalemate and move count exactly.
  if (cjs["is_checkmate"].IsTrue() != mate)
    c->chessjs.Record("checkmate", fen, verdict(cjs["is_checkmate"].IsTrue(), mate));
  if (cjs["is_stalemate"].IsTrue() != stale)
    c->chessjs.Record("stalemate", fen, verdict(cjs["is_stalemate"].IsTrue(), stale));
  const int our_moves = int(MoveList(*pos).size());
  if (int(cjs["moves"].number) != our_moves)
    c->chessjs.Record("legal move count", fen,
                      "theirs " + std::to_string(int(cjs["moves"].number)) + ", ours " +
                          std::to_string(our_moves));
  // Whole board: the same set of positions (see the comment on Divergence).
  const bool cjs_insufficient = cjs["is_insufficient"].IsTrue();
  if (cjs_insufficient != both)
    c->chessjs.Record("insufficient (whole board)", fen, verdict(cjs_insufficient, both));
  // Per side: every difference must be a documented class.
  for (Color side : {kWhite, kBlack}) {
    if (cjs_insufficient == no[side]) continue;
    Divergence d = Classify(*pos, side, cjs_insufficient, no[side]);
    ClassStats& stats = c->per_side[d];
    ++stats.count;
    ++stats.signatures[MaterialSignature(*pos) + (side == kWhite ? " (white)" : " (black)")];
    if (stats.example.empty()) stats.example = fen + (side == kWhite ? "  [white]" : "  [black]");
    if (d == Divergence::kUnexplained)
      c->chessjs.Record("per-side: unexplained class", fen,
                        std::string(side == kWhite ? "white" : "black") + ": " +
                            verdict(cjs_insufficient, no[side]));
  }
}

void PrintReport(const Comparison& c) {
  std::printf(
      "js_diff: %zu positions compared (%d checkmates, %d stalemates, %d dead by material, "
      "%d with exactly one side insufficient, %d sides with a mating line found)\n",
      c.positions, c.checkmates, c.stalemates, c.dead, c.one_side_no, c.mating_lines);
  std::printf("chessops mismatches (must all be 0):\n");
  for (const auto& [check, count] : c.chessops.counts())
    std::printf("  %-30s %6d\n", check.c_str(), count);
  std::printf("chess.js mismatches (must all be 0):\n");
  for (const auto& [check, count] : c.chessjs.counts())
    std::printf("  %-30s %6d\n", check.c_str(), count);
  std::printf("chess.js per-side differences by class (whole-board answer read per side):\n");
  for (Divergence d : {Divergence::kBareKing, Divergence::kKnightVsQueens,
                       Divergence::kOneColourBishops, Divergence::kUnexplained}) {
    auto it = c.per_side.find(d);
    const ClassStats stats = it == c.per_side.end() ? ClassStats() : it->second;
    std::printf("  %-44s %6d", Name(d), stats.count);
    // The most frequent material signatures, for a feel of what the class
    // holds.
    std::vector<std::pair<int, std::string>> top;
    for (const auto& [sig, count] : stats.signatures) top.emplace_back(-count, sig);
    std::sort(top.begin(), top.end());
    for (size_t k = 0; k < top.size() && k < 4; ++k)
      std::printf("%s %s %d", k ? "," : "  e.g.", top[k].second.c_str(), -top[k].first);
    std::printf("\n");
    if (!stats.example.empty()) std::printf("      first: %s\n", stats.example.c_str());
  }
}

// Runs both programs on the positions of `set` (in a directory of its own,
// kept only when the test fails) and compares them position by position:
// chessops must agree on everything, chess.js on everything but its
// whole-board insufficiency read per side, whose differences must all be
// documented classes.
void RunAndCompare(const std::string& node, const FenSet& set, const std::string& name,
                   Comparison* c) {
  const auto started = std::chrono::steady_clock::now();
  const fs::path js_dir = fs::path(ARBITER_SOURCE_DIR) / "tests" / "js";
  // A directory of our own: builds in build/, build-me/, ... and the other
  // cases may run at the same time.
  const std::string dir =
      (fs::path(::testing::TempDir()) / ("js_diff_" + name + "_" + std::to_string(::getpid())))
          .string();
  fs::create_directories(dir);
  const std::string fen_path = dir + "/fens.txt";
  {
    std::ofstream file(fen_path);
    for (const std::string& fen : set.fens()) file << fen << '\n';
    ASSERT_TRUE(file.good()) << "cannot write " << fen_path;
  }

  // ---- both programs
  Command node_run(
      Quote(node) + " " + Quote((js_dir / "reference.mjs").string()) + " < " + Quote(fen_path),
      dir + "/reference.jsonl");
  // A small mate-search budget and table: with the defaults (200,000
  // positions and a 16 MB table per side) 75,000 positions take over half
  // an hour, most of it spent clearing the table. The search cannot change
  // what is compared here (mate, stalemate, "no" by material), and a small
  // budget still finds many mating lines, which are checked against
  // chessops' insufficiency.
  Command arbiter_run(Quote(std::string(ARBITER_BINARY_DIR) + "/arbiter") + " analyze " +
                          Quote(fen_path) + " --budget 1000 --table-mb 1",
                      dir + "/arbiter.jsonl");
  Output ours = arbiter_run.Finish();
  Output theirs = node_run.Finish();
  ASSERT_EQ(ours.exit_code, 0) << "arbiter analyze failed:\n" << ours.stderr_text;
  ASSERT_EQ(theirs.exit_code, 0) << "node reference.mjs failed:\n" << theirs.stderr_text;
  c->positions = set.fens().size();
  ASSERT_EQ(ours.lines.size(), c->positions);
  ASSERT_EQ(theirs.lines.size(), c->positions);
  const auto ran = std::chrono::steady_clock::now();

  // ---- comparison
  for (const char* check :
       {"checkmate", "stalemate", "insufficient (white)", "insufficient (black)",
        "insufficient (both)", "outcome", "mate found where insufficient"})
    c->chessops.Touch(check);
  for (const char* check : {"checkmate", "stalemate", "legal move count",
                            "insufficient (whole board)", "per-side: unexplained class"})
    c->chessjs.Touch(check);
  for (size_t i = 0; i < c->positions; ++i) {
    Json a, r;
    ASSERT_TRUE(JsonParser(ours.lines[i]).Parse(&a))
        << "arbiter line " << i + 1 << ": " << ours.lines[i];
    ASSERT_TRUE(JsonParser(theirs.lines[i]).Parse(&r))
        << "reference line " << i + 1 << ": " << theirs.lines[i];
    ComparePosition(set.fens()[i], ours.lines[i], a, theirs.lines[i], r, c);
    if (::testing::Test::HasFatalFailure()) return;
  }
  const auto compared = std::chrono::steady_clock::now();

  // ---- report
  auto seconds = [](auto from, auto to) {
    return std::chrono::duration<double>(to - from).count();
  };
  PrintReport(*c);
  std::printf("js_diff: %d chessops mismatches, %d chess.js mismatches; run %.1fs, compare %.1fs\n",
              c->chessops.total(), c->chessjs.total(), seconds(started, ran),
              seconds(ran, compared));
  EXPECT_EQ(c->chessops.total(), 0);
  EXPECT_EQ(c->chessjs.total(), 0);
  EXPECT_EQ(c->per_side[Divergence::kUnexplained].count, 0);

  // The inputs and outputs (tens of MB) are only worth keeping to debug a
  // failure.
  if (::testing::Test::HasFailure()) {
    std::printf("js_diff: inputs and outputs kept in %s\n", dir.c_str());
  } else {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
}

// node and the two packages, or a skip saying what is missing.
#define REQUIRE_REFERENCES(node)                                                                   \
  const std::string node = testing::FindProgram("node");                                           \
  if (node.empty()) {                                                                              \
    std::printf("js_diff: SKIPPED: node not found on PATH (apt-get install nodejs npm)\n");        \
    GTEST_SKIP() << "node not found on PATH (apt-get install nodejs npm)";                         \
  }                                                                                                \
  for (const char* package : {"chessops", "chess.js"}) {                                           \
    const fs::path js_dir = fs::path(ARBITER_SOURCE_DIR) / "tests" / "js";                         \
    if (!fs::exists(js_dir / "node_modules" / package / "package.json")) {                         \
      std::printf("js_diff: SKIPPED: %s missing from %s/node_modules (run npm ci --prefix %s)\n",  \
                  package, js_dir.c_str(), js_dir.c_str());                                        \
      GTEST_SKIP() << package << " missing from tests/js/node_modules (npm ci --prefix tests/js)"; \
    }                                                                                              \
  }

void PrintOrigins(const FenSet& set) {
  for (const auto& [origin, n] : set.by_origin())
    std::printf("  %-32s %6d positions\n", origin.c_str(), n);
}

// Test names start with "js_diff" in lower case so that the case-sensitive
// `ctest -R js_diff` selects them. Each case compares the positions of one
// origin, on a sample in the default tier and in full in the long one
// (SampleSize; 75,286 positions together). Each also holds its sample to
// reaching what the test is about: at full size, together at least 500
// checkmates, 100 stalemates, 1,000 positions dead by material and 1,000
// with exactly one side insufficient.

// Seeded random play, biased towards few men, mates, stalemates and
// under-promotions.
TEST(js_diff, RandomPlayAgrees) {
  REQUIRE_REFERENCES(node);
  const int size = testing::SampleSize(5000, 25000, "positions of random play");
  FenSet set;
  std::mt19937_64 rng(testing::DiffSeed(20240917));
  AddRandomPlay(rng, size, &set);
  PrintOrigins(set);
  ASSERT_GE(set.count(kRandomPlay), size * 4 / 5);
  Comparison c;
  RunAndCompare(node, set, "random_play", &c);
  if (HasFatalFailure()) return;
  // The sample must actually reach what the test is about (random play
  // seldom mates: the mates and stalemates come from the games).
  EXPECT_GE(c.dead, size / 50);
  EXPECT_GE(c.one_side_no, size / 10);
}

// Positions built for each insufficient-material class and its neighbours,
// and the hand-picked mates and stalemates.
TEST(js_diff, ConstructedClassesAgree) {
  REQUIRE_REFERENCES(node);
  const int per_class = testing::SampleSize(100, 300, "constructed positions per class");
  FenSet set;
  std::mt19937_64 rng(testing::DiffSeed(20240918));
  AddConstructed(rng, per_class, &set);
  for (const char* fen : kHandPicked) {
    absl::StatusOr<Position> pos = Position::FromFen(fen);
    ASSERT_TRUE(pos.ok()) << fen << ": " << pos.status();
    set.Add(pos->Fen(), kFixed);
  }
  PrintOrigins(set);
  Comparison c;
  RunAndCompare(node, set, "constructed", &c);
  if (HasFatalFailure()) return;
  const int classes = int(std::size(kClasses));
  EXPECT_GE(c.dead, classes * per_class / 10);
  EXPECT_GE(c.one_side_no, classes * per_class / 10);
}

// The final positions of the real games in $ARBITER_SHARED/games: what a
// rules engine is mostly asked about.
TEST(js_diff, RealGameFinalsAgree) {
  REQUIRE_REFERENCES(node);
  const std::string shared = testing::SharedDir();
  if (shared.empty() || !fs::is_directory(fs::path(shared) / "games")) {
    std::printf("js_diff: SKIPPED: no shared games directory ($ARBITER_SHARED/games)\n");
    GTEST_SKIP() << "no shared games directory: set ARBITER_SHARED or put them in ../shared/games";
  }
  const int percent = testing::SampleSize(20, 100, "percent of the shared games' final positions");
  FenSet all, set;
  int games = 0, games_skipped = 0;
  AddGameFinals(shared, &all, &games, &games_skipped);
  if (HasFatalFailure()) return;
  std::printf("  (%d games replayed, %d skipped: errors, other variants, Chess960 castling)\n",
              games, games_skipped);
  // Evenly spread: position i is taken when i * percent / 100 steps up.
  for (size_t i = 0; i < all.fens().size(); ++i)
    if ((i + 1) * percent / 100 > i * percent / 100) set.Add(all.fens()[i], kGameFinals);
  PrintOrigins(set);
  ASSERT_GE(set.count(kGameFinals), 100);
  Comparison c;
  RunAndCompare(node, set, "game_finals", &c);
  if (HasFatalFailure()) return;
  const int n = set.count(kGameFinals);
  EXPECT_GE(c.checkmates, n / 10);
  EXPECT_GE(c.stalemates, n / 250);
  EXPECT_GE(c.one_side_no, n / 50);
}

}  // namespace
}  // namespace arbiter
