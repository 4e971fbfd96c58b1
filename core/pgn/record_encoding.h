// How a game record's text was read: as UTF-8, or as Windows-1252 (which
// covers Latin-1) converted to UTF-8 (core/pgn/game_encoding.h). Every
// field downstream is UTF-8 either way; this says what the source was.
#pragma once

#include <cstdint>

namespace arbiter {

enum class RecordEncoding : uint8_t { kUtf8, kWindows1252 };
const char* ToString(RecordEncoding e);  // "utf-8", "windows-1252"

}  // namespace arbiter
