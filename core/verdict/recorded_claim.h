// Claims a game record makes in its movetext: the [%claim] comment command
// (docs/rulings.md, "Claims"). Read here; judged by claims_in_game.h.
#pragma once

#include <optional>
#include <string_view>

#include "core/chess/types.h"
#include "core/domain/claim.h"

namespace arbiter {

// A claim the record's movetext makes: a comment command
//   {[%claim KIND]}, {[%claim KIND white|black]}, {[%claim tablebase_claim win]}
// (KIND: quickplay_finish, insufficient_losing_chances, tablebase_claim)
// after a move, made in the position that move leaves.
struct RecordedClaim {
  int ply = 0;  // after this many plies
  ClaimKind kind = ClaimKind::kQuickplayFinish;
  std::optional<Color> claimant;          // unset: the side to move
  std::optional<ClaimedOutcome> claimed;  // unset: a draw
};

// Reads the [%claim ...] command of a move comment; nullopt when there is
// none or it names no claim this reader knows (words not understood are
// never guessed at).
std::optional<RecordedClaim> ReadClaimCommand(std::string_view comment, int ply);

}  // namespace arbiter
