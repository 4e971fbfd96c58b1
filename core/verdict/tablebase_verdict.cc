#include "core/verdict/tablebase_verdict.h"

#include <algorithm>
#include <cctype>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace arbiter {
namespace {

constexpr char kDraw[] = "1/2-1/2";

// How a game stopped, as far as the tables are concerned. Only the decisions
// taken on the board by a player or an adjudicator (resignation,
// adjudication) are compared with best play; the others are ruled by
// criteria the tables do not measure.
enum class Decided {
  kByRule,        // automatic ending: the Laws decided, the ruling says how
  kResignation,   // 5.1.2
  kAdjudication,  // an adjudicator rules by the position's value
  kForfeit,       // abandonment, rules infraction: off the board
  kFlagFall,      // 6.9: a mating possibility, not best play, decides
  kAgreement,     // 5.2.3: any position may be drawn by agreement
  kUnfinished,
};

// From the ruling and how the record said the game ended
// (declared_ending.h, read once by RuleGame).
Decided HowDecided(const Ruling& r) {
  if (r.ended_on_board) return Decided::kByRule;
  const EndingKind kind = r.declared_ending.kind;
  if (r.rule == Rule::kUnfinished) return Decided::kUnfinished;
  if (r.rule == Rule::kFlagFall || r.rule == Rule::kFlagFallCannotMate) return Decided::kFlagFall;
  if (kind == EndingKind::kAdjudication) return Decided::kAdjudication;
  if (r.rule == Rule::kForfeit || r.rule == Rule::kForfeitCannotMate ||
      r.rule == Rule::kDoubleForfeit)
    return Decided::kForfeit;
  if (r.rule == Rule::kDrawAgreedOrClaimed) return Decided::kAgreement;
  return Decided::kResignation;
}

// The result best play gives, White's view; empty when DTZ rounding leaves
// it open.
std::string BestPlayResult(TbOutcome outcome, Color to_move) {
  switch (outcome) {
    case TbOutcome::kWin:
      return ToString(WinFor(to_move));
    case TbOutcome::kLoss:
      return ToString(WinFor(~to_move));
    case TbOutcome::kDraw:
      return kDraw;
    case TbOutcome::kUnknown:
      return "";
  }
  return "";
}

// The position's value in words, named after the side that wins or would
// win: "a cursed win for Black" reads better than "a blessed loss for White".
std::string Describe(const TablebaseProbe& p) {
  const RootResult& r = *p.root;
  const Color us = p.side_to_move;
  const std::string dtz =
      absl::StrCat("DTZ ", r.precise_dtz.value_or(r.dtz), " at halfmove clock ", r.halfmove_clock);
  switch (r.category) {
    case TbCategory::kWin:
      return absl::StrCat(SideName(us), " to move wins within the 50-move rule (", dtz, ")");
    case TbCategory::kLoss:
      if (r.checkmate) return absl::StrCat(SideName(us), " is checkmated");
      return absl::StrCat(SideName(~us), " wins within the 50-move rule (", SideName(us),
                          " to move, ", dtz, ")");
    case TbCategory::kMaybeWin:
    case TbCategory::kMaybeLoss: {
      const Color winner = r.category == TbCategory::kMaybeWin ? us : ~us;
      return absl::StrCat("the tables leave open whether ", SideName(winner),
                          " wins within the 50-move rule (", ToString(r.category), " for ",
                          SideName(us), " to move, ", dtz, ")");
    }
    case TbCategory::kCursedWin:
    case TbCategory::kBlessedLoss: {
      const Color winner = r.category == TbCategory::kCursedWin ? us : ~us;
      return absl::StrCat("the position is a cursed win for ", SideName(winner),
                          ": drawn under the 50-move rule (", dtz, ")");
    }
    case TbCategory::kDraw:
      return r.stalemate ? "the position is stalemate" : "the position is a draw with best play";
  }
  return "";
}

}  // namespace

TablebaseJudgement JudgeDeclaredResult(const SyzygyTablebase& tables, const Position& end,
                                       const Ruling& ruling, const DeclaredOutcome& declared,
                                       Ruleset rules) {
  TablebaseJudgement j;
  j.probe = ProbeTablebase(tables, end);
  if (!j.probe.root) return j;
  const TbCategory category = j.probe.root->category;
  const std::string best = BestPlayResult(
      rules == Ruleset::kIccf ? WithoutFiftyMoveRule(category) : WithFiftyMoveRule(category),
      j.probe.side_to_move);
  j.contradiction = false;
  const Decided decided = HowDecided(ruling);
  switch (decided) {
    case Decided::kResignation:
    case Decided::kAdjudication: {
      const char* how = decided == Decided::kAdjudication ? "adjudication" : "resignation";
      if (best.empty()) {
        j.contradiction.reset();
        j.note = absl::StrCat("declared ", declared.result, " by ", how, "; ", Describe(j.probe));
      } else if (best != declared.result) {
        j.contradiction = true;
        j.note =
            absl::StrCat("declared ", declared.result, " by ", how, ", but ", Describe(j.probe));
      }
      break;
    }
    case Decided::kAgreement:
      // Legal in any position (5.2.3): worth knowing, never a contradiction.
      if (best != kDraw) {
        j.note = absl::StrCat("drawn by agreement or claim, but ", Describe(j.probe));
        const auto& grounds = ruling.claim_grounds;
        if (std::find(grounds.begin(), grounds.end(), "threefold_now") != grounds.end())
          absl::StrAppend(&j.note, "; a threefold claim (9.2) was available");
      }
      break;
    case Decided::kFlagFall:
      // 6.9 asks whether the opponent could mate by any series of legal
      // moves, which the tables do not measure (they assume best play); a
      // remark on every flag fall in a drawn ending would drown the notes
      // that matter. Forfeits are decided off the board, automatic endings
      // by the Laws (the ruling says whether the record agrees).
    case Decided::kForfeit:
    case Decided::kByRule:
    case Decided::kUnfinished:
      break;
  }
  return j;
}

TablebaseJudgement NoPositionJudgement(std::string why) {
  TablebaseJudgement j;
  j.probe.not_covered = std::move(why);
  return j;
}

}  // namespace arbiter
