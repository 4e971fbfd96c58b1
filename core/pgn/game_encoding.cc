#include "core/pgn/game_encoding.h"

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "core/util/text_encoding.h"

namespace arbiter {
namespace {

bool TextIsAscii(const RawGame& game) {
  // The bytes of every field ORed together: no branch per field.
  using text_encoding_internal::OrOfBytes;
  uint64_t seen = OrOfBytes(game.closing_comment) | OrOfBytes(game.result_token);
  for (const auto& [name, value] : game.tags) seen |= OrOfBytes(name) | OrOfBytes(value);
  for (const RawMove& move : game.moves) seen |= OrOfBytes(move.san) | OrOfBytes(move.comment);
  return (seen & text_encoding_internal::kHighBits) == 0;
}

bool TextIsValidUtf8(const RawGame& game) {
  if (TextIsAscii(game)) return true;
  for (const auto& [name, value] : game.tags)
    if (!IsValidUtf8(name) || !IsValidUtf8(value)) return false;
  for (const RawMove& move : game.moves)
    if (!IsValidUtf8(move.san) || !IsValidUtf8(move.comment)) return false;
  return IsValidUtf8(game.closing_comment) && IsValidUtf8(game.result_token);
}

void Convert(std::string* text) {
  // ASCII reads the same in both: no copy.
  if (!IsAscii(*text)) *text = Windows1252ToUtf8(*text);
}

// The error's message made valid UTF-8 by `fix`, with the same code.
template <typename Fix>
void FixErrorMessage(absl::Status* error, Fix fix) {
  if (error->ok()) return;
  // (Debian's absl::string_view is not std::string_view.)
  const std::string_view message(error->message().data(), error->message().size());
  if (!IsValidUtf8(message)) *error = absl::Status(error->code(), fix(message));
}

}  // namespace

bool ConvertGameToUtf8(RawGame* game, bool other_text_invalid) {
  if (!other_text_invalid && TextIsValidUtf8(*game)) {
    FixErrorMessage(&game->error, ReplaceInvalidUtf8);
    return false;
  }
  for (auto& [name, value] : game->tags) {
    Convert(&name);
    Convert(&value);
  }
  for (RawMove& move : game->moves) {
    Convert(&move.san);
    Convert(&move.comment);
  }
  Convert(&game->closing_comment);
  Convert(&game->result_token);
  // Windows-1252 text, converted, is valid UTF-8: the message was read from
  // the same bytes.
  FixErrorMessage(&game->error, Windows1252ToUtf8);
  game->encoding = RecordEncoding::kWindows1252;
  return true;
}

}  // namespace arbiter
