#include "core/util/ordered_parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

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

// Items that come one at a time (a game of a network stream, whose next
// the client sends only once it saw the last verdict) are each worked on
// and consumed before the next comes, though a batch holds 64.
TEST(OrderedParallelMap, ASlowInputIsWorkedOnAsItComes) {
  for (int threads : {1, 2}) {
    std::mutex mu;
    std::condition_variable consumed_one;
    int produced = 0, consumed = 0, late = 0;
    OrderedParallelMap<int, int>::Run(
        {threads, 64, 4},
        [&](int* in) {
          std::unique_lock lock(mu);
          if (!consumed_one.wait_for(lock, std::chrono::seconds(5),
                                     [&] { return consumed == produced; }))
            ++late;
          if (produced == 20) return false;
          *in = produced++;
          return true;
        },
        [](int& in, int* out) { *out = in; },
        [&](int& out) {
          std::lock_guard lock(mu);
          EXPECT_EQ(out, consumed);
          ++consumed;
          consumed_one.notify_all();
        });
    EXPECT_EQ(consumed, 20);
    EXPECT_EQ(late, 0) << "an item waited for its batch to fill (" << threads << " threads)";
  }
}

}  // namespace
}  // namespace arbiter
