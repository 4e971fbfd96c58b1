#include "core/chess99/endings.h"

#include "absl/strings/str_cat.h"
#include "core/chess99/movegen.h"
#include "core/chess99/notation.h"

namespace arbiter::chess99 {
namespace {

const char* Name(Color c) { return c == kWhite ? "White" : "Black"; }
GameResult WinFor(Color c) { return c == kWhite ? GameResult::kWhiteWins : GameResult::kBlackWins; }
constexpr GameResult kDraw = GameResult::kDraw;

class Judge {
 public:
  explicit Judge(const Position& start) : pos_(start) {}

  GameJudgement Run(const std::vector<GamePly>& plies, std::optional<GameEnding> ending) {
    // The start position gets checks 2 and 5 too: it stands for the
    // position after the move before the record began.
    if (pos_.bare_kings()) {
      Finish(kDraw, Rule::kBareKings, "D8 §5.4", std::nullopt, "only the two kings are left");
    } else if (!HasAnyMove(pos_)) {
      NoMove();
    }
    for (size_t i = 0; i < plies.size(); ++i) {
      const int number = static_cast<int>(i) + 1;
      if (Ended()) {
        ++out_.plies_after_end;
        continue;
      }
      if (!Play(plies[i], number)) break;
    }
    if (ending && out_.error.empty()) {
      if (Ended()) {
        out_.ending_after_end = true;
      } else {
        End(*ending);
      }
    }
    if (out_.plies_after_end > 0 && out_.error.empty()) {
      out_.error =
          absl::StrCat("the game ended at ply ", out_.ended_at_ply, " (", ToString(out_.rule),
                       ") but the record has ", out_.plies_after_end, " more ply(s) after it");
      out_.error_ply = out_.ended_at_ply + 1;
    }
    if (!Ended()) out_.pending_offer = pending_offer_;
    out_.end_fen = pos_.Fen();
    return out_;
  }

 private:
  bool Ended() const { return out_.ended_at_ply >= 0; }

  void Finish(GameResult result, Rule rule, std::string section, std::optional<Color> winner,
              std::string detail) {
    out_.result = result;
    out_.rule = rule;
    out_.section = std::move(section);
    out_.winner = winner;
    out_.detail = std::move(detail);
    out_.ended_at_ply = out_.plies_played;
  }

  void Fail(int ply, std::string message) {
    out_.error = std::move(message);
    out_.error_ply = ply;
  }

  // Returns false when the record cannot be followed further.
  bool Play(const GamePly& ply, int number) {
    const Color mover = pos_.side_to_move();
    if (ply.accepts_offer) {
      if (pending_offer_ != Opponent(mover)) {
        Fail(number, absl::StrCat("ply ", number, ": ", Name(mover), " accepts a draw offer, but ",
                                  Name(Opponent(mover)), " has no offer pending"));
        return false;
      }
      if (pending_claim_ >= 0) out_.claims[pending_claim_].accepted = true;
      Finish(kDraw, Rule::kAgreement, "D1 §5.4", std::nullopt,
             absl::StrCat(Name(mover), " accepted ", Name(Opponent(mover)), "'s draw offer"));
      if (!ply.move.empty()) ++out_.plies_after_end;
      return true;
    }
    if (ply.move.empty()) {
      Fail(number, absl::StrCat("ply ", number, ": no move"));
      return false;
    }
    // Moving without accepting declines the opponent's offer (§5.4 [I]).
    pending_offer_.reset();
    pending_claim_ = -1;

    auto move = ParseMove(pos_, ply.move);
    if (!move.ok()) {
      Fail(number, absl::StrCat("ply ", number, ": ", move.status().message()));
      return false;
    }
    const bool king_capture_before = ply.call == DrawCall::kClaim && CanCaptureKing(pos_);
    const int opponent_completed = pos_.CompletedMoves(Opponent(mover));
    const Piece captured = pos_.CapturedPiece(*move);
    pos_.MakeMove(*move);
    ++out_.plies_played;

    ClaimRecord claim;
    if (ply.call == DrawCall::kClaim) {
      claim.ply = number;
      claim.side = mover;
      claim.king_capture_available = king_capture_before;
      claim.opponent_moves_completed = opponent_completed;
      claim.in_check_after_move = pos_.InCheck(mover);
    }

    // §5.4 order of checks. 1: the move took the enemy king.
    if (TypeOf(captured) == kKing) {
      if (pos_.lone_king(mover)) {
        Finish(kDraw, Rule::kLoneKing, "D7 §5.4", std::nullopt,
               absl::StrCat(Name(mover), " captured the king with a lone king, which never wins"));
      } else if (pos_.InCheck(mover)) {
        Finish(kDraw, Rule::kDrawnKingCapture, "D4 §5.1", std::nullopt,
               absl::StrCat(Name(mover), " captured the king, but its own king is then in check"));
      } else {
        Finish(WinFor(mover), Rule::kKingCapture, "§5.1", mover,
               absl::StrCat(Name(mover), " captured the king and its own king is not in check"));
      }
      return Superseded(claim, ply);
    }
    // 2: only the two kings are left.
    if (pos_.bare_kings()) {
      Finish(kDraw, Rule::kBareKings, "D8 §5.4", std::nullopt, "only the two kings are left");
      return Superseded(claim, ply);
    }
    // 3: a claim (D5 on the position before the move, D6 after it).
    if (ply.call == DrawCall::kClaim) {
      const bool d6 = claim.opponent_moves_completed >= 99 && !claim.in_check_after_move;
      claim.valid = claim.king_capture_available || d6;
      claim.became_offer = !claim.valid;
      out_.claims.push_back(claim);
      if (claim.king_capture_available) {
        Finish(kDraw, Rule::kClaimKingCaptureAvailable, "D5 §5.4", std::nullopt,
               absl::StrCat(Name(mover), " claimed a draw while able to capture the king"));
        return true;
      }
      if (d6) {
        Finish(kDraw, Rule::kClaim99Moves, "D6 §5.4", std::nullopt,
               absl::StrCat(Name(mover), " claimed a draw: ", Name(Opponent(mover)),
                            " had completed ", claim.opponent_moves_completed,
                            " moves and the claimant's king is not in check"));
        return true;
      }
      // 4 (procedure 4): an invalid claim becomes an offer.
      pending_offer_ = mover;
      pending_claim_ = static_cast<int>(out_.claims.size()) - 1;
    }
    // 4: an offer made with the move.
    if (ply.call == DrawCall::kOffer) pending_offer_ = mover;
    // 5: the side to move has no move at all (§7.9): it loses.
    if (!HasAnyMove(pos_)) NoMove();
    return true;
  }

  // §7.9: the side to move cannot move and loses, except that a lone king
  // never wins (D7): then it is a draw, as for resignation and time.
  void NoMove() {
    const Color stuck = pos_.side_to_move();
    const Color other = Opponent(stuck);
    if (pos_.lone_king(other)) {
      Finish(kDraw, Rule::kNoMove, "§7.9", std::nullopt,
             absl::StrCat(Name(stuck), " has no move at all, but ", Name(other),
                          " has a lone king, which never wins"));
    } else {
      Finish(WinFor(other), Rule::kNoMove, "§7.9", other,
             absl::StrCat(Name(stuck), " has no move at all"));
    }
  }

  bool Superseded(ClaimRecord& claim, const GamePly& ply) {
    if (ply.call == DrawCall::kClaim) {
      claim.superseded = true;
      claim.valid = claim.king_capture_available ||
                    (claim.opponent_moves_completed >= 99 && !claim.in_check_after_move);
      out_.claims.push_back(claim);
    }
    return true;
  }

  void End(const GameEnding& ending) {
    const Color other = Opponent(ending.side);
    const bool resign = ending.kind == GameEnding::Kind::kResignation;
    const Rule rule = resign ? Rule::kResignation : Rule::kTimeForfeit;
    const char* section = resign ? "§5.2" : "§5.3";
    if (pos_.lone_king(other)) {
      // A lone king may never claim victory (D7).
      Finish(kDraw, rule, section, std::nullopt,
             absl::StrCat(Name(ending.side), resign ? " resigned" : "'s flag fell", ", but ",
                          Name(other), " has a lone king, which never wins"));
    } else {
      Finish(WinFor(other), rule, section, other,
             absl::StrCat(Name(ending.side), resign ? " resigned" : "'s flag fell"));
    }
  }

  Position pos_;
  GameJudgement out_;
  std::optional<Color> pending_offer_;
  int pending_claim_ = -1;  // index in out_.claims of the claim behind pending_offer_
};

}  // namespace

GameJudgement JudgeGame(const Position& start, const std::vector<GamePly>& plies,
                        std::optional<GameEnding> ending) {
  return Judge(start).Run(plies, ending);
}

}  // namespace arbiter::chess99
