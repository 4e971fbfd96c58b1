#include "http/api_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <memory>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/render/chess99_report.h"
#include "core/render/game_verdict_json.h"
#include "core/render/json.h"
#include "core/render/report.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/timestamp.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/time_util.h"
#include "proto/convert.h"

namespace arbiter::http {

namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

void AppendMessage(const Message& m, std::string* out);

// A double as the JSON mapping writes it: the shortest text that reads back
// to the same value; NaN and the infinities as strings.
void AppendDouble(double d, std::string* out) {
  if (std::isnan(d)) {
    out->append("\"NaN\"");
    return;
  }
  if (std::isinf(d)) {
    out->append(d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    return;
  }
  char buf[32];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, d);
  out->append(buf, r.ptr);
}

// The value of `f` in `m` (element `i` when repeated, else i < 0).
void AppendValue(const Message& m, const FieldDescriptor* f, int i, std::string* out) {
  const Reflection* r = m.GetReflection();
  const bool rep = i >= 0;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return absl::StrAppend(out, rep ? r->GetRepeatedInt32(m, f, i) : r->GetInt32(m, f));
    case FieldDescriptor::CPPTYPE_UINT32:
      return absl::StrAppend(out, rep ? r->GetRepeatedUInt32(m, f, i) : r->GetUInt32(m, f));
    // 64-bit integers are strings in the JSON mapping (JavaScript's numbers
    // hold 53 bits).
    case FieldDescriptor::CPPTYPE_INT64:
      return absl::StrAppend(out, "\"", rep ? r->GetRepeatedInt64(m, f, i) : r->GetInt64(m, f),
                             "\"");
    case FieldDescriptor::CPPTYPE_UINT64:
      return absl::StrAppend(out, "\"", rep ? r->GetRepeatedUInt64(m, f, i) : r->GetUInt64(m, f),
                             "\"");
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return AppendDouble(rep ? r->GetRepeatedDouble(m, f, i) : r->GetDouble(m, f), out);
    case FieldDescriptor::CPPTYPE_FLOAT:
      return AppendDouble(rep ? r->GetRepeatedFloat(m, f, i) : r->GetFloat(m, f), out);
    case FieldDescriptor::CPPTYPE_BOOL:
      out->append((rep ? r->GetRepeatedBool(m, f, i) : r->GetBool(m, f)) ? "true" : "false");
      return;
    case FieldDescriptor::CPPTYPE_ENUM: {
      const int number = rep ? r->GetRepeatedEnumValue(m, f, i) : r->GetEnumValue(m, f);
      if (const auto* value = f->enum_type()->FindValueByNumber(number))
        return AppendJsonString(out, value->name());
      return absl::StrAppend(out, number);  // a value this build does not know
    }
    case FieldDescriptor::CPPTYPE_STRING: {
      std::string scratch;
      const std::string& text = rep ? r->GetRepeatedStringReference(m, f, i, &scratch)
                                    : r->GetStringReference(m, f, &scratch);
      if (f->type() == FieldDescriptor::TYPE_BYTES)
        return AppendJsonString(out, absl::Base64Escape(text));
      return AppendJsonString(out, text);
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      return AppendMessage(rep ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f), out);
  }
}

// A message as the JSON mapping writes it (field names as in the .proto,
// every field without presence printed, enums by name); a Timestamp as its
// RFC 3339 text.
void AppendMessage(const Message& m, std::string* out) {
  const google::protobuf::Descriptor* d = m.GetDescriptor();
  if (d->full_name() == "google.protobuf.Timestamp") {
    return AppendJsonString(out, google::protobuf::util::TimeUtil::ToString(
                                     static_cast<const google::protobuf::Timestamp&>(m)));
  }
  const Reflection* r = m.GetReflection();
  out->push_back('{');
  bool first = true;
  for (int k = 0; k < d->field_count(); ++k) {
    const FieldDescriptor* f = d->field(k);
    // Fields with presence (messages, `optional`, oneof members) only when
    // set; the rest always, so that a false or a 0 shows.
    if (!f->is_repeated() && f->has_presence() && !r->HasField(m, f)) continue;
    if (!first) out->push_back(',');
    first = false;
    AppendJsonString(out, f->name());
    out->push_back(':');
    if (!f->is_repeated()) {
      AppendValue(m, f, -1, out);
      continue;
    }
    out->push_back('[');
    for (int i = 0, n = r->FieldSize(m, f); i < n; ++i) {
      if (i) out->push_back(',');
      AppendValue(m, f, i, out);
    }
    out->push_back(']');
  }
  out->push_back('}');
}

}  // namespace

// Written here rather than with protobuf's MessageToJsonString, which
// converts through the binary form and a type resolver: it cost more than
// ruling the game (callgrind, 2,000 verdicts: 1.37 G instructions against
// 1.06 G for VerifyGame). The output parses back to the same message with
// protobuf's own parser (tests/http_json_test.cc).
std::string ToJson(const google::protobuf::Message& message) {
  std::string out;
  out.reserve(1024);
  AppendMessage(message, &out);
  return out;
}

absl::StatusOr<std::string> VerdictRecord(const v1::GameVerdict& message, VerdictSummary* summary) {
  absl::StatusOr<GameVerdict> verdict = wire::FromProto(message);
  if (!verdict.ok()) return verdict.status();
  summary->Add(*verdict);
  return GameVerdictJson(*verdict);
}

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
  JsonObject error;
  error.Add("code", int64_t(http_status ? http_status : HttpStatusOf(status)));
  error.Add("status", absl::StatusCodeToString(status.code()));
  error.Add("message", std::string(status.message()));
  return JsonObject().Add("type", "failure").AddRaw("error", error.Close()).Close();
}

}  // namespace arbiter::http
