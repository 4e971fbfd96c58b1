#include "core/util/json.h"

#include <cstdio>

namespace arbiter::json {

void AppendString(std::string* out, std::string_view s) {
  out->push_back('"');
  for (unsigned char c : s) {
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
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          *out += buf;
        } else {
          out->push_back(char(c));
        }
    }
  }
  out->push_back('"');
}

void Object::Key(std::string_view key) {
  if (text_.size() > 1) text_ += ", ";
  AppendString(&text_, key);
  text_ += ": ";
}

Object& Object::Add(std::string_view key, std::string_view value) {
  Key(key);
  AppendString(&text_, value);
  return *this;
}

Object& Object::Add(std::string_view key, int64_t value) {
  Key(key);
  text_ += std::to_string(value);
  return *this;
}

Object& Object::Add(std::string_view key, bool value) {
  Key(key);
  text_ += value ? "true" : "false";
  return *this;
}

Object& Object::AddNull(std::string_view key) {
  Key(key);
  text_ += "null";
  return *this;
}

Object& Object::AddRaw(std::string_view key, std::string_view raw) {
  Key(key);
  text_ += raw;
  return *this;
}

std::string Object::Close() { return text_ + "}"; }

}  // namespace arbiter::json
