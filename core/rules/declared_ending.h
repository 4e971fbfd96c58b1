// How a game record says the game ended, read from the words its source
// used. Every site writes it differently:
//
//   Lichess          [Termination "Time forfeit"] / "Normal" / "Abandoned" /
//                    "Rules infraction" / "Unterminated"
//   Chess.com        [Termination "alice won on time"] / "... won by
//                    resignation" / "... won - game abandoned" / "Game drawn
//                    by repetition" / "Game drawn by timeout vs insufficient
//                    material" / ...
//   FICS, ICC        a closing comment: {Black forfeits on time} 0-1,
//                    {White resigns}, {Game drawn by mutual agreement},
//                    {White ran out of time and Black has no material to
//                    mate}, {Black forfeits by disconnection}, ...
//   cutechess-cli,   [Termination "time forfeit" / "adjudication" /
//   fastchess        "illegal move" / "stalled connection" / "timeout"] and
//                    {White loses on time}, {Draw by 3-fold repetition},
//                    {Black makes an illegal move: e7e4}, ...
//   CCRL / Arena     {White wins on time}, {Xboard adjudication: ...},
//                    {3-Fold repetition}, {50 moves rule}, ...
//   PGN standard     abandoned, adjudication, death, emergency, normal,
//                    rules infraction, time forfeit, unterminated
//   OTB files        usually nothing: the result alone.
//
// The Termination tag is read first; when it says nothing specific ("Normal",
// absent, or words not understood) the closing comment is read. Words that
// neither source makes sense of are never guessed at: the ending is
// kUnrecognised, and the ruling falls back to the result alone (a decisive
// result is a resignation, a draw an agreement), saying so in the record.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/chess/types.h"

namespace arbiter {

enum class EndingKind {
  kNone,          // nothing said (no tag, "Normal", an OTB file): the result alone
  kUnrecognised,  // words this reader does not understand: the result alone
  kFlagFall,      // a flag fell (6.9)
  kResignation,   // 5.1.2
  kForfeit,       // lost for another reason than the board or the clock
  kAgreement,     // a draw agreed (9.1)
  kClaim,         // a draw (or an ending) on named grounds: see EndingGrounds
  kCheckmate,     // the record says checkmate (the board decides)
  kAdjudication,  // decided by an arbiter or an engine-match adjudicator
  kUnterminated,  // not finished: aborted, adjourned, unterminated
};

// Why a player forfeited: decides the article and whether the Laws' "unless
// the opponent cannot checkmate" exception applies.
enum class ForfeitReason {
  kNone,
  kIllegalMove,      // 7.5.5: exception applies
  kAbandoned,        // left or lost the connection: online, the absent
                     // player's clock runs out, so 6.9 and its exception
  kLateArrival,      // 6.7.1 (default time): no exception
  kRulesInfraction,  // 12.9 (an arbiter's penalty): no exception
  kUnspecified,      // "forfeit", "death", ...: as 12.9
};

// The grounds a record names for its ending.
enum class EndingGrounds {
  kNone,
  kCheckmate,
  kStalemate,
  kThreefoldRepetition,
  kFivefoldRepetition,
  kFiftyMoves,
  kSeventyFiveMoves,
  kInsufficientMaterial,
  kTimeoutVsInsufficientMaterial,
  kBothFlagsFell,
  kAgreement,
  // Claims an arbiter decides on the position (core/verdict/claim_verdict.h).
  kQuickplayFinish,            // FIDE Guidelines III.5
  kInsufficientLosingChances,  // US Chess 14H
  kTablebaseClaim,             // ICCF
};

// Where the words came from.
enum class EndingSource { kNone, kTerminationTag, kClosingComment };

struct DeclaredEnding {
  EndingKind kind = EndingKind::kNone;
  ForfeitReason forfeit = ForfeitReason::kNone;
  EndingGrounds grounds = EndingGrounds::kNone;
  // Whose flag fell (kFlagFall, or grounds kTimeoutVsInsufficientMaterial),
  // when the words say ("White forfeits on time", "alice won on time").
  std::optional<Color> flag_of;
  // Who lost (resigned, forfeited), when the words say.
  std::optional<Color> loser;
  EndingSource source = EndingSource::kNone;
  std::string text;  // the words read, as written
};

// The player names (the White and Black tags, or empty) let "alice won on
// time" name a colour.
struct PlayerNames {
  std::string_view white;
  std::string_view black;
};

// `termination`: the Termination tag or null; `closing_comment`: the
// movetext's last comment when no move follows it (RawGame::closing_comment).
DeclaredEnding ReadDeclaredEnding(const std::string* termination, std::string_view closing_comment,
                                  const PlayerNames& players);

// Lower-case snake names for records: "flag_fall", "threefold_repetition",
// "illegal_move", "termination_tag", ...
const char* ToString(EndingKind kind);
const char* ToString(ForfeitReason reason);
const char* ToString(EndingGrounds grounds);
const char* ToString(EndingSource source);

}  // namespace arbiter
