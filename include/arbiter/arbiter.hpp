// Arbiter for C++ callers: the C API (arbiter.h) in RAII types, header-only,
// so that no C++ type crosses the library's boundary and any compiler's
// standard library works with it. Errors are thrown as arbiter::Error.
//
//   arbiter::Engine engine;                       // every default
//   arbiter::Mate m = engine.CanMate(fen, ARBITER_WHITE);
//   if (m.answer == ARBITER_NO) { /* Black's flag fall is a draw */ }
#ifndef ARBITER_ARBITER_HPP_
#define ARBITER_ARBITER_HPP_

#include <cstdint>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "arbiter/arbiter.h"

namespace arbiter {

class Error : public std::runtime_error {
 public:
  explicit Error(const arbiter_error& e) : std::runtime_error(e.message), status_(e.status) {}
  arbiter_status status() const { return status_; }

 private:
  arbiter_status status_;
};

// An answer to "can this side still mate?"; the lines are empty unless yes.
struct Mate {
  arbiter_answer answer = ARBITER_UNKNOWN;
  arbiter_proof proof = ARBITER_PROOF_NONE;
  std::string line_uci, line_san;  // space-separated moves
  int line_plies = 0;
  const char* proof_name() const { return arbiter_proof_name(proof); }
};

struct PositionReport {
  arbiter_game_status status = ARBITER_ONGOING;
  arbiter_answer dead = ARBITER_UNKNOWN;
  Mate white, black;
  bool threefold_now = false, fifty_now = false;
  std::string threefold_moves, fifty_moves;  // UCI, space-separated
  arbiter_tablebase tablebase{};
  std::string json;  // the record of the one schema
};

class Engine {
 public:
  explicit Engine(const arbiter_options& options = {}) {
    arbiter_error e{};
    engine_ = arbiter_engine_new(&options, &e);
    if (engine_ == nullptr) throw Error(e);
  }
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  Engine(Engine&& other) noexcept : engine_(std::exchange(other.engine_, nullptr)) {}
  Engine& operator=(Engine&& other) noexcept {
    std::swap(engine_, other.engine_);
    return *this;
  }
  ~Engine() { arbiter_engine_free(engine_); }

  // Safe from many threads at once, as the C API.
  Mate CanMate(const std::string& fen, arbiter_color side) const {
    arbiter_mate m{};
    arbiter_error e{};
    if (arbiter_can_mate(engine_, fen.c_str(), side, &m, &e) != ARBITER_OK) throw Error(e);
    Mate out = Take(&m);
    return out;
  }

  PositionReport Assess(const std::string& fen, const std::string& moves = "") const {
    arbiter_assessment a{};
    arbiter_error e{};
    if (arbiter_assess(engine_, fen.c_str(), moves.c_str(), &a, &e) != ARBITER_OK) throw Error(e);
    PositionReport out;
    out.status = a.status;
    out.dead = a.dead;
    out.white = Take(&a.white);
    out.black = Take(&a.black);
    out.threefold_now = a.threefold_now != 0;
    out.fifty_now = a.fifty_now != 0;
    out.threefold_moves = a.threefold_moves ? a.threefold_moves : "";
    out.fifty_moves = a.fifty_moves ? a.fifty_moves : "";
    out.tablebase = a.tablebase;
    out.json = a.json ? a.json : "";
    arbiter_assessment_clear(&a);
    return out;
  }

  // Each game's verdict record (JSON) to `on_verdict`, in input order;
  // returning false stops the run (Error with ARBITER_CANCELLED).
  using VerdictHandler = std::function<bool(std::string_view json)>;
  arbiter_verify_summary VerifyPgn(std::string_view pgn, const VerdictHandler& on_verdict) const {
    Delivery d{&on_verdict, nullptr};
    arbiter_verify_summary summary{};
    arbiter_error e{};
    const arbiter_status s =
        arbiter_verify_pgn(engine_, pgn.data(), pgn.size(), &Deliver, &d, &summary, &e);
    return Finish(s, e, d, summary);
  }
  arbiter_verify_summary VerifyFile(const std::string& path,
                                    const VerdictHandler& on_verdict) const {
    Delivery d{&on_verdict, nullptr};
    arbiter_verify_summary summary{};
    arbiter_error e{};
    const arbiter_status s = arbiter_verify_file(engine_, path.c_str(), &Deliver, &d, &summary, &e);
    return Finish(s, e, d, summary);
  }

  arbiter_engine* get() const { return engine_; }

 private:
  static Mate Take(arbiter_mate* m) {
    Mate out;
    out.answer = m->answer;
    out.proof = m->proof;
    out.line_uci = m->line_uci ? m->line_uci : "";
    out.line_san = m->line_san ? m->line_san : "";
    out.line_plies = m->line_plies;
    arbiter_mate_clear(m);
    return out;
  }
  // An exception must not unwind through the library: it stops the run
  // and is thrown again once the library has returned.
  struct Delivery {
    const VerdictHandler* handler;
    std::exception_ptr thrown;
  };
  static int Deliver(void* delivery, const char* json, size_t length) {
    Delivery* d = static_cast<Delivery*>(delivery);
    try {
      return (*d->handler)(std::string_view(json, length)) ? 0 : 1;
    } catch (...) {
      d->thrown = std::current_exception();
      return 1;
    }
  }
  static arbiter_verify_summary Finish(arbiter_status s, const arbiter_error& e, const Delivery& d,
                                       arbiter_verify_summary summary) {
    if (d.thrown) std::rethrow_exception(d.thrown);
    if (s != ARBITER_OK) throw Error(e);
    return summary;
  }

  arbiter_engine* engine_ = nullptr;
};

}  // namespace arbiter

#endif  // ARBITER_ARBITER_HPP_
