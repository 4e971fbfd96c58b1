// Text inside HTML (and the SVG within it): everything a game record holds
// is untrusted, so every piece of text goes through here on its way out.
#pragma once

#include <string>
#include <string_view>

namespace arbiter {

// Appends `s` with & < > " ' as character references, ill-formed UTF-8 and
// control characters (other than tab and newline) as U+FFFD: safe in
// element content and in quoted attribute values alike.
void AppendHtmlEscaped(std::string* out, std::string_view s);
std::string HtmlEscape(std::string_view s);

}  // namespace arbiter
