// The HTTP API's backend in `arbiter serve`: the engine in this process,
// as `arbiter verify` runs it, and jobs kept in memory. Unlike a
// coordinator's, these jobs end with the process: `serve` is the way to try
// everything on one machine, not a durable service (docs/http.md).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "common/local_engine.h"
#include "http/backend.h"

namespace arbiter::cli {

struct EmbeddedLimits {
  int threads = 1;                   // games ruled at once per run
  uint64_t max_budget = 10'000'000;  // as the coordinator's --max-budget
  std::string spool_dir = "/tmp";    // where job uploads are kept while ruled
};

class EmbeddedBackend final : public http::Backend {
 public:
  EmbeddedBackend(const LocalEngine& engine, EmbeddedLimits limits);
  ~EmbeddedBackend() override;  // cancels the running jobs and waits for them

  absl::StatusOr<v1::Assessment> Analyze(const v1::AnalyzeRequest& request) override;
  absl::Status Verify(const v1::SearchOptions& options, const std::function<bool(RawGame*)>& next,
                      const http::VerdictSink& deliver) override;
  absl::StatusOr<v1::Job> SubmitJob(const std::string& name, const v1::SearchOptions& options,
                                    const http::BodyReader& body) override;
  absl::StatusOr<v1::Job> GetJob(const std::string& id) override;
  absl::StatusOr<std::vector<v1::Job>> ListJobs(int limit) override;
  absl::StatusOr<v1::Job> CancelJob(const std::string& id) override;
  absl::Status DeleteJob(const std::string& id) override;
  absl::Status JobResults(const std::string& id, int64_t first_game,
                          const http::VerdictSink& deliver) override;
  bool Serving() override { return true; }

 private:
  struct Job;
  // Core's options for a request, within the limits.
  absl::StatusOr<MateSearchOptions> Prepare(const v1::SearchOptions& options) const;
  // Rules every game `next` yields, verdicts to `deliver` in input order,
  // until `deliver` returns false.
  void Rule(const MateSearchOptions& options, const std::function<bool(RawGame*)>& next,
            const http::VerdictSink& deliver) const;
  void RunJob(std::shared_ptr<Job> job, std::string path, MateSearchOptions options);
  absl::StatusOr<std::shared_ptr<Job>> Find(const std::string& id);

  const LocalEngine& engine_;
  const EmbeddedLimits limits_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Job>> jobs_;
};

}  // namespace arbiter::cli
