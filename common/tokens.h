// Bearer tokens and who they belong to: the --tokens file of the
// coordinator and of `arbiter serve`, checked by the gRPC port
// (common/security.h) and the HTTP API alike, and the caller each token
// names, whose role decides what it may do and whose name owns the jobs it
// submits (docs/security.md).
//
// The file has one token per line, '#' comments and blank lines aside:
//   TOKEN NAME ROLE     a named caller; ROLE is reader, submitter or admin
//   TOKEN               an unnamed admin (files from before roles existed
//                       keep working as they did: every token could do all)
// Tokens are read from files, never from the command line, where `ps` would
// show them, and compared in constant time.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace arbiter::common {

// What a caller may do. A reader analyzes positions and rules games as a
// stream (nothing is kept); a submitter also runs jobs, and sees, cancels
// and deletes its own; an admin sees and manages every job.
enum class Role { kReader, kSubmitter, kAdmin };
std::string_view RoleName(Role role);

struct Caller {
  std::string name;  // "" for an unnamed admin (and for every caller of a server without tokens)
  Role role = Role::kAdmin;
};

// What a caller without an accepted token is told (gRPC and HTTP alike).
inline constexpr std::string_view kTokenRequired =
    "a valid bearer token is required (authorization: Bearer <token>)";

// A --tokens file as it stands: read again when its modification time
// changes (looked at every few seconds at most), so that rotating tokens
// needs no restart. A file that becomes unreadable, empty or malformed
// keeps the last tokens, and says so on stderr.
class TokenFile {
 public:
  // NOT_FOUND for an unreadable file; INVALID_ARGUMENT naming the line for
  // a malformed one, and for one without tokens.
  static absl::StatusOr<std::shared_ptr<TokenFile>> Open(const std::string& path);
  // The caller of `authorization` (a header's value) when it is "Bearer
  // <an accepted token>", the scheme in any case (RFC 9110 11.1: "bearer"
  // and "BEARER" too); nullopt otherwise.
  std::optional<Caller> CallerOf(std::string_view authorization);
  bool AcceptsAuthorization(std::string_view authorization) {
    return CallerOf(authorization).has_value();
  }

  struct Entry {
    std::string token;
    Caller caller;
  };

 private:
  // The entries, the tokens apart for FindToken.
  struct Table {
    explicit Table(std::vector<Entry> e);
    std::vector<Entry> entries;
    std::vector<std::string> tokens;
  };
  TokenFile(std::string path, std::vector<Entry> entries);
  std::filesystem::file_time_type ModifiedTime() const;
  std::shared_ptr<const Table> Current();

  const std::string path_;
  std::mutex mu_;
  std::shared_ptr<const Table> table_;
  std::filesystem::file_time_type modified_;
  std::chrono::steady_clock::time_point checked_;
};

// The entries of a --tokens file's text (`path` for messages).
absl::StatusOr<std::vector<TokenFile::Entry>> ParseTokens(std::string_view text,
                                                          const std::string& path);

// The index in `accepted` of the token equal to `token`, in time
// independent of where the first difference lies (every candidate is
// compared in full); nullopt when none is.
std::optional<size_t> FindToken(std::string_view token, const std::vector<std::string>& accepted);
inline bool TokenAccepted(std::string_view token, const std::vector<std::string>& accepted) {
  return FindToken(token, accepted).has_value();
}

}  // namespace arbiter::common
