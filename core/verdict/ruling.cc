#include "core/verdict/ruling.h"

#include "absl/strings/str_cat.h"
#include "core/chess/bitboard.h"
#include "core/verdict/claims_in_game.h"

namespace arbiter {

GameResult WinFor(Color c) { return c == kWhite ? GameResult::kWhiteWins : GameResult::kBlackWins; }

namespace {

std::optional<Color> DeclaredWinner(std::optional<GameResult> result) {
  if (result == GameResult::kWhiteWins) return kWhite;
  if (result == GameResult::kBlackWins) return kBlack;
  return std::nullopt;
}

Rule RuleOf(GameStatus status) {
  switch (status) {
    case GameStatus::kOngoing:
      break;
    case GameStatus::kCheckmate:
      return Rule::kCheckmate;
    case GameStatus::kStalemate:
      return Rule::kStalemate;
    case GameStatus::kDeadPosition:
      return Rule::kDeadPosition;
    case GameStatus::kFivefold:
      return Rule::kFivefold;
    case GameStatus::kSeventyFiveMoves:
      return Rule::kSeventyFiveMoves;
  }
  return Rule::kUnfinished;
}

Ruling Ended(GameStatus status, const Position& pos, int ply) {
  Ruling r;
  r.rule = RuleOf(status);
  r.article = ArticleOf(status);
  r.ended_at_ply = ply;
  r.ended_on_board = true;
  r.ruling = status == GameStatus::kCheckmate ? WinFor(~pos.side_to_move()) : GameResult::kDraw;
  return r;
}

// The side whose last recorded clock reads zero, when exactly one does.
std::optional<Color> ClockAtZero(const Position& start, std::span<const int> clocks) {
  std::optional<int> last[2];
  for (size_t i = clocks.size(); i-- > 0;) {
    const Color mover = i % 2 == 0 ? start.side_to_move() : ~start.side_to_move();
    if (!last[mover] && clocks[i] >= 0) last[mover] = clocks[i];
  }
  const bool white = last[kWhite] == 0, black = last[kBlack] == 0;
  if (white == black) return std::nullopt;
  return white ? kWhite : kBlack;
}

// The loser's opponent may still mate, or the Laws' exception makes it a
// draw (5.1.2, 6.9, 7.5.5): rules on that, by `rule` or, for the draw,
// `cannot_mate_rule`.
void RuleLossUnlessCannotMate(const Position& pos, Color winner, Rule rule, Rule cannot_mate_rule,
                              const char* article, const MateSearchOptions& options, Ruling* r) {
  r->winner_side = winner;
  r->winner_can_mate = AnalyzeMateAbility(pos, winner, options);
  // The line is final here: the ruling's evidence, printed as it is.
  FinishLine(pos, &r->winner_can_mate);
  r->article = article;
  if (r->winner_can_mate.answer == CanMate::kNo) {
    r->ruling = GameResult::kDraw;
    r->rule = cannot_mate_rule;
  } else {
    r->ruling = WinFor(winner);
    r->rule = rule;
    r->certain = r->winner_can_mate.answer == CanMate::kYes;
  }
}

const char* ForfeitArticle(ForfeitReason reason) {
  switch (reason) {
    case ForfeitReason::kIllegalMove:
      return "7.5.5";
    case ForfeitReason::kAbandoned:
      return "6.9";
    case ForfeitReason::kLateArrival:
      return "6.7.1";
    default:
      return "12.9.6";
  }
}

// Whether the board bears out the named grounds, given the ruling and (for
// repetition and 50-move claims) the claims open at the end.
std::optional<bool> GroundsHold(EndingGrounds grounds, const Ruling& r, bool ended,
                                const Assessment* end) {
  const Rule rule = r.rule;
  switch (grounds) {
    case EndingGrounds::kNone:
    case EndingGrounds::kBothFlagsFell:
    // Claims: set from the claim's answer (ApplyClaims).
    case EndingGrounds::kQuickplayFinish:
    case EndingGrounds::kInsufficientLosingChances:
    case EndingGrounds::kTablebaseClaim:
      return std::nullopt;
    case EndingGrounds::kCheckmate:
      return rule == Rule::kCheckmate;
    case EndingGrounds::kStalemate:
      return rule == Rule::kStalemate;
    case EndingGrounds::kFivefoldRepetition:
      return rule == Rule::kFivefold;
    case EndingGrounds::kSeventyFiveMoves:
      return rule == Rule::kSeventyFiveMoves;
    case EndingGrounds::kInsufficientMaterial:
      return rule == Rule::kDeadPosition;
    case EndingGrounds::kTimeoutVsInsufficientMaterial:
      return rule == Rule::kFlagFallCannotMate || rule == Rule::kDeadPosition;
    case EndingGrounds::kAgreement:
      return !ended;
    case EndingGrounds::kThreefoldRepetition:
      if (rule == Rule::kFivefold) return true;
      if (ended) return false;
      // Claims are looked at for draws only: a decisive result naming them
      // is not checked.
      if (end == nullptr) return std::nullopt;
      return end->claims.threefold_now || !end->claims.threefold_moves.empty();
    case EndingGrounds::kFiftyMoves:
      if (rule == Rule::kSeventyFiveMoves) return true;
      if (ended) return false;
      if (end == nullptr) return std::nullopt;
      return end->claims.fifty_now || !end->claims.fifty_moves.empty();
  }
  return std::nullopt;
}

// US Chess 14E: "insufficient material to win on time". The game is drawn
// although the player's flag fell when the opponent has only a king and a
// bishop or a knight (14E2), or a king and two knights against a player
// without pawns (14E3), and no forced win. (A lone king, 14E1, cannot mate
// at all and is ruled as 6.9's exception already.) Returns the article, or
// null when the material is not one of these.
const char* InsufficientMaterialToWinOnTime(const Position& pos, Color winner) {
  const Bitboard theirs = pos.pieces(winner) & ~pos.pieces(winner, kKing);
  const int knights = PopCount(pos.pieces(winner, kKnight));
  const int bishops = PopCount(pos.pieces(winner, kBishop));
  const int men = PopCount(theirs);
  if (men == 1 && (knights == 1 || bishops == 1)) return "US Chess 14E2";
  if (men == 2 && knights == 2 && !pos.pieces(~winner, kPawn)) return "US Chess 14E3";
  return nullptr;
}

// Applies 14E to a flag-fall win: the tables decide whether the winner has a
// forced win (under the fifty-move rule, which US Chess has too: 14F);
// without a table that covers the position the draw stands, uncertain.
void ApplyUscfFlagFall(const Position& pos, const MateSearchOptions& options, Ruling* r) {
  if (r->rule != Rule::kFlagFall || !r->winner_side) return;
  const Color winner = *r->winner_side;
  const char* article = InsufficientMaterialToWinOnTime(pos, winner);
  if (article == nullptr) return;
  std::optional<TablebaseProbe> probe = ProbeTables(pos, options.syzygy, options.retrograde);
  bool forced_win = false, known = false;
  if (probe && probe->root) {
    const TbOutcome outcome = WithFiftyMoveRule(CategoryFor(*probe, winner));
    known = outcome != TbOutcome::kUnknown;
    forced_win = outcome == TbOutcome::kWin;
  }
  if (forced_win) return;  // the win on time stands (certain as 6.9 made it)
  r->ruling = GameResult::kDraw;
  r->rule = Rule::kFlagFallInsufficientMaterial;
  r->article = article;
  // Without tables a forced win is not ruled out: the draw is the rule's
  // default, not a proof.
  r->certain = known;
}

}  // namespace

const char* FlagEvidenceWords(FlagEvidence evidence) {
  switch (evidence) {
    case FlagEvidence::kNone:
      return "nothing";
    case FlagEvidence::kTermination:
      return "the record's words";
    case FlagEvidence::kClock:
      return "the clock";
    case FlagEvidence::kResult:
      return "the declared result";
    case FlagEvidence::kSideToMove:
      return "being the player to move";
  }
  return "nothing";
}

const char* ToString(FlagEvidence evidence) {
  switch (evidence) {
    case FlagEvidence::kNone:
      return "none";
    case FlagEvidence::kTermination:
      return "termination";
    case FlagEvidence::kClock:
      return "clock";
    case FlagEvidence::kResult:
      return "result";
    case FlagEvidence::kSideToMove:
      return "side_to_move";
  }
  return "none";
}

Ruling RuleGame(const Position& start, const std::vector<Move>& moves,
                const DeclaredOutcome& declared, const MateSearchOptions& options) {
  const Ruleset rules = options.rules;
  const DeclaredEnding ending =
      ReadDeclaredEnding(declared.termination.empty() ? nullptr : &declared.termination,
                         declared.closing_comment, declared.players);
  Game game(start);
  Ruling r;
  bool ended = false;
  for (size_t ply = 0;; ++ply) {
    DeadPositionProof dead_proof;
    GameStatus status =
        AutomaticEnding(game, kClosedPositionBudget, options.retrograde, &dead_proof);
    // US Chess has no automatic fivefold or 75-move draw: repetition and
    // the fifty-move rule are claims there (14C, 14F), so the game goes on,
    // and a checkmate played later stands. (Ending checks mate, stalemate
    // and dead positions before these two, so nothing else is passed over.)
    if (rules == Ruleset::kUscf &&
        (status == GameStatus::kFivefold || status == GameStatus::kSeventyFiveMoves))
      status = GameStatus::kOngoing;
    if (status != GameStatus::kOngoing) {
      r = Ended(status, game.position(), int(ply));
      if (status == GameStatus::kDeadPosition) r.dead_position_proof = dead_proof;
      r.moves_after_end = int(moves.size() - ply);
      ended = true;
      break;
    }
    if (ply == moves.size()) break;
    game.Play(moves[ply]);
  }

  std::optional<Assessment> end_assessment;
  if (!ended) {
    const Position& pos = game.position();
    // The record's Result tag as a result, when it is one ("1-0", ...).
    const std::optional<GameResult> result = ParseGameResult(declared.result);
    const std::optional<Color> declared_winner = DeclaredWinner(result);
    r.ended_at_ply = int(moves.size());
    const bool flag_fall = ending.kind == EndingKind::kFlagFall;
    const bool forfeit = ending.kind == EndingKind::kForfeit;
    if (result == GameResult::kDoubleForfeit) {
      // Both players lost (11.8, or both absent): no board question.
      r.ruling = GameResult::kDoubleForfeit;
      r.rule = Rule::kDoubleForfeit;
      r.article = "11.8";
    } else if (ending.kind == EndingKind::kUnterminated || result == GameResult::kUnfinished ||
               (!declared_winner && result != GameResult::kDraw)) {
      r.ruling = GameResult::kUnfinished;
      r.rule = Rule::kUnfinished;
      r.ended_at_ply.reset();
    } else if (flag_fall && ending.grounds != EndingGrounds::kBothFlagsFell) {
      // Whose flag fell: the words, else a clock at zero, else the declared
      // loser, else (a draw on time) the player to move.
      // A clock at zero counts only for the player to move, who had no time
      // left and still had to move. The last mover's 0:00:00 is no flag:
      // [%clk] has whole seconds, and a move completed with under a second
      // left was in time (Lichess records 228 such wins on time in 37,221
      // games, each lost by the player to move).
      std::optional<Color> clock = ClockAtZero(start, declared.clock_centis);
      // The last mover's clock at zero points to that player's flag; where
      // nothing else names a player, the fallback (the player to move)
      // points to the other. The zero is weak evidence (whole seconds: a
      // move made with under a second left was in time), and the declared
      // result usually settles it (11 such draws on the shared Lichess file
      // agree with the player to move's flag only). Where the ruling
      // contradicts the record but the clock's reading bears the record
      // out, the evidence conflicts and the ruling is not certain.
      const bool clock_points_elsewhere = clock && *clock != pos.side_to_move();
      if (clock_points_elsewhere) clock.reset();
      if (ending.flag_of) {
        r.flag_fallen_by = ending.flag_of;
        r.flag_evidence = FlagEvidence::kTermination;
      } else if (clock) {
        r.flag_fallen_by = clock;
        r.flag_evidence = FlagEvidence::kClock;
      } else if (declared_winner) {
        r.flag_fallen_by = ~*declared_winner;
        r.flag_evidence = FlagEvidence::kResult;
      } else {
        r.flag_fallen_by = pos.side_to_move();
        r.flag_evidence = FlagEvidence::kSideToMove;
      }
      if (clock && declared_winner) r.clock_contradicts_result = *clock == *declared_winner;
      RuleLossUnlessCannotMate(pos, ~*r.flag_fallen_by, Rule::kFlagFall, Rule::kFlagFallCannotMate,
                               "6.9", options, &r);
      if (r.flag_evidence == FlagEvidence::kSideToMove && clock_points_elsewhere) {
        Ruling other;
        RuleLossUnlessCannotMate(pos, pos.side_to_move(), Rule::kFlagFall,
                                 Rule::kFlagFallCannotMate, "6.9", options, &other);
        if (result && other.ruling == *result && r.ruling != *result) r.certain = false;
      }
      if (rules == Ruleset::kUscf) {
        ApplyUscfFlagFall(pos, options, &r);
        // A "cannot mate" that rests on FIDE's 75-move rule, which US Chess
        // does not have, is not a certain draw there.
        if (r.rule == Rule::kFlagFallCannotMate &&
            r.winner_can_mate.proof == MateProof::kSeventyFiveMoveRule)
          r.certain = false;
      }
    } else if (forfeit && (ending.loser || declared_winner)) {
      const Color loser = ending.loser ? *ending.loser : ~*declared_winner;
      const bool exception = ending.forfeit == ForfeitReason::kIllegalMove ||
                             ending.forfeit == ForfeitReason::kAbandoned;
      if (exception) {
        RuleLossUnlessCannotMate(pos, ~loser, Rule::kForfeit, Rule::kForfeitCannotMate,
                                 ForfeitArticle(ending.forfeit), options, &r);
      } else {
        // 6.7.1 and 12.9.6 make no exception for a side that cannot mate.
        r.ruling = WinFor(~loser);
        r.rule = Rule::kForfeit;
        r.article = ForfeitArticle(ending.forfeit);
      }
    } else if (declared_winner) {
      // A resignation, or a decisive result with no other reason given (or
      // words not understood): 5.1.2. An adjudicated win needs the same
      // possibility of mate.
      if (ending.kind == EndingKind::kAdjudication) {
        RuleLossUnlessCannotMate(pos, *declared_winner, Rule::kAdjudication,
                                 Rule::kAdjudicationCannotMate, "", options, &r);
      } else {
        RuleLossUnlessCannotMate(pos, *declared_winner, Rule::kResignation,
                                 Rule::kResignationCannotMate, "5.1.2", options, &r);
      }
    } else {
      // A draw: agreed (5.2.3) or claimed (9.2, 9.3; a claim is also an offer
      // of a draw, 9.1.2.3, so a draw whose grounds do not hold may still
      // stand as accepted).
      r.ruling = GameResult::kDraw;
      r.rule = Rule::kDrawAgreedOrClaimed;
      r.article = "5.2.3";
      end_assessment = Assess(game, options);
      const Assessment& a = *end_assessment;
      if (a.claims.threefold_now) r.claim_grounds.push_back("threefold_now");
      if (!a.claims.threefold_moves.empty()) r.claim_grounds.push_back("threefold_by_move");
      if (a.claims.fifty_now) r.claim_grounds.push_back("fifty_now");
      if (!a.claims.fifty_moves.empty()) r.claim_grounds.push_back("fifty_by_move");
    }
  }
  r.declared_ending = ending;
  r.declared_grounds_hold =
      GroundsHold(ending.grounds, r, ended, end_assessment ? &*end_assessment : nullptr);
  ApplyRecordedClaims(start, moves, declared, ending, rules, options, ended, &r);
  r.agrees = ToString(r.ruling) == declared.result;
  return r;
}

}  // namespace arbiter
