#include "server/job_store.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"

namespace arbiter::coordinator {
namespace {

// The tables below and the form of the verdicts stored in them; raised
// with every change of either. 2: the typed wire of 2026-12-01, whose
// verdicts an older coordinator cannot read, nor this one theirs
// (proto/README.md, "Compatibility").
constexpr int kSchemaVersion = 2;

// Finalizes a statement however the function returns.
struct Statement {
  sqlite3_stmt* s = nullptr;
  ~Statement() { sqlite3_finalize(s); }
};

}  // namespace

absl::StatusOr<std::unique_ptr<JobStore>> JobStore::Open(const std::string& path) {
  // A database the coordinator wrote is never empty (its tables are created
  // at once): an empty file was truncated, and opening it would silently
  // start a job list from nothing.
  std::error_code size_error;
  if (std::filesystem::exists(path, size_error) &&
      std::filesystem::file_size(path, size_error) == 0 && !size_error) {
    return absl::DataLossError(absl::StrCat(
        "job database ", path,
        " is empty (0 bytes): its jobs are lost or it was truncated; move it away to start "
        "with no jobs"));
  }
  std::error_code exists_error;
  const bool created = !std::filesystem::exists(path, exists_error);
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return absl::InternalError(absl::StrCat("job database ", path, ": ", message));
  }
  std::unique_ptr<JobStore> store(new JobStore(db, path, created));
  // WAL: readers (result streams) do not block the writer. synchronous
  // NORMAL survives a killed process (the case the coordinator is built
  // for); only an OS crash may lose the last commits, which are then redone.
  for (const char* sql :
       {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA busy_timeout=5000",
        "CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, job BLOB NOT NULL)",
        "CREATE TABLE IF NOT EXISTS verdicts (job TEXT NOT NULL, seq INTEGER NOT NULL, "
        "verdict BLOB NOT NULL, PRIMARY KEY (job, seq)) WITHOUT ROWID"}) {
    if (absl::Status s = store->Exec(sql); !s.ok())
      return absl::InternalError(absl::StrCat("job database ", path, ": ", s.message()));
  }
  // Damage inside the file: refused, not read as fewer jobs.
  if (absl::StatusOr<std::string> check = store->Text("PRAGMA quick_check"); !check.ok()) {
    return absl::DataLossError(absl::StrCat("job database ", path, ": ", check.status().message()));
  } else if (*check != "ok") {
    return absl::DataLossError(
        absl::StrCat("job database ", path, " is damaged (", *check, "); move it away"));
  }
  // Schema version (PRAGMA user_version): 0 is a database from before it
  // was recorded, with the same tables, and is marked current.
  absl::StatusOr<std::string> version = store->Text("PRAGMA user_version");
  if (!version.ok())
    return absl::InternalError(
        absl::StrCat("job database ", path, ": ", version.status().message()));
  // A database of the string-typed wire (versions 0 and 1) holds verdicts
  // this coordinator would misread: refused, with what to do, rather than
  // served as errors or empty rulings. An empty one (no job) is upgraded.
  const bool string_wire = *version == "0" || *version == "1";
  if (string_wire) {
    absl::StatusOr<std::string> jobs = store->Text("SELECT count(*) FROM jobs");
    if (!jobs.ok())
      return absl::InternalError(
          absl::StrCat("job database ", path, ": ", jobs.status().message()));
    if (*jobs != "0")
      return absl::FailedPreconditionError(absl::StrCat(
          "job database ", path, " holds ", *jobs, " jobs stored by a coordinator from before ",
          "2026-12-01 (schema version ", *version, "), whose verdicts this version cannot read; ",
          "read their results with that version, then move the database away"));
  }
  if (!string_wire && *version != std::to_string(kSchemaVersion)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "job database ", path, " has schema version ", *version, "; this coordinator reads ",
        kSchemaVersion, " (written by a newer version?)"));
  }
  struct stat opened;
  if (::stat(path.c_str(), &opened) != 0)
    return absl::InternalError(absl::StrCat("job database ", path, ": cannot stat it"));
  store->device_ = opened.st_dev;
  store->inode_ = opened.st_ino;
  if (string_wire) {
    const std::string set_version = absl::StrCat("PRAGMA user_version=", kSchemaVersion);
    if (absl::Status s = store->Exec(set_version.c_str()); !s.ok())
      return absl::InternalError(absl::StrCat("job database ", path, ": ", s.message()));
  }
  return store;
}

JobStore::~JobStore() { sqlite3_close(db_); }

absl::Status JobStore::Error(const char* what) {
  return absl::InternalError(absl::StrCat(what, ": ", sqlite3_errmsg(db_)));
}

absl::StatusOr<std::string> JobStore::Text(const char* sql) {
  Statement statement;
  if (sqlite3_prepare_v2(db_, sql, -1, &statement.s, nullptr) != SQLITE_OK) return Error(sql);
  if (sqlite3_step(statement.s) != SQLITE_ROW) return Error(sql);
  const unsigned char* text = sqlite3_column_text(statement.s, 0);
  return std::string(text ? reinterpret_cast<const char*>(text) : "");
}

absl::Status JobStore::Exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    absl::Status s = absl::InternalError(absl::StrCat(sql, ": ", message ? message : "error"));
    sqlite3_free(message);
    return s;
  }
  return absl::OkStatus();
}

absl::Status JobStore::CheckIdentity() {
  struct stat now;
  const bool same =
      ::stat(path_.c_str(), &now) == 0 && now.st_dev == device_ && now.st_ino == inode_;
  if (same) return absl::OkStatus();
  if (!identity_lost_logged_) {
    identity_lost_logged_ = true;
    std::fprintf(stderr,
                 "arbiter-coordinator: the job database %s was deleted or replaced while this "
                 "coordinator ran: nothing more is written; restore the file and restart\n",
                 path_.c_str());
  }
  return absl::FailedPreconditionError(
      "the job database was deleted or replaced while the coordinator ran; nothing more is "
      "written until it is restored and the coordinator restarted");
}

absl::Status JobStore::Create(const v1::Job& job) { return Commit(job, {}); }

absl::Status JobStore::Commit(const v1::Job& job,
                              const std::vector<std::pair<int64_t, std::string>>& verdicts) {
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status s = CheckIdentity(); !s.ok()) return s;
  if (absl::Status s = Exec("BEGIN IMMEDIATE"); !s.ok()) return s;
  auto rollback = [&](absl::Status s) {
    Exec("ROLLBACK").IgnoreError();
    return s;
  };
  {
    Statement insert;
    if (sqlite3_prepare_v2(db_,
                           "INSERT OR IGNORE INTO verdicts (job, seq, verdict) VALUES (?, ?, ?)",
                           -1, &insert.s, nullptr) != SQLITE_OK)
      return rollback(Error("prepare verdict insert"));
    for (const auto& [seq, verdict] : verdicts) {
      sqlite3_bind_text(insert.s, 1, job.id().data(), int(job.id().size()), SQLITE_STATIC);
      sqlite3_bind_int64(insert.s, 2, seq);
      sqlite3_bind_blob(insert.s, 3, verdict.data(), int(verdict.size()), SQLITE_STATIC);
      if (sqlite3_step(insert.s) != SQLITE_DONE) return rollback(Error("insert verdict"));
      sqlite3_reset(insert.s);
    }
  }
  {
    Statement upsert;
    const std::string blob = job.SerializeAsString();
    if (sqlite3_prepare_v2(db_, "INSERT OR REPLACE INTO jobs (id, job) VALUES (?, ?)", -1,
                           &upsert.s, nullptr) != SQLITE_OK)
      return rollback(Error("prepare job update"));
    sqlite3_bind_text(upsert.s, 1, job.id().data(), int(job.id().size()), SQLITE_STATIC);
    sqlite3_bind_blob(upsert.s, 2, blob.data(), int(blob.size()), SQLITE_STATIC);
    if (sqlite3_step(upsert.s) != SQLITE_DONE) return rollback(Error("update job"));
  }
  return Exec("COMMIT");
}

absl::Status JobStore::Delete(const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status s = CheckIdentity(); !s.ok()) return s;
  if (absl::Status s = Exec("BEGIN IMMEDIATE"); !s.ok()) return s;
  for (const char* sql : {"DELETE FROM verdicts WHERE job = ?", "DELETE FROM jobs WHERE id = ?"}) {
    Statement del;
    bool done = sqlite3_prepare_v2(db_, sql, -1, &del.s, nullptr) == SQLITE_OK;
    if (done) {
      sqlite3_bind_text(del.s, 1, id.data(), int(id.size()), SQLITE_STATIC);
      done = sqlite3_step(del.s) == SQLITE_DONE;
    }
    if (!done) {
      absl::Status s = Error(sql);
      Exec("ROLLBACK").IgnoreError();
      return s;
    }
  }
  return Exec("COMMIT");
}

absl::StatusOr<std::vector<v1::Job>> JobStore::Jobs() {
  std::lock_guard<std::mutex> lock(mu_);
  Statement select;
  if (sqlite3_prepare_v2(db_, "SELECT job FROM jobs", -1, &select.s, nullptr) != SQLITE_OK)
    return Error("prepare job list");
  std::vector<v1::Job> out;
  int rc;
  while ((rc = sqlite3_step(select.s)) == SQLITE_ROW) {
    v1::Job job;
    if (!job.ParseFromArray(sqlite3_column_blob(select.s, 0), sqlite3_column_bytes(select.s, 0)))
      return absl::DataLossError("job database: a job record does not parse");
    out.push_back(std::move(job));
  }
  if (rc != SQLITE_DONE) return Error("list jobs");
  return out;
}

absl::StatusOr<std::vector<std::string>> JobStore::Verdicts(const std::string& id, int64_t from,
                                                            int64_t limit) {
  std::lock_guard<std::mutex> lock(mu_);
  Statement select;
  if (sqlite3_prepare_v2(db_,
                         "SELECT verdict FROM verdicts WHERE job = ? AND seq >= ? ORDER BY seq "
                         "LIMIT ?",
                         -1, &select.s, nullptr) != SQLITE_OK)
    return Error("prepare verdict read");
  sqlite3_bind_text(select.s, 1, id.data(), int(id.size()), SQLITE_STATIC);
  sqlite3_bind_int64(select.s, 2, from);
  sqlite3_bind_int64(select.s, 3, limit);
  std::vector<std::string> out;
  int rc;
  while ((rc = sqlite3_step(select.s)) == SQLITE_ROW) {
    const char* data = static_cast<const char*>(sqlite3_column_blob(select.s, 0));
    out.emplace_back(data ? data : "", size_t(sqlite3_column_bytes(select.s, 0)));
  }
  if (rc != SQLITE_DONE) return Error("read verdicts");
  return out;
}

}  // namespace arbiter::coordinator
