// Differential tests of the move generator against Stockfish, the de-facto
// reference: per-root-move perft counts on positions reached by seeded random
// play must match `go perft` exactly. A second test (no Stockfish needed)
// round-trips every legal move through UCI and SAN on positions from the same
// generator.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/chess/movegen.h"
#include "core/chess/notation.h"
#include "core/chess/perft.h"
#include "tests/test_support.h"

namespace arbiter {
namespace {

// ---- a long-lived Stockfish process spoken to over pipes -------------------

class Stockfish {
 public:
  // Starts `path` and completes the UCI handshake; nullptr (with `error`)
  // when that fails.
  static std::unique_ptr<Stockfish> Start(const std::string& path, std::string* error) {
    // A dead engine must turn writes into EPIPE errors, not kill the test.
    ::signal(SIGPIPE, SIG_IGN);
    int to_child[2], from_child[2];
    if (::pipe2(to_child, O_CLOEXEC) != 0) return Fail(error, "pipe2 failed");
    if (::pipe2(from_child, O_CLOEXEC) != 0) {
      ::close(to_child[0]);
      ::close(to_child[1]);
      return Fail(error, "pipe2 failed");
    }
    pid_t pid = ::fork();
    if (pid < 0) {
      for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) ::close(fd);
      return Fail(error, "fork failed");
    }
    if (pid == 0) {
      // Child: only async-signal-safe calls until exec.
      ::dup2(to_child[0], STDIN_FILENO);
      ::dup2(from_child[1], STDOUT_FILENO);
      ::execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(to_child[0]);
    ::close(from_child[1]);
    auto engine = std::unique_ptr<Stockfish>(new Stockfish(pid, to_child[1], from_child[0]));
    if (!engine->Send("uci") || !engine->WaitFor("uciok") ||
        !engine->Send("setoption name Threads value 1") || !engine->Send("isready") ||
        !engine->WaitFor("readyok"))
      return Fail(error, "no UCI handshake with " + path);
    return engine;
  }

  ~Stockfish() {
    Send("quit");
    ::close(in_);
    ::close(out_);
    // Give it a moment to exit on its own; then stop it by its pid (it is
    // our child, started above).
    for (int i = 0; i < 100; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return;
      ::usleep(10000);
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }

  // Per-root-move counts ("uci" -> nodes) of `go perft depth`, or nullopt if
  // the engine stopped answering.
  std::optional<std::map<std::string, uint64_t>> Divide(const std::string& fen, bool chess960,
                                                        int depth) {
    if (chess960 != chess960_) {
      if (!Send(std::string("setoption name UCI_Chess960 value ") + (chess960 ? "true" : "false")))
        return std::nullopt;
      chess960_ = chess960;
    }
    if (!Send("position fen " + fen) || !Send("go perft " + std::to_string(depth)))
      return std::nullopt;
    std::map<std::string, uint64_t> out;
    std::string line;
    while (ReadLine(&line)) {
      if (line.rfind("Nodes searched:", 0) == 0) return out;
      // Root move lines are "e2e4: 20" or "e7e8q: 3"; anything else (the
      // blank line before the total, an "info string") is not a count.
      size_t colon = line.find(": ");
      if (colon != 4 && colon != 5) continue;
      std::string digits = line.substr(colon + 2);
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) continue;
      out[line.substr(0, colon)] = std::stoull(digits);
    }
    return std::nullopt;
  }

 private:
  Stockfish(pid_t pid, int in, int out) : pid_(pid), in_(in), out_(out) {}

  static std::unique_ptr<Stockfish> Fail(std::string* error, const std::string& why) {
    *error = why;
    return nullptr;
  }

  bool Send(const std::string& line) {
    std::string data = line + "\n";
    for (size_t done = 0; done < data.size();) {
      ssize_t n = ::write(in_, data.data() + done, data.size() - done);
      if (n <= 0) return false;
      done += size_t(n);
    }
    return true;
  }

  // Reads one line. A 60 s silence means a hung engine: fail rather than
  // block the test run until ctest's timeout.
  bool ReadLine(std::string* line) {
    for (;;) {
      size_t nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        *line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        if (!line->empty() && line->back() == '\r') line->pop_back();
        return true;
      }
      pollfd pfd{out_, POLLIN, 0};
      if (::poll(&pfd, 1, 60000) <= 0) return false;
      char chunk[4096];
      ssize_t n = ::read(out_, chunk, sizeof chunk);
      if (n <= 0) return false;
      buffer_.append(chunk, size_t(n));
    }
  }

  bool WaitFor(const std::string& token) {
    std::string line;
    while (ReadLine(&line))
      if (line == token) return true;
    return false;
  }

  pid_t pid_;
  int in_, out_;
  std::string buffer_;
  bool chess960_ = false;
};

// ---- positions by seeded random play ----------------------------------------

struct Sample {
  std::string fen;
  bool chess960;
};

// A random Chess960 start position: bishops on opposite colours, then queen
// and knights anywhere, then rook-king-rook in the three squares left.
// `shredder` picks Shredder-FEN castling letters instead of X-FEN KQkq.
std::string RandomChess960Start(std::mt19937_64& rng, bool shredder) {
  std::array<char, 8> rank;
  rank.fill(0);
  auto pick = [&](const std::vector<int>& files) {
    return files[std::uniform_int_distribution<size_t>(0, files.size() - 1)(rng)];
  };
  auto empty_files = [&] {
    std::vector<int> out;
    for (int f = 0; f < 8; ++f)
      if (!rank[f]) out.push_back(f);
    return out;
  };
  rank[pick({0, 2, 4, 6})] = 'b';
  rank[pick({1, 3, 5, 7})] = 'b';
  rank[pick(empty_files())] = 'q';
  rank[pick(empty_files())] = 'n';
  rank[pick(empty_files())] = 'n';
  std::vector<int> rest = empty_files();
  rank[rest[0]] = 'r';
  rank[rest[1]] = 'k';
  rank[rest[2]] = 'r';
  std::string black(rank.begin(), rank.end()), white;
  for (char c : black) white += char(c - 32);
  std::string castling = "KQkq";
  if (shredder) {
    castling = {char('A' + rest[2]), char('A' + rest[0]), char('a' + rest[2]), char('a' + rest[0])};
  }
  return black + "/pppppppp/8/8/8/8/PPPPPPPP/" + white + " w " + castling + " - 0 1";
}

// What a position offers; the sampler favours the rare kinds.
struct Features {
  bool check = false, en_passant = false, castling = false, promotion = false;
  bool any() const { return check || en_passant || castling || promotion; }
};

Features FeaturesOf(const Position& pos, const MoveList& moves) {
  Features f;
  f.check = pos.in_check();
  for (Move m : moves) {
    f.en_passant |= m.kind() == Move::kEnPassant;
    f.castling |= m.kind() == Move::kCastling;
    f.promotion |= m.kind() == Move::kPromotion;
  }
  return f;
}

struct Coverage {
  int positions = 0, check = 0, en_passant = 0, castling = 0, promotion = 0, chess960 = 0;
  int chess960_castling = 0;
  void Add(const Features& f, bool is_chess960) {
    ++positions;
    check += f.check;
    en_passant += f.en_passant;
    castling += f.castling;
    promotion += f.promotion;
    chess960 += is_chess960;
    chess960_castling += is_chess960 && f.castling;
  }
};

// Plays seeded random games from `start` and samples positions along them.
// Moves are drawn with weights that favour castling, e.p., promotions, checks
// and captures, so that the rare rules are reached far more often than in
// uniform random play; positions that offer such a move (or are in check)
// are sampled far more often than quiet ones.
class Sampler {
 public:
  explicit Sampler(uint64_t seed) : rng_(seed) {}

  std::mt19937_64& rng() { return rng_; }
  const std::vector<Sample>& samples() const { return samples_; }
  const Coverage& coverage() const { return coverage_; }

  // Runs games from `fen` until `count` new positions have been sampled.
  void Collect(const std::string& fen, bool chess960, int count) {
    absl::StatusOr<Position> start = Position::FromFen(fen, chess960);
    ASSERT_TRUE(start.ok()) << fen << ": " << start.status();
    const size_t goal = samples_.size() + size_t(count);
    // The game cap only guards against a generator that stops finding new
    // positions; it is never reached in practice.
    for (int game = 0; samples_.size() < goal && game < 10000; ++game) PlayGame(*start, goal);
  }

 private:
  void PlayGame(Position pos, size_t goal) {
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    // A few samples per game at most, so that many games contribute.
    int taken = 0;
    for (int ply = 0; ply < 200 && samples_.size() < goal && taken < 12; ++ply) {
      MoveList moves(pos);
      if (moves.empty()) return;
      Features f = FeaturesOf(pos, moves);
      // Checks come often under the check-favouring move weights below, so
      // they need less help than the other rare kinds.
      double p = f.en_passant || f.castling || f.promotion ? 0.7 : f.check ? 0.25 : 0.05;
      if (unit(rng_) < p) {
        std::string fen_now = pos.Fen();
        if (seen_.insert(fen_now).second) {
          samples_.push_back({fen_now, pos.chess960()});
          coverage_.Add(f, pos.chess960());
          ++taken;
        }
      }
      // `pos` is this game's own copy; its undo stack grows one state a ply.
      pos.DoMove(PickMove(pos, moves));
    }
  }

  Move PickMove(Position& pos, const MoveList& moves) {
    std::vector<double> weights;
    for (Move m : moves) {
      double w = 1;
      switch (m.kind()) {
        case Move::kCastling:
          w = 30;
          break;
        case Move::kEnPassant:
          w = 30;
          break;
        case Move::kPromotion:
          w = 15;
          break;
        case Move::kNormal:
          if (!pos.empty(m.to())) w = 3;
          if (TypeOf(pos.piece_on(m.from())) == kPawn) {
            w += 2;
            // A double push next to an enemy pawn offers e.p. to the reply.
            Bitboard beside =
                ((SquareBB(m.to()) << 1) & ~kFileA) | ((SquareBB(m.to()) >> 1) & ~FileBB(7));
            if ((m.from() ^ m.to()) == 16 && (beside & pos.pieces(~pos.side_to_move(), kPawn)))
              w += 25;
          }
          break;
      }
      pos.DoMove(m);
      if (pos.in_check()) w += 2;
      pos.UndoMove(m);
      weights.push_back(w);
    }
    std::discrete_distribution<size_t> d(weights.begin(), weights.end());
    return moves.begin()[d(rng_)];
  }

  std::mt19937_64 rng_;
  std::vector<Sample> samples_;
  std::set<std::string> seen_;
  Coverage coverage_;
};

constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
// Middle-game positions full of castling, pins, e.p. and promotions
// (chessprogramming wiki perft positions 2, 4, 5 and 6).
constexpr const char* kKiwipeteLike[] = {
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
};

// Chess960 starting points: the standard array in Chess960 mode (castling
// spelled "e1h1"), two positions from the published Chess960 perft table and
// random start positions in both castling notations.
std::vector<Sample> Chess960Starts(std::mt19937_64& rng) {
  std::vector<Sample> starts = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", true},
      {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
      {"n1rk1qbb/pppprpp1/2n4p/4p3/2PP3P/8/PP2PPP1/NNRKRQBB w ECc - 1 9", true},
  };
  for (int i = 0; i < 12; ++i) starts.push_back({RandomChess960Start(rng, i % 2 == 1), true});
  return starts;
}

std::vector<Sample> GenerateSamples(uint64_t seed, int from_start, int from_kiwipete,
                                    int from_chess960, Coverage* coverage) {
  Sampler sampler(seed);
  sampler.Collect(kStart, false, from_start);
  for (const char* fen : kKiwipeteLike)
    sampler.Collect(fen, false, from_kiwipete / int(std::size(kKiwipeteLike)));
  std::vector<Sample> starts = Chess960Starts(sampler.rng());
  for (const Sample& s : starts)
    sampler.Collect(s.fen, s.chess960, from_chess960 / int(starts.size()));
  if (coverage) *coverage = sampler.coverage();
  return sampler.samples();
}

std::map<std::string, uint64_t> OurDivide(Position& pos, int depth) {
  std::map<std::string, uint64_t> out;
  for (const auto& [move, count] : PerftDivide(pos, depth)) out[ToUci(pos, move)] = count;
  return out;
}

// Describes how two divides differ; empty when equal.
std::string DescribeDiff(const std::map<std::string, uint64_t>& ours,
                         const std::map<std::string, uint64_t>& theirs) {
  std::string out;
  for (const auto& [move, count] : ours) {
    auto it = theirs.find(move);
    if (it == theirs.end())
      out += "  " + move + ": only arbiter (" + std::to_string(count) + ")\n";
    else if (it->second != count)
      out += "  " + move + ": arbiter " + std::to_string(count) + ", stockfish " +
             std::to_string(it->second) + "\n";
  }
  for (const auto& [move, count] : theirs)
    if (!ours.count(move))
      out += "  " + move + ": only stockfish (" + std::to_string(count) + ")\n";
  return out;
}

// Follows a move whose count differs down the tree to the shallowest
// position where the root move lists themselves differ: that FEN is the
// minimal reproduction to report.
std::string Localize(Stockfish& sf, Position& pos, int depth) {
  auto theirs = sf.Divide(pos.Fen(), pos.chess960(), depth);
  if (!theirs) return "(stockfish stopped answering)";
  auto ours = OurDivide(pos, depth);
  std::string diff = DescribeDiff(ours, *theirs);
  if (diff.empty()) return "";
  std::string here = "  at " + pos.Fen() + " depth " + std::to_string(depth) + ":\n" + diff;
  if (depth <= 1) return here;
  for (Move m : MoveList(pos)) {
    std::string uci = ToUci(pos, m);
    auto it = theirs->find(uci);
    if (it == theirs->end() || it->second == ours[uci]) continue;
    pos.DoMove(m);
    std::string deeper = Localize(sf, pos, depth - 1);
    pos.UndoMove(m);
    if (!deeper.empty()) return here + "  after " + uci + ":\n" + deeper;
  }
  return here;
}

// Test names start with "stockfish" in lower case so that the case-sensitive
// `ctest -R stockfish` selects them.
TEST(stockfish, PerftDivideMatchesOnRandomPositions) {
  const std::string path = testing::FindProgram("stockfish");
  if (path.empty()) {
    std::printf("stockfish not found on PATH or in /usr/games; skipping\n");
    GTEST_SKIP() << "stockfish not found on PATH or in /usr/games (apt-get install stockfish)";
  }
  std::string error;
  std::unique_ptr<Stockfish> sf = Stockfish::Start(path, &error);
  ASSERT_NE(sf, nullptr) << error;

  Coverage cov;
  const std::vector<Sample> samples =
      GenerateSamples(testing::DiffSeed(20240601), 1000, 1000, 1000, &cov);
  std::printf(
      "%d positions (%d Chess960): %d in check, %d with e.p., %d with castling (%d Chess960), "
      "%d with promotions\n",
      cov.positions, cov.chess960, cov.check, cov.en_passant, cov.castling, cov.chess960_castling,
      cov.promotion);
  // The generator must actually reach the rules this test is about.
  ASSERT_GE(samples.size(), 1000u);
  EXPECT_GE(cov.check, 50);
  EXPECT_GE(cov.en_passant, 50);
  EXPECT_GE(cov.castling, 50);
  EXPECT_GE(cov.chess960_castling, 25);
  EXPECT_GE(cov.promotion, 50);

  // Depth 3 everywhere: enough to see each rule from both sides (a move
  // that enables or disables a reply), cheap enough for 3,000 positions (a few seconds).
  constexpr int kDepth = 3;
  int mismatches = 0;
  uint64_t nodes = 0;
  for (const Sample& s : samples) {
    absl::StatusOr<Position> pos = Position::FromFen(s.fen, s.chess960);
    ASSERT_TRUE(pos.ok()) << s.fen << ": " << pos.status();
    auto theirs = sf->Divide(s.fen, s.chess960, kDepth);
    ASSERT_TRUE(theirs.has_value()) << "stockfish stopped answering at " << s.fen;
    auto ours = OurDivide(*pos, kDepth);
    for (const auto& [move, count] : ours) nodes += count;
    std::string diff = DescribeDiff(ours, *theirs);
    if (diff.empty()) continue;
    ++mismatches;
    ADD_FAILURE() << "perft " << kDepth << " differs for " << s.fen
                  << (s.chess960 ? " (Chess960)" : "") << "\n"
                  << diff << "minimal reproduction:\n"
                  << Localize(*sf, *pos, kDepth);
    if (mismatches >= 10) break;  // enough to debug from
  }
  std::printf("compared %zu positions, %llu leaf nodes, %d mismatches\n", samples.size(),
              (unsigned long long)nodes, mismatches);
  EXPECT_EQ(mismatches, 0);
}

TEST(stockfish, UciAndSanRoundTrip) {
  Coverage cov;
  std::vector<Sample> samples = GenerateSamples(7, 100, 60, 100, &cov);
  ASSERT_GE(samples.size(), 200u);
  // Spellings random play rarely reaches: three pieces of a kind on one
  // square (full-square disambiguation), file and rank disambiguation, pawn
  // captures promoting on either side, Chess960 castling next to an
  // ordinary king move to the same square, and king-rook swaps.
  const Sample kFixed[] = {
      {"7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", false},
      {"7k/8/8/8/8/1R3R2/8/1R2K3 w - - 0 1", false},
      {"N3k3/8/8/8/N3N3/8/8/4K3 w - - 0 1", false},
      {"1n1n4/2P5/8/8/8/8/8/k3K3 w - - 0 1", false},
      {"8/8/K7/1PpP4/8/3b4/8/6k1 w - c6 0 2", false},
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false},
      {"4k3/8/8/8/8/8/8/5K1R w K - 0 1", true},
      {"1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/2RK1R2 w CFbg - 0 1", true},
      {"rr2k3/8/8/8/8/8/8/4KR1R w Fb - 0 1", true},
      {"4k3/8/8/8/8/8/8/R4KRr w AG - 0 1", true},
  };
  samples.insert(samples.end(), std::begin(kFixed), std::end(kFixed));
  EXPECT_GE(cov.castling, 10);
  EXPECT_GE(cov.en_passant, 10);
  EXPECT_GE(cov.promotion, 10);
  int failures = 0, moves_checked = 0;
  for (const Sample& s : samples) {
    absl::StatusOr<Position> parsed = Position::FromFen(s.fen, s.chess960);
    ASSERT_TRUE(parsed.ok()) << s.fen << ": " << parsed.status();
    Position& pos = *parsed;
    std::set<std::string> ucis, sans;
    for (Move m : MoveList(pos)) {
      ++moves_checked;
      const std::string uci = ToUci(pos, m);
      const std::string san = ToSan(pos, m);
      absl::StatusOr<Move> from_uci = ParseUci(pos, uci);
      absl::StatusOr<Move> from_san = ParseSan(pos, san);
      bool ok = from_uci.ok() && *from_uci == m && from_san.ok() && *from_san == m &&
                ucis.insert(uci).second && sans.insert(san).second;
      if (!ok && failures++ < 10) {
        ADD_FAILURE() << s.fen << (s.chess960 ? " (Chess960)" : "") << ": move " << uci << " / "
                      << san << " -> ParseUci "
                      << (from_uci.ok() ? ToUci(pos, *from_uci) : from_uci.status().ToString())
                      << ", ParseSan "
                      << (from_san.ok() ? ToUci(pos, *from_san) : from_san.status().ToString())
                      << " (or a duplicate spelling)";
      }
    }
  }
  std::printf("%zu positions, %d moves round-tripped, %d failures\n", samples.size(), moves_checked,
              failures);
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace arbiter
