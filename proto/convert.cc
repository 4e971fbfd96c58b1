#include "proto/convert.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/chess/notation.h"
#include "core/pgn/variant.h"
#include "core/util/text_encoding.h"

namespace arbiter::wire {
namespace {

// Text a verdict copies from its record, as the wire's `string` fields need
// it: valid UTF-8. Records read by core/pgn are UTF-8 already, but a
// message may quote part of a token (a multi-byte character cut short) and
// a record received over the wire is replayed as it came; an ill-formed
// sequence becomes U+FFFD rather than a message that does not parse.
std::string Utf8(const std::string& text) {
  return IsValidUtf8(text) ? text : ReplaceInvalidUtf8(text);
}

v1::Color ToProto(Color c) { return c == kWhite ? v1::COLOR_WHITE : v1::COLOR_BLACK; }

absl::StatusOr<Color> FromProto(v1::Color c) {
  if (c == v1::COLOR_WHITE) return kWhite;
  if (c == v1::COLOR_BLACK) return kBlack;
  return absl::InvalidArgumentError("colour unspecified");
}

v1::CanMate ToProto(CanMate c) {
  switch (c) {
    case CanMate::kYes:
      return v1::CAN_MATE_YES;
    case CanMate::kNo:
      return v1::CAN_MATE_NO;
    case CanMate::kUnknown:
      break;
  }
  return v1::CAN_MATE_UNKNOWN;
}

CanMate FromProto(v1::CanMate c) {
  if (c == v1::CAN_MATE_YES) return CanMate::kYes;
  if (c == v1::CAN_MATE_NO) return CanMate::kNo;
  return CanMate::kUnknown;
}

// TbCategory and the enum list the same classes in the same order.
v1::TablebaseCategory ToProto(TbCategory c) { return v1::TablebaseCategory(int(c) + 1); }
TbCategory FromProto(v1::TablebaseCategory c) {
  const int i = int(c) - 1;
  return i >= 0 && i <= int(TbCategory::kWin) ? TbCategory(i) : TbCategory::kDraw;
}

v1::GameStatus ToProto(GameStatus s) { return v1::GameStatus(int(s) + 1); }
GameStatus FromProto(v1::GameStatus s) {
  const int i = int(s) - 1;
  return i >= 0 && i <= int(GameStatus::kSeventyFiveMoves) ? GameStatus(i) : GameStatus::kOngoing;
}

template <typename T>
std::optional<T> Optional(bool has, T value) {
  return has ? std::optional<T>(value) : std::nullopt;
}

// Domain enums whose proto enum lists the same values in the same order
// after UNSPECIFIED (verdict.proto says so next to each).
template <typename ProtoEnum, typename Enum>
ProtoEnum EnumToProto(Enum value) {
  return ProtoEnum(int(value) + 1);
}
template <typename Enum, typename ProtoEnum>
absl::StatusOr<Enum> EnumFromProto(ProtoEnum value, Enum last) {
  if (int(value) < 1 || int(value) > int(last) + 1)
    return absl::InvalidArgumentError(absl::StrCat("enum value ", int(value), " out of range"));
  return Enum(int(value) - 1);
}

// A proof kind from the wire: UNSPECIFIED is none (an unset MateAbility).
absl::StatusOr<MateProof> ProofFromProto(v1::MateProof proof) {
  if (proof == v1::MATE_PROOF_UNSPECIFIED) return MateProof::kNone;
  absl::StatusOr<MateProof> out = EnumFromProto(proof, MateProof::kLoneKing);
  if (!out.ok()) return absl::InvalidArgumentError(absl::StrCat("proof: ", out.status().message()));
  return out;
}

absl::StatusOr<std::optional<Color>> OptionalColor(v1::Color c) {
  if (c == v1::COLOR_UNSPECIFIED) return std::optional<Color>();
  absl::StatusOr<Color> color = FromProto(c);
  if (!color.ok()) return color.status();
  return std::optional<Color>(*color);
}

void ToProto(const DeclaredEnding& e, v1::DeclaredEnding* out) {
  out->set_kind(EnumToProto<v1::EndingKind>(e.kind));
  out->set_forfeit(EnumToProto<v1::ForfeitReason>(e.forfeit));
  out->set_grounds(EnumToProto<v1::EndingGrounds>(e.grounds));
  if (e.flag_of) out->set_flag_of(ToProto(*e.flag_of));
  if (e.loser) out->set_loser(ToProto(*e.loser));
  out->set_source(EnumToProto<v1::EndingSource>(e.source));
  out->set_text(Utf8(e.text));
}

absl::StatusOr<DeclaredEnding> FromProto(const v1::DeclaredEnding& e) {
  DeclaredEnding out;
  absl::StatusOr<EndingKind> kind = EnumFromProto(e.kind(), EndingKind::kUnterminated);
  absl::StatusOr<ForfeitReason> forfeit = EnumFromProto(e.forfeit(), ForfeitReason::kUnspecified);
  absl::StatusOr<EndingGrounds> grounds =
      EnumFromProto(e.grounds(), EndingGrounds::kTablebaseClaim);
  absl::StatusOr<EndingSource> source = EnumFromProto(e.source(), EndingSource::kClosingComment);
  absl::StatusOr<std::optional<Color>> flag_of = OptionalColor(e.flag_of());
  absl::StatusOr<std::optional<Color>> loser = OptionalColor(e.loser());
  for (const absl::Status& s : {kind.status(), forfeit.status(), grounds.status(), source.status(),
                                flag_of.status(), loser.status()})
    if (!s.ok()) return absl::InvalidArgumentError(absl::StrCat("declared ending: ", s.message()));
  out.kind = *kind;
  out.forfeit = *forfeit;
  out.grounds = *grounds;
  out.source = *source;
  out.flag_of = *flag_of;
  out.loser = *loser;
  out.text = e.text();
  return out;
}

// UCI of `moves`, each spelled in the position it is played from.
void AddLine(Position pos, const std::vector<Move>& moves,
             google::protobuf::RepeatedPtrField<std::string>* out) {
  for (Move m : moves) {
    out->Add(ToUci(pos, m));
    pos.DoMove(m);
  }
}

absl::StatusOr<std::vector<Move>> ParseLine(
    Position pos, const google::protobuf::RepeatedPtrField<std::string>& line) {
  std::vector<Move> moves;
  for (const std::string& uci : line) {
    absl::StatusOr<Move> m = ParseUci(pos, uci);
    if (!m.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("line move ", moves.size() + 1, " \"", uci, "\": ", m.status().message()));
    moves.push_back(*m);
    pos.DoMove(*m);
  }
  return moves;
}

// Moves that are each played from `pos` itself (claims, tablebase moves).
absl::StatusOr<std::vector<Move>> ParseAlternatives(
    const Position& pos, const google::protobuf::RepeatedPtrField<std::string>& moves) {
  std::vector<Move> out;
  for (const std::string& uci : moves) {
    absl::StatusOr<Move> m = ParseUci(pos, uci);
    if (!m.ok())
      return absl::InvalidArgumentError(absl::StrCat("move \"", uci, "\": ", m.status().message()));
    out.push_back(*m);
  }
  return out;
}

void ToProto(const Position& pos, const MateAbility& m, v1::MateAbility* out) {
  out->set_answer(ToProto(m.answer));
  out->set_proof(EnumToProto<v1::MateProof>(m.proof));
  AddLine(pos, m.line, out->mutable_line());
  for (const std::string& san : m.line_san) out->add_line_san(san);
}

// The SAN of a line from the wire, or, from a sender that predates the
// field (no SAN for a line that has moves), spelled here from the parsed
// line, so that the output is the same whichever worker answered.
void SanFromProto(const Position& start, const google::protobuf::RepeatedPtrField<std::string>& san,
                  MateAbility* m) {
  if (san.empty() && !m->line.empty())
    AddLineSan(start, m);
  else
    m->line_san.assign(san.begin(), san.end());
}

absl::StatusOr<MateAbility> FromProto(const Position& pos, const v1::MateAbility& m) {
  MateAbility out;
  out.answer = FromProto(m.answer());
  absl::StatusOr<MateProof> proof = ProofFromProto(m.proof());
  if (!proof.ok()) return proof.status();
  out.proof = *proof;
  absl::StatusOr<std::vector<Move>> line = ParseLine(pos, m.line());
  if (!line.ok()) return line.status();
  out.line = *std::move(line);
  SanFromProto(pos, m.line_san(), &out);
  return out;
}

void ToProto(const RootResult& r, v1::TablebaseRoot* out) {
  out->set_category(ToProto(r.category));
  out->set_dtz(r.dtz);
  if (r.precise_dtz) out->set_precise_dtz(*r.precise_dtz);
  if (r.win_within_50) out->set_win_within_50(*r.win_within_50);
  out->set_halfmove_clock(r.halfmove_clock);
  out->set_checkmate(r.checkmate);
  out->set_stalemate(r.stalemate);
  for (const TablebaseMove& m : r.moves) {
    v1::TablebaseMove* pm = out->add_moves();
    pm->set_uci(m.uci);
    pm->set_san(m.san);
    pm->set_category(ToProto(m.category));
    if (m.dtz) pm->set_dtz(*m.dtz);
    if (m.precise_dtz) pm->set_precise_dtz(*m.precise_dtz);
    pm->set_zeroing(m.zeroing);
    pm->set_checkmate(m.checkmate);
    pm->set_stalemate(m.stalemate);
  }
  out->set_fifty_move_outcome(EnumToProto<v1::TablebaseOutcome>(WithFiftyMoveRule(r.category)));
  out->set_unlimited_outcome(EnumToProto<v1::TablebaseOutcome>(WithoutFiftyMoveRule(r.category)));
  if (const TablebaseMove* keep = MoveWinningWithin50(r)) {
    out->set_move_within_50(keep->uci);
    out->set_move_within_50_san(keep->san);
  }
}

// `pos` is the probed position when known (the root's moves are parsed in
// it); a verdict's probe carries no moves, so none is needed there.
absl::StatusOr<RootResult> FromProto(const Position* pos, const v1::TablebaseRoot& r) {
  RootResult out;
  out.category = FromProto(r.category());
  out.dtz = r.dtz();
  out.precise_dtz = Optional(r.has_precise_dtz(), int(r.precise_dtz()));
  out.win_within_50 = Optional(r.has_win_within_50(), r.win_within_50());
  out.halfmove_clock = r.halfmove_clock();
  out.checkmate = r.checkmate();
  out.stalemate = r.stalemate();
  for (const v1::TablebaseMove& pm : r.moves()) {
    TablebaseMove m;
    if (pos) {
      absl::StatusOr<Move> move = ParseUci(*pos, pm.uci());
      if (!move.ok()) return move.status();
      m.move = *move;
    }
    m.uci = pm.uci();
    m.san = pm.san();
    m.category = FromProto(pm.category());
    m.dtz = Optional(pm.has_dtz(), int(pm.dtz()));
    m.precise_dtz = Optional(pm.has_precise_dtz(), int(pm.precise_dtz()));
    m.zeroing = pm.zeroing();
    m.checkmate = pm.checkmate();
    m.stalemate = pm.stalemate();
    out.moves.push_back(std::move(m));
  }
  return out;
}

void ToProto(const TablebaseProbe& p, v1::TablebaseProbe* out) {
  out->set_side_to_move(ToProto(p.side_to_move));
  if (p.root) ToProto(*p.root, out->mutable_root());
  out->set_not_covered(p.not_covered);
  out->set_source(EnumToProto<v1::TablebaseSource>(p.source));
}

absl::StatusOr<TablebaseProbe> FromProto(const Position* pos, const v1::TablebaseProbe& p) {
  TablebaseProbe out;
  absl::StatusOr<Color> stm = FromProto(p.side_to_move());
  if (!stm.ok()) return stm.status();
  out.side_to_move = *stm;
  // A sender from before the field sent Syzygy's answers.
  if (p.source() != v1::TABLEBASE_SOURCE_UNSPECIFIED) {
    absl::StatusOr<TablebaseSource> source =
        EnumFromProto(p.source(), TablebaseSource::kRetrograde);
    if (!source.ok()) return source.status();
    out.source = *source;
  }
  if (p.has_root()) {
    absl::StatusOr<RootResult> root = FromProto(pos, p.root());
    if (!root.ok()) return root.status();
    out.root = *std::move(root);
  }
  out.not_covered = p.not_covered();
  return out;
}

void ToProto(const ClaimRuling& c, v1::ClaimRuling* out) {
  out->set_kind(EnumToProto<v1::ClaimKind>(c.claim.kind));
  out->set_claimant(ToProto(c.claim.claimant));
  out->set_claimed(EnumToProto<v1::ClaimedOutcome>(c.claim.claimed));
  out->set_rules(wire::ToProto(c.rules));
  out->set_answer(EnumToProto<v1::ClaimAnswer>(c.answer));
  out->set_basis(EnumToProto<v1::ClaimBasis>(c.basis));
  out->set_article(c.article);
  out->set_reason(Utf8(c.reason));
  absl::StatusOr<Position> pos = Position::FromFen(c.fen, c.chess960);
  if (c.opponent_can_mate && pos.ok())
    ToProto(*pos, *c.opponent_can_mate, out->mutable_opponent_can_mate());
  if (c.tablebase) ToProto(*c.tablebase, out->mutable_tablebase());
  if (c.result) out->set_result(EnumToProto<v1::GameResult>(*c.result));
  if (c.ply) out->set_ply(*c.ply);
  out->set_fen(c.fen);
  out->set_chess960(c.chess960);
}

absl::StatusOr<ClaimRuling> FromProto(const v1::ClaimRuling& c) {
  ClaimRuling out;
  absl::StatusOr<ClaimKind> kind = EnumFromProto(c.kind(), ClaimKind::kTablebaseClaim);
  absl::StatusOr<Color> claimant = FromProto(c.claimant());
  absl::StatusOr<ClaimAnswer> answer = EnumFromProto(c.answer(), ClaimAnswer::kArbiterJudgment);
  absl::StatusOr<ClaimBasis> basis = EnumFromProto(c.basis(), ClaimBasis::kNoDecisiveEvidence);
  for (const absl::Status& s : {kind.status(), claimant.status(), answer.status(), basis.status()})
    if (!s.ok()) return absl::InvalidArgumentError(absl::StrCat("claim: ", s.message()));
  out.claim.kind = *kind;
  out.claim.claimant = *claimant;
  out.claim.claimed =
      c.claimed() == v1::CLAIMED_OUTCOME_WIN ? ClaimedOutcome::kWin : ClaimedOutcome::kDraw;
  absl::StatusOr<Ruleset> rules = wire::FromProto(c.rules());
  if (!rules.ok()) return rules.status();
  out.rules = *rules;
  out.answer = *answer;
  out.basis = *basis;
  out.article = c.article();
  out.reason = c.reason();
  out.fen = c.fen();
  out.chess960 = c.chess960();
  absl::StatusOr<Position> pos = Position::FromFen(c.fen(), c.chess960());
  if (!pos.ok())
    return absl::InvalidArgumentError(absl::StrCat("claim fen: ", pos.status().message()));
  if (c.has_opponent_can_mate()) {
    absl::StatusOr<MateAbility> m = FromProto(*pos, c.opponent_can_mate());
    if (!m.ok()) return m.status();
    out.opponent_can_mate = *std::move(m);
  }
  if (c.has_tablebase()) {
    absl::StatusOr<TablebaseProbe> probe = FromProto(&*pos, c.tablebase());
    if (!probe.ok()) return probe.status();
    out.tablebase = *std::move(probe);
  }
  if (c.result() != v1::GAME_RESULT_UNSPECIFIED) {
    absl::StatusOr<GameResult> result = EnumFromProto(c.result(), GameResult::kDoubleForfeit);
    if (!result.ok())
      return absl::InvalidArgumentError(absl::StrCat("claim result: ", result.status().message()));
    out.result = *result;
  }
  if (c.has_ply()) out.ply = c.ply();
  return out;
}

}  // namespace

v1::Ruleset ToProto(Ruleset r) {
  switch (r) {
    case Ruleset::kFide:
      return v1::RULESET_CHESS;
    case Ruleset::kUscf:
      return v1::RULESET_USCF;
    case Ruleset::kIccf:
      return v1::RULESET_ICCF;
    case Ruleset::kChess99:
      return v1::RULESET_CHESS99;
  }
  return v1::RULESET_CHESS;
}

absl::StatusOr<Ruleset> FromProto(v1::Ruleset r) {
  switch (r) {
    case v1::RULESET_UNSPECIFIED:
    case v1::RULESET_CHESS:
      return Ruleset::kFide;
    case v1::RULESET_USCF:
      return Ruleset::kUscf;
    case v1::RULESET_ICCF:
      return Ruleset::kIccf;
    case v1::RULESET_CHESS99:
      return Ruleset::kChess99;
    default:
      break;
  }
  // An enum value this build does not know is refused, not read as chess.
  return absl::InvalidArgumentError(absl::StrCat("rules ", int(r), " is not a rule set"));
}

absl::StatusOr<std::optional<ClaimQuestion>> FromProto(const v1::Claim& c, Ruleset rules) {
  if (c.kind() == v1::CLAIM_KIND_UNSPECIFIED) return std::optional<ClaimQuestion>();
  absl::StatusOr<ClaimKind> kind = EnumFromProto(c.kind(), ClaimKind::kTablebaseClaim);
  if (!kind.ok())
    return absl::InvalidArgumentError(absl::StrCat("claim: ", kind.status().message()));
  if (RulesetOf(*kind) != rules)
    return absl::InvalidArgumentError(
        absl::StrCat("claim ", ToString(*kind), " is a claim of the ", ToString(RulesetOf(*kind)),
                     " rules; the request is under ", ToString(rules)));
  if (!v1::ClaimedOutcome_IsValid(c.claimed()))
    return absl::InvalidArgumentError(absl::StrCat("claimed outcome ", int(c.claimed())));
  ClaimQuestion q;
  q.kind = *kind;
  absl::StatusOr<std::optional<Color>> claimant = OptionalColor(c.claimant());
  if (!claimant.ok()) return claimant.status();
  q.claimant = *claimant;
  q.claimed = c.claimed() == v1::CLAIMED_OUTCOME_WIN ? ClaimedOutcome::kWin : ClaimedOutcome::kDraw;
  if (q.claimed == ClaimedOutcome::kWin && q.kind != ClaimKind::kTablebaseClaim)
    return absl::InvalidArgumentError(
        absl::StrCat(ToString(q.kind), " claims a draw; only a tablebase claim may claim a win"));
  q.rules = rules;
  return std::optional<ClaimQuestion>(q);
}

void ToProto(const ClaimQuestion& q, v1::Claim* out) {
  out->set_kind(EnumToProto<v1::ClaimKind>(q.kind));
  out->set_claimant(SideToProto(q.claimant));
  out->set_claimed(EnumToProto<v1::ClaimedOutcome>(q.claimed));
}

v1::GameRecord ToProto(const RawGame& game) {
  v1::GameRecord out;
  out.set_index(game.index);
  out.set_first_line(game.first_line);
  for (const auto& [name, value] : game.tags) {
    v1::GameRecord::Tag* t = out.add_tags();
    t->set_name(name);
    t->set_value(value);
  }
  std::string* moves = out.mutable_moves();
  const bool clocks = std::any_of(game.moves.begin(), game.moves.end(),
                                  [](const RawMove& m) { return m.clock_centis >= 0; });
  for (size_t i = 0; i < game.moves.size(); ++i) {
    const RawMove& m = game.moves[i];
    moves->append(m.san);
    moves->push_back(' ');
    out.add_move_lines(m.line);
    out.add_move_columns(m.column);
    if (clocks) out.add_clocks_centis(m.clock_centis);
    if (!m.comment.empty() || !m.nags.empty()) {
      v1::GameRecord::Annotation* a = out.add_annotations();
      a->set_move(int32_t(i));
      a->set_comment(m.comment);
      for (int nag : m.nags) a->add_nags(nag);
    }
  }
  out.set_result_token(game.result_token);
  out.set_closing_comment(game.closing_comment);
  out.set_encoding(EnumToProto<v1::TextEncoding>(game.encoding));
  out.set_error_code(int(game.error.code()));
  out.set_error_message(std::string(game.error.message()));
  out.set_error_line(game.error_line);
  out.set_error_column(game.error_column);
  return out;
}

size_t PliesIn(const v1::GameRecord& record) {
  const std::string& moves = record.moves();
  const size_t tokens = size_t(std::count(moves.begin(), moves.end(), ' ')) +
                        (!moves.empty() && moves.back() != ' ' ? 1 : 0);
  return std::max({tokens, size_t(record.move_lines_size()), size_t(record.move_columns_size()),
                   size_t(record.clocks_centis_size())});
}

RawGame FromProto(const v1::GameRecord& record) {
  RawGame out;
  out.index = record.index();
  out.first_line = record.first_line();
  for (const v1::GameRecord::Tag& t : record.tags()) out.tags.emplace_back(t.name(), t.value());
  if (const size_t plies = PliesIn(record); plies > PgnReader::kMaxPlies) {
    // Checked before anything is split: the limit bounds the work and the
    // memory of every path a record takes (client, coordinator, worker).
    out.error = absl::ResourceExhaustedError(absl::StrCat(
        "game ", record.index(), ": ", plies, " plies, more than ", PgnReader::kMaxPlies));
    return out;
  }
  // A malformed record (fewer lines than moves, an annotation out of range)
  // still converts: missing lines read 0, stray annotations are dropped.
  const std::string& moves = record.moves();
  for (size_t start = 0, i = 0; start < moves.size(); ++i) {
    size_t end = moves.find(' ', start);
    if (end == std::string::npos) end = moves.size();
    const int64_t line = int(i) < record.move_lines_size() ? record.move_lines(int(i)) : 0;
    const int32_t column = int(i) < record.move_columns_size() ? record.move_columns(int(i)) : 0;
    RawMove m(std::string_view(moves).substr(start, end - start), line, column);
    if (int(i) < record.clocks_centis_size()) m.clock_centis = record.clocks_centis(int(i));
    out.moves.push_back(std::move(m));
    start = end + 1;
  }
  for (const v1::GameRecord::Annotation& a : record.annotations()) {
    if (a.move() < 0 || size_t(a.move()) >= out.moves.size()) continue;
    RawMove& m = out.moves[size_t(a.move())];
    m.comment = a.comment();
    m.nags.assign(a.nags().begin(), a.nags().end());
  }
  out.result_token = record.result_token();
  out.closing_comment = record.closing_comment();
  // UNSPECIFIED (a sender that says nothing): as written, UTF-8.
  out.encoding = record.encoding() == v1::TEXT_ENCODING_WINDOWS_1252 ? RecordEncoding::kWindows1252
                                                                     : RecordEncoding::kUtf8;
  // A code outside absl's range still marks the record as unreadable.
  if (record.error_code() != 0) {
    const int code = record.error_code();
    out.error =
        absl::Status(code > 0 && code <= 16 ? absl::StatusCode(code) : absl::StatusCode::kUnknown,
                     record.error_message());
    out.error_line = record.error_line();
    out.error_column = record.error_column();
  }
  return out;
}

v1::GameVerdict ToProto(const GameVerdict& v) {
  v1::GameVerdict out;
  out.set_game(v.game);
  out.set_site(Utf8(v.site));
  out.set_declared(Utf8(v.declared));
  out.set_termination(Utf8(v.termination));
  out.set_plies(v.plies);
  if (v.ruling) {
    const Ruling& r = *v.ruling;
    v1::Ruling* pr = out.mutable_ruling();
    pr->set_ruling(EnumToProto<v1::GameResult>(r.ruling));
    pr->set_rule(EnumToProto<v1::Rule>(r.rule));
    pr->set_article(r.article);
    if (r.ended_at_ply) pr->set_ended_at_ply(*r.ended_at_ply);
    pr->set_moves_after_end(r.moves_after_end);
    pr->set_agrees(r.agrees);
    pr->set_certain(r.certain);
    // The winner's mate ability is evidence only where there is a winner
    // (a flag fall, a resignation); elsewhere it is left unset rather than
    // shown as "unknown".
    if (r.winner_side) {
      pr->set_winner_side(ToProto(*r.winner_side));
      v1::MateAbility* wm = pr->mutable_winner_can_mate();
      wm->set_answer(ToProto(r.winner_can_mate.answer));
      wm->set_proof(EnumToProto<v1::MateProof>(r.winner_can_mate.proof));
      // The line is the verdict's winner_line (UCI from end_fen); not repeated.
    }
    if (r.dead_position_proof) {
      v1::DeadPositionProof* dp = pr->mutable_dead_position_proof();
      dp->set_white(EnumToProto<v1::MateProof>(r.dead_position_proof->white));
      dp->set_black(EnumToProto<v1::MateProof>(r.dead_position_proof->black));
    }
    for (const std::string& g : r.claim_grounds) pr->add_claim_grounds(g);
    ToProto(r.declared_ending, pr->mutable_declared_ending());
    if (r.flag_fallen_by) pr->set_flag_fallen_by(ToProto(*r.flag_fallen_by));
    pr->set_flag_evidence(EnumToProto<v1::FlagEvidence>(r.flag_evidence));
    if (r.clock_contradicts_result) pr->set_clock_contradicts_result(*r.clock_contradicts_result);
    if (r.declared_grounds_hold) pr->set_declared_grounds_hold(*r.declared_grounds_hold);
    pr->set_ended_on_board(r.ended_on_board);
    for (const ClaimRuling& c : r.claims) ToProto(c, pr->add_claims());
  }
  out.set_first_move_after_end(Utf8(v.first_move_after_end));
  out.set_encoding(EnumToProto<v1::TextEncoding>(v.encoding));
  out.set_end_fen(v.end_fen);
  for (const std::string& m : v.winner_line) out.add_winner_line(m);
  for (const std::string& m : v.winner_line_san) out.add_winner_line_san(m);
  out.set_error(Utf8(v.error));
  out.set_skipped_variant(Utf8(v.skipped_variant));
  out.set_error_line(v.error_line);
  out.set_error_column(v.error_column);
  out.set_rules(ToProto(v.rules));
  out.set_detail(v.detail);
  if (v.tablebase) {
    v1::TablebaseJudgement* t = out.mutable_tablebase();
    ToProto(v.tablebase->probe, t->mutable_probe());
    if (v.tablebase->contradiction) t->set_contradiction(*v.tablebase->contradiction);
    t->set_note(Utf8(v.tablebase->note));
  }
  return out;
}

absl::StatusOr<GameVerdict> FromProto(const v1::GameVerdict& v) {
  GameVerdict out;
  out.game = v.game();
  out.site = v.site();
  out.declared = v.declared();
  out.termination = v.termination();
  out.plies = v.plies();
  out.end_fen = v.end_fen();
  out.winner_line.assign(v.winner_line().begin(), v.winner_line().end());
  out.error = v.error();
  out.skipped_variant = v.skipped_variant();
  out.error_line = v.error_line();
  out.error_column = v.error_column();
  absl::StatusOr<Ruleset> rules = FromProto(v.rules());
  if (!rules.ok()) return rules.status();
  out.rules = *rules;
  out.detail = v.detail();
  out.first_move_after_end = v.first_move_after_end();
  out.encoding = v.encoding() == v1::TEXT_ENCODING_WINDOWS_1252 ? RecordEncoding::kWindows1252
                                                                : RecordEncoding::kUtf8;
  if (v.has_ruling()) {
    const v1::Ruling& pr = v.ruling();
    Ruling r;
    absl::StatusOr<GameResult> result = EnumFromProto(pr.ruling(), GameResult::kDoubleForfeit);
    if (!result.ok())
      return absl::InvalidArgumentError(absl::StrCat("ruling: ", result.status().message()));
    r.ruling = *result;
    absl::StatusOr<Rule> rule = EnumFromProto(pr.rule(), Rule::kFlagFallInsufficientMaterial);
    if (!rule.ok())
      return absl::InvalidArgumentError(absl::StrCat("rule: ", rule.status().message()));
    r.rule = *rule;
    r.article = pr.article();
    r.ended_at_ply = Optional(pr.has_ended_at_ply(), int(pr.ended_at_ply()));
    r.moves_after_end = pr.moves_after_end();
    r.agrees = pr.agrees();
    r.certain = pr.certain();
    if (pr.winner_side() != v1::COLOR_UNSPECIFIED) {
      absl::StatusOr<Color> side = FromProto(pr.winner_side());
      if (!side.ok()) return side.status();
      r.winner_side = *side;
    }
    if (pr.has_dead_position_proof()) {
      absl::StatusOr<MateProof> white = ProofFromProto(pr.dead_position_proof().white());
      if (!white.ok()) return white.status();
      absl::StatusOr<MateProof> black = ProofFromProto(pr.dead_position_proof().black());
      if (!black.ok()) return black.status();
      r.dead_position_proof = DeadPositionProof{.white = *white, .black = *black};
    }
    if (pr.has_winner_can_mate()) {
      r.winner_can_mate.answer = FromProto(pr.winner_can_mate().answer());
      absl::StatusOr<MateProof> proof = ProofFromProto(pr.winner_can_mate().proof());
      if (!proof.ok()) return proof.status();
      r.winner_can_mate.proof = *proof;
    }
    if (!v.winner_line().empty()) {
      absl::StatusOr<Position> end = Position::FromFen(out.end_fen);
      if (!end.ok()) return end.status();
      absl::StatusOr<std::vector<Move>> line = ParseLine(*end, v.winner_line());
      if (!line.ok()) return line.status();
      r.winner_can_mate.line = *std::move(line);
      SanFromProto(*end, v.winner_line_san(), &r.winner_can_mate);
    } else {
      r.winner_can_mate.line_san.assign(v.winner_line_san().begin(), v.winner_line_san().end());
    }
    out.winner_line_san = r.winner_can_mate.line_san;
    r.claim_grounds.assign(pr.claim_grounds().begin(), pr.claim_grounds().end());
    for (const v1::ClaimRuling& c : pr.claims()) {
      absl::StatusOr<ClaimRuling> claim = FromProto(c);
      if (!claim.ok()) return claim.status();
      r.claims.push_back(*std::move(claim));
    }
    absl::StatusOr<DeclaredEnding> ending = FromProto(pr.declared_ending());
    if (!ending.ok()) return ending.status();
    r.declared_ending = *std::move(ending);
    absl::StatusOr<std::optional<Color>> flag = OptionalColor(pr.flag_fallen_by());
    if (!flag.ok()) return flag.status();
    r.flag_fallen_by = *flag;
    absl::StatusOr<FlagEvidence> evidence =
        EnumFromProto<FlagEvidence>(pr.flag_evidence(), FlagEvidence::kSideToMove);
    if (!evidence.ok()) return evidence.status();
    r.flag_evidence = *evidence;
    r.clock_contradicts_result =
        Optional(pr.has_clock_contradicts_result(), pr.clock_contradicts_result());
    r.declared_grounds_hold = Optional(pr.has_declared_grounds_hold(), pr.declared_grounds_hold());
    r.ended_on_board = pr.ended_on_board();
    out.ruling = std::move(r);
  }
  if (v.has_tablebase()) {
    TablebaseJudgement t;
    absl::StatusOr<TablebaseProbe> probe = FromProto(nullptr, v.tablebase().probe());
    if (!probe.ok()) return probe.status();
    t.probe = *std::move(probe);
    t.contradiction = Optional(v.tablebase().has_contradiction(), v.tablebase().contradiction());
    t.note = v.tablebase().note();
    out.tablebase = std::move(t);
  }
  return out;
}

v1::Assessment ToProto(const PositionAnalysis& a) {
  v1::Assessment out;
  const Position& pos = a.position;
  out.set_fen(pos.Fen());
  out.set_chess960(pos.chess960());
  out.set_status(ToProto(a.assessment.status));
  if (a.assessment.only_side) out.set_only_side(ToProto(*a.assessment.only_side));
  if (a.assessment.Asked(kWhite)) ToProto(pos, a.assessment.white, out.mutable_white());
  if (a.assessment.Asked(kBlack)) ToProto(pos, a.assessment.black, out.mutable_black());
  if (a.assessment.dead) out.set_dead(*a.assessment.dead);
  v1::DrawClaims* c = out.mutable_claims();
  c->set_threefold_now(a.assessment.claims.threefold_now);
  for (Move m : a.assessment.claims.threefold_moves) c->add_threefold_moves(ToUci(pos, m));
  c->set_fifty_now(a.assessment.claims.fifty_now);
  for (Move m : a.assessment.claims.fifty_moves) c->add_fifty_moves(ToUci(pos, m));
  if (a.tablebase) ToProto(*a.tablebase, out.mutable_tablebase());
  if (a.claim) ToProto(*a.claim, out.mutable_claim());
  out.set_rules(ToProto(a.rules));
  return out;
}

absl::StatusOr<PositionAnalysis> FromProto(const v1::Assessment& a) {
  absl::StatusOr<Position> pos = Position::FromFen(a.fen(), a.chess960());
  if (!pos.ok()) return pos.status();
  PositionAnalysis out{*pos, {}, std::nullopt, std::nullopt};
  absl::StatusOr<Ruleset> rules = FromProto(a.rules());
  if (!rules.ok()) return rules.status();
  out.rules = *rules;
  out.assessment.status = FromProto(a.status());
  absl::StatusOr<MateAbility> white = FromProto(*pos, a.white());
  if (!white.ok()) return white.status();
  absl::StatusOr<MateAbility> black = FromProto(*pos, a.black());
  if (!black.ok()) return black.status();
  out.assessment.white = *std::move(white);
  out.assessment.black = *std::move(black);
  if (a.only_side() != v1::COLOR_UNSPECIFIED) {
    absl::StatusOr<Color> side = FromProto(a.only_side());
    if (!side.ok()) return side.status();
    out.assessment.only_side = *side;
  }
  out.assessment.dead = Optional(a.has_dead(), a.dead());
  out.assessment.claims.threefold_now = a.claims().threefold_now();
  out.assessment.claims.fifty_now = a.claims().fifty_now();
  absl::StatusOr<std::vector<Move>> threefold =
      ParseAlternatives(*pos, a.claims().threefold_moves());
  if (!threefold.ok()) return threefold.status();
  absl::StatusOr<std::vector<Move>> fifty = ParseAlternatives(*pos, a.claims().fifty_moves());
  if (!fifty.ok()) return fifty.status();
  out.assessment.claims.threefold_moves = *std::move(threefold);
  out.assessment.claims.fifty_moves = *std::move(fifty);
  if (a.has_tablebase()) {
    absl::StatusOr<TablebaseProbe> probe = FromProto(&*pos, a.tablebase());
    if (!probe.ok()) return probe.status();
    out.tablebase = *std::move(probe);
  }
  if (a.has_claim()) {
    absl::StatusOr<ClaimRuling> claim = FromProto(a.claim());
    if (!claim.ok()) return claim.status();
    out.claim = *std::move(claim);
  }
  return out;
}

namespace {

void ToProto(const chess99::SideWinAbility& s, v1::Chess99Side* out) {
  out->set_can_win(ToProto(s.answer));
  out->set_proof(EnumToProto<v1::MateProof>(s.proof));
  out->set_section(s.section);
  for (const std::string& m : s.line) out->add_line(m);
}

absl::StatusOr<chess99::SideWinAbility> FromProto(const v1::Chess99Side& s) {
  chess99::SideWinAbility out;
  if (s.can_win() == v1::CAN_MATE_UNSPECIFIED || !v1::CanMate_IsValid(s.can_win()))
    return absl::InvalidArgumentError(absl::StrCat("bad can_win ", int(s.can_win())));
  out.answer = FromProto(s.can_win());
  absl::StatusOr<MateProof> proof = ProofFromProto(s.proof());
  if (!proof.ok()) return proof.status();
  out.proof = *proof;
  out.section = s.section();
  out.line.assign(s.line().begin(), s.line().end());
  return out;
}

}  // namespace

v1::Assessment ToProto(const Chess99Report& r) {
  v1::Assessment out;
  out.set_fen(r.fen);
  const chess99::PositionAnalysis& a = r.analysis;
  v1::Chess99Assessment* c = out.mutable_chess99();
  c->set_status(EnumToProto<v1::Chess99Status>(a.status));
  c->set_section(a.section);
  c->set_side_to_move(a.side_to_move == chess99::kWhite ? v1::COLOR_WHITE : v1::COLOR_BLACK);
  ToProto(a.can_win[chess99::kWhite], c->mutable_white());
  ToProto(a.can_win[chess99::kBlack], c->mutable_black());
  for (const chess99::KingCaptureNow& k : a.king_captures) {
    v1::Chess99KingCapture* pk = c->add_king_captures();
    pk->set_move(k.move);
    pk->set_site(k.site);
    pk->set_wins(k.wins);
    pk->set_rule(EnumToProto<v1::Rule>(k.rule));
    pk->set_section(k.section);
  }
  c->set_king_capture_claim(a.d5_claim_available);
  c->set_opponent_moves_completed(a.opponent_moves_completed);
  c->set_ninety_nine_window_open(a.d6_window_open);
  for (const std::string& m : a.d6_claim_moves) c->add_ninety_nine_moves(m);
  c->set_ninety_nine_claim(a.d6_claim_available);
  return out;
}

absl::StatusOr<Chess99Report> Chess99FromProto(const v1::Assessment& in) {
  if (!in.has_chess99()) return absl::InvalidArgumentError("the reply holds no Chess 99 analysis");
  const v1::Chess99Assessment& c = in.chess99();
  Chess99Report r;
  r.fen = in.fen();
  chess99::PositionAnalysis& a = r.analysis;
  absl::StatusOr<chess99::PositionStatus> status =
      EnumFromProto(c.status(), chess99::PositionStatus::kNoMove);
  if (!status.ok())
    return absl::InvalidArgumentError(absl::StrCat("Chess 99 status: ", status.status().message()));
  a.status = *status;
  a.section = c.section();
  a.side_to_move = c.side_to_move() == v1::COLOR_BLACK ? chess99::kBlack : chess99::kWhite;
  for (auto [side, proto] :
       {std::pair{chess99::kWhite, &c.white()}, {chess99::kBlack, &c.black()}}) {
    absl::StatusOr<chess99::SideWinAbility> s = FromProto(*proto);
    if (!s.ok()) return s.status();
    a.can_win[side] = *std::move(s);
  }
  for (const v1::Chess99KingCapture& k : c.king_captures()) {
    absl::StatusOr<Rule> rule = EnumFromProto(k.rule(), Rule::kFlagFallInsufficientMaterial);
    if (!rule.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("king capture rule: ", rule.status().message()));
    a.king_captures.push_back({k.move(), k.site(), k.wins(), *rule, k.section()});
  }
  a.d5_claim_available = c.king_capture_claim();
  a.opponent_moves_completed = c.opponent_moves_completed();
  a.d6_window_open = c.ninety_nine_window_open();
  a.d6_claim_moves.assign(c.ninety_nine_moves().begin(), c.ninety_nine_moves().end());
  a.d6_claim_available = c.ninety_nine_claim();
  return r;
}

absl::StatusOr<MateSearchOptions> FromProto(const v1::SearchOptions& o) {
  MateSearchOptions out;
  if (o.budget() != 0) {
    if (o.budget() > (uint64_t(1) << 40))
      return absl::InvalidArgumentError("budget must be 1..2^40 positions");
    out.node_budget = o.budget();
  }
  if (o.table_mb() != 0) {
    if (o.table_mb() > 65536) return absl::InvalidArgumentError("table_mb must be 1..65536");
    out.table_bytes = size_t(o.table_mb()) << 20;
  }
  absl::StatusOr<Ruleset> rules = FromProto(o.rules());
  if (!rules.ok()) return rules.status();
  out.rules = *rules;
  return out;
}

PgnReaderOptions ReaderOptionsFor(const v1::SearchOptions& o) {
  PgnReaderOptions out;
  out.keep_comments = false;
  if (o.rules() == v1::RULESET_CHESS99) out.untagged_variant = kChess99Variant;
  return out;
}

v1::SearchOptions ToProto(const MateSearchOptions& o, bool tablebase) {
  v1::SearchOptions out;
  out.set_budget(o.node_budget);
  out.set_table_mb(uint32_t(o.table_bytes >> 20));
  out.set_tablebase(tablebase);
  // The FIDE Laws stay unspecified, as before the field had other values.
  if (o.rules != Ruleset::kFide) out.set_rules(ToProto(o.rules));
  return out;
}

v1::Color SideToProto(std::optional<Color> side) {
  return side ? ToProto(*side) : v1::COLOR_UNSPECIFIED;
}

std::optional<Color> SideFromProto(v1::Color side) {
  if (side == v1::COLOR_WHITE) return kWhite;
  if (side == v1::COLOR_BLACK) return kBlack;
  return std::nullopt;
}

}  // namespace arbiter::wire
