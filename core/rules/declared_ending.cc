#include "core/rules/declared_ending.h"

#include <array>
#include <initializer_list>

namespace arbiter {
namespace {

// Lower case, "[%...]" commands (clocks, evaluations) dropped, apostrophes
// dropped ("White's" -> "whites"), every other non-alphanumeric run one
// space ("3-fold" -> "3 fold", "won - game abandoned" -> "won game
// abandoned"), with a space at each end so that words match as " word ".
std::string Normalise(std::string_view text) {
  std::string out = " ";
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '[' && i + 1 < text.size() && text[i + 1] == '%') {
      const size_t close = text.find(']', i);
      if (close == std::string_view::npos) break;
      i = close;
      c = ' ';
    }
    if (c == '\'') continue;
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    const bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c & 0x80);
    if (word) {
      out += c;
    } else if (out.back() != ' ') {
      out += ' ';
    }
  }
  if (out.back() != ' ') out += ' ';
  return out;
}

bool Has(const std::string& text, std::initializer_list<std::string_view> phrases) {
  for (std::string_view p : phrases)
    if (text.find(p) != std::string::npos) return true;
  return false;
}

// Who the words are about: the colour or player named first, and whether
// the verb after it makes that player the winner ("won", "wins", "mates")
// or the loser ("resigns", "forfeits", "ran out", "loses", "checkmated",
// "makes an illegal move", ...).
struct Actor {
  std::optional<Color> color;
  bool wins = false;
  std::optional<Color> Loser() const {
    if (!color) return std::nullopt;
    return wins ? ~*color : *color;
  }
};

Actor FindActor(const std::string& text, const PlayerNames& players) {
  Actor actor;
  size_t after = 0;
  // Player names first (a player called "White Knight" is a name), the
  // longer first when one name starts the other.
  const std::string white = players.white.empty() ? "" : Normalise(players.white);
  const std::string black = players.black.empty() ? "" : Normalise(players.black);
  std::array<std::pair<const std::string*, Color>, 2> names{{{&white, kWhite}, {&black, kBlack}}};
  if (black.size() > white.size()) std::swap(names[0], names[1]);
  for (const auto& [name, color] : names) {
    if (name->size() > 2 && text.starts_with(*name)) {
      actor.color = color;
      after = name->size();
      break;
    }
  }
  if (!actor.color) {
    for (auto [word, color] : {std::pair<std::string_view, Color>{" white ", kWhite},
                               {" whites ", kWhite},
                               {" black ", kBlack},
                               {" blacks ", kBlack}}) {
      if (text.starts_with(word)) {
        actor.color = color;
        after = word.size();
        break;
      }
    }
  }
  if (!actor.color) return actor;
  const std::string_view rest = std::string_view(text).substr(after);
  for (std::string_view verb : {"won ", "wins ", "win ", "mates ", "checkmates ", "is victorious "})
    if (rest.starts_with(verb)) actor.wins = true;
  return actor;
}

// What one text says; kUnrecognised when none of the phrases match.
DeclaredEnding Classify(std::string_view written, const PlayerNames& players) {
  DeclaredEnding e;
  e.text = std::string(written);
  const std::string t = Normalise(written);
  const Actor actor = FindActor(t, players);
  auto ending = [&](EndingKind kind, EndingGrounds grounds = EndingGrounds::kNone) {
    e.kind = kind;
    e.grounds = grounds;
    return e;
  };
  auto forfeit = [&](ForfeitReason reason) {
    e.forfeit = reason;
    e.loser = actor.Loser();
    return ending(EndingKind::kForfeit);
  };

  if (t == " " || t == " normal ") return ending(EndingKind::kNone);
  // An adjourned game may have ended without being resumed: "adjourned,
  // Black resigned" (Kasparov-Karpov 1984, game 32) is a resignation.
  if (Has(t, {" unterminated ", " abort", " adjourn", " not finished ", " in progress "}) &&
      !Has(t, {" resign"}))
    return ending(EndingKind::kUnterminated);
  // Claims an arbiter rules on (before the time words: "quickplay finish
  // claim, flag about to fall" is a claim).
  if (Has(t, {" quickplay finish", " quick play finish", " quickplay claim", " rapidplay finish",
              " iii 5 ", " 10 2 claim"}))
    return ending(EndingKind::kClaim, EndingGrounds::kQuickplayFinish);
  if (Has(t, {" insufficient losing chance", " 14h "}))
    return ending(EndingKind::kClaim, EndingGrounds::kInsufficientLosingChances);
  if (Has(t, {" tablebase claim", " tablebase win claim", " tablebase draw claim",
              " claimed by tablebase", " tablebase adjudication", " egtb claim",
              // Engine GUIs' tablebase adjudications (TCEC: "GUI TB Mate in 23").
              " tb mate ", " tb win ", " tb draw ", " tb loss ", " tb adjudication "}))
    return ending(EndingKind::kClaim, EndingGrounds::kTablebaseClaim);
  if (Has(t, {" both players ran out of time ", " both flags "}))
    return ending(EndingKind::kClaim, EndingGrounds::kBothFlagsFell);
  const bool on_time =
      t == " time " || t == " flag " || Has(t, {" forfeits on time ",  " forfeit on time ",
                                                " loses on time ",     " lost on time ",
                                                " lose on time ",      " wins on time ",
                                                " won on time ",       " win on time ",
                                                " drawn on time ",     " ran out of time ",
                                                " runs out of time ",  " run out of time ",
                                                " time forfeit ",      " time forfeiture ",
                                                " forfeited on time ", " timeout ",
                                                " time out ",          " timed out ",
                                                " flag fall ",         " flag fell ",
                                                " flagged ",           " time control exceeded "});
  const bool insufficient =
      Has(t, {" insufficient material ", " insufficient mating material ", " no material to mate ",
              " no mating material ", " neither player has mating material ", " dead position "});
  if (on_time) {
    e.flag_of = actor.Loser();
    return ending(EndingKind::kFlagFall, insufficient
                                             ? EndingGrounds::kTimeoutVsInsufficientMaterial
                                             : EndingGrounds::kNone);
  }
  if (Has(t, {" illegal move"})) return forfeit(ForfeitReason::kIllegalMove);
  if (Has(t, {" abandon", " disconnect", " lost connection ", " connection stall",
              " stalled connection ", " left the game ", " stalls "}))
    return forfeit(ForfeitReason::kAbandoned);
  if (Has(t, {" no show ", " did not show ", " didnt show ", " failed to appear ",
              " non appearance ", " late arrival ", " arrived late "}))
    return forfeit(ForfeitReason::kLateArrival);
  if (Has(t, {" rules infraction ", " infraction ", " fair play ", " cheat"}))
    return forfeit(ForfeitReason::kRulesInfraction);
  if (Has(t, {" resign"})) {
    e.loser = actor.Loser();
    return ending(EndingKind::kResignation);
  }
  if (insufficient) return ending(EndingKind::kClaim, EndingGrounds::kInsufficientMaterial);
  if (Has(t, {" stalemate"})) return ending(EndingKind::kClaim, EndingGrounds::kStalemate);
  if (Has(t, {" fivefold ", " 5 fold ", " five fold "}))
    return ending(EndingKind::kClaim, EndingGrounds::kFivefoldRepetition);
  if (Has(t, {" repetition", " threefold ", " 3 fold ", " three fold "}))
    return ending(EndingKind::kClaim, EndingGrounds::kThreefoldRepetition);
  if (Has(t, {" 75 move", " seventy five move"}))
    return ending(EndingKind::kClaim, EndingGrounds::kSeventyFiveMoves);
  if (Has(t, {" 50 move", " fifty move"}))
    return ending(EndingKind::kClaim, EndingGrounds::kFiftyMoves);
  // "White mates in 3" is an annotation, not an ending.
  if (Has(t, {" checkmate", " mates ", " mated ", " mate "}) &&
      !Has(t, {" mate in ", " mates in "}))
    return ending(EndingKind::kCheckmate, EndingGrounds::kCheckmate);
  if (Has(t, {" agreement ", " agreed ", " mutual ", " draw offer accepted ", " accepted draw "}))
    return ending(EndingKind::kAgreement, EndingGrounds::kAgreement);
  if (Has(t, {" adjudicat", " emergency ", " arbiter decision "}))
    return ending(EndingKind::kAdjudication);
  if (Has(t, {" forfeit", " death "})) return forfeit(ForfeitReason::kUnspecified);
  // A bare "draw", "game drawn": a draw on no named grounds.
  if (t == " draw " || t == " game drawn " || t == " drawn ") return ending(EndingKind::kAgreement);
  // "White wins", "alice won": a decisive result, no reason given.
  if (actor.color && actor.wins && Has(t, {" wins ", " won "}) && t.size() < 40)
    return ending(EndingKind::kNone);
  return ending(EndingKind::kUnrecognised);
}

// Annotators write anything in a last comment; only short ones that this
// reader recognises are taken as the record of how the game ended.
constexpr size_t kMaxClosingCommentBytes = 160;

}  // namespace

DeclaredEnding ReadDeclaredEnding(const std::string* termination, std::string_view closing_comment,
                                  const PlayerNames& players) {
  auto says_something = [](const DeclaredEnding& e) {
    return e.kind != EndingKind::kNone && e.kind != EndingKind::kUnrecognised;
  };
  std::optional<DeclaredEnding> from_tag;
  if (termination && !termination->empty()) {
    from_tag = Classify(*termination, players);
    from_tag->source = EndingSource::kTerminationTag;
  }
  std::optional<DeclaredEnding> from_comment;
  if (!closing_comment.empty() && closing_comment.size() <= kMaxClosingCommentBytes) {
    from_comment = Classify(closing_comment, players);
    from_comment->source = EndingSource::kClosingComment;
    if (!says_something(*from_comment)) from_comment.reset();
  }
  if (from_tag && says_something(*from_tag)) {
    // The tag names the ending, the comment may name the player (cutechess:
    // [Termination "time forfeit"] ... {White loses on time}).
    if (from_comment && from_comment->kind == from_tag->kind) {
      if (!from_tag->flag_of) from_tag->flag_of = from_comment->flag_of;
      if (!from_tag->loser) from_tag->loser = from_comment->loser;
    }
    return *from_tag;
  }
  if (from_comment) return *from_comment;
  if (from_tag) return *from_tag;
  return DeclaredEnding{};
}

const char* ToString(EndingKind kind) {
  switch (kind) {
    case EndingKind::kNone:
      return "none";
    case EndingKind::kUnrecognised:
      return "unrecognised";
    case EndingKind::kFlagFall:
      return "flag_fall";
    case EndingKind::kResignation:
      return "resignation";
    case EndingKind::kForfeit:
      return "forfeit";
    case EndingKind::kAgreement:
      return "agreement";
    case EndingKind::kClaim:
      return "claim";
    case EndingKind::kCheckmate:
      return "checkmate";
    case EndingKind::kAdjudication:
      return "adjudication";
    case EndingKind::kUnterminated:
      return "unterminated";
  }
  return "none";
}

const char* ToString(ForfeitReason reason) {
  switch (reason) {
    case ForfeitReason::kNone:
      return "none";
    case ForfeitReason::kIllegalMove:
      return "illegal_move";
    case ForfeitReason::kAbandoned:
      return "abandoned";
    case ForfeitReason::kLateArrival:
      return "late_arrival";
    case ForfeitReason::kRulesInfraction:
      return "rules_infraction";
    case ForfeitReason::kUnspecified:
      return "unspecified";
  }
  return "none";
}

const char* ToString(EndingGrounds grounds) {
  switch (grounds) {
    case EndingGrounds::kNone:
      return "none";
    case EndingGrounds::kCheckmate:
      return "checkmate";
    case EndingGrounds::kStalemate:
      return "stalemate";
    case EndingGrounds::kThreefoldRepetition:
      return "threefold_repetition";
    case EndingGrounds::kFivefoldRepetition:
      return "fivefold_repetition";
    case EndingGrounds::kFiftyMoves:
      return "fifty_moves";
    case EndingGrounds::kSeventyFiveMoves:
      return "seventy_five_moves";
    case EndingGrounds::kInsufficientMaterial:
      return "insufficient_material";
    case EndingGrounds::kTimeoutVsInsufficientMaterial:
      return "timeout_vs_insufficient_material";
    case EndingGrounds::kBothFlagsFell:
      return "both_flags_fell";
    case EndingGrounds::kAgreement:
      return "agreement";
    case EndingGrounds::kQuickplayFinish:
      return "quickplay_finish";
    case EndingGrounds::kInsufficientLosingChances:
      return "insufficient_losing_chances";
    case EndingGrounds::kTablebaseClaim:
      return "tablebase_claim";
  }
  return "none";
}

const char* ToString(EndingSource source) {
  switch (source) {
    case EndingSource::kNone:
      return "none";
    case EndingSource::kTerminationTag:
      return "termination_tag";
    case EndingSource::kClosingComment:
      return "closing_comment";
  }
  return "none";
}

}  // namespace arbiter
