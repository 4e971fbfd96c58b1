// Generation time and memory of the retrograde solver, per signature.
//
//   retrograde_bench [SIGNATURE...]
//
// Without arguments: every 3- and 4-man signature (the 35 tables of the
// Syzygy 3-4-man set, plus KvK: AllRetrogradeSignatures). Signatures are solved in an order where
// every sub-table a capture or promotion leads into is already cached, so
// each line times that table's own generation only.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/tablebase/retrograde.h"

int main(int argc, char** argv) {
  std::vector<std::string> signatures;
  for (int i = 1; i < argc; ++i) signatures.push_back(argv[i]);
  if (signatures.empty()) signatures = arbiter::AllRetrogradeSignatures();

  arbiter::RetrogradeSolver solver;
  std::printf("%-8s %10s %12s %12s %8s\n", "table", "seconds", "positions", "bytes", "ns/pos");
  double total = 0;
  for (const std::string& signature : signatures) {
    absl::StatusOr<std::string> canonical = arbiter::CanonicalSignature(signature);
    if (!canonical.ok()) {
      std::fprintf(stderr, "%s\n", canonical.status().ToString().c_str());
      return 1;
    }
    const size_t before = solver.tables();
    const auto start = std::chrono::steady_clock::now();
    auto table = solver.Table(*canonical);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!table.ok()) {
      std::fprintf(stderr, "%s\n", table.status().ToString().c_str());
      return 1;
    }
    total += seconds;
    std::printf("%-8s %10.3f %12zu %12zu %8.1f%s\n", (*table)->signature().c_str(), seconds,
                (*table)->positions(), (*table)->bytes(),
                seconds * 1e9 / double((*table)->positions()),
                solver.tables() > before + 1 ? "  (includes sub-tables)" : "");
  }
  std::printf("total %.3f s, %zu tables cached, %zu bytes\n", total, solver.tables(),
              solver.bytes());
  return 0;
}
