// The HTTP API's own parsing (http/query.h, http/api_json.h): what a client
// controls before any ruling starts. The input is a query string, a newline,
// then a request body:
//   - the query ("name=value&...", as the server hands it over decoded) is
//     read into an AnalyzeRequest: either an error naming a parameter, or a
//     request with a FEN whose options the wire conversion accepts or
//     refuses as the worker would;
//   - the body is read as POST /v1/analyze reads it (QueryFromJsonBody):
//     a JSON object of the query's parameters, then the same request as
//     the query's, or an error naming what is wrong;
//   - every error's JSON (ErrorJson), whatever bytes its message quotes,
//     is valid JSON: it parses as a google.protobuf.Struct.
#include <map>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "fuzz/fuzz_support.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "http/api_json.h"
#include "http/query.h"
#include "proto/convert.h"

namespace arbiter::fuzz {
namespace {

// ErrorJson's output must be JSON, whatever the message holds.
void CheckErrorJson(const absl::Status& status) {
  google::protobuf::Struct parsed;
  const std::string json = http::ErrorJson(status);
  ARBITER_FUZZ_CHECK(google::protobuf::util::JsonStringToMessage(json, &parsed).ok(),
                     absl::StrCat("ErrorJson wrote what is not JSON: ", json));
}

}  // namespace

void HttpTarget(std::string_view input) {
  const size_t newline = input.find('\n');
  const std::string_view query = input.substr(0, newline);
  const std::string body(newline == std::string_view::npos ? "" : input.substr(newline + 1));

  std::map<std::string, std::string> params;
  for (absl::string_view pair :
       absl::StrSplit(absl::string_view(query.data(), query.size()), '&', absl::SkipEmpty())) {
    const size_t eq = pair.find('=');
    params.emplace(std::string(pair.substr(0, eq)),
                   eq == absl::string_view::npos ? "" : std::string(pair.substr(eq + 1)));
  }
  const http::QueryLookup lookup = [&](const std::string& name) -> std::optional<std::string> {
    auto it = params.find(name);
    if (it == params.end()) return std::nullopt;
    return it->second;
  };
  absl::StatusOr<v1::AnalyzeRequest> request = http::AnalyzeRequestFromQuery(lookup);
  if (request.ok()) {
    ARBITER_FUZZ_CHECK(!request->fen().empty(), "a request without a FEN was accepted");
    (void)wire::FromProto(request->options());  // accepts or refuses; never crashes
  } else {
    ARBITER_FUZZ_CHECK(
        absl::StrContains(request.status().message(), "query parameter"),
        absl::StrCat("an error that names no parameter: ", request.status().message()));
    CheckErrorJson(request.status());
  }

  absl::StatusOr<http::QueryLookup> fields =
      http::QueryFromJsonBody(body, "body", http::AnalyzeParameters());
  if (!fields.ok()) {
    CheckErrorJson(fields.status());
    return;
  }
  absl::StatusOr<v1::AnalyzeRequest> posted = http::AnalyzeRequestFromQuery(*fields);
  if (posted.ok()) {
    ARBITER_FUZZ_CHECK(!posted->fen().empty(), "a posted request without a FEN was accepted");
    (void)wire::FromProto(posted->options());
  } else {
    CheckErrorJson(posted.status());
  }
}

}  // namespace arbiter::fuzz

#ifndef ARBITER_FUZZ_REGRESSION_TEST  // the regression test calls HttpTarget by name
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  arbiter::fuzz::HttpTarget(arbiter::fuzz::AsText(data, size));
  return 0;
}
#endif
