// Searches for legal positions whose shortest helpmate is long: the
// tests (tests/mate_ability_test.cc, tests/long/) need positions whose only
// mate is far away, and such positions are rare enough that composing them
// by hand stalls near 20 moves. An evolutionary search over locked
// positions: a population of positions, each scored by the exact length of
// its shortest helpmate (breadth-first search over every reachable position,
// told apart by Zobrist key), mutated by moving, adding and removing men.
// Positions whose reachable set exceeds a cap score nothing, which keeps the
// search among positions where almost everything is stuck.
//
//   build/tools/helpmate_composer [--seconds S] [--seed N] [--cap STATES]
//                                 [--frozen-files FILES] [--line] [FEN...]
//   build/tools/helpmate_composer --placements N [--pocket SQUARES]
//                                 [--white-pocket SQUARES] [--black-king SQUARES]
//                                 [--cap STATES] FEN...
//
// --line prints one shortest helpmate of each seed, for composing by hand
// (with --seconds 0 the tool only scores its seeds). --placements takes
// each FEN as a skeleton (its kings, if any, are ignored), tries every
// placement of both kings and prints the N longest: a design aid that
// answers "where would the kings go?" for a pawn structure. Black kings are
// put only in pockets of at most --pocket squares (default 4), or on the
// --black-king squares (e.g. a5a6); white kings in pockets of at most
// --white-pocket squares. With --place-kings the evolutionary search judges
// each mutated skeleton by its best placement under the same rules.
//
// Prints every improvement as "plies states FEN". What it prints is a
// candidate, not a proof: tests certify a position with a second,
// independent breadth-first search keyed by FEN text.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "core/chess/position.h"
#include "core/chess/random_placement.h"
#include "tools/packed_search.h"

namespace arbiter {
namespace {

// A position as the search mutates it: 64 FEN characters ('.' empty,
// a8 first) and the side to move. White is always the side that must mate.
struct Genome {
  std::array<char, 64> board;
  char side = 'w';
};

std::string ToFen(const Genome& g) {
  std::string a1_first;
  for (int row = 7; row >= 0; --row) a1_first.append(&g.board[row * 8], 8);
  return FenPlacement(a1_first) + " " + g.side + " - - 0 1";
}

// A position, or with `skeleton` just the men of a FEN's first field, kings
// or not (--placements places the kings itself).
std::optional<Genome> FromFen(std::string_view fen, bool skeleton = false) {
  absl::StatusOr<Position> pos = Position::FromFen(fen);
  if (!pos.ok() && !skeleton) return std::nullopt;
  Genome g;
  g.board.fill('.');
  int i = 0;
  for (char c : fen) {
    if (c == ' ') break;
    if (c == '/') continue;
    if (c >= '1' && c <= '8') {
      i += c - '0';
    } else if (i < 64 && std::string_view("PNBRQKpnbrqk").find(c) != std::string_view::npos) {
      g.board[i++] = c;
    } else {
      return std::nullopt;
    }
  }
  if (i != 64) return std::nullopt;
  g.side = pos.ok() && pos->side_to_move() == kBlack ? 'b' : 'w';
  return g;
}

// The fewest captures that put a side's pawns on their files: pawns matched
// in file order to distinct starting files, each file step one capture.
int PawnCapturesNeeded(const std::vector<int>& pawn_files) {
  const int n = int(pawn_files.size());
  constexpr int kInf = 1 << 20;
  // best[j]: cheapest match of the pawns so far to starting files < j.
  std::vector<int> best(9, 0);
  for (int p = 0; p < n; ++p) {
    std::vector<int> next(9, kInf);
    for (int j = 1; j <= 8; ++j) {
      next[j] = std::min(next[j - 1], best[j - 1] + std::abs(pawn_files[p] - (j - 1)));
    }
    best = next;
  }
  return best[8];
}

// Whether the piece on `from` could have got there: from its square it must
// reach, with its own moves, a square where such a piece starts the game or
// the rank where it could have been promoted, through any square but those
// of unmoved pawns (white ones on the second rank, black ones on the
// seventh), which have stood there all game. Rules out cages such as a
// black bishop on a8 behind a pawn on b7.
bool CouldHaveArrived(const Genome& g, int from) {
  const char type = char(std::tolower(g.board[from]));
  const bool white = g.board[from] != type;
  const int home_row = white ? 7 : 0;       // board rows run from rank 8 down
  const int promotion_row = white ? 0 : 7;  // kings are never promoted
  auto origin = [&](int i) {
    const int file = i % 8;
    if (type != 'k' && i / 8 == promotion_row) return true;
    if (i / 8 != home_row) return false;
    switch (type) {
      case 'k':
        return file == 4;
      case 'q':
        return file == 3;
      case 'r':
        return file == 0 || file == 7;
      case 'b':
        return file == 2 || file == 5;
      default:
        return file == 1 || file == 6;
    }
  };
  auto wall = [&](int i) {
    return (g.board[i] == 'P' && i / 8 == 6) || (g.board[i] == 'p' && i / 8 == 1);
  };
  std::vector<int> directions;  // as (rank step, file step) pairs
  const bool slides = type == 'q' || type == 'r' || type == 'b';
  if (type == 'n') {
    directions = {-2, -1, -2, 1, -1, -2, -1, 2, 1, -2, 1, 2, 2, -1, 2, 1};
  } else {
    if (type != 'b') directions.insert(directions.end(), {-1, 0, 1, 0, 0, -1, 0, 1});
    if (type != 'r') directions.insert(directions.end(), {-1, -1, -1, 1, 1, -1, 1, 1});
  }
  std::array<bool, 64> seen{};
  std::vector<int> stack{from};
  seen[from] = true;
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    if (origin(i)) return true;
    for (size_t d = 0; d < directions.size(); d += 2) {
      int rank = i / 8, file = i % 8;
      for (;;) {
        rank += directions[d];
        file += directions[d + 1];
        if (rank < 0 || rank > 7 || file < 0 || file > 7 || wall(rank * 8 + file)) break;
        const int j = rank * 8 + file;
        if (!seen[j]) {
          seen[j] = true;
          stack.push_back(j);
        }
        if (!slides) break;
      }
    }
  }
  return false;
}

// What Position::FromFen does not check but a game must obey: at most 8
// pawns, promoted men paid for by missing pawns, pawn file changes paid for
// by captured enemy men, pieces that could have reached their squares.
bool PlausiblyLegal(const Genome& g) {
  for (int i = 0; i < 64; ++i) {
    const char c = g.board[i];
    if (c != '.' && c != 'P' && c != 'p' && !CouldHaveArrived(g, i)) return false;
  }
  for (int side = 0; side < 2; ++side) {
    const auto own = [&](char c) {
      return side == 0 ? c == std::toupper(c) : c == std::tolower(c);
    };
    std::vector<int> pawn_files;
    int queens = 0, rooks = 0, bishops = 0, knights = 0, enemy = 0;
    for (int i = 0; i < 64; ++i) {
      const char c = g.board[i];
      if (c == '.') continue;
      if (!own(c)) {
        ++enemy;
        continue;
      }
      switch (std::tolower(c)) {
        case 'p':
          pawn_files.push_back(i % 8);
          break;
        case 'q':
          ++queens;
          break;
        case 'r':
          ++rooks;
          break;
        case 'b':
          ++bishops;
          break;
        case 'n':
          ++knights;
          break;
      }
    }
    std::sort(pawn_files.begin(), pawn_files.end());
    const int promoted = std::max(0, queens - 1) + std::max(0, rooks - 2) +
                         std::max(0, bishops - 2) + std::max(0, knights - 2);
    if (int(pawn_files.size()) + promoted > 8) return false;
    if (PawnCapturesNeeded(pawn_files) > 16 - enemy) return false;
  }
  return true;
}

Genome WithoutKings(Genome g) {
  for (char& c : g.board)
    if (c == 'K' || c == 'k') c = '.';
  return g;
}

// The squares a king of `color` ('w' or 'b') on `from` could walk to if
// nothing but the men already there ever moved: not through men, nor
// squares the other side's pawns attack.
int PocketSize(const Genome& g, int from, char color) {
  const char enemy_pawn = color == 'w' ? 'p' : 'P';
  const int pawn_row_step = color == 'w' ? -1 : 1;  // rows run from rank 8 down
  auto attacked_by_pawn = [&](int i) {
    const int row = i / 8 + pawn_row_step, file = i % 8;
    for (int df : {-1, 1}) {
      const int f = file + df;
      if (row >= 0 && row < 8 && f >= 0 && f < 8 && g.board[row * 8 + f] == enemy_pawn) return true;
    }
    return false;
  };
  std::array<bool, 64> seen{};
  std::vector<int> stack{from};
  seen[from] = true;
  int size = 0;
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    ++size;
    for (int dr = -1; dr <= 1; ++dr)
      for (int df = -1; df <= 1; ++df) {
        const int r = i / 8 + dr, f = i % 8 + df;
        if (r < 0 || r > 7 || f < 0 || f > 7) continue;
        const int j = r * 8 + f;
        if (seen[j] || g.board[j] != '.' || attacked_by_pawn(j)) continue;
        seen[j] = true;
        stack.push_back(j);
      }
  }
  return size;
}

// A candidate's score: its shortest helpmate for White, -1 when illegal,
// mateless or past the cap.
using Score = tools::HelpmateSearch;

Score Evaluate(const Genome& g, size_t cap, std::string* line = nullptr) {
  if (!PlausiblyLegal(g)) return {};
  absl::StatusOr<Position> pos = Position::FromFen(ToFen(g));
  if (!pos.ok()) return {};
  return tools::ShortestHelpmate(*pos, kWhite, cap, line);
}

// One placement of the two kings on a skeleton, with its shortest helpmate.
struct Placement {
  Score score;
  Genome genome;
};

// Where --placements and --place-kings may put the kings.
struct KingRules {
  int black_pocket = 4;                  // a black king only where it is shut in this many squares
  int white_pocket = 64;                 // likewise for the white king (64: anywhere)
  std::vector<bool> black_king_squares;  // when not empty, only these
};

// Every placement of the two kings on a skeleton that `rules` allow, each
// scored by its own search (capped like any candidate), longest first: a
// skeleton is judged by its best placement, which mutations that move one
// king at a time may take long to find. Black kings go only into small
// pockets because a free black king makes the search explode and is mated
// quickly anyway.
std::vector<Placement> LongestPlacements(const Genome& skeleton, size_t cap,
                                         const KingRules& rules) {
  const Genome bare = WithoutKings(skeleton);
  // Which squares each king may start on, worked out once per skeleton.
  std::array<bool, 64> white_may{}, black_may{};
  for (int i = 0; i < 64; ++i) {
    if (bare.board[i] != '.') continue;
    white_may[i] = PocketSize(bare, i, 'w') <= rules.white_pocket;
    black_may[i] = rules.black_king_squares.empty() ? PocketSize(bare, i, 'b') <= rules.black_pocket
                                                    : bool(rules.black_king_squares[i]);
  }
  std::vector<Placement> placements;
  for (int white = 0; white < 64; ++white) {
    if (!white_may[white]) continue;
    for (int black = 0; black < 64; ++black) {
      if (!black_may[black]) continue;
      if (std::abs(white % 8 - black % 8) <= 1 && std::abs(white / 8 - black / 8) <= 1) continue;
      for (char side : {'w', 'b'}) {
        Genome g = bare;
        g.board[white] = 'K';
        g.board[black] = 'k';
        g.side = side;
        const Score score = Evaluate(g, cap);
        if (score.plies >= 0) placements.push_back({score, g});
      }
    }
  }
  std::sort(placements.begin(), placements.end(),
            [](const Placement& a, const Placement& b) { return a.score.plies > b.score.plies; });
  return placements;
}

// Squares the mutations leave alone (--frozen-files), so that a search can
// keep a working mating net and vary only the rest of the board.
using Frozen = std::array<bool, 64>;

Genome Mutate(const Genome& parent, const Frozen& frozen, std::mt19937_64& rng) {
  Genome g = parent;
  auto uniform = [&](int n) { return int(rng() % uint64_t(n)); };
  const int steps = 1 + uniform(3);
  for (int s = 0; s < steps; ++s) {
    const int kind = uniform(16);
    std::vector<int> men, empties;
    for (int i = 0; i < 64; ++i)
      if (!frozen[i]) (g.board[i] == '.' ? empties : men).push_back(i);
    if (men.empty() || empties.empty()) continue;
    if (kind < 5) {  // move a man (kings too) to an empty square
      const int from = men[uniform(int(men.size()))];
      const int to = empties[uniform(int(empties.size()))];
      std::swap(g.board[from], g.board[to]);
    } else if (kind < 7) {  // remove a man other than a king
      const int i = men[uniform(int(men.size()))];
      if (std::tolower(g.board[i]) != 'k') g.board[i] = '.';
    } else if (kind < 9) {  // add a man, mostly pawns
      static constexpr char kMen[] = "PPPPPPpppppppBbNnRr";
      g.board[empties[uniform(int(empties.size()))]] = kMen[uniform(int(sizeof kMen - 1))];
    } else if (kind < 12) {  // add a locked pair: a white pawn below a black one
      const int i = empties[uniform(int(empties.size()))];
      if (i >= 16 && i < 56 && g.board[i - 8] == '.' && !frozen[i - 8]) {
        g.board[i] = 'P';
        g.board[i - 8] = 'p';
      }
    } else if (kind < 15) {  // nudge a man to a neighbouring empty square
      const int from = men[uniform(int(men.size()))];
      const int to = from + (uniform(3) - 1) * 8 + (uniform(3) - 1);
      if (to >= 0 && to < 64 && std::abs(to % 8 - from % 8) <= 1 && g.board[to] == '.' &&
          !frozen[to])
        std::swap(g.board[from], g.board[to]);
    } else {
      g.side = g.side == 'w' ? 'b' : 'w';
    }
  }
  return g;
}

struct Member {
  Genome genome;
  Score score;
  std::string fen;
};

int Run(int argc, char** argv) {
  double seconds = 600;
  uint64_t seed = 1;
  size_t cap = 200000;
  std::vector<std::string> seeds;
  Frozen frozen{};
  bool print_line = false;
  int placements = 0;
  KingRules kings;
  bool place_kings = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--seconds" && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--frozen-files" && i + 1 < argc) {
      for (const char* f = argv[++i]; *f; ++f)
        if (*f >= 'a' && *f <= 'h')
          for (int rank = 0; rank < 8; ++rank) frozen[rank * 8 + (*f - 'a')] = true;
    } else if (arg == "--line") {
      print_line = true;
    } else if (arg == "--placements" && i + 1 < argc) {
      placements = std::atoi(argv[++i]);
    } else if (arg == "--black-king" && i + 1 < argc) {
      kings.black_king_squares.assign(64, false);
      const std::string_view squares = argv[++i];
      for (size_t k = 0; k < squares.size(); k += 2) {
        const char file = squares[k], rank = k + 1 < squares.size() ? squares[k + 1] : '?';
        if (file < 'a' || file > 'h' || rank < '1' || rank > '8') {
          std::fprintf(stderr, "--black-king: not a list of squares such as a5a6: %s\n", argv[i]);
          return 2;
        }
        kings.black_king_squares[(7 - (rank - '1')) * 8 + (file - 'a')] = true;
      }
    } else if (arg == "--pocket" && i + 1 < argc) {
      kings.black_pocket = std::atoi(argv[++i]);
    } else if (arg == "--white-pocket" && i + 1 < argc) {
      kings.white_pocket = std::atoi(argv[++i]);
    } else if (arg == "--place-kings") {
      place_kings = true;
    } else if (arg == "--cap" && i + 1 < argc) {
      cap = std::strtoull(argv[++i], nullptr, 10);
    } else {
      seeds.emplace_back(arg);
    }
  }
  if (placements > 0) {
    for (const std::string& fen : seeds) {
      std::optional<Genome> g = FromFen(fen, /*skeleton=*/true);
      if (!g) {
        std::fprintf(stderr, "not a skeleton: %s\n", fen.c_str());
        return 2;
      }
      const std::vector<Placement> best = LongestPlacements(*g, cap, kings);
      if (best.empty())
        std::printf("skeleton %s: no mate, or more than %zu positions\n", fen.c_str(), cap);
      for (int k = 0; k < placements && k < int(best.size()); ++k)
        std::printf("placement %d %s\n", best[k].score.plies, ToFen(best[k].genome).c_str());
    }
    return 0;
  }
  if (seeds.empty()) seeds.push_back("8/1p4p1/1Pp3p1/k1P3p1/1pP3Pb/1P4p1/6P1/7K w - - 0 1");

  std::mt19937_64 rng(seed);
  std::vector<Member> population;
  std::unordered_set<std::string> known;
  for (const std::string& fen : seeds) {
    std::optional<Genome> g = FromFen(fen);
    if (!g) {
      std::fprintf(stderr, "not a position: %s\n", fen.c_str());
      return 2;
    }
    std::string line;
    Member m{*g, Evaluate(*g, cap, print_line ? &line : nullptr), ToFen(*g)};
    std::printf("seed %d %zu %s\n", m.score.plies, m.score.states, m.fen.c_str());
    if (!line.empty()) std::printf("line %s\n", line.c_str());
    std::fflush(stdout);
    known.insert(m.fen);
    population.push_back(m);
  }
  constexpr size_t kPopulation = 40;
  int best = 0;
  for (const Member& m : population) best = std::max(best, m.score.plies);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  size_t evaluations = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    // Tournament of two: the longer helpmate is the parent.
    const Member& a = population[rng() % population.size()];
    const Member& b = population[rng() % population.size()];
    const Member& parent = a.score.plies >= b.score.plies ? a : b;
    Genome child = Mutate(parent.genome, frozen, rng);
    std::string fen = ToFen(place_kings ? WithoutKings(child) : child);
    if (!known.insert(fen).second) continue;
    if (++evaluations % 1000 == 0) {
      std::fprintf(stderr, "%zu evaluations, best %d plies\n", evaluations, best);
    }
    Score score;
    if (place_kings) {
      const std::vector<Placement> placed = LongestPlacements(child, cap, kings);
      if (placed.empty()) continue;
      score = placed.front().score;
      child = placed.front().genome;
      fen = ToFen(child);
    } else {
      score = Evaluate(child, cap);
    }
    if (score.plies < 0) continue;
    if (score.plies > best) {
      best = score.plies;
      std::printf("%d %zu %s  (evaluation %zu)\n", score.plies, score.states, fen.c_str(),
                  evaluations);
      std::fflush(stdout);
    }
    Member child_member{child, score, fen};
    if (population.size() < kPopulation) {
      population.push_back(child_member);
      continue;
    }
    // Replace the weakest member when the child is at least as long
    // (neutral drift lets the search cross plateaus).
    auto weakest = std::min_element(
        population.begin(), population.end(),
        [](const Member& x, const Member& y) { return x.score.plies < y.score.plies; });
    if (score.plies >= weakest->score.plies) *weakest = child_member;
  }
  std::printf("done: %zu evaluations, best %d plies\n", evaluations, best);
  for (const Member& m : population)
    if (m.score.plies == best) std::printf("best %d %zu %s\n", best, m.score.states, m.fen.c_str());
  return 0;
}

}  // namespace
}  // namespace arbiter

int main(int argc, char** argv) { return arbiter::Run(argc, argv); }
