#include "core/verdict/claim_verdict.h"

#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "core/chess/bitboard.h"
#include "core/chess/movegen.h"
#include "core/verdict/ruling.h"

namespace arbiter {
namespace {

// ICCF admits tablebase claims in positions of at most this many men (7
// since the 2019 Congress, 6 before).
constexpr int kIccfMaxMen = 7;

// "DTZ 23 at halfmove clock 4": the tables' distance behind a value.
std::string DtzText(const RootResult& root) {
  return absl::StrCat("DTZ ", std::abs(root.precise_dtz.value_or(root.dtz)), " at halfmove clock ",
                      root.halfmove_clock);
}

ClaimRuling Answer(ClaimRuling r, ClaimAnswer answer, ClaimBasis basis, std::string reason) {
  r.answer = answer;
  r.basis = basis;
  r.reason = std::move(reason);
  return r;
}

// The draw claims: the opponent "cannot win by normal means" (III.5) / the
// claimant has "insufficient losing chances" (14H). Both come down to what
// the opponent can achieve from here.
// The tables' value of `pos`: the caller's probe, else a probe now.
std::optional<TablebaseProbe> Probe(const Position& pos, const MateSearchOptions& options,
                                    const KnownEvidence& known) {
  if (known.tablebase) return *known.tablebase;
  return ProbeTables(pos, options.syzygy, options.retrograde);
}

ClaimRuling JudgeDrawClaim(const Position& pos, ClaimRuling r, const MateSearchOptions& options,
                           const ClaimConditions& conditions, const KnownEvidence& known) {
  const Color claimant = r.claim.claimant, opponent = ~claimant;
  const bool uscf = r.rules == Ruleset::kUscf;
  if (conditions.adds_time.value_or(false))
    return Answer(std::move(r), ClaimAnswer::kRejected, ClaimBasis::kClockConditions,
                  uscf ? "14H1: the claim is not available when the clock adds a delay or an "
                         "increment, and this game's time control does"
                       : "Guidelines III apply to games without increment, and this game's time "
                         "control adds time per move");
  if (!uscf && conditions.blitz.value_or(false))
    return Answer(std::move(r), ClaimAnswer::kRejected, ClaimBasis::kClockConditions,
                  "Guidelines III apply only to standard and rapid games (III.2.2), and this "
                  "game's time control, 10 minutes or less per player, makes it blitz");

  MateAbility mate;
  if (known.can_mate[opponent]) {
    mate = *known.can_mate[opponent];
  } else {
    mate = AnalyzeMateAbility(pos, opponent, options);
    FinishLine(pos, &mate);
  }
  r.opponent_can_mate = mate;
  // US Chess has no 75-move rule: a "no" that rests on it proves nothing
  // there, and the claim goes on to the tables or to the director.
  const bool proof_holds = !(uscf && mate.proof == MateProof::kSeventyFiveMoveRule);
  if (mate.answer == CanMate::kNo && proof_holds) {
    r.result = GameResult::kDraw;
    return Answer(
        std::move(r), ClaimAnswer::kUpheld, ClaimBasis::kOpponentCannotMate,
        absl::StrCat(SideName(opponent), " cannot checkmate by any series of legal moves (proof: ",
                     ToString(mate.proof), "), so cannot win by normal means"));
  }

  r.tablebase = Probe(pos, options, known);
  if (r.tablebase && r.tablebase->root) {
    const RootResult& root = *r.tablebase->root;
    const TbCategory theirs = CategoryFor(*r.tablebase, opponent);
    const std::string source = r.tablebase->source == TablebaseSource::kSyzygy
                                   ? "the Syzygy tables"
                                   : "Arbiter's retrograde tables";
    switch (WithFiftyMoveRule(theirs)) {
      case TbOutcome::kWin:
        return Answer(
            std::move(r), ClaimAnswer::kRejected, ClaimBasis::kTablebaseOpponentWins,
            absl::StrCat(source, ": ", SideName(opponent),
                         " forces a win within the fifty-move rule (", DtzText(root), ")"));
      case TbOutcome::kUnknown:
        return Answer(std::move(r), ClaimAnswer::kArbiterJudgment, ClaimBasis::kTablebaseOpen,
                      absl::StrCat(source, " leave open whether ", SideName(opponent),
                                   "'s win fits inside the fifty-move rule (", DtzText(root),
                                   ", rounded): the arbiter decides"));
      case TbOutcome::kDraw:
      case TbOutcome::kLoss:
        break;
    }
    r.result = GameResult::kDraw;
    std::string why;
    if (WithoutFiftyMoveRule(theirs) == TbOutcome::kWin) {
      why = absl::StrCat(SideName(opponent), "'s win needs more than fifty moves (a cursed win, ",
                         DtzText(root), "): with best play the fifty-move rule draws");
    } else if (WithoutFiftyMoveRule(theirs) == TbOutcome::kLoss) {
      why = absl::StrCat(SideName(opponent), " cannot win with best play; ", SideName(claimant),
                         " does");
    } else {
      why = absl::StrCat(SideName(opponent), " cannot win with best play (a draw)");
    }
    return Answer(std::move(r), ClaimAnswer::kUpheld, ClaimBasis::kTablebaseDraw,
                  absl::StrCat(source, ": ", why));
  }

  const std::string tables =
      !r.tablebase ? std::string("no tables were given")
                   : absl::StrCat("no table covers the position (", r.tablebase->not_covered, ")");
  const std::string can_mate =
      mate.answer == CanMate::kYes
          ? absl::StrCat(SideName(opponent), " can still checkmate")
          : absl::StrCat("whether ", SideName(opponent),
                         " can still checkmate was not settled within the search budget");
  return Answer(std::move(r), ClaimAnswer::kArbiterJudgment, ClaimBasis::kNoDecisiveEvidence,
                absl::StrCat(can_mate, ", and ", tables, ": whether ", SideName(opponent),
                             " can win by normal means is the arbiter's judgment"));
}

// ICCF: the result the tables give, without the fifty-move rule.
ClaimRuling JudgeTablebaseClaim(const Position& pos, ClaimRuling r,
                                const MateSearchOptions& options, const KnownEvidence& known) {
  const Color claimant = r.claim.claimant;
  const int men = PopCount(pos.pieces());
  if (men > kIccfMaxMen)
    return Answer(std::move(r), ClaimAnswer::kRejected, ClaimBasis::kTooManyMen,
                  absl::StrCat("tablebase claims need at most ", kIccfMaxMen, " men; ", men,
                               " are on the board"));
  r.tablebase = Probe(pos, options, known);
  if (!r.tablebase || !r.tablebase->root) {
    const std::string why =
        !r.tablebase ? std::string("no tables were given") : r.tablebase->not_covered;
    return Answer(std::move(r), ClaimAnswer::kArbiterJudgment, ClaimBasis::kNotCovered,
                  absl::StrCat("a ", men, "-man position, but no table here covers it (", why,
                               "): the tournament director decides with the 7-man tables"));
  }
  const RootResult& root = *r.tablebase->root;
  const TbCategory ours = CategoryFor(*r.tablebase, claimant);
  const TbOutcome outcome = WithoutFiftyMoveRule(ours);
  const bool cursed = outcome != WithFiftyMoveRule(ours);
  const std::string value =
      outcome == TbOutcome::kDraw
          ? std::string("a draw")
          : absl::StrCat("a win for ", SideName(outcome == TbOutcome::kWin ? claimant : ~claimant),
                         " (", DtzText(root), ")");
  const std::string over_the_board =
      cursed ? "; over the board the fifty-move rule would make it a draw (FIDE 9.3)" : "";
  const bool wants_win = r.claim.claimed == ClaimedOutcome::kWin;
  const TbOutcome wanted = wants_win ? TbOutcome::kWin : TbOutcome::kDraw;
  if (outcome != wanted) {
    std::string why = absl::StrCat("the tables give ", value, ", not the ",
                                   wants_win ? "win" : "draw", " claimed", over_the_board);
    return Answer(std::move(r), ClaimAnswer::kRejected, ClaimBasis::kTablebaseResult,
                  std::move(why));
  }
  r.result = ClaimedResult(r.claim);
  return Answer(
      std::move(r), ClaimAnswer::kUpheld, ClaimBasis::kTablebaseResult,
      absl::StrCat("the tables give ", value,
                   "; the fifty-move rule does not apply to tablebase claims", over_the_board));
}

}  // namespace

GameResult ClaimedResult(const Claim& claim) {
  return claim.claimed == ClaimedOutcome::kWin ? WinFor(claim.claimant) : GameResult::kDraw;
}

ClaimRuling JudgeClaim(const Position& pos, const Claim& claim, Ruleset rules,
                       const MateSearchOptions& options, const ClaimConditions& conditions,
                       const KnownEvidence& known) {
  ClaimRuling r;
  r.claim = claim;
  r.fen = pos.Fen();
  r.chess960 = pos.chess960();
  // The draw claims ask for a draw whatever the caller wrote.
  if (claim.kind != ClaimKind::kTablebaseClaim) r.claim.claimed = ClaimedOutcome::kDraw;
  r.rules = rules;
  r.article = ArticleOf(claim.kind);
  const Ruleset home = RulesetOf(claim.kind);
  if (home != rules)
    return Answer(
        std::move(r), ClaimAnswer::kRejected, ClaimBasis::kNotUnderTheseRules,
        absl::StrCat(ToString(claim.kind), " is a claim of the ", DisplayName(home), " rules (",
                     ArticleOf(claim.kind), "), not of the ", DisplayName(rules), " rules"));
  if (MoveList(pos).empty())
    return Answer(std::move(r), ClaimAnswer::kRejected, ClaimBasis::kGameOver,
                  pos.in_check() ? "the game is already over: checkmate"
                                 : "the game is already over: stalemate");
  // III.5 and 14H1 let the player claim on their own move only. ICCF lets a
  // player claim the position after a move they propose (not played on
  // the board), so a tablebase claim may be judged with the opponent to move.
  if (claim.kind != ClaimKind::kTablebaseClaim && pos.side_to_move() != claim.claimant)
    return Answer(std::move(r), ClaimAnswer::kRejected, ClaimBasis::kNotOnMove,
                  absl::StrCat(SideName(claim.claimant),
                               " does not have the move: the claim is made on one's own move"));
  if (claim.kind == ClaimKind::kTablebaseClaim)
    return JudgeTablebaseClaim(pos, std::move(r), options, known);
  return JudgeDrawClaim(pos, std::move(r), options, conditions, known);
}

}  // namespace arbiter
