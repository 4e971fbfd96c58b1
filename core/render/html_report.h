// `arbiter verify --report FILE.html`: one self-contained HTML page (inline
// CSS and SVG; no script, font or image from anywhere) listing the disputed
// rulings of a run — disagreements, uncertain rulings, tablebase
// contradictions, errors — each with the board where the game was ruled,
// the ruling and its evidence, the record's tags and a link to the game;
// above them, the run's totals and its rulings by rule.
//
// Memory is bounded: only disputed games are kept, only what the page
// shows of them (not their moves), and at most `max_listed` of them; the
// page says how many more there were.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/pgn/game_replay.h"
#include "core/render/disputes.h"
#include "core/render/verdict_output.h"

namespace arbiter {

class DisputeReport {
 public:
  static constexpr size_t kDefaultMaxListed = 2000;

  // `title`: what the run read (a file name), shown as text.
  explicit DisputeReport(std::string title, size_t max_listed = kDefaultMaxListed);

  // Every verdict of the run, in input order, with the record it was ruled
  // on: counted, and kept when disputed and the list is not full.
  void Add(const GameVerdict& v, const RawGame& record);

  // The whole page.
  std::string Html() const;

  int64_t disputed() const { return disputed_; }
  size_t listed() const { return entries_.size(); }

 private:
  struct Entry {
    GameVerdict verdict;
    DisputeKinds kinds;
    std::vector<std::pair<std::string, std::string>> tags;
    std::string board_svg;  // empty when there is no board to show
    std::string board_caption;
    std::string link;  // empty without one
  };
  std::string EntryHtml(const Entry& e) const;
  // One line of the index of disputed games: number, declared -> ruling.
  std::string IndexItemHtml(const Entry& e) const;
  std::string SummaryHtml() const;

  std::string title_;
  size_t max_listed_;
  VerdictSummary summary_;
  int64_t disputed_ = 0;
  int64_t by_kind_[4] = {0, 0, 0, 0};  // disagrees, uncertain, tablebase, error
  std::vector<Entry> entries_;
  ReplayedGame scratch_;  // reused between games
};

}  // namespace arbiter
