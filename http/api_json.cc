#include "http/api_json.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/render/chess99_report.h"
#include "core/render/json.h"
#include "core/render/report.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "proto/convert.h"

namespace arbiter::http {

absl::StatusOr<std::string> AssessmentRecord(const v1::Assessment& assessment) {
  if (assessment.has_chess99()) {
    absl::StatusOr<Chess99Report> report = wire::Chess99FromProto(assessment);
    if (!report.ok()) return report.status();
    return Chess99ReportJson(*report);
  }
  absl::StatusOr<PositionAnalysis> analysis = wire::FromProto(assessment);
  if (!analysis.ok()) return analysis.status();
  return AssessmentJson(*analysis);
}

absl::StatusOr<QueryLookup> QueryFromJsonBody(const std::string& json, const std::string& what,
                                              const std::vector<std::string>& known) {
  google::protobuf::Struct body;
  google::protobuf::util::JsonParseOptions options;
  if (const auto s = google::protobuf::util::JsonStringToMessage(json, &body, options); !s.ok())
    return absl::InvalidArgumentError(
        absl::StrCat(what, " is not a JSON object: ", s.message().ToString()));
  auto values = std::make_shared<std::map<std::string, std::string>>();
  for (const auto& [key, value] : body.fields()) {
    if (std::find(known.begin(), known.end(), key) == known.end())
      return absl::InvalidArgumentError(
          absl::StrCat(what, ": unknown key \"", key, "\" (", absl::StrJoin(known, ", "), ")"));
    std::string text;
    switch (value.kind_case()) {
      case google::protobuf::Value::kStringValue:
        text = value.string_value();
        break;
      case google::protobuf::Value::kBoolValue:
        text = value.bool_value() ? "true" : "false";
        break;
      case google::protobuf::Value::kNumberValue: {
        const double d = value.number_value();
        if (d != std::floor(d) || std::abs(d) > 9007199254740992.0)
          return absl::InvalidArgumentError(
              absl::StrCat(what, ": \"", key, "\" must be an integer"));
        text = absl::StrCat(int64_t(d));
        break;
      }
      case google::protobuf::Value::kListValue:
        if (key == "moves") {
          for (const google::protobuf::Value& m : value.list_value().values()) {
            if (m.kind_case() != google::protobuf::Value::kStringValue)
              return absl::InvalidArgumentError(
                  absl::StrCat(what, ": \"moves\" must be UCI strings"));
            absl::StrAppend(&text, text.empty() ? "" : " ", m.string_value());
          }
          break;
        }
        [[fallthrough]];
      default:
        return absl::InvalidArgumentError(
            absl::StrCat(what, ": \"", key, "\" must be a string, number or boolean"));
    }
    (*values)[key] = std::move(text);
  }
  return QueryLookup([values](const std::string& name) -> std::optional<std::string> {
    auto it = values->find(name);
    if (it == values->end()) return std::nullopt;
    return it->second;
  });
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
  JsonObject error;
  error.Add("code", int64_t(http_status ? http_status : HttpStatusOf(status)));
  error.Add("status", absl::StatusCodeToString(status.code()));
  error.Add("message", std::string(status.message()));
  return JsonObject().Add("type", "failure").AddRaw("error", error.Close()).Close();
}

}  // namespace arbiter::http
