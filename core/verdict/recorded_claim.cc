#include "core/verdict/recorded_claim.h"

#include "absl/strings/str_split.h"

namespace arbiter {

std::optional<RecordedClaim> ReadClaimCommand(std::string_view comment, int ply) {
  const size_t at = comment.find("[%claim ");
  if (at == std::string_view::npos) return std::nullopt;
  const size_t close = comment.find(']', at);
  if (close == std::string_view::npos) return std::nullopt;
  const std::string_view body = comment.substr(at + 8, close - at - 8);
  std::optional<RecordedClaim> out;
  for (absl::string_view word :
       absl::StrSplit(absl::string_view(body.data(), body.size()), ' ', absl::SkipEmpty())) {
    const std::string_view w(word.data(), word.size());
    if (!out) {
      const std::optional<ClaimKind> kind = ParseClaimKind(w);
      if (!kind) return std::nullopt;
      out = RecordedClaim{.ply = ply, .kind = *kind, .claimant = {}, .claimed = {}};
    } else if (w == "white" || w == "black") {
      out->claimant = w == "white" ? kWhite : kBlack;
    } else if (std::optional<ClaimedOutcome> o = ParseClaimedOutcome(w)) {
      out->claimed = *o;
    } else {
      return std::nullopt;  // words not understood: not guessed at
    }
  }
  return out;
}

}  // namespace arbiter
