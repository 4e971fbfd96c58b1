#include "core/verdict/chess99_verdict.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/chess99/endings.h"
#include "core/chess99/movegen.h"
#include "core/chess99/position.h"
#include "core/pgn/variant.h"

namespace arbiter {
namespace {

bool Mentions(std::string_view text, std::string_view what) {
  return text.find(what) != std::string_view::npos;
}

// "time forfeit", "Time forfeit", "time": a flag fall.
bool MentionsTime(std::string text) {
  for (char& c : text)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return Mentions(text, "time");
}

// The judge's input, and for each of its plies the record's move index
// (-1 for an acceptance, which is no move).
struct JudgeInput {
  std::vector<chess99::GamePly> plies;
  std::vector<int> move_of_ply;
};

JudgeInput PliesOf(const RawGame& raw) {
  JudgeInput in;
  for (size_t i = 0; i < raw.moves.size(); ++i) {
    const RawMove& m = raw.moves[i];
    chess99::GamePly ply;
    ply.move = m.san;
    if (Mentions(m.comment, "[%draw claim]")) {
      ply.call = chess99::DrawCall::kClaim;
    } else if (Mentions(m.comment, "[%draw offer]")) {
      ply.call = chess99::DrawCall::kOffer;
    }
    in.plies.push_back(std::move(ply));
    in.move_of_ply.push_back(int(i));
    if (Mentions(m.comment, "[%draw accept]")) {
      chess99::GamePly accept;
      accept.accepts_offer = true;
      in.plies.push_back(std::move(accept));
      in.move_of_ply.push_back(-1);
    }
  }
  return in;
}

void Fail(std::string message, int64_t line, int32_t column, GameVerdict* out) {
  out->error = std::move(message);
  out->error_line = line;
  out->error_column = column;
}

}  // namespace

bool IsChess99Game(const RawGame& raw) {
  const std::string* variant = raw.Tag("Variant");
  return variant != nullptr && IsChess99Variant(*variant);
}

void VerifyChess99Game(const RawGame& raw, GameVerdict* out) {
  absl::StatusOr<chess99::Position> start = chess99::Position::Start();
  if (const std::string* fen = raw.Tag("FEN")) {
    start = chess99::Position::FromFen(*fen);
    if (!start.ok())
      return Fail(absl::StrCat("[FEN] tag: ", start.status().message()), raw.first_line, 0, out);
  }
  JudgeInput in = PliesOf(raw);
  chess99::GameJudgement j = chess99::JudgeGame(*start, in.plies);
  // What the moves leave open, the declared result explains: an open offer
  // and a draw = agreement; a decisive result = resignation or flag fall.
  bool agreed_off_record = false;
  if (j.error.empty() && j.ended_at_ply < 0) {
    if (out->declared == "1/2-1/2" && j.pending_offer) {
      chess99::GamePly accept;
      accept.accepts_offer = true;
      in.plies.push_back(accept);
      in.move_of_ply.push_back(-1);
      j = chess99::JudgeGame(*start, in.plies);
    } else if (out->declared == "1/2-1/2") {
      // Records rarely write offers down: a declared draw that the moves
      // leave open is an agreement (D1), as a chess record's is (5.2.3).
      agreed_off_record = true;
    } else if (out->declared == "1-0" || out->declared == "0-1") {
      chess99::GameEnding ending;
      ending.side = out->declared == "1-0" ? chess99::kBlack : chess99::kWhite;
      ending.kind = MentionsTime(out->termination) ? chess99::GameEnding::Kind::kFlagFall
                                                   : chess99::GameEnding::Kind::kResignation;
      j = chess99::JudgeGame(*start, in.plies, ending);
    }
  }
  // An unreadable or illegal move, or a stray acceptance, is the record's
  // error; moves after the end are not (they are counted, as for chess).
  const bool after_end = j.ended_at_ply >= 0 && j.plies_after_end > 0;
  if (!j.error.empty() && !after_end) {
    int64_t line = raw.first_line;
    int32_t column = 0;
    if (j.error_ply >= 1 && size_t(j.error_ply) <= in.move_of_ply.size()) {
      if (const int move = in.move_of_ply[size_t(j.error_ply - 1)]; move >= 0) {
        line = raw.moves[size_t(move)].line;
        column = raw.moves[size_t(move)].column;
      }
    }
    return Fail(j.error, line, column, out);
  }
  Ruling r;
  r.ruling = j.result;
  r.rule = j.rule;
  r.article = j.section;
  if (agreed_off_record) {
    r.ruling = GameResult::kDraw;
    r.rule = Rule::kAgreement;
    r.article = "D1 §5.4";
    j.ended_at_ply = j.plies_played;
    j.detail = "the record declares a draw the moves leave open: an agreement (D1)";
    // The grounds a claim could have had at the end, as for chess.
    absl::StatusOr<chess99::Position> end = chess99::Position::FromFen(j.end_fen);
    if (end.ok()) {
      if (chess99::CanCaptureKing(*end)) r.claim_grounds.push_back("king_capture_available_now");
      if (end->CompletedMoves(chess99::Opponent(end->side_to_move())) >= 99)
        r.claim_grounds.push_back("99_moves_now");
    }
  }
  if (j.ended_at_ply >= 0) {
    r.ended_at_ply = j.ended_at_ply;
    r.moves_after_end = int(raw.moves.size()) - j.ended_at_ply;
  }
  r.agrees = out->declared == ToString(r.ruling);
  for (const chess99::ClaimRecord& c : j.claims) {
    // Evidence for every claim the record makes: which ground held. A claim
    // whose own move ended the game (a king capture, bare kings) was not
    // needed, whether or not it would have held (§5.4, order of checks 1-2).
    std::string ground = c.superseded ? "claim_superseded"
                         : c.valid    ? (c.king_capture_available ? "king_capture_available_claimed"
                                                                  : "99_moves_claimed")
                                      : "invalid_claim_became_offer";
    const int move = c.ply >= 1 && size_t(c.ply) <= in.move_of_ply.size()
                         ? in.move_of_ply[size_t(c.ply - 1)]
                         : -1;
    r.claim_grounds.push_back(absl::StrCat(ground, "@ply", move + 1));
  }
  out->detail = j.detail;
  out->end_fen = j.end_fen;
  out->ruling = std::move(r);
}

}  // namespace arbiter
