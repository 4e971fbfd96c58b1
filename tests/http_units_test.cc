// The HTTP front's pieces that need no socket: which Host and Origin a
// token-less server answers (http/host_check.h), how a request target
// is split into path and query (http/routes.h) and how a stream's lines
// are handed to the io thread in batches (http/handoff.h).
#include <atomic>

#include "gtest/gtest.h"
#include "http/handoff.h"
#include "http/host_check.h"
#include "http/routes.h"

namespace arbiter::http {
namespace {

TEST(HostCheck, LoopbackNamesWithOrWithoutAPort) {
  for (const char* host : {"localhost", "LOCALHOST", "localhost:8080", "localhost.", "127.0.0.1",
                           "127.0.0.1:1", "[::1]", "[::1]:8080"})
    EXPECT_TRUE(HostAllowed(host, {})) << host;
  for (const char* host : {"", "example.com", "127.0.0.2", "localhost.example.com",
                           "127.0.0.1.nip.io", "[::2]", "evil:localhost"})
    EXPECT_FALSE(HostAllowed(host, {})) << host;
  EXPECT_TRUE(HostAllowed("Arbiter.Example:9000", {"arbiter.example"}));
  EXPECT_TRUE(HostAllowed("arbiter.example", {"arbiter.example:80"}));
  EXPECT_FALSE(HostAllowed("other.example", {"arbiter.example"}));
}

TEST(HostCheck, Origins) {
  EXPECT_TRUE(OriginAllowed("http://localhost:3000", {}));
  EXPECT_TRUE(OriginAllowed("https://127.0.0.1", {}));
  EXPECT_TRUE(OriginAllowed("http://[::1]:8080", {}));
  EXPECT_FALSE(OriginAllowed("null", {}));
  EXPECT_FALSE(OriginAllowed("http://evil.example", {}));
  EXPECT_TRUE(OriginAllowed("http://arbiter.example", {"arbiter.example"}));
}

TEST(Target, PathAndQueryAreDecoded) {
  Request r;
  ParseTarget("/v1/analyze?fen=8/8/8/8/8/8/8/K6k+w+-+-+0+1&moves=e2e4%2Ce7e5&x&fen=second", &r);
  EXPECT_EQ(r.path, "/v1/analyze");
  EXPECT_EQ(r.query["fen"], "8/8/8/8/8/8/8/K6k w - - 0 1");  // the first of a repeated one
  EXPECT_EQ(r.query["moves"], "e2e4,e7e5");
  EXPECT_EQ(r.query.count("x"), 1u);
  Request bad;
  ParseTarget("/a%2Fb%zz%4?q=%", &bad);
  EXPECT_EQ(bad.path, "/a/b%zz%4");
  EXPECT_EQ(bad.query["q"], "%");
}

TEST(LineQueue, AWaitingWriterIsWokenOncePerBatch) {
  std::atomic<int> wakes = 0;
  LineQueue queue(100, [&] { ++wakes; });
  // Waiting for anything: the first line wakes it.
  EXPECT_TRUE(queue.Take(0).text.empty());
  ASSERT_TRUE(queue.Push("a\n"));
  EXPECT_EQ(wakes, 1);
  EXPECT_EQ(queue.Take(0).text, "a\n");
  // Lingering for 6 bytes: 2 and 4 are not enough, and wake nothing.
  EXPECT_TRUE(queue.Take(6).text.empty());
  ASSERT_TRUE(queue.Push("b\n"));
  ASSERT_TRUE(queue.Push("c\n"));
  EXPECT_EQ(wakes, 1);
  EXPECT_TRUE(queue.Take(6).text.empty());  // still short: nothing taken
  ASSERT_TRUE(queue.Push("d\n"));
  EXPECT_EQ(wakes, 2);
  ASSERT_TRUE(queue.Push("e\n"));  // the writer was woken already
  EXPECT_EQ(wakes, 2);
  // The linger's end takes what there is, whatever its size.
  EXPECT_EQ(queue.Take(0).text, "b\nc\nd\ne\n");
}

TEST(LineQueue, AFullQueueOrTheEndIsTakenShortOfABatch) {
  std::atomic<int> wakes = 0;
  LineQueue queue(2, [&] { ++wakes; });
  EXPECT_TRUE(queue.Take(1000).text.empty());
  ASSERT_TRUE(queue.Push("a\n"));
  EXPECT_EQ(wakes, 0);
  ASSERT_TRUE(queue.Push("b\n"));  // full: the producer would wait next
  EXPECT_EQ(wakes, 1);
  EXPECT_EQ(queue.Take(1000).text, "a\nb\n");
  EXPECT_TRUE(queue.Take(1000).text.empty());
  ASSERT_TRUE(queue.Push("c\n"));
  queue.Finish(absl::OkStatus());
  EXPECT_EQ(wakes, 2);
  LineQueue::Taken last = queue.Take(1000);
  EXPECT_EQ(last.text, "c\n");
  EXPECT_TRUE(last.done);
  EXPECT_TRUE(last.any_line);
}

}  // namespace
}  // namespace arbiter::http
