// Minimal JSON writing: enough for one-object-per-line output without a
// dependency. Values are appended in call order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace arbiter {

// Appends `s` as a JSON string literal (quotes included). The output is
// always valid UTF-8: valid UTF-8 in `s` is copied unchanged, and each
// ill-formed sequence (maximal subpart, text_encoding.h) becomes U+FFFD.
void AppendJsonString(std::string* out, std::string_view s);

// Builds one JSON object: JsonObject o; o.Add("k", 1); o.Close() -> "{...}".
class JsonObject {
 public:
  JsonObject& Add(std::string_view key, std::string_view value);
  JsonObject& Add(std::string_view key, const char* value) {
    return Add(key, std::string_view(value));
  }
  JsonObject& Add(std::string_view key, const std::string& value) {
    return Add(key, std::string_view(value));
  }
  JsonObject& Add(std::string_view key, int64_t value);
  JsonObject& Add(std::string_view key, int value) { return Add(key, int64_t(value)); }
  JsonObject& Add(std::string_view key, bool value);
  JsonObject& AddNull(std::string_view key);
  // The text, or null when it is empty (records write absent text as null).
  JsonObject& AddTextOrNull(std::string_view key, std::string_view value) {
    return value.empty() ? AddNull(key) : Add(key, value);
  }
  // The value, or null when it is absent.
  template <typename T>
  JsonObject& Add(std::string_view key, const std::optional<T>& value) {
    return value ? Add(key, *value) : AddNull(key);
  }
  // `raw` must already be valid JSON (a nested object or array).
  JsonObject& AddRaw(std::string_view key, std::string_view raw);
  std::string Close();

 private:
  void Key(std::string_view key);
  std::string text_ = "{";
};

// Joins already-encoded JSON values into an array.
template <typename Range, typename Encode>
std::string JsonArray(const Range& items, Encode encode) {
  std::string out = "[";
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += ", ";
    first = false;
    out += encode(item);
  }
  return out + "]";
}

inline std::string JsonQuote(std::string_view s) {
  std::string out;
  AppendJsonString(&out, s);
  return out;
}

}  // namespace arbiter
