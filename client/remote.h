// The client side of `arbiter --coordinator HOST:PORT ...`: the same
// requests the embedded engine answers, sent to a coordinator. Answers come
// back as arbiter.v1 messages and are converted to core's types, so every
// command renders them with the code of the embedded run. Implemented by
// remote.cc in the cluster build; without it (-DARBITER_CLUSTER=OFF) by
// remote_unavailable.cc, which refuses, so that the commands are the same
// source in both builds.
#pragma once

#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "client/connection.h"
#include "client/game_feed.h"
#include "core/pgn/pgn_reader.h"
#include "core/verdict/chess99_analysis.h"
#include "core/verdict/game_verdict.h"
#include "core/verdict/position_analysis.h"

namespace arbiter::cli {

enum class JobState { kRunning, kDone, kFailed, kCancelled };
// "running", "done", "failed", "cancelled". Inline: `job` reads it in
// either build, and only remote.cc is the cluster's.
inline const char* JobStateName(JobState state) {
  switch (state) {
    case JobState::kRunning:
      return "running";
    case JobState::kDone:
      return "done";
    case JobState::kFailed:
      return "failed";
    case JobState::kCancelled:
      return "cancelled";
  }
  return "unknown";
}

// A job's state as the coordinator reports it.
struct JobStatus {
  std::string id;
  JobState state = JobState::kRunning;
  std::string path;  // the uploaded file's name, or the path under --job-input-dir
  bool uploaded = false;
  int64_t input_bytes = 0;
  int64_t games_read = 0, games_done = 0, errors = 0, disagreements = 0;
  std::string error;
  std::string paused;      // why a running job makes no progress now ("" while it does)
  std::string owner;       // who submitted it ("" without tokens or a name)
  bool tablebase = false;  // submitted with tablebase probes
  double seconds = 0;
  std::string created, finished;  // RFC 3339, UTC; "" when unset
};

class RemoteArbiter {
 public:
  // OK in the cluster build. Without it, UNIMPLEMENTED saying so: what a
  // command that needs a coordinator checks first, before any other work.
  static absl::Status Available(const ConnectionOptions& options);
  // The coordinator named by --coordinator (or $ARBITER_COORDINATOR), with
  // --tls-ca and --token-file (or their variables); INVALID_ARGUMENT /
  // NOT_FOUND for unusable options or files. Connecting is lazy: a
  // coordinator that cannot be reached fails the first call, with its
  // address in the message. Without the cluster build: Available's error.
  static absl::StatusOr<std::unique_ptr<RemoteArbiter>> Connect(const ConnectionOptions& options);
  ~RemoteArbiter();

  // `tablebase`: the workers probe their own Syzygy tables. `only_side`:
  // AnalyzePosition's.
  absl::StatusOr<PositionAnalysis> Analyze(const std::string& fen, bool chess960,
                                           const std::vector<std::string>& moves,
                                           const MateSearchOptions& options, bool tablebase,
                                           std::optional<Color> only_side = std::nullopt,
                                           const std::optional<ClaimQuestion>& claim = {});
  // `analyze --rules chess99`: `fen` in FEN-9, moves in Chess 99 notation.
  absl::StatusOr<Chess99Report> AnalyzeChess99(const std::string& fen,
                                               const std::vector<std::string>& moves,
                                               const MateSearchOptions& options);

  // Sends every game `next` yields over one stream, `games_per_message` to a
  // message (1 when games trickle in, e.g. from a pipe, so that none waits
  // for the next), and calls `deliver` with the verdicts in input order.
  absl::Status Verify(const std::function<bool(RawGame*)>& next, const MateSearchOptions& options,
                      bool tablebase, int games_per_message,
                      const std::function<void(GameVerdict&)>& deliver);
  // The same with games as texts or records (client/game_feed.h): the
  // verdict of a text names the input's lines (its error_line counted from
  // the text's first_line), as an embedded run's does.
  absl::Status Verify(const std::function<bool(OutgoingGame*)>& next,
                      const MateSearchOptions& options, bool tablebase, int games_per_message,
                      const std::function<void(GameVerdict&)>& deliver);

  // A job over `file`, opened from `path` ("-": standard input), uploaded to
  // the coordinator as it is (PGN or .pgn.zst); `chess99`: its untagged
  // games are Chess 99 games (--rules chess99). A failure to read `file`
  // leaves its error indicator set (std::ferror), which tells it from the
  // coordinator's refusals.
  absl::StatusOr<JobStatus> UploadJob(std::FILE* file, const std::string& path,
                                      const MateSearchOptions& options, bool tablebase,
                                      bool chess99);
  // A job over a file under the coordinator's --job-input-dir.
  absl::StatusOr<JobStatus> SubmitServerJob(const std::string& path,
                                            const MateSearchOptions& options, bool tablebase,
                                            bool chess99);
  absl::StatusOr<JobStatus> GetJob(const std::string& id);
  // Newest first; `limit` 0: the coordinator's default.
  absl::StatusOr<std::vector<JobStatus>> ListJobs(int limit);
  absl::StatusOr<JobStatus> CancelJob(const std::string& id);
  absl::Status DeleteJob(const std::string& id);
  // Calls `update` with the job's state now and at every change until it
  // ends; returns the last state.
  absl::StatusOr<JobStatus> WatchJob(const std::string& id,
                                     const std::function<void(const JobStatus&)>& update);
  // The job's verdicts from the 1-based `first_game` on, in input order,
  // following a running job to its end.
  absl::Status JobResults(const std::string& id, int64_t first_game, bool follow,
                          const std::function<void(GameVerdict&)>& deliver);

 private:
  struct Impl;
  explicit RemoteArbiter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace arbiter::cli
