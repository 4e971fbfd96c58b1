#include "core/util/ordered_parallel.h"

#include <gtest/gtest.h>

#include <atomic>

namespace arbiter {
namespace {

void RunCase(int threads, size_t batch, size_t max_batches, int items) {
  int next = 0;
  std::vector<int> seen;
  std::atomic<int> calls{0};
  OrderedParallelMap<int, long>::Run(
      {threads, batch, max_batches},
      [&](int* in) {
        if (next == items) return false;
        *in = next++;
        return true;
      },
      [&](int& in, long* out) {
        ++calls;
        // Uneven work so that batches finish out of order.
        long acc = 0;
        for (int i = 0; i < (in % 7) * 1000; ++i) acc += i;
        *out = in * 10L + (acc < 0);
      },
      [&](long& out) { seen.push_back(int(out / 10)); });
  ASSERT_EQ(int(seen.size()), items);
  for (int i = 0; i < items; ++i) ASSERT_EQ(seen[i], i);
  EXPECT_EQ(calls.load(), items);
}

TEST(OrderedParallelMap, KeepsInputOrder) {
  RunCase(4, 3, 2, 1000);
  RunCase(1, 64, 16, 1000);
  RunCase(3, 1, 1, 257);
}

TEST(OrderedParallelMap, EmptyAndExactBatchBoundaries) {
  RunCase(2, 8, 4, 0);
  RunCase(2, 8, 4, 8);
  RunCase(2, 8, 4, 16);
  RunCase(2, 8, 4, 1);
}

}  // namespace
}  // namespace arbiter
