#include "common/table_warmup.h"

#include <cstdio>

#include "absl/strings/str_cat.h"

namespace arbiter::common {

TableWarmup::TableWarmup(RetrogradeSolver* solver, std::string role)
    : solver_(solver), role_(std::move(role)) {
  if (solver_)
    for (const std::string& signature : AllRetrogradeSignatures())
      if (!solver_->Holds(signature)) missing_.push_back(signature);
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
  for (const std::string& signature : missing_) {
    if (stopping_) return;
    {
      std::lock_guard<std::mutex> lock(mu_);
      current_ = signature;
    }
    // A table that fails here is not retried: the request that needs it
    // gets the solver's error (a damaged file, say), which names the cause.
    if (absl::Status s = solver_->Table(signature).status(); !s.ok())
      std::fprintf(stderr, "%s: retrograde table %s: %s\n", role_.c_str(), signature.c_str(),
                   std::string(s.message()).c_str());
    std::lock_guard<std::mutex> lock(mu_);
    ++built_;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string digest = solver_->digest();
  std::fprintf(stderr, "%s: %zu retrograde tables built in %.1f s; ruling now with %s\n",
               role_.c_str(), missing_.size(), seconds, digest.c_str());
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
  std::lock_guard<std::mutex> lock(mu_);
  std::string eta;
  if (built_ > 0) {
    // Tables differ in size, so this is rough: the mean so far.
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    eta = absl::StrCat(", about ",
                       int(seconds / double(built_) * double(missing_.size() - built_) + 1),
                       " s left");
  }
  return absl::UnavailableError(
      absl::StrCat("building the retrograde tables (3-4 men) before ruling: ", built_, " of ",
                   missing_.size(), " built, ", current_, " now", eta, "; retry shortly"));
}

}  // namespace arbiter::common
