#include "common/local_engine.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/verdict/chess99_analysis.h"
#include "core/verdict/position_analysis.h"
#include "proto/convert.h"

namespace arbiter::common {

LocalEngine::LocalEngine(std::shared_ptr<const SyzygyTablebase> tables,
                         RetrogradeSolver* retrograde, int max_table_mb, std::string role)
    : tables_(std::move(tables)),
      retrograde_(retrograde),
      max_table_mb_(max_table_mb),
      role_(std::move(role)) {}

absl::StatusOr<MateSearchOptions> LocalEngine::Prepare(const v1::SearchOptions& request) const {
  absl::StatusOr<MateSearchOptions> o = wire::FromProto(request);
  if (!o.ok()) return absl::InvalidArgumentError(o.status().message());
  if (o->table_bytes > (size_t(max_table_mb_) << 20))
    return absl::ResourceExhaustedError(absl::StrCat("table_mb ", o->table_bytes >> 20,
                                                     " exceeds this ", role_, "'s ", max_table_mb_,
                                                     " (--max-table-mb)"));
  if (request.tablebase()) {
    if (!tables_)
      return absl::FailedPreconditionError(
          absl::StrCat("tablebase requested but this ", role_, " has no Syzygy tables (--syzygy)"));
    o->syzygy = tables_.get();  // a tablebase win proves "can mate"
  }
  o->retrograde = retrograde_;
  return o;
}

absl::StatusOr<v1::Assessment> LocalEngine::Analyze(const v1::AnalyzeRequest& request,
                                                    const MateSearchOptions& options) const {
  const std::vector<std::string> moves(request.moves().begin(), request.moves().end());
  if (request.options().rules() == v1::RULESET_CHESS99) {
    absl::StatusOr<Chess99Report> r =
        AnalyzeChess99Position(request.fen(), moves, int64_t(options.node_budget));
    if (!r.ok()) return absl::InvalidArgumentError(r.status().message());
    return wire::ToProto(*r);
  }
  absl::StatusOr<std::optional<ClaimQuestion>> claim =
      wire::FromProto(request.claim(), options.rules);
  if (!claim.ok()) return absl::InvalidArgumentError(claim.status().message());
  absl::StatusOr<PositionAnalysis> a =
      AnalyzePosition(request.fen(), request.chess960(), moves, options, options.syzygy,
                      wire::SideFromProto(request.side()), *claim);
  if (!a.ok()) return absl::InvalidArgumentError(a.status().message());
  return wire::ToProto(*a);
}

}  // namespace arbiter::common
