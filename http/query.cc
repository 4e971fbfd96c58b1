#include "http/query.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/domain/claim.h"
#include "core/domain/ruleset.h"
#include "proto/convert.h"

namespace arbiter::http {
namespace {

absl::Status Bad(const std::string& name, const std::string& value, const std::string& must) {
  return absl::InvalidArgumentError(
      absl::StrCat("query parameter ", name, "=\"", value, "\": ", must));
}

absl::StatusOr<bool> BoolFromQuery(const QueryLookup& query, const std::string& name) {
  const std::optional<std::string> v = query(name);
  if (!v) return false;
  if (*v == "true" || *v == "1" || v->empty()) return true;
  if (*v == "false" || *v == "0") return false;
  return Bad(name, *v, "must be true or false");
}

}  // namespace

absl::StatusOr<int64_t> IntegerFromQuery(const QueryLookup& query, const std::string& name,
                                         int64_t fallback) {
  const std::optional<std::string> v = query(name);
  if (!v) return fallback;
  int64_t n = 0;
  if (!absl::SimpleAtoi(*v, &n) || n < 0) return Bad(name, *v, "must be a non-negative integer");
  return n;
}

absl::StatusOr<v1::SearchOptions> SearchOptionsFromQuery(const QueryLookup& query) {
  v1::SearchOptions options;
  absl::StatusOr<int64_t> budget = IntegerFromQuery(query, "budget", 0);
  if (!budget.ok()) return budget.status();
  options.set_budget(uint64_t(*budget));
  absl::StatusOr<int64_t> table_mb = IntegerFromQuery(query, "table_mb", 0);
  if (!table_mb.ok()) return table_mb.status();
  if (*table_mb > 1 << 20) return Bad("table_mb", absl::StrCat(*table_mb), "is too large");
  options.set_table_mb(uint32_t(*table_mb));
  absl::StatusOr<bool> tablebase = BoolFromQuery(query, "tablebase");
  if (!tablebase.ok()) return tablebase.status();
  options.set_tablebase(*tablebase);
  if (const std::optional<std::string> rules = query("rules")) {
    std::optional<Ruleset> ruleset = ParseRuleset(*rules);
    if (!ruleset) return Bad("rules", *rules, "must be fide, chess, uscf, iccf or chess99");
    options.set_rules(wire::ToProto(*ruleset));
  }
  return options;
}

const std::vector<std::string>& AnalyzeParameters() {
  static const std::vector<std::string> names = {"fen",    "moves",    "chess960",  "side",
                                                 "budget", "table_mb", "tablebase", "rules",
                                                 "claim",  "claimant", "claimed"};
  return names;
}

absl::StatusOr<v1::AnalyzeRequest> AnalyzeRequestFromQuery(const QueryLookup& query) {
  v1::AnalyzeRequest request;
  const std::optional<std::string> fen = query("fen");
  if (!fen || fen->empty())
    return absl::InvalidArgumentError("query parameter fen is required (a FEN, URL-encoded)");
  request.set_fen(*fen);
  if (const std::optional<std::string> moves = query("moves"))
    for (absl::string_view m : absl::StrSplit(*moves, absl::ByAnyChar(" ,"), absl::SkipEmpty()))
      request.add_moves(std::string(m));
  absl::StatusOr<bool> chess960 = BoolFromQuery(query, "chess960");
  if (!chess960.ok()) return chess960.status();
  request.set_chess960(*chess960);
  if (const std::optional<std::string> side = query("side")) {
    if (*side == "white") {
      request.set_side(v1::COLOR_WHITE);
    } else if (*side == "black") {
      request.set_side(v1::COLOR_BLACK);
    } else {
      return Bad("side", *side, "must be white or black");
    }
  }
  absl::StatusOr<v1::SearchOptions> options = SearchOptionsFromQuery(query);
  if (!options.ok()) return options.status();
  *request.mutable_options() = *std::move(options);
  // A claim, under its own rules unless `rules` names them (the server
  // refuses a claim of other rules).
  if (!query("claim") && (query("claimant") || query("claimed")))
    return absl::InvalidArgumentError("query parameters claimant and claimed need claim");
  if (const std::optional<std::string> claim = query("claim")) {
    const std::optional<ClaimKind> kind = ParseClaimKind(*claim);
    if (!kind)
      return Bad("claim", *claim,
                 "must be quickplay_finish, insufficient_losing_chances or tablebase_claim");
    ClaimQuestion asked{
        .kind = *kind, .claimant = {}, .claimed = ClaimedOutcome::kDraw, .rules = RulesetOf(*kind)};
    if (const std::optional<std::string> claimant = query("claimant")) {
      if (*claimant != "white" && *claimant != "black")
        return Bad("claimant", *claimant, "must be white or black");
      asked.claimant = *claimant == "white" ? kWhite : kBlack;
    }
    if (const std::optional<std::string> claimed = query("claimed")) {
      const std::optional<ClaimedOutcome> outcome = ParseClaimedOutcome(*claimed);
      if (!outcome) return Bad("claimed", *claimed, "must be win or draw");
      asked.claimed = *outcome;
    }
    wire::ToProto(asked, request.mutable_claim());
    if (!query("rules")) request.mutable_options()->set_rules(wire::ToProto(asked.rules));
  }
  return request;
}

}  // namespace arbiter::http
