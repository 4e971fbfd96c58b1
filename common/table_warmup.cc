#include "common/table_warmup.h"

#include <cstdio>

#include "absl/strings/str_cat.h"

namespace arbiter::common {

TableWarmup::TableWarmup(RetrogradeSolver* solver, std::string role)
    : solver_(solver), role_(std::move(role)) {
  if (solver_)
    for (const std::string& signature : AllRetrogradeSignatures())
      if (!solver_->Holds(signature)) missing_.push_back(signature);
  total_ = missing_.size();
  if (missing_.empty()) {
    if (solver_) digest_ = solver_->digest();
    ready_ = true;
    return;
  }
  const std::string kept =
      solver_->cache_dir().empty()
          ? std::string("kept in memory only: --tables is off")
          : absl::StrCat("saved in ", solver_->cache_dir(), " for the next start");
  std::fprintf(
      stderr,
      "%s: building %zu retrograde tables before ruling (%s); rulings are refused until then\n",
      role_.c_str(), missing_.size(), kept.c_str());
  builder_ = std::thread([this] { Build(); });
}

TableWarmup::~TableWarmup() {
  stopping_ = true;
  if (builder_.joinable()) builder_.join();
}

void TableWarmup::Build() {
  // Every core (the solver's generation threads), each table after its
  // sub-tables; a stop lets the tables under way finish (seconds).
  const absl::Status built = solver_->Obtain(missing_, [this](const RetrogradeTableOutcome& t) {
    // A table that fails here is not retried: the request that needs it
    // gets the solver's error (a damaged file, say), which names the cause.
    if (!t.status.ok())
      std::fprintf(stderr, "%s: retrograde table %s: %s\n", role_.c_str(), t.signature.c_str(),
                   std::string(t.status.message()).c_str());
    std::lock_guard<std::mutex> lock(mu_);
    ++built_;
    return !stopping_.load();
  });
  if (stopping_) return;
  (void)built;  // each failure was logged above
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string digest = solver_->digest();
  std::fprintf(stderr, "%s: %zu retrograde tables built in %.1f s; ruling now with %s\n",
               role_.c_str(), total_, seconds, digest.c_str());
  {
    std::lock_guard<std::mutex> lock(mu_);
    digest_ = std::move(digest);
  }
  ready_ = true;
}

std::string TableWarmup::digest() const {
  std::lock_guard<std::mutex> lock(mu_);
  return digest_;
}

absl::Status TableWarmup::Ready() const {
  if (ready_) return absl::OkStatus();
  const RetrogradeProgress progress = solver_->progress();
  std::lock_guard<std::mutex> lock(mu_);
  std::string now;
  for (const std::string& name : progress.generating)
    absl::StrAppend(&now, now.empty() ? "" : ", ", name);
  if (now.empty()) now = "loading";
  std::string eta;
  if (progress.seconds_left) {
    // From the positions left and the rate measured so far.
    eta = absl::StrCat(", about ", int(*progress.seconds_left + 1), " s left");
  } else if (built_ > 0 && built_ < total_) {
    // Tables differ in size, so this is rough: the mean so far.
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    eta = absl::StrCat(", about ", int(seconds / double(built_) * double(total_ - built_) + 1),
                       " s left");
  }
  return absl::UnavailableError(
      absl::StrCat("building the retrograde tables (3-4 men) before ruling: ", built_, " of ",
                   total_, " built, ", now, " now", eta, "; retry shortly"));
}

}  // namespace arbiter::common
