#include "http/host_check.h"

#include "absl/strings/ascii.h"

namespace arbiter::http {

std::string HostName(std::string_view host) {
  std::string h = absl::AsciiStrToLower(std::string(host));
  if (!h.empty() && h.front() == '[') {
    const size_t close = h.find(']');
    return close == std::string::npos ? h : h.substr(0, close + 1);
  }
  // One colon: a port. More: a bare IPv6 address (not valid in Host, but
  // compared whole rather than cut).
  const size_t colon = h.find(':');
  if (colon != std::string::npos && h.find(':', colon + 1) == std::string::npos) h.resize(colon);
  if (!h.empty() && h.back() == '.') h.pop_back();  // "localhost." is localhost
  return h;
}

bool HostAllowed(std::string_view host, const std::vector<std::string>& allowed) {
  const std::string name = HostName(host);
  if (name.empty()) return false;
  if (name == "localhost" || name == "127.0.0.1" || name == "[::1]") return true;
  for (const std::string& a : allowed)
    if (HostName(a) == name) return true;
  return false;
}

bool OriginAllowed(std::string_view origin, const std::vector<std::string>& allowed) {
  const size_t scheme = origin.find("://");
  if (scheme == std::string_view::npos) return false;  // "null" among others
  std::string_view rest = origin.substr(scheme + 3);
  rest = rest.substr(0, rest.find('/'));
  return HostAllowed(rest, allowed);
}

}  // namespace arbiter::http
