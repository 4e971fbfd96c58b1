// The web page's files (http/assets/), built into the binary so that the
// page works offline and a deployment has nothing to copy beside it.
#pragma once

#include <string_view>

namespace arbiter::http {

struct Asset {
  std::string_view content_type;
  std::string_view body;
};

// The asset served at `path` ("/" is index.html), or null.
const Asset* FindAsset(std::string_view path);

}  // namespace arbiter::http
