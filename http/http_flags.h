// The HTTP front's flags, shared by `arbiter serve` and
// `arbiter-coordinator --http` (docs/http.md, "Limits").
#pragma once

#include <string>
#include <vector>

#include "common/command_line.h"
#include "http/limits.h"

namespace arbiter::http {

inline void AddHttpFlags(CLI::App& app, std::vector<std::string>* allowed_hosts,
                         HttpLimits* limits) {
  common::AddRepeatable(app, "--http-allow-host", allowed_hosts, "HOST",
                        "Without --tokens, answer requests to HOST (a Host or Origin name)\n"
                        "too, not only to localhost, 127.0.0.1 and [::1] (repeatable)");
  common::AddInteger(
      app, "--http-max-connections", 1, 1 << 20, "--http-max-connections must be >= 1",
      [limits](int64_t n) { limits->max_connections = int(n); }, "N",
      "HTTP connections held at once; more are answered 503")
      ->default_str(std::to_string(limits->max_connections));
  common::AddInteger(
      app, "--http-max-per-address", 1, 1 << 20, "--http-max-per-address must be >= 1",
      [limits](int64_t n) { limits->max_per_address = int(n); }, "N",
      "HTTP connections held at once from one client address; more: 503")
      ->default_str(std::to_string(limits->max_per_address));
  common::AddInteger(
      app, "--http-header-timeout", 1, 3600, "--http-header-timeout must be 1..3600",
      [limits](int64_t s) { limits->header_deadline = std::chrono::seconds(s); }, "S",
      "A request's header must arrive within S seconds (else 408)")
      ->default_str(std::to_string(limits->header_deadline.count() / 1000));
  common::AddInteger(
      app, "--http-body-timeout", 1, 3600, "--http-body-timeout must be 1..3600",
      [limits](int64_t s) { limits->body_idle = std::chrono::seconds(s); }, "S",
      "A request body may pause at most S seconds (else 408, or an error line\n"
      "ending a verify stream that had begun)")
      ->default_str(std::to_string(limits->body_idle.count() / 1000));
}

}  // namespace arbiter::http
