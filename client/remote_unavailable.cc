// RemoteArbiter in the build without the cluster (-DARBITER_CLUSTER=OFF),
// instead of remote.cc: there is no gRPC to reach a coordinator with. The
// commands keep --coordinator, so that one given it says that this build
// cannot reach a coordinator, rather than that the option is unknown; every
// way in refuses with the same message. Connect never succeeds, so no other
// method is reached: they refuse too because they must link.
#include "absl/strings/str_cat.h"
#include "client/remote.h"

namespace arbiter::cli {

namespace {

constexpr char kNotBuilt[] =
    "--coordinator needs the cluster build (this arbiter was built with -DARBITER_CLUSTER=OFF)";

absl::Status NotBuilt() { return absl::UnimplementedError(kNotBuilt); }

}  // namespace

// A coordinator that comes from the environment was not asked for on this
// command line: say where it comes from.
absl::Status RemoteArbiter::Available(const ConnectionOptions& options) {
  if (!options.coordinator && !CoordinatorFrom(options).empty())
    return absl::UnimplementedError(absl::StrCat("$ARBITER_COORDINATOR is set, but ", kNotBuilt));
  return NotBuilt();
}

struct RemoteArbiter::Impl {};

RemoteArbiter::~RemoteArbiter() = default;

absl::StatusOr<std::unique_ptr<RemoteArbiter>> RemoteArbiter::Connect(
    const ConnectionOptions& options) {
  return Available(options);
}

absl::StatusOr<PositionAnalysis> RemoteArbiter::Analyze(const std::string&, bool,
                                                        const std::vector<std::string>&,
                                                        const MateSearchOptions&, bool,
                                                        std::optional<Color>,
                                                        const std::optional<ClaimQuestion>&) {
  return NotBuilt();
}

absl::StatusOr<Chess99Report> RemoteArbiter::AnalyzeChess99(const std::string&,
                                                            const std::vector<std::string>&,
                                                            const MateSearchOptions&) {
  return NotBuilt();
}

absl::Status RemoteArbiter::Verify(const std::function<bool(RawGame*)>&, const MateSearchOptions&,
                                   bool, int, const std::function<void(GameVerdict&)>&) {
  return NotBuilt();
}

absl::Status RemoteArbiter::Verify(const std::function<bool(OutgoingGame*)>&,
                                   const MateSearchOptions&, bool, int,
                                   const std::function<void(GameVerdict&)>&) {
  return NotBuilt();
}

absl::StatusOr<JobStatus> RemoteArbiter::UploadJob(std::FILE*, const std::string&,
                                                   const MateSearchOptions&, bool, bool) {
  return NotBuilt();
}

absl::StatusOr<JobStatus> RemoteArbiter::SubmitServerJob(const std::string&,
                                                         const MateSearchOptions&, bool, bool) {
  return NotBuilt();
}

absl::StatusOr<JobStatus> RemoteArbiter::GetJob(const std::string&) { return NotBuilt(); }

absl::StatusOr<std::vector<JobStatus>> RemoteArbiter::ListJobs(int) { return NotBuilt(); }

absl::StatusOr<JobStatus> RemoteArbiter::CancelJob(const std::string&) { return NotBuilt(); }

absl::Status RemoteArbiter::DeleteJob(const std::string&) { return NotBuilt(); }

absl::StatusOr<JobStatus> RemoteArbiter::WatchJob(const std::string&,
                                                  const std::function<void(const JobStatus&)>&) {
  return NotBuilt();
}

absl::Status RemoteArbiter::JobResults(const std::string&, int64_t, bool,
                                       const std::function<void(GameVerdict&)>&) {
  return NotBuilt();
}

}  // namespace arbiter::cli
