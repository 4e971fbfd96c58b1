// Query parameters of the HTTP API read into arbiter.v1 messages. A bad
// value is INVALID_ARGUMENT naming the parameter and what it must be.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter.pb.h"

namespace arbiter::http {

// A request's query: the value of a parameter, or nullopt when absent.
using QueryLookup = std::function<std::optional<std::string>(const std::string& name)>;

// budget, table_mb, tablebase (true/false/1/0), rules (fide, chess, uscf,
// iccf, chess99).
absl::StatusOr<v1::SearchOptions> SearchOptionsFromQuery(const QueryLookup& query);

// fen (required), moves (UCI, separated by spaces or commas), chess960,
// side (white, black), the search options, and a claim: claim (its kind;
// rules default to the claim's), claimant (white, black), claimed (win,
// draw).
absl::StatusOr<v1::AnalyzeRequest> AnalyzeRequestFromQuery(const QueryLookup& query);
// The parameters AnalyzeRequestFromQuery reads (the keys of a POST body).
const std::vector<std::string>& AnalyzeParameters();

// A non-negative integer parameter; `fallback` when absent.
absl::StatusOr<int64_t> IntegerFromQuery(const QueryLookup& query, const std::string& name,
                                         int64_t fallback);

}  // namespace arbiter::http
