#include "client/serve_backend.h"

namespace arbiter::cli {

absl::StatusOr<v1::Assessment> ServeBackend::Analyze(const v1::AnalyzeRequest& request) {
  if (absl::Status s = coordinator::CheckAnalyzeRequest(limits_, request); !s.ok()) return s;
  return worker_.AnalyzeHere(request);
}

absl::Status ServeBackend::Verify(const v1::SearchOptions& options,
                                  const std::function<bool(RawGame*)>& next,
                                  const http::VerdictSink& deliver) {
  if (absl::Status s = coordinator::CheckOptions(limits_, options); !s.ok()) return s;
  return worker_.VerifyHere(options, next, deliver);
}

}  // namespace arbiter::cli
