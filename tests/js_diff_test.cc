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

// Test names start with "js_diff" in lower case so that the case-sensitive
// `ctest -R js_diff` selects them.
TEST(js_diff, RulesAgreeWithChessopsAndChessJs) {
  const auto started = std::chrono::steady_clock::now();
  const std::string node = testing::FindProgram("node");
  const fs::path js_dir = fs::path(ARBITER_SOURCE_DIR) / "tests" / "js";
  if (node.empty()) {
    std::printf("js_diff: SKIPPED: node not found on PATH (apt-get install nodejs npm)\n");
    GTEST_SKIP() << "node not found on PATH (apt-get install nodejs npm)";
  }
  for (const char* package : {"chessops", "chess.js"}) {
    if (!fs::exists(js_dir / "node_modules" / package / "package.json")) {
      std::printf("js_diff: SKIPPED: %s missing from %s/node_modules (run npm ci --prefix %s)\n",
                  package, js_dir.c_str(), js_dir.c_str());
      GTEST_SKIP() << package << " missing from tests/js/node_modules (npm ci --prefix tests/js)";
    }
  }

  // ---- positions
  FenSet set;
  std::mt19937_64 rng(testing::DiffSeed(20240917));
  AddRandomPlay(rng, 25000, &set);
  AddConstructed(rng, 300, &set);
  for (const char* fen : kHandPicked) {
    absl::StatusOr<Position> pos = Position::FromFen(fen);
    ASSERT_TRUE(pos.ok()) << fen << ": " << pos.status();
    set.Add(pos->Fen(), kFixed);
  }
  int games = 0, games_skipped = 0;
  const std::string shared = testing::SharedDir();
  if (shared.empty() || !fs::is_directory(fs::path(shared) / "games")) {
    std::printf(
        "js_diff: no shared games directory ($ARBITER_SHARED/games); real-game final "
        "positions are not compared\n");
  } else {
    AddGameFinals(shared, &set, &games, &games_skipped);
  }
  for (const auto& [origin, n] : set.by_origin())
    std::printf("  %-32s %6d positions\n", origin.c_str(), n);
  std::printf("  (%d games replayed, %d skipped: errors, other variants, Chess960 castling)\n",
              games, games_skipped);
  ASSERT_GE(set.count(kRandomPlay), 20000);

  // A directory of our own: builds in build/, build-me/, ... may run this
  // test at the same time.
  const std::string dir =
      (fs::path(::testing::TempDir()) / ("js_diff_" + std::to_string(::getpid()))).string();
  fs::create_directories(dir);
  const std::string fen_path = dir + "/fens.txt";
  {
    std::ofstream file(fen_path);
    for (const std::string& fen : set.fens()) file << fen << '\n';
    ASSERT_TRUE(file.good()) << "cannot write " << fen_path;
  }
  const auto generated = std::chrono::steady_clock::now();

  // ---- both programs
  Command node_run(
      Quote(node) + " " + Quote((js_dir / "reference.mjs").string()) + " < " + Quote(fen_path),
      dir + "/reference.jsonl");
  // A small mate-search budget and table: with the defaults (200,000
  // positions and a 16 MB table per side) 75,000 positions take over half
  // an hour, most of it spent clearing the table. The search cannot change
  // what is compared here (mate, stalemate, "no" by material), and a small
  // budget still finds many mating lines, which are checked against
  // chessops' insufficiency below.
  Command arbiter_run(Quote(std::string(ARBITER_BINARY_DIR) + "/arbiter") + " analyze " +
                          Quote(fen_path) + " --budget 1000 --table-mb 1",
                      dir + "/arbiter.jsonl");
  Output ours = arbiter_run.Finish();
  Output theirs = node_run.Finish();
  ASSERT_EQ(ours.exit_code, 0) << "arbiter analyze failed:\n" << ours.stderr_text;
  ASSERT_EQ(theirs.exit_code, 0) << "node reference.mjs failed:\n" << theirs.stderr_text;
  const size_t n = set.fens().size();
  ASSERT_EQ(ours.lines.size(), n);
  ASSERT_EQ(theirs.lines.size(), n);
  const auto ran = std::chrono::steady_clock::now();

  // ---- comparison
  Mismatches chessops, chessjs;
  for (const char* check :
       {"checkmate", "stalemate", "insufficient (white)", "insufficient (black)",
        "insufficient (both)", "outcome", "mate found where insufficient"})
    chessops.Touch(check);
  for (const char* check : {"checkmate", "stalemate", "legal move count",
                            "insufficient (whole board)", "per-side: unexplained class"})
    chessjs.Touch(check);
  std::map<Divergence, ClassStats> per_side;
  int checkmates = 0, stalemates = 0, dead = 0, one_side_no = 0, mating_lines = 0;
  for (size_t i = 0; i < n; ++i) {
    const std::string& fen = set.fens()[i];
    Json a, r;
    ASSERT_TRUE(JsonParser(ours.lines[i]).Parse(&a))
        << "arbiter line " << i + 1 << ": " << ours.lines[i];
    ASSERT_TRUE(JsonParser(theirs.lines[i]).Parse(&r))
        << "reference line " << i + 1 << ": " << theirs.lines[i];
    // Alignment: the same FEN on both lines (arbiter echoes its own spelling,
    // which the input already is).
    ASSERT_EQ(a["fen"].string, fen) << ours.lines[i];
    ASSERT_EQ(r["fen"].string, fen) << theirs.lines[i];
    const Json& ops = r["chessops"];
    const Json& cjs = r["chessjs"];
    ASSERT_FALSE(ops.Has("error")) << fen << ": chessops: " << ops["error"].string;
    ASSERT_FALSE(cjs.Has("error")) << fen << ": chess.js: " << cjs["error"].string;

    const std::string status = a["status"].string;
    const bool mate = status == "checkmate", stale = status == "stalemate";
    bool no[2];
    for (Color c : {kWhite, kBlack}) {
      const Json& side = a[c == kWhite ? "white" : "black"];
      no[c] = side["can_mate"].string == "no" && side["proof"].string == "material";
      // The flat field must say the same as the per-side object.
      ASSERT_EQ(a[c == kWhite ? "white_can_mate" : "black_can_mate"].string,
                side["can_mate"].string)
          << ours.lines[i];
    }
    const bool both = no[kWhite] && no[kBlack];
    checkmates += mate;
    stalemates += stale;
    dead += both;
    one_side_no += no[kWhite] != no[kBlack];
    for (Color c : {kWhite, kBlack}) {
      // A mating line found by our search refutes an "insufficient" verdict
      // of chessops (and of our material rule) outright.
      const char* name = c == kWhite ? "white" : "black";
      if (a[name]["can_mate"].string != "yes") continue;
      ++mating_lines;
      if (ops[c == kWhite ? "insufficient_white" : "insufficient_black"].IsTrue())
        chessops.Record("mate found where insufficient", fen,
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
      chessops.Record("checkmate", fen, verdict(ops["is_checkmate"].IsTrue(), mate));
    if (ops["is_stalemate"].IsTrue() != stale)
      chessops.Record("stalemate", fen, verdict(ops["is_stalemate"].IsTrue(), stale));
    if (ops["insufficient_white"].IsTrue() != no[kWhite])
      chessops.Record("insufficient (white)", fen,
                      verdict(ops["insufficient_white"].IsTrue(), no[kWhite]));
    if (ops["insufficient_black"].IsTrue() != no[kBlack])
      chessops.Record("insufficient (black)", fen,
                      verdict(ops["insufficient_black"].IsTrue(), no[kBlack]));
    if (ops["is_insufficient"].IsTrue() != both)
      chessops.Record("insufficient (both)", fen, verdict(ops["is_insufficient"].IsTrue(), both));
    // chessops' outcome: mate first, then insufficient material or
    // stalemate is a draw.
    const std::string expected_outcome = mate            ? (stm == kWhite ? "black" : "white")
                                         : stale || both ? "draw"
                                                         : "";
    const std::string their_outcome = ops["outcome"].string;
    if (their_outcome != expected_outcome)
      chessops.Record("outcome", fen,
                      "theirs '" + their_outcome + "', expected from ours '" + expected_outcome +
                          "' (status " + status + ")");

    // chess.js: mate, stalemate and move count exactly.
    if (cjs["is_checkmate"].IsTrue() != mate)
      chessjs.Record("checkmate", fen, verdict(cjs["is_checkmate"].IsTrue(), mate));
    if (cjs["is_stalemate"].IsTrue() != stale)
      chessjs.Record("stalemate", fen, verdict(cjs["is_stalemate"].IsTrue(), stale));
    const int our_moves = int(MoveList(*pos).size());
    if (int(cjs["moves"].number) != our_moves)
      chessjs.Record("legal move count", fen,
                     "theirs " + std::to_string(int(cjs["moves"].number)) + ", ours " +
                         std::to_string(our_moves));
    // Whole board: the same set of positions (see the comment on Divergence).
    const bool cjs_insufficient = cjs["is_insufficient"].IsTrue();
    if (cjs_insufficient != both)
      chessjs.Record("insufficient (whole board)", fen, verdict(cjs_insufficient, both));
    // Per side: every difference must be a documented class.
    for (Color c : {kWhite, kBlack}) {
      if (cjs_insufficient == no[c]) continue;
      Divergence d = Classify(*pos, c, cjs_insufficient, no[c]);
      ClassStats& stats = per_side[d];
      ++stats.count;
      ++stats.signatures[MaterialSignature(*pos) + (c == kWhite ? " (white)" : " (black)")];
      if (stats.example.empty()) stats.example = fen + (c == kWhite ? "  [white]" : "  [black]");
      if (d == Divergence::kUnexplained)
        chessjs.Record(
            "per-side: unexplained class", fen,
            std::string(c == kWhite ? "white" : "black") + ": " + verdict(cjs_insufficient, no[c]));
    }
  }
  const auto compared = std::chrono::steady_clock::now();

  // ---- report
  auto seconds = [](auto from, auto to) {
    return std::chrono::duration<double>(to - from).count();
  };
  std::printf(
      "js_diff: %zu positions compared (%d checkmates, %d stalemates, %d dead by material, "
      "%d with exactly one side insufficient, %d sides with a mating line found)\n",
      n, checkmates, stalemates, dead, one_side_no, mating_lines);
  std::printf("chessops mismatches (must all be 0):\n");
  for (const auto& [check, count] : chessops.counts())
    std::printf("  %-30s %6d\n", check.c_str(), count);
  std::printf("chess.js mismatches (must all be 0):\n");
  for (const auto& [check, count] : chessjs.counts())
    std::printf("  %-30s %6d\n", check.c_str(), count);
  std::printf("chess.js per-side differences by class (whole-board answer read per side):\n");
  for (Divergence d : {Divergence::kBareKing, Divergence::kKnightVsQueens,
                       Divergence::kOneColourBishops, Divergence::kUnexplained}) {
    const ClassStats& stats = per_side[d];
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
  std::printf(
      "js_diff: %d chessops mismatches, %d chess.js mismatches; generate %.1fs, run %.1fs, "
      "compare %.1fs\n",
      chessops.total(), chessjs.total(), seconds(started, generated), seconds(generated, ran),
      seconds(ran, compared));

  EXPECT_EQ(chessops.total(), 0);
  EXPECT_EQ(chessjs.total(), 0);
  EXPECT_EQ(per_side[Divergence::kUnexplained].count, 0);
  // The sample must actually reach what the test is about.
  EXPECT_GE(checkmates, 500);
  EXPECT_GE(stalemates, 100);
  EXPECT_GE(dead, 1000);
  EXPECT_GE(one_side_no, 1000);

  // The inputs and outputs (tens of MB) are only worth keeping to debug a
  // failure.
  if (HasFailure()) {
    std::printf("js_diff: inputs and outputs kept in %s\n", dir.c_str());
  } else {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
}

}  // namespace
}  // namespace arbiter
