// The HTTP API's JSON: arbiter.v1 messages in the protobuf JSON mapping
// (field names as in the .proto files, every field printed, enums by
// name), and errors in one shape:
//   {"error": {"code": 400, "status": "INVALID_ARGUMENT", "message": "..."}}
// with the HTTP status that Google's APIs give each gRPC code.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "google/protobuf/message.h"

namespace arbiter::http {

// One line of JSON, no newline.
std::string ToJson(const google::protobuf::Message& message);

// Parses `json` into `message`: INVALID_ARGUMENT naming `what` and the
// parser's complaint (an unknown field, a wrong type) otherwise.
absl::Status FromJson(const std::string& json, const std::string& what,
                      google::protobuf::Message* message);

// The HTTP status for a failed call (400, 401, 403, 404, 409, 413, 429, 500,
// 501, 503, 504).
int HttpStatusOf(const absl::Status& status);

// {"error": {...}} for a failed call, no newline; `http_status` when the
// HTTP status is not HttpStatusOf's (413 for a body over the limit).
std::string ErrorJson(const absl::Status& status, int http_status = 0);

}  // namespace arbiter::http
