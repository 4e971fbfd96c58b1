#include "core/pgn/record_encoding.h"

namespace arbiter {

const char* ToString(RecordEncoding e) {
  return e == RecordEncoding::kWindows1252 ? "windows-1252" : "utf-8";
}

std::optional<RecordEncoding> ParseRecordEncoding(std::string_view text) {
  for (RecordEncoding e : {RecordEncoding::kUtf8, RecordEncoding::kWindows1252})
    if (text == ToString(e)) return e;
  return std::nullopt;
}

}  // namespace arbiter
