#include "core/render/json.h"

#include <cstdio>

#include "core/util/text_encoding.h"

namespace arbiter {

void AppendJsonString(std::string* out, std::string_view s) {
  out->push_back('"');
  // Bytes that need no escape are copied in runs; valid UTF-8 is copied as
  // it is, and each ill-formed sequence becomes U+FFFD, so that the output
  // is always valid UTF-8 (game_encoding.h converts game text beforehand;
  // this is the last line of defence, for error messages quoting raw input
  // and any other text).
  const char* p = s.data();
  const char* const end = p + s.size();
  const char* run = p;
  while (p < end) {
    const unsigned char c = static_cast<unsigned char>(*p);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++p;
      continue;
    }
    if (c >= 0x80) {
      const int size = Utf8SequenceLength(std::string_view(p, size_t(end - p)));
      if (size > 0) {
        p += size;
        continue;
      }
      out->append(run, p);
      *out += "\xEF\xBF\xBD";  // U+FFFD
      p += -size;
      run = p;
      continue;
    }
    out->append(run, p);
    switch (c) {
      case '"':
        *out += "\\\"";
        break;
      case '\\':
        *out += "\\\\";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\r':
        *out += "\\r";
        break;
      case '\t':
        *out += "\\t";
        break;
      default: {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        *out += buf;
      }
    }
    run = ++p;
  }
  out->append(run, p);
  out->push_back('"');
}

void JsonObject::Key(std::string_view key) {
  if (text_.size() > 1) text_ += ", ";
  AppendJsonString(&text_, key);
  text_ += ": ";
}

JsonObject& JsonObject::Add(std::string_view key, std::string_view value) {
  Key(key);
  AppendJsonString(&text_, value);
  return *this;
}

JsonObject& JsonObject::Add(std::string_view key, int64_t value) {
  Key(key);
  text_ += std::to_string(value);
  return *this;
}

JsonObject& JsonObject::Add(std::string_view key, bool value) {
  Key(key);
  text_ += value ? "true" : "false";
  return *this;
}

JsonObject& JsonObject::AddNull(std::string_view key) {
  Key(key);
  text_ += "null";
  return *this;
}

JsonObject& JsonObject::AddRaw(std::string_view key, std::string_view raw) {
  Key(key);
  text_ += raw;
  return *this;
}

std::string JsonObject::Close() { return text_ + "}"; }

}  // namespace arbiter
