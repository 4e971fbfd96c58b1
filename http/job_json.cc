#include "http/job_json.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "core/domain/ruleset.h"
#include "core/render/json.h"
#include "google/protobuf/util/time_util.h"
#include "proto/convert.h"

namespace arbiter::http {
namespace {

const char* StateName(v1::Job::State state) {
  switch (state) {
    case v1::Job::STATE_RUNNING:
      return "running";
    case v1::Job::STATE_DONE:
      return "done";
    case v1::Job::STATE_FAILED:
      return "failed";
    case v1::Job::STATE_CANCELLED:
      return "cancelled";
    default:
      return "unknown";  // a value this build does not know
  }
}

std::optional<std::string> Time(bool has, const google::protobuf::Timestamp& t) {
  if (!has) return std::nullopt;
  return google::protobuf::util::TimeUtil::ToString(t);
}

std::string OptionsJson(const v1::SearchOptions& o) {
  absl::StatusOr<Ruleset> rules = wire::FromProto(o.rules());
  JsonObject out;
  out.Add("budget", o.budget() ? std::optional<int64_t>(int64_t(o.budget())) : std::nullopt);
  out.Add("table_mb", o.table_mb() ? std::optional<int64_t>(o.table_mb()) : std::nullopt);
  out.Add("tablebase", o.tablebase());
  out.Add("rules", rules.ok() ? ToString(*rules) : "unknown");
  return out.Close();
}

}  // namespace

std::string JobJson(const v1::Job& j) {
  JsonObject o;
  o.Add("type", "job");
  o.Add("id", j.id());
  o.Add("state", StateName(j.state()));
  o.Add("path", j.path());
  o.Add("uploaded", j.uploaded());
  o.Add("input_bytes", j.input_bytes());
  o.Add("games_read", j.games_read());
  o.Add("games_done", j.games_done());
  o.Add("errors", j.errors());
  o.Add("disagreements", j.disagreements());
  o.AddTextOrNull("error", j.error());
  o.AddTextOrNull("paused", j.paused());
  o.AddTextOrNull("owner", j.owner());
  o.AddRaw("options", OptionsJson(j.options()));
  o.AddRaw("seconds", absl::StrCat(j.seconds()));
  o.Add("created", Time(j.has_created(), j.created()));
  o.Add("finished", Time(j.has_finished(), j.finished()));
  return o.Close();
}

std::string JobListJson(const v1::ListJobsResponse& list) {
  return JsonObject().Add("type", "jobs").AddRaw("jobs", JsonArray(list.jobs(), JobJson)).Close();
}

}  // namespace arbiter::http
