#include "http/api_json.h"

#include "absl/strings/str_cat.h"
#include "core/render/json.h"
#include "google/protobuf/util/json_util.h"

namespace arbiter::http {

std::string ToJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  // The names of the .proto files, as `arbiter --json` and the Lichess
  // tablebase API spell them; every field, so that `false` and 0 show.
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  std::string out;
  // Fails only for messages that cannot be printed (an Any of an unknown
  // type); the API has none.
  (void)google::protobuf::util::MessageToJsonString(message, &out, options);
  return out;
}

absl::Status FromJson(const std::string& json, const std::string& what,
                      google::protobuf::Message* message) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;  // a misspelt field is an error, not a default
  const auto s = google::protobuf::util::JsonStringToMessage(json, message, options);
  if (s.ok()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(what, ": ", s.message().ToString()));
}

int HttpStatusOf(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kOk:
      return 200;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
      return 400;
    case absl::StatusCode::kUnauthenticated:
      return 401;
    case absl::StatusCode::kPermissionDenied:
      return 403;
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kAborted:
      return 409;
    case absl::StatusCode::kResourceExhausted:
      return 429;
    case absl::StatusCode::kCancelled:
      return 499;
    case absl::StatusCode::kUnimplemented:
      return 501;
    case absl::StatusCode::kUnavailable:
      return 503;
    case absl::StatusCode::kDeadlineExceeded:
      return 504;
    default:
      return 500;
  }
}

std::string ErrorJson(const absl::Status& status, int http_status) {
  json::Object error;
  error.Add("code", int64_t(http_status ? http_status : HttpStatusOf(status)));
  error.Add("status", absl::StatusCodeToString(status.code()));
  error.Add("message", std::string(status.message()));
  return json::Object().AddRaw("error", error.Close()).Close();
}

}  // namespace arbiter::http
