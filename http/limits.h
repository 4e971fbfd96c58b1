// What one client may cost the HTTP front (docs/http.md, "Limits"). Each is
// enforced before any body byte is read and before the token is checked, so
// that a client without a token cannot spend the server's memory or threads
// either.
#pragma once

#include <chrono>
#include <cstdint>

namespace arbiter::http {

struct HttpLimits {
  // Request line and header fields together; 431 beyond (the parser stops
  // reading there, so a flood of fields costs at most this much).
  uint32_t header_bytes = 16 << 10;
  // The whole header section must arrive within this; 408 beyond. A
  // connection that sent nothing (an idle keep-alive) is closed silently.
  std::chrono::milliseconds header_deadline{10'000};
  // No body byte for this long: 408.
  std::chrono::milliseconds body_idle{30'000};
  // Connections held at once, in all and from one client address: 503 and
  // close beyond, before anything is read.
  int max_connections = 1024;
  int max_per_address = 256;
  // Streams (verify, job results, job uploads) at once, each a thread: 429
  // beyond, so that stalled streams cannot take every thread.
  int max_streams = 64;
  // The body of every route that does not stream (analyze, cancel, ...):
  // 413 beyond, from Content-Length before reading, or after reading no
  // more than this.
  int64_t small_body = 1 << 20;
  // The kernel's send buffer per connection: a reader that stalls holds at
  // most this much there (loopback autotuning reached megabytes), so the
  // write deadline sees it soon.
  int send_buffer = 64 << 10;
  // After a refusal (413, 401 ... with Connection: close), what the client
  // still sends is read and dropped, up to this much, while it comes with
  // no pause longer than drain_deadline: a client that writes its whole
  // body before reading (most libraries without Expect: 100-continue)
  // would otherwise see a reset instead of the answer. Reading into a
  // fixed 16 KiB buffer costs no memory; the answer went out first.
  int64_t drain_bytes = int64_t(64) << 20;
  std::chrono::milliseconds drain_deadline{1'000};
  // TLS handshakes must end within this.
  std::chrono::milliseconds handshake_deadline{10'000};
};

}  // namespace arbiter::http
