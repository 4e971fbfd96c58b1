// The HTTP API's JSON: assessments as `arbiter` writes them (the records of
// core/render, docs/schema/), read back from the arbiter.v1 messages the
// backend answers with (verdicts come as core's and are written by
// core/render/game_verdict_json.h); request bodies as the query's
// parameters; and failures in one shape:
//   {"type": "failure", "error": {"code": 400, "status": "INVALID_ARGUMENT",
//    "message": "..."}}
// with the HTTP status that Google's APIs give each gRPC code.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/verdict.pb.h"
#include "http/query.h"

namespace arbiter::http {

// The record `analyze --json` writes for the assessment (chess or Chess 99).
absl::StatusOr<std::string> AssessmentRecord(const v1::Assessment& assessment);

// A JSON object body read as query parameters (`POST /v1/analyze`): each
// key a parameter of the GET form, its value a string, number or boolean,
// or for `moves` also an array of strings. INVALID_ARGUMENT naming `what`
// for anything else: not an object, a key the form does not have
// (`known`), a value of another type.
absl::StatusOr<QueryLookup> QueryFromJsonBody(const std::string& json, const std::string& what,
                                              const std::vector<std::string>& known);

// The HTTP status for a failed call (400, 401, 403, 404, 409, 413, 429, 500,
// 501, 503, 504).
int HttpStatusOf(const absl::Status& status);

// {"error": {...}} for a failed call, no newline; `http_status` when the
// HTTP status is not HttpStatusOf's (413 for a body over the limit).
std::string ErrorJson(const absl::Status& status, int http_status = 0);

}  // namespace arbiter::http
