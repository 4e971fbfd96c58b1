#include "core/pgn/record_encoding.h"

namespace arbiter {

const char* ToString(RecordEncoding e) {
  return e == RecordEncoding::kWindows1252 ? "windows-1252" : "utf-8";
}

}  // namespace arbiter
