// How `arbiter verify` (and `arbiter job results`) print verdicts: one
// record per game as text, JSON lines or CSV, then a summary. Shared so that
// every way of obtaining verdicts (embedded, through a coordinator, from a
// job) prints the same bytes.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "core/verdict/game_verdict.h"

namespace arbiter {

enum class VerdictFormat { kText, kJsonl, kCsv };

// Which text records show the winner's mating line (verify --evidence):
// only the disputed rulings (disputes.h), where a reader checks it, or
// every record. JSON and CSV are unaffected: JSON always has the line.
enum class TextEvidence { kDisputed, kAll };
absl::StatusOr<TextEvidence> ParseTextEvidence(const std::string& name);

// "text", "jsonl" (or "json"), "csv"; INVALID_ARGUMENT otherwise.
absl::StatusOr<VerdictFormat> ParseVerdictFormat(const std::string& name);

// What a run's summary counts: the last record of `verify`, of a job's
// results and of the HTTP API's verify.
struct VerdictSummary {
  int64_t games = 0, errors = 0, agree = 0, disagree = 0, uncertain = 0;
  // Games of variants Arbiter does not rule, by their [Variant] tag.
  int64_t skipped = 0;
  std::map<std::string, int64_t> skipped_variants;
  // Counted, and printed, only when tables were given.
  bool tablebases = false;
  int64_t tablebase_covered = 0, tablebase_contradictions = 0;
  std::map<std::string, int64_t> by_rule;
  std::map<std::string, int64_t> disagreements;  // "declared -> ruling by rule"

  // One record's part in the counts.
  void Add(const GameVerdict& v);
  // {"type": "summary", ...} and a newline: the last line of JSON lines.
  std::string Json(double seconds) const;
  std::string Text(double seconds) const;
};

class VerdictPrinter {
 public:
  // `tablebase`: tables were used, so the tablebase columns and counts are
  // printed. CSV prints its header at once, and its summary (as text, on
  // stderr, so that stdout stays one table) only with `csv_summary`
  // (verify --summary): docs/output.md, "CSV".
  VerdictPrinter(VerdictFormat format, bool tablebase, FILE* out, bool csv_summary = false,
                 TextEvidence evidence = TextEvidence::kDisputed);

  // One record, counted for the summary.
  void Print(const GameVerdict& v);
  // The summary: the last JSON line or text; for CSV, see above.
  void End(double seconds);

  int64_t games() const;

 private:
  const VerdictFormat format_;
  FILE* const out_;
  const bool csv_summary_;
  const TextEvidence evidence_;
  std::shared_ptr<VerdictSummary> summary_;
};

}  // namespace arbiter
