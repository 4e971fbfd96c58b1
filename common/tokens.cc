#include "common/tokens.h"

#include <cctype>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/small_file.h"

namespace arbiter::common {
namespace {

// How often a --tokens file's modification time is looked at.
constexpr unsigned kReloadSeconds = 5;

std::optional<Role> RoleNamed(std::string_view name) {
  for (Role r : {Role::kReader, Role::kSubmitter, Role::kAdmin})
    if (RoleName(r) == name) return r;
  return std::nullopt;
}

// Names own jobs and appear in logs and listings: kept to what needs no
// quoting anywhere.
bool ValidName(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-' &&
        c != '@')
      return false;
  return true;
}

}  // namespace

std::string_view RoleName(Role role) {
  switch (role) {
    case Role::kReader:
      return "reader";
    case Role::kSubmitter:
      return "submitter";
    case Role::kAdmin:
      return "admin";
  }
  return "admin";
}

std::optional<size_t> FindToken(std::string_view token, const std::vector<std::string>& accepted) {
  std::optional<size_t> found;
  for (size_t k = 0; k < accepted.size(); ++k) {
    const std::string& t = accepted[k];
    // Length differences are not secret; contents are compared in full.
    unsigned diff = unsigned(t.size() != token.size());
    for (size_t i = 0; i < t.size(); ++i)
      diff |= unsigned(uint8_t(t[i]) ^ uint8_t(i < token.size() ? token[i] : 0));
    if (diff == 0 && !found) found = k;
  }
  return found;
}

absl::StatusOr<std::vector<TokenFile::Entry>> ParseTokens(std::string_view text,
                                                          const std::string& path) {
  std::vector<TokenFile::Entry> entries;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields = absl::StrSplit(line, ' ', absl::SkipWhitespace());
    auto bad = [&](const std::string& why) {
      return absl::InvalidArgumentError(
          absl::StrCat("--tokens ", path, " line ", line_number, ": ", why,
                       " (expected TOKEN NAME ROLE, ROLE reader, submitter or admin; or TOKEN "
                       "alone for an unnamed admin)"));
    };
    TokenFile::Entry e;
    e.token = fields[0];
    if (fields.size() == 3) {
      if (!ValidName(fields[1]))
        return bad(
            absl::StrCat("the name \"", fields[1], "\" must be 1-64 letters, digits or . _ - @"));
      std::optional<Role> role = RoleNamed(fields[2]);
      if (!role) return bad(absl::StrCat("no role \"", fields[2], "\""));
      e.caller = {fields[1], *role};
    } else if (fields.size() != 1) {
      return bad(absl::StrCat(fields.size(), " fields"));
    }
    entries.push_back(std::move(e));
  }
  if (entries.empty())
    return absl::InvalidArgumentError(absl::StrCat("--tokens ", path, ": no token"));
  return entries;
}

absl::StatusOr<std::shared_ptr<TokenFile>> TokenFile::Open(const std::string& path) {
  absl::StatusOr<std::string> text = ReadSmallFile(path, "--tokens");
  if (!text.ok()) return text.status();
  absl::StatusOr<std::vector<Entry>> entries = ParseTokens(*text, path);
  if (!entries.ok()) return entries.status();
  return std::shared_ptr<TokenFile>(new TokenFile(path, *std::move(entries)));
}

TokenFile::Table::Table(std::vector<Entry> e) : entries(std::move(e)) {
  for (const Entry& entry : entries) tokens.push_back(entry.token);
}

TokenFile::TokenFile(std::string path, std::vector<Entry> entries)
    : path_(std::move(path)),
      table_(std::make_shared<const Table>(std::move(entries))),
      modified_(ModifiedTime()),
      checked_(std::chrono::steady_clock::now()) {}

std::optional<Caller> TokenFile::CallerOf(std::string_view value) {
  // RFC 9110 11.1: the scheme is case-insensitive ("bearer", "BEARER"),
  // followed by one or more spaces.
  constexpr std::string_view kScheme = "bearer";
  if (value.size() <= kScheme.size() || value[kScheme.size()] != ' ') return std::nullopt;
  for (size_t i = 0; i < kScheme.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(value[i])) != kScheme[i]) return std::nullopt;
  value.remove_prefix(kScheme.size());
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  const std::shared_ptr<const Table> table = Current();
  std::optional<size_t> k = FindToken(value, table->tokens);
  if (!k) return std::nullopt;
  return table->entries[*k].caller;
}

std::filesystem::file_time_type TokenFile::ModifiedTime() const {
  std::error_code ec;
  return std::filesystem::last_write_time(path_, ec);
}

std::shared_ptr<const TokenFile::Table> TokenFile::Current() {
  std::lock_guard<std::mutex> lock(mu_);
  const auto now = std::chrono::steady_clock::now();
  if (now - checked_ < std::chrono::seconds(kReloadSeconds)) return table_;
  checked_ = now;
  const auto modified = ModifiedTime();
  if (modified == modified_) return table_;
  modified_ = modified;
  absl::StatusOr<std::string> text = ReadSmallFile(path_, "--tokens");
  absl::StatusOr<std::vector<Entry>> entries =
      text.ok() ? ParseTokens(*text, path_) : absl::StatusOr<std::vector<Entry>>(text.status());
  if (entries.ok()) {
    table_ = std::make_shared<const Table>(*std::move(entries));
    std::fprintf(stderr, "arbiter: --tokens %s read again: %zu tokens\n", path_.c_str(),
                 table_->entries.size());
  } else {
    std::fprintf(stderr, "arbiter: %s; the previous tokens stay\n",
                 std::string(entries.status().message()).c_str());
  }
  return table_;
}

}  // namespace arbiter::common
