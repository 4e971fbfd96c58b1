#include "core/render/disputes.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/render/san_line.h"

namespace arbiter {
namespace {

bool IsAlnum(std::string_view s) {
  for (char c : s)
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c))) return false;
  return !s.empty();
}

// `url` without its scheme, when it is http:// or https://.
std::optional<std::string_view> WithoutScheme(std::string_view url) {
  for (std::string_view scheme : {"https://", "http://"})
    if (url.starts_with(scheme)) return url.substr(scheme.size());
  return std::nullopt;
}

}  // namespace

DisputeKinds DisputesOf(const GameVerdict& v) {
  DisputeKinds k;
  k.error = v.is_error();
  k.disagrees = v.ruling && !v.ruling->agrees;
  k.uncertain = v.ruling && !v.ruling->certain;
  k.tablebase_contradiction = v.tablebase && v.tablebase->contradiction.value_or(false);
  return k;
}

std::optional<std::string> GameLink(std::string_view url, std::optional<int> ply) {
  std::optional<std::string_view> rest = WithoutScheme(url);
  if (!rest) return std::nullopt;
  // Lichess: lichess.org/ID, an 8-character game id (12 with a player's
  // suffix, which the game id starts), maybe followed by /white or /black.
  if (rest->starts_with("lichess.org/")) {
    std::string_view path = rest->substr(12);
    std::string_view id = path.substr(0, path.find('/'));
    std::string_view after = path.substr(id.size());
    if ((id.size() != 8 && id.size() != 12) || !IsAlnum(id) ||
        !(after.empty() || after == "/white" || after == "/black"))
      return std::nullopt;
    std::string link =
        absl::StrCat("https://lichess.org/", std::string(id.substr(0, 8)), std::string(after));
    if (ply) absl::StrAppend(&link, "#", *ply);
    return link;
  }
  // Chess.com: www.chess.com/game/live/N, /game/daily/N, /analysis/game/...
  for (std::string_view host : {"www.chess.com/", "chess.com/"}) {
    if (!rest->starts_with(host)) continue;
    std::string_view path = rest->substr(host.size());
    if (path.empty()) return std::nullopt;
    for (char c : path)
      if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '/' && c != '-' && c != '_')
        return std::nullopt;
    return absl::StrCat("https://www.chess.com/", std::string(path));
  }
  return std::nullopt;
}

std::optional<std::string> GameLinkOf(const RawGame& record, std::optional<int> ply) {
  for (const char* tag : {"Site", "Link"}) {
    const std::string* url = record.Tag(tag);
    if (!url) continue;
    if (std::optional<std::string> link = GameLink(*url, ply)) return link;
  }
  return std::nullopt;
}

std::string RulingText(const GameVerdict& v) {
  if (!v.ruling) return "no ruling";
  const Ruling& r = *v.ruling;
  std::string out = absl::StrCat(ToString(r.ruling), " by ", ToString(r.rule));
  // A bare number is the Laws' article ("6.9"); claims and US Chess 14E
  // name their rule set already ("US Chess 14E2").
  if (!r.article.empty()) {
    const bool bare = r.article[0] >= '0' && r.article[0] <= '9';
    absl::StrAppend(&out, " (",
                    v.rules == Ruleset::kChess99 ? "Chess 99 "
                    : bare                       ? "FIDE "
                                                 : "",
                    r.article, ")");
  }
  return out;
}

std::string CannotMateWords(const Ruling& r) {
  if (r.dead_position_proof) {
    const DeadPositionProof& p = *r.dead_position_proof;
    if (p.white == p.black)
      return absl::StrCat("neither side can mate: ", ProofWords(p.white), " (proof: ", ProofName(p),
                          ")");
    return absl::StrCat("neither side can mate: White, ", ProofWords(p.white), "; Black, ",
                        ProofWords(p.black), " (proof: ", ProofName(p), ")");
  }
  if (r.winner_side && r.winner_can_mate.answer == CanMate::kNo)
    return absl::StrCat(SideName(*r.winner_side),
                        " cannot mate: ", ProofWords(r.winner_can_mate.proof),
                        " (proof: ", ToString(r.winner_can_mate.proof), ")");
  return "";
}

std::vector<std::string> EvidenceOf(const GameVerdict& v) {
  std::vector<std::string> out;
  if (!v.skipped_variant.empty())
    return {absl::StrCat("a game of ", v.skipped_variant, ", a variant Arbiter does not rule")};
  if (!v.ruling) {
    std::string error = absl::StrCat("the record could not be read or replayed: ", LocatedError(v));
    if (!v.tablebase || v.tablebase->note.empty()) return {error};
    return {error, absl::StrCat("tablebase: ", v.tablebase->note)};
  }
  const Ruling& r = *v.ruling;
  if (v.rules == Ruleset::kChess99 && !v.detail.empty()) out.push_back(v.detail);
  if (r.rule == Rule::kDeadPosition)
    out.push_back(r.dead_position_proof ? CannotMateWords(r) : "neither side can mate");
  if (r.flag_fallen_by)
    out.push_back(absl::StrCat(SideName(*r.flag_fallen_by), "'s flag fell (by ",
                               FlagEvidenceWords(r.flag_evidence), ")"));
  if (r.winner_side) {
    const char* side = SideName(*r.winner_side);
    const MateAbility& m = r.winner_can_mate;
    switch (m.answer) {
      case CanMate::kYes:
        out.push_back(
            v.winner_line_san.empty()
                ? absl::StrCat(side, " can mate")
                : absl::StrCat(side, " can mate, helpmate line (both sides' moves): ",
                               NumberedSan(v.winner_line_san, MoveNumberOfFen(v.end_fen))));
        break;
      case CanMate::kNo:
        out.push_back(CannotMateWords(r));
        break;
      case CanMate::kUnknown:
        out.push_back(absl::StrCat("whether ", side,
                                   " can mate is unknown (the search ran out of budget): the "
                                   "Laws' default, the win stands, was applied"));
        break;
    }
  }
  if (r.ended_on_board && r.ended_at_ply)
    out.push_back(absl::StrCat("the game ended on the board after ply ", *r.ended_at_ply));
  if (r.moves_after_end > 0)
    out.push_back(
        absl::StrCat(r.moves_after_end, r.moves_after_end == 1 ? " ply was" : " plies were",
                     " played after the end", v.first_move_after_end.empty() ? "" : ", the first ",
                     v.first_move_after_end));
  if (r.declared_grounds_hold == false)
    out.push_back(absl::StrCat("the declared grounds (", ToString(r.declared_ending.grounds),
                               ") do not hold"));
  if (r.clock_contradicts_result == true)
    out.push_back("the declared winner's own clock reads zero, with the move theirs");
  if (!r.claim_grounds.empty())
    out.push_back(absl::StrCat("draw claims open: ", absl::StrJoin(r.claim_grounds, ", ")));
  for (const ClaimRuling& c : r.claims)
    out.push_back(absl::StrCat(ToString(c.claim.kind), " claimed by ", SideName(c.claim.claimant),
                               c.ply ? absl::StrCat(" after ply ", *c.ply) : std::string(), ": ",
                               ToString(c.answer), " (", c.reason, ")"));
  if (v.tablebase && v.tablebase->probe.root) {
    const RootResult& t = *v.tablebase->probe.root;
    out.push_back(absl::StrCat("tablebase: ", ToString(t.category), " for ",
                               SideName(v.tablebase->probe.side_to_move), " to move",
                               v.tablebase->note.empty() ? "" : ": ", v.tablebase->note));
  } else if (v.tablebase && !v.tablebase->note.empty()) {
    out.push_back(absl::StrCat("tablebase: ", v.tablebase->note));
  }
  return out;
}

}  // namespace arbiter
