#include "core/verdict/claims_in_game.h"

#include <algorithm>
#include <cctype>

#include "absl/strings/str_split.h"

namespace arbiter {
namespace {

// The TimeControl tag (PGN standard: "40/7200:3600", "300+2", "*60", "-",
// "?"; US Chess's "G/30;d5" delay too): whether a period adds time per move
// (an increment or a delay); unset when it does not say.
std::optional<bool> AddsTime(std::string_view tag) {
  if (tag.empty() || tag == "-" || tag == "?") return std::nullopt;
  bool adds = false;
  if (const size_t delay = tag.find(";d"); delay != std::string_view::npos)
    for (char c : tag.substr(delay + 2)) {
      if (!std::isdigit(static_cast<unsigned char>(c))) break;
      if (c != '0') adds = true;
    }
  for (absl::string_view period : absl::StrSplit(absl::string_view(tag.data(), tag.size()), ':')) {
    const size_t plus = period.find('+');
    if (plus == absl::string_view::npos) continue;
    for (char c : period.substr(plus + 1)) {
      if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.') return std::nullopt;
      if (c >= '1' && c <= '9') adds = true;
    }
  }
  return adds;
}

// Whether the TimeControl tag makes the game blitz: its first period's
// seconds plus 60 increments at most 600 (FIDE Appendix B). A move-count
// period ("40/7200") gives its seconds; unset when the tag does not say.
std::optional<bool> IsBlitz(std::string_view tag) {
  if (tag.empty() || tag == "-" || tag == "?") return std::nullopt;
  absl::string_view period(tag.data(), tag.size());
  period = period.substr(0, period.find(':'));
  if (const size_t slash = period.find('/'); slash != absl::string_view::npos)
    period = period.substr(slash + 1);
  if (!period.empty() && period[0] == '*') period.remove_prefix(1);  // sandclock
  auto number = [](absl::string_view digits) -> std::optional<double> {
    if (digits.empty()) return std::nullopt;
    double value = 0;
    for (char c : digits) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
      value = value * 10 + (c - '0');
    }
    return value;
  };
  const size_t plus = period.find('+');
  const std::optional<double> base = number(period.substr(0, plus));
  if (!base) return std::nullopt;
  double increment = 0;
  if (plus != absl::string_view::npos) {
    absl::string_view inc = period.substr(plus + 1);
    inc = inc.substr(0, inc.find('.'));  // "2.5": whole seconds are enough here
    const std::optional<double> whole = number(inc);
    if (!whole) return std::nullopt;
    increment = *whole;
  }
  return *base + 60 * increment <= 600;
}

Rule RuleOf(ClaimKind kind) {
  switch (kind) {
    case ClaimKind::kQuickplayFinish:
      return Rule::kQuickplayFinishClaim;
    case ClaimKind::kInsufficientLosingChances:
      return Rule::kInsufficientLosingChancesClaim;
    case ClaimKind::kTablebaseClaim:
      return Rule::kTablebaseClaim;
  }
  return Rule::kDrawAgreedOrClaimed;
}

std::optional<ClaimKind> ClaimOf(EndingGrounds grounds) {
  switch (grounds) {
    case EndingGrounds::kQuickplayFinish:
      return ClaimKind::kQuickplayFinish;
    case EndingGrounds::kInsufficientLosingChances:
      return ClaimKind::kInsufficientLosingChances;
    case EndingGrounds::kTablebaseClaim:
      return ClaimKind::kTablebaseClaim;
    default:
      return std::nullopt;
  }
}

// The claim a [Termination] (or closing comment) names, made at the end. A
// draw claim is the player to move's (III.5, 14H); a tablebase claim of a
// win is the winner's (ICCF lets it be made with a proposed move, which the
// record then shows as its last move), of a draw the player to move's.
std::optional<RecordedClaim> DeclaredClaim(const DeclaredEnding& ending, const Position& end,
                                           int ply, std::optional<GameResult> result) {
  const std::optional<ClaimKind> kind = ClaimOf(ending.grounds);
  if (!kind) return std::nullopt;
  RecordedClaim c{.ply = ply, .kind = *kind, .claimant = end.side_to_move(), .claimed = {}};
  if (*kind == ClaimKind::kTablebaseClaim &&
      (result == GameResult::kWhiteWins || result == GameResult::kBlackWins)) {
    c.claimant = result == GameResult::kWhiteWins ? kWhite : kBlack;
    c.claimed = ClaimedOutcome::kWin;
  }
  return c;
}

}  // namespace

void ApplyRecordedClaims(const Position& start, const std::vector<Move>& moves,
                         const DeclaredOutcome& declared, const DeclaredEnding& ending,
                         Ruleset rules, const MateSearchOptions& options, bool ended, Ruling* r) {
  const int last = ended ? *r->ended_at_ply : int(moves.size());
  std::vector<RecordedClaim> claims;
  // A claim in the position where the board ended the game is moot: the
  // automatic ending came first.
  for (const RecordedClaim& c : declared.claims)
    if (c.ply < last || (c.ply == last && !ended)) claims.push_back(c);
  // Most records make no claim: nothing to replay for them.
  if (claims.empty() && (ended || !ClaimOf(ending.grounds))) return;
  Position pos = start;
  std::optional<RecordedClaim> from_ending;
  if (!ended && ClaimOf(ending.grounds)) {
    for (Move m : moves) pos.DoMove(m);
    from_ending = DeclaredClaim(ending, pos, int(moves.size()), ParseGameResult(declared.result));
    const bool written = std::any_of(claims.begin(), claims.end(), [&](const RecordedClaim& c) {
      return from_ending && c.ply == from_ending->ply && c.kind == from_ending->kind;
    });
    if (from_ending && !written) claims.push_back(*from_ending);
  }
  if (claims.empty()) return;
  const ClaimConditions conditions{.adds_time = AddsTime(declared.time_control),
                                   .blitz = IsBlitz(declared.time_control)};
  pos = start;
  int at = 0;
  for (const RecordedClaim& recorded : claims) {
    for (; at < recorded.ply; ++at) pos.DoMove(moves[size_t(at)]);
    const Claim claim{.kind = recorded.kind,
                      .claimant = recorded.claimant.value_or(pos.side_to_move()),
                      .claimed = recorded.claimed.value_or(ClaimedOutcome::kDraw)};
    ClaimRuling judged = JudgeClaim(pos, claim, rules, options, conditions);
    judged.ply = recorded.ply;
    r->claims.push_back(judged);
    if (RulesetOf(claim.kind) != rules) continue;
    const bool at_end = recorded.ply == int(moves.size()) && !ended;
    // The claim decides the ruling: the evidence of the ruling it replaces
    // goes (the claim carries its own).
    auto decided_by_claim = [&] {
      r->rule = RuleOf(claim.kind);
      r->article = judged.article;
      r->winner_side.reset();
      r->winner_can_mate = {};
      r->flag_fallen_by.reset();
      r->claim_grounds.clear();
    };
    if (!at_end) {
      if (judged.answer != ClaimAnswer::kUpheld) continue;
      // The claim should have ended the game here.
      decided_by_claim();
      r->ruling = *judged.result;
      r->ended_at_ply = recorded.ply;
      r->ended_on_board = false;
      r->moves_after_end = int(moves.size()) - recorded.ply;
      r->certain = true;
      return;
    }
    if (ParseGameResult(declared.result) != ClaimedResult(judged.claim)) continue;
    decided_by_claim();
    switch (judged.answer) {
      case ClaimAnswer::kUpheld:
        r->ruling = *judged.result;
        r->certain = true;
        break;
      case ClaimAnswer::kArbiterJudgment:
        r->ruling = ClaimedResult(judged.claim);
        r->certain = false;
        break;
      case ClaimAnswer::kRejected:
        // A rejected claim does not end the game (III.5.3, 14H, ICCF).
        r->ruling = GameResult::kUnfinished;
        r->ended_at_ply.reset();
        r->certain = true;
        break;
    }
    if (ClaimOf(ending.grounds) == claim.kind && judged.answer != ClaimAnswer::kArbiterJudgment)
      r->declared_grounds_hold = judged.answer == ClaimAnswer::kUpheld;
    return;
  }
}

}  // namespace arbiter
