// The text encoding of a game record as read (core/pgn/pgn_reader.h): UTF-8,
// or else Windows-1252, which is converted to UTF-8 so that everything
// downstream (JSON lines, the wire, error messages) handles UTF-8 only.
#pragma once

#include "core/pgn/pgn_reader.h"

namespace arbiter {

// Decides the encoding of `game` as a whole (a game is written in one
// encoding): when any of its text (tag names and values, SAN tokens, move
// comments, closing_comment, result_token) is not valid UTF-8, or when
// `other_text_invalid` says that text the reader did not keep (the comments
// it dropped) was not, all of it is read as Windows-1252 and converted to
// UTF-8 (core/util/text_encoding.h), and game->encoding becomes
// kWindows1252. Otherwise nothing changes and encoding stays as it was.
// Returns whether the game was converted.
//
// The error message quotes input bytes ("unexpected token ..."). When it is
// not valid UTF-8 it is converted with a converted game; in a game left as
// UTF-8, its ill-formed sequences (a token cut at its 40th byte, or bytes
// that appear in no kept field) become U+FFFD. It does not take part in the
// decision, since such a cut makes valid UTF-8 input look invalid.
//
// One validity scan of the game's text when it is UTF-8, ASCII eight bytes
// at a time: every game read in bulk goes through it.
bool ConvertGameToUtf8(RawGame* game, bool other_text_invalid = false);

}  // namespace arbiter
