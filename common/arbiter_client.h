// A client of arbiter.v1.Arbiter in the API's own messages: the `arbiter`
// command line's --coordinator mode converts what it returns to core's
// types, and the coordinator's HTTP API serves it as JSON. Errors name the
// coordinator ("coordinator HOST:PORT: ..."), except INVALID_ARGUMENT for
// Analyze, which is worded as the embedded run words it, and except for a
// client without a name (the coordinator's own HTTP side, whose callers are
// talking to that coordinator), which passes the server's words on as they
// are.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter.grpc.pb.h"
#include "core/pgn/pgn_reader.h"
#include "core/verdict/game_verdict.h"

namespace arbiter::common {

class ArbiterClient {
 public:
  // `name` is how errors name the server (its address); empty: not at all.
  ArbiterClient(std::shared_ptr<grpc::Channel> channel, std::string name);

  // Every call carries "authorization: <value>" when set (the HTTP API
  // passes its caller's header on).
  struct Call {
    std::string authorization;
  };

  absl::StatusOr<v1::Assessment> Analyze(const v1::AnalyzeRequest& request, const Call& call = {});

  // Sends every game `next` yields over one VerifyGames stream,
  // `games_per_message` to a message, and calls `deliver` with the verdicts
  // in input order, as core's; `deliver` returning false cancels the call.
  // DATA_LOSS when the verdicts do not match the games sent one for one, or
  // one does not convert (wire::FromProto).
  absl::Status Verify(const std::function<bool(RawGame*)>& next, const v1::SearchOptions& options,
                      int games_per_message, const std::function<bool(GameVerdict&)>& deliver,
                      const Call& call = {});
  // The same, with each game as `next` fills it (a record or one game's PGN
  // text; the id is set here): false after the last.
  absl::Status VerifyInputs(const std::function<bool(v1::GameInput*)>& next,
                            const v1::SearchOptions& options, int games_per_message,
                            const std::function<bool(GameVerdict&)>& deliver,
                            const Call& call = {});

  // UploadJob with the bytes `read` returns, in order, until it returns an
  // empty string; `read` failing cancels the upload with its status.
  absl::StatusOr<v1::Job> UploadJob(const std::string& name, const v1::SearchOptions& options,
                                    const std::function<absl::StatusOr<std::string>()>& read,
                                    const Call& call = {});
  absl::StatusOr<v1::Job> SubmitJob(const v1::SubmitJobRequest& request, const Call& call = {});
  absl::StatusOr<v1::Job> GetJob(const std::string& id, const Call& call = {});
  absl::StatusOr<std::vector<v1::Job>> ListJobs(int limit, const Call& call = {});
  absl::StatusOr<v1::Job> CancelJob(const std::string& id, const Call& call = {});
  absl::Status DeleteJob(const std::string& id, const Call& call = {});
  // `update` with the job's state now and at every change until it ends;
  // returns the last state.
  absl::StatusOr<v1::Job> WatchJob(const std::string& id,
                                   const std::function<void(const v1::Job&)>& update,
                                   const Call& call = {});
  // The job's verdicts from `first_game` on, those committed now or, with
  // `follow`, until a running job ends, as core's; `deliver` returning
  // false cancels the call. DATA_LOSS for a verdict that does not convert.
  absl::Status JobResults(const std::string& id, int64_t first_game, bool follow,
                          const std::function<bool(GameVerdict&)>& deliver, const Call& call = {});

  const std::string& name() const { return name_; }

 private:
  void Prepare(grpc::ClientContext& ctx, const Call& call) const;
  absl::Status Error(const grpc::Status& s) const;
  std::string Subject() const;  // "coordinator NAME", for messages
  // `verdict` as core's, or DATA_LOSS naming its game.
  absl::StatusOr<GameVerdict> Converted(const v1::GameVerdict& verdict) const;

  const std::unique_ptr<v1::Arbiter::Stub> stub_;
  const std::string name_;
};

}  // namespace arbiter::common
