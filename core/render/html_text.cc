#include "core/render/html_text.h"

#include "core/util/text_encoding.h"

namespace arbiter {

void AppendHtmlEscaped(std::string* out, std::string_view s) {
  const char* p = s.data();
  const char* const end = p + s.size();
  while (p < end) {
    const unsigned char c = static_cast<unsigned char>(*p);
    if (c >= 0x80) {
      const int size = Utf8SequenceLength(std::string_view(p, size_t(end - p)));
      if (size > 0) {
        out->append(p, size_t(size));
        p += size;
      } else {
        *out += "\xEF\xBF\xBD";  // U+FFFD for the maximal ill-formed subpart
        p += -size;
      }
      continue;
    }
    switch (c) {
      case '&':
        *out += "&amp;";
        break;
      case '<':
        *out += "&lt;";
        break;
      case '>':
        *out += "&gt;";
        break;
      case '"':
        *out += "&quot;";
        break;
      case '\'':
        *out += "&#39;";
        break;
      case '\t':
      case '\n':
        out->push_back(char(c));
        break;
      default:
        if (c < 0x20 || c == 0x7F)
          *out += "\xEF\xBF\xBD";
        else
          out->push_back(char(c));
    }
    ++p;
  }
}

std::string HtmlEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  AppendHtmlEscaped(&out, s);
  return out;
}

}  // namespace arbiter
