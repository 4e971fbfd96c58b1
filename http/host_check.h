// Which Host and Origin a server without tokens answers: anything could
// reach it otherwise, e.g. a web page on another site whose name was made
// to resolve to 127.0.0.1 (DNS rebinding), or a page posting to it from
// the user's browser.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace arbiter::http {

// The host of a Host field ("name", "name:port", "[v6]", "[v6]:port"),
// lower case, brackets kept for IPv6.
std::string HostName(std::string_view host);
// Whether the Host field names this machine's loopback (localhost,
// 127.0.0.1, [::1], any port) or one of `allowed` (compared by HostName).
bool HostAllowed(std::string_view host, const std::vector<std::string>& allowed);
// Whether an Origin field ("scheme://host[:port]") names such a host.
bool OriginAllowed(std::string_view origin, const std::vector<std::string>& allowed);

}  // namespace arbiter::http
