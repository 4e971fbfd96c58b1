// How `arbiter verify` (and `arbiter job results`) print verdicts: one
// record per game as text, JSON lines or CSV, then a summary. Shared so that
// every way of obtaining verdicts (embedded, through a coordinator, from a
// job) prints the same bytes.
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "core/verdict/game_verdict.h"

namespace arbiter::cli {

enum class VerdictFormat { kText, kJsonl, kCsv };

// "text", "jsonl" (or "json"), "csv"; INVALID_ARGUMENT otherwise.
absl::StatusOr<VerdictFormat> ParseVerdictFormat(const std::string& name);

class VerdictPrinter {
 public:
  // `tablebase`: tables were used, so the tablebase columns and counts are
  // printed. CSV prints its header at once.
  VerdictPrinter(VerdictFormat format, bool tablebase, FILE* out);

  // One record, counted for the summary.
  void Print(const GameVerdict& v);
  // The summary (for CSV on stderr, so that stdout stays one table).
  void End(double seconds);

  int64_t games() const;

 private:
  struct Summary;
  const VerdictFormat format_;
  FILE* const out_;
  std::shared_ptr<Summary> summary_;
};

}  // namespace arbiter::cli
