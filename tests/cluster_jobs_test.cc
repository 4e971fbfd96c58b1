// Jobs on a real coordinator: durable across SIGKILL and SIGTERM, fed only
// by what the client uploads or by files under the operator's
// --job-input-dir, listed, cancelled and deleted.
#include <sqlite3.h>

#include "tests/cluster_support.h"

namespace arbiter {
namespace {

// The games job `id` has ruled, polled with `job watch` (`job_client` is
// the command up to and including "job ") until there are at least `n`, or
// for 30 s at most.
int64_t WaitForGamesDone(const std::string& job_client, const std::string& id, int64_t n) {
  const std::regex done_re(" ([0-9]+) games ruled");
  int64_t done = 0;
  for (int i = 0; i < 3000 && done < n; ++i) {
    std::this_thread::sleep_for(milliseconds(10));
    testing::CommandResult state = testing::RunCommand(job_client + "watch " + id + " | head -1");
    std::smatch m;
    if (std::regex_search(state.out, m, done_re)) done = std::stoll(m[1]);
  }
  return done;
}

// Durable jobs: the coordinator is killed with SIGKILL mid-job and started
// again on the same job directory; it resumes the job, the client
// re-attaches by id, and the verdicts equal the embedded run's — none lost,
// none twice.
TEST_F(Cluster, AJobSurvivesACoordinatorKilledMidJob) {
  const std::string shared = testing::SharedDir();
  const std::string lichess = shared + "/games/lichess_jishanshaikh4_37221.pgn.zst";
  if (shared.empty() || !fs::exists(lichess))
    GTEST_SKIP() << "../shared/games/lichess_jishanshaikh4_37221.pgn.zst is absent";
  const std::string& games = lichess;  // 37,221 games: long enough to kill mid-job
  std::vector<int> ports = {StartWorker(0), StartWorker(1)};
  for (int p : ports) ASSERT_GT(p, 0);
  int c = StartCoordinator(ports);
  ASSERT_GT(c, 0);
  auto client = [&](int port) {
    return absl::StrCat("env -u ARBITER_SYZYGY ", kBin, "/arbiter --coordinator ", Address(port),
                        " job ");
  };
  testing::CommandResult submit = testing::RunCommand(client(c) + "submit " + games);
  ASSERT_EQ(submit.exit_code, 0) << submit.out;
  const std::string id = submit.out.substr(0, submit.out.find('\n'));
  // Kill once a good part, but not all, is committed.
  const int64_t done = WaitForGamesDone(client(c), id, 1000);
  ASSERT_GE(done, 1000);
  ASSERT_LT(done, 37221) << "the job ended before the kill";
  // Its running time so far, which the restart must not reset.
  const std::regex seconds_re(" ([0-9.]+) s");
  auto seconds = [&](int port) {
    testing::CommandResult state = testing::RunCommand(client(port) + "watch " + id + " | head -1");
    std::smatch m;
    return std::regex_search(state.out, m, seconds_re) ? std::stod(m[1]) : -1.0;
  };
  const double before_kill = seconds(c);
  ASSERT_GT(before_kill, 0);
  coordinator_->Kill(SIGKILL);
  c = StartCoordinator(ports);
  ASSERT_GT(c, 0);
  // Committed at most kCommitInterval (0.2 s) before the kill.
  EXPECT_GE(seconds(c), before_kill - 0.5) << "the job's running time restarted";
  testing::CommandResult watch = testing::RunCommand(client(c) + "watch " + id);
  EXPECT_EQ(watch.exit_code, 0) << watch.out;
  testing::CommandResult results =
      testing::RunCommand(client(c) + "results " + id + " --format jsonl");
  ASSERT_EQ(results.exit_code, 0);
  testing::CommandResult local = VerifyEmbedded(games);
  EXPECT_EQ(testing::Lines(results.out).size(), 37222u);
  EXPECT_TRUE(WithoutTiming(results.out) == WithoutTiming(local.out))
      << "the resumed job's verdicts differ from the embedded run's";
  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("coordinator.log")), "resuming job " + id);
}

// SIGTERM mid-job while the workers keep up with the reader (the input
// trickles in through a FIFO): the job must stay running and resume at the
// next start, never be marked done with games missing.
TEST_F(Cluster, AJobStoppedBySigtermResumesWithEveryGame) {
  auto game = [](int i) {
    return absl::StrCat("[Event \"e", i, "\"]\n[Site \"s", i,
                        "\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n");
  };
  const std::string games = Path("games.pgn");
  ASSERT_EQ(mkfifo(games.c_str(), 0600), 0);
  signal(SIGPIPE, SIG_IGN);
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  // The FIFO is a file under --job-input-dir, read by the coordinator as it
  // fills (an upload would be stored whole before its job starts).
  int c = StartCoordinator({w}, {"--job-input-dir", dir_.string()});
  ASSERT_GT(c, 0);
  auto client = [&](int port) {
    return absl::StrCat("env -u ARBITER_SYZYGY ", kBin, "/arbiter --coordinator ", Address(port),
                        " job ");
  };
  // Submitting opens the FIFO once to check it: that opening reads nothing.
  std::thread check_open([&] { close(open(games.c_str(), O_WRONLY)); });
  testing::CommandResult submit = testing::RunCommand(client(c) + "submit --server-path games.pgn");
  check_open.join();
  ASSERT_EQ(submit.exit_code, 0) << submit.out;
  const std::string id = submit.out.substr(0, submit.out.find('\n'));
  // A game every 5 ms, until the job's reader goes away.
  std::atomic<int> written{0};
  std::thread writer([&] {
    const int fifo = open(games.c_str(), O_WRONLY);
    if (fifo < 0) return;
    for (int i = 1; i <= 400; ++i) {
      const std::string g = game(i);
      if (write(fifo, g.data(), g.size()) != ssize_t(g.size())) break;
      written = i;
      std::this_thread::sleep_for(milliseconds(5));
    }
    close(fifo);
  });
  for (int i = 0; i < 3000 && written < 100; ++i) std::this_thread::sleep_for(milliseconds(2));
  coordinator_->Signal(SIGTERM);
  int status = 0;
  const bool exited = coordinator_->Wait(milliseconds(15000), &status);
  writer.join();
  ASSERT_TRUE(exited) << "the coordinator hangs";
  ASSERT_LT(written, 400) << "the input ended before the signal";
  // The next start reads the same path again: now a plain file.
  fs::remove(games);
  {
    std::ofstream all(games);
    for (int i = 1; i <= 400; ++i) all << game(i);
  }
  c = StartCoordinator({w}, {"--job-input-dir", dir_.string()});
  ASSERT_GT(c, 0);
  testing::CommandResult watch = testing::RunCommand("timeout 60 " + client(c) + "watch " + id);
  EXPECT_EQ(watch.exit_code, 0) << watch.out;
  EXPECT_PRED_FORMAT2(testing::Contains, watch.out, " 400 games ruled");
  testing::CommandResult results =
      testing::RunCommand(client(c) + "results " + id + " --format jsonl");
  ASSERT_EQ(results.exit_code, 0);
  EXPECT_EQ(testing::Lines(results.out).size(), 401u);  // 400 verdicts and the summary
}

// A job database truncated to nothing, or overwritten, is an error at start
// that names it: never an empty job list.
TEST_F(Cluster, AnEmptyOrDamagedJobDatabaseStopsTheStart) {
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  ASSERT_GT(StartCoordinator({w}), 0);
  coordinator_->Kill(SIGTERM);
  const std::string db = Path("jobs/jobs.sqlite");
  ASSERT_TRUE(fs::exists(db));
  for (const std::string& content : {std::string(), std::string(8192, 'x')}) {
    fs::remove(db + "-wal");
    fs::remove(db + "-shm");
    std::ofstream(db, std::ios::trunc) << content;
    EXPECT_LE(StartCoordinator({w}), 0) << "started on a damaged database";
    int status = 0;
    ASSERT_TRUE(coordinator_->Wait(milliseconds(10000), &status));
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0);
    EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("coordinator.log")), db);
  }
}

// The job database deleted mid-job: the coordinator notices at its next
// commit; the job pauses with that reason (never "done" into the unlinked
// file), new submissions are refused, and a restart beside the surviving
// uploads/ is refused rather than starting from nothing.
TEST_F(Cluster, AJobDatabaseDeletedMidJobPausesItsJobsAndStopsTheRestart) {
  // 10,000 games: long enough to delete the file while the job runs.
  const std::string games = Path("many.pgn");
  {
    const std::string sample = ReadFile(kSample);
    std::ofstream out(games);
    for (int i = 0; i < 2000; ++i) out << sample << "\n";
  }
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w});
  ASSERT_GT(c, 0);
  const std::string client =
      absl::StrCat("env -u ARBITER_SYZYGY ", kBin, "/arbiter --coordinator ", Address(c), " job ");
  testing::CommandResult submit = testing::RunCommand(client + "submit " + games);
  ASSERT_EQ(submit.exit_code, 0) << submit.out;
  const std::string id = submit.out.substr(0, submit.out.find('\n'));
  ASSERT_GE(WaitForGamesDone(client, id, 100), 100);
  const std::string db = Path("jobs/jobs.sqlite");
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(db + suffix);

  std::string listed;
  for (int i = 0; i < 200 && listed.find("paused: ") == std::string::npos; ++i) {
    std::this_thread::sleep_for(milliseconds(50));
    listed = testing::RunCommand(client + "list").out;
  }
  EXPECT_PRED_FORMAT2(testing::Contains, listed,
                      "paused: the job database refuses writes: the job database was deleted or "
                      "replaced while the coordinator ran");
  EXPECT_EQ(listed.find(Path("")), std::string::npos) << "a server path reached the client";
  // It stays paused, not done: no commit goes into the unlinked file.
  std::this_thread::sleep_for(milliseconds(1500));
  testing::CommandResult again = testing::RunCommand(client + "list");
  EXPECT_PRED_FORMAT2(testing::Contains, again.out, "paused: ");
  EXPECT_EQ(again.out.find("\tdone\t"), std::string::npos) << again.out;
  testing::CommandResult refused = testing::RunCommand(client + "submit " + kSample + " 2>&1");
  EXPECT_NE(refused.exit_code, 0) << refused.out;
  EXPECT_PRED_FORMAT2(testing::Contains, refused.out, "deleted or replaced");
  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("coordinator.log")),
                      db + " was deleted or replaced");

  coordinator_->Kill(SIGTERM);
  EXPECT_LE(StartCoordinator({w}), 0) << "started on a new database beside the uploads";
  int status = 0;
  ASSERT_TRUE(coordinator_->Wait(milliseconds(10000), &status));
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0);
  const std::string log = ReadFile(Path("coordinator.log"));
  EXPECT_PRED_FORMAT2(testing::Contains, log, "jobs.sqlite is new but uploads/ holds 1 files");
  EXPECT_TRUE(fs::exists(Path("jobs/uploads/") + id)) << "the upload was removed";
  EXPECT_FALSE(fs::exists(db)) << "the refused start left a new database behind";
}

// A job directory on a full disk (a 4 MB tmpfs): deleting an ended job
// still works, its upload making the room SQLite needs, and the job leaves
// the list only once the store has let it go.
TEST_F(Cluster, DeletingOnAFullDiskFreesRoomOrKeepsTheJob) {
  const std::string small = Path("small");
  fs::create_directories(small);
  if (testing::RunCommand("mount -t tmpfs -o size=4m tmpfs " + small + " 2>&1").exit_code != 0)
    GTEST_SKIP() << "this machine does not let the test mount a tmpfs (root and mount "
                    "permission are needed): the full-disk case did not run";
  struct Unmount {
    std::string dir;
    ~Unmount() { testing::RunCommand("umount -l " + dir); }
  } unmount{small};
  const std::string games = Path("games.pgn");
  {
    const std::string sample = ReadFile(kSample);
    std::ofstream out(games);
    for (int i = 0; i < 150; ++i) out << sample << "\n";
  }
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  coordinator_ = std::make_unique<Process>(
      std::vector<std::string>{kBin + "/arbiter-coordinator", "--listen", "127.0.0.1:0",
                               "--workers", Address(w), "--job-dir", small + "/jobs", "--port-file",
                               Path("coordinator.port")},
      Path("coordinator.log"));
  const int c = WaitForPort(Path("coordinator.port"));
  ASSERT_GT(c, 0);
  const std::string client = absl::StrCat("env -u ARBITER_SYZYGY timeout 60 ", kBin,
                                          "/arbiter --coordinator ", Address(c), " job ");
  testing::CommandResult submit = testing::RunCommand(client + "submit " + games);
  ASSERT_EQ(submit.exit_code, 0) << submit.out;
  const std::string id = submit.out.substr(0, submit.out.find('\n'));
  ASSERT_EQ(testing::RunCommand(client + "watch " + id).exit_code, 0);
  ASSERT_TRUE(fs::exists(small + "/jobs/uploads/" + id));
  // Fill the disk.
  testing::RunCommand("dd if=/dev/zero of=" + small + "/filler bs=64k 2>/dev/null");
  testing::CommandResult deleted = testing::RunCommand(client + "delete " + id + " 2>&1");
  testing::CommandResult list = testing::RunCommand(client + "list");
  if (deleted.exit_code == 0) {
    EXPECT_EQ(list.out.find(id), std::string::npos) << "deleted, yet listed: " << list.out;
    EXPECT_FALSE(fs::exists(small + "/jobs/uploads/" + id));
  } else {
    // Kept, and said why.
    EXPECT_PRED_FORMAT2(testing::Contains, deleted.out, "could not be deleted");
    EXPECT_PRED_FORMAT2(testing::Contains, list.out, id);
  }
  EXPECT_EQ(deleted.exit_code, 0) << "the upload should have made the room: " << deleted.out;
  EXPECT_EQ(deleted.out.find(small), std::string::npos) << "a server path reached the client";
  coordinator_->Kill(SIGTERM);
}

// A job database of the string-typed wire (schema version 1, before
// 2026-12-01) holding jobs stops the start with what to do, rather than
// serving verdicts this version would misread; emptied, it is upgraded.
TEST_F(Cluster, AJobDatabaseOfTheOldWireStopsTheStart) {
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w});
  ASSERT_GT(c, 0);
  const std::string remote =
      absl::StrCat("env -u ARBITER_SYZYGY ", kBin, "/arbiter --coordinator ", Address(c), " job ");
  testing::CommandResult submit = testing::RunCommand(remote + "submit " + kSample);
  ASSERT_EQ(submit.exit_code, 0) << submit.out;
  const std::string id = submit.out.substr(0, submit.out.find('\n'));
  EXPECT_EQ(testing::RunCommand(remote + "watch " + id).exit_code, 0);
  coordinator_->Kill(SIGTERM);
  const std::string db = Path("jobs/jobs.sqlite");
  auto exec = [&](const char* sql) {
    sqlite3* handle = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(handle, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sql;
    sqlite3_close(handle);
  };
  exec("PRAGMA user_version=1");
  EXPECT_LE(StartCoordinator({w}), 0) << "started on a database of the old wire";
  int status = 0;
  ASSERT_TRUE(coordinator_->Wait(milliseconds(10000), &status));
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0);
  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("coordinator.log")),
                      "holds 1 jobs stored by a coordinator from before 2026-12-01");
  exec("DELETE FROM verdicts; DELETE FROM jobs");
  EXPECT_GT(StartCoordinator({w}), 0) << "an empty database of the old wire is upgraded";
}

// A job over a file the client uploads: its verdicts equal the embedded
// run's, and can be read from any game on.
TEST_F(Cluster, AnUploadedJobEqualsTheEmbeddedRun) {
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w});
  ASSERT_GT(c, 0);
  const std::string remote = absl::StrCat(kBin, "/arbiter --coordinator ", Address(c), " ");
  testing::CommandResult submit = testing::RunCommand(remote + "job submit " + kSample);
  ASSERT_EQ(submit.exit_code, 0) << submit.out;
  const std::string id = submit.out.substr(0, submit.out.find('\n'));
  ASSERT_EQ(id.size(), 16u) << submit.out;
  testing::CommandResult watch = testing::RunCommand(remote + "job watch " + id);
  EXPECT_EQ(watch.exit_code, 0) << watch.out;
  EXPECT_PRED_FORMAT2(testing::Contains, watch.out, "done");
  testing::CommandResult results =
      testing::RunCommand(remote + "job results " + id + " --format jsonl");
  ASSERT_EQ(results.exit_code, 0);
  testing::CommandResult local = VerifyEmbedded(kSample);
  EXPECT_EQ(WithoutTiming(results.out), WithoutTiming(local.out));
  // From game 3 on: the same records, fewer of them.
  testing::CommandResult tail =
      testing::RunCommand(remote + "job results " + id + " --format jsonl --from 3");
  std::vector<std::string> all = testing::Lines(results.out), some = testing::Lines(tail.out);
  ASSERT_EQ(some.size() + 2, all.size());
  EXPECT_EQ(some[0], all[2]);
  // Unknown job, missing file: clear errors.
  testing::CommandResult unknown = testing::RunCommand(remote + "job watch 0123456789abcdef 2>&1");
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_PRED_FORMAT2(testing::Contains, unknown.out, "no job 0123456789abcdef");
  testing::CommandResult missing = testing::RunCommand(remote + "job submit /nonexistent.pgn 2>&1");
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_PRED_FORMAT2(testing::Contains, missing.out, "/nonexistent.pgn");
}

grpc::Status SubmitServerPath(int port, const std::string& path, v1::Job* job) {
  auto stub =
      v1::Arbiter::NewStub(grpc::CreateChannel(Address(port), grpc::InsecureChannelCredentials()));
  v1::SubmitJobRequest request;
  request.set_path(path);
  grpc::ClientContext ctx;
  return stub->SubmitJob(&ctx, request, job);
}

// A caller names only files the operator allowed: with no --job-input-dir
// no server-side path at all; with one, only files under it, symbolic links
// resolved first. A refusal says nothing of the file: not a byte of it, not
// whether it exists.
TEST_F(Cluster, AJobReadsOnlyFilesUnderTheInputDirectory) {
  const std::string secret = Path("tokens.txt");
  const std::string token = "5ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e7";
  std::ofstream(secret) << token << "\n";
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  int c = StartCoordinator({w});
  ASSERT_GT(c, 0);
  v1::Job job;
  for (const std::string& path : {secret, std::string("/dev/urandom"), kSample}) {
    grpc::Status s = SubmitServerPath(c, path, &job);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << path;
    EXPECT_PRED_FORMAT2(testing::Contains, s.error_message(), "--job-input-dir");
  }
  coordinator_->Kill(SIGTERM);

  const std::string inputs = Path("inputs");
  fs::create_directories(inputs + "/sub");
  fs::copy_file(kSample, inputs + "/sub/games.pgn");
  fs::create_symlink(secret, inputs + "/link.pgn");
  fs::create_symlink("/dev/urandom", inputs + "/random.pgn");
  fs::create_symlink(Path("nowhere.pgn"), inputs + "/dangling.pgn");
  c = StartCoordinator({w}, {"--job-input-dir", inputs});
  ASSERT_GT(c, 0);
  for (const std::string& path :
       {secret, std::string("../tokens.txt"), std::string("sub/../../tokens.txt"),
        std::string("link.pgn"), std::string("random.pgn"), std::string("dangling.pgn"),
        std::string("/dev/urandom"), Path("nowhere.pgn")}) {
    grpc::Status s = SubmitServerPath(c, path, &job);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED)
        << path << ": " << s.error_message();
    EXPECT_EQ(s.error_message().find(token.substr(0, 8)), std::string::npos) << s.error_message();
  }
  EXPECT_EQ(SubmitServerPath(c, "sub/none.pgn", &job).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(SubmitServerPath(c, "sub", &job).error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  // Allowed, relative or absolute: ruled as the embedded run rules the file.
  for (const std::string& path : {std::string("sub/games.pgn"), inputs + "/sub/games.pgn"}) {
    grpc::Status s = SubmitServerPath(c, path, &job);
    ASSERT_TRUE(s.ok()) << path << ": " << s.error_message();
    EXPECT_EQ(job.path(), "sub/games.pgn");
    const std::string remote = absl::StrCat(kBin, "/arbiter --coordinator ", Address(c), " job ");
    testing::CommandResult watch =
        testing::RunCommand("timeout 60 " + remote + "watch " + job.id());
    EXPECT_EQ(watch.exit_code, 0) << watch.out;
    testing::CommandResult results =
        testing::RunCommand(remote + "results " + job.id() + " --format jsonl");
    EXPECT_EQ(WithoutTiming(results.out), WithoutTiming(VerifyEmbedded(kSample).out));
  }
}

// An upload over --max-upload-mb is refused whole: no job, no file left.
TEST_F(Cluster, AnUploadOverTheLimitLeavesNothingBehind) {
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w}, {"--max-upload-mb", "1"});
  ASSERT_GT(c, 0);
  const std::string big = Path("big.pgn");
  {
    const std::string sample = ReadFile(kSample);
    std::ofstream out(big);
    for (size_t written = 0; written < (2u << 20); written += sample.size()) out << sample;
  }
  const std::string remote = absl::StrCat(kBin, "/arbiter --coordinator ", Address(c), " job ");
  testing::CommandResult submit = testing::RunCommand(remote + "submit " + big + " 2>&1");
  EXPECT_EQ(submit.exit_code, 2) << submit.out;
  EXPECT_PRED_FORMAT2(testing::Contains, submit.out, "--max-upload-mb");
  testing::CommandResult list = testing::RunCommand(remote + "list");
  EXPECT_EQ(list.exit_code, 0);
  EXPECT_EQ(list.out, "");
  size_t files = 0;
  if (fs::exists(Path("jobs/uploads")))
    for ([[maybe_unused]] const auto& f : fs::directory_iterator(Path("jobs/uploads"))) ++files;
  EXPECT_EQ(files, 0u) << "a refused upload left a file";
}

// Jobs are listed newest first, a running job is cancelled (its committed
// verdicts stay readable, it is not resumed at the next start), an ended job
// is deleted with its upload, and a running one is not. No worker answers
// here, so a job stays running as long as the test needs.
TEST_F(Cluster, JobsAreListedCancelledAndDeleted) {
  const int c = StartCoordinator({FreePort()});
  ASSERT_GT(c, 0);
  const std::string remote = absl::StrCat(kBin, "/arbiter --coordinator ", Address(c), " job ");
  auto submit = [&] {
    testing::CommandResult r = testing::RunCommand(remote + "submit " + kSample);
    EXPECT_EQ(r.exit_code, 0) << r.out;
    return r.out.substr(0, r.out.find('\n'));
  };
  const std::string first = submit(), second = submit();
  testing::CommandResult list = testing::RunCommand(remote + "list");
  ASSERT_EQ(list.exit_code, 0);
  std::vector<std::string> rows = testing::Lines(list.out);
  ASSERT_EQ(rows.size(), 2u) << list.out;
  EXPECT_EQ(rows[0].substr(0, 16 + 8), second + "\trunning");
  EXPECT_EQ(rows[1].substr(0, 16 + 8), first + "\trunning");
  EXPECT_PRED_FORMAT2(testing::Contains, rows[0], "lichess_sample.pgn");

  testing::CommandResult refused = testing::RunCommand(remote + "delete " + first + " 2>&1");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_PRED_FORMAT2(testing::Contains, refused.out, "cancel it first");
  for (const std::string& id : {first, second}) {
    testing::CommandResult cancel = testing::RunCommand(remote + "cancel " + id);
    EXPECT_EQ(cancel.exit_code, 0) << cancel.out;
    EXPECT_PRED_FORMAT2(testing::Contains, cancel.out, id + " cancelled");
  }
  testing::CommandResult watch = testing::RunCommand("timeout 20 " + remote + "watch " + first);
  EXPECT_EQ(watch.exit_code, 1) << watch.out;
  testing::CommandResult results =
      testing::RunCommand("timeout 20 " + remote + "results " + first + " 2>&1");
  EXPECT_EQ(results.exit_code, 2) << results.out;
  EXPECT_PRED_FORMAT2(testing::Contains, results.out, "cancelled");

  testing::CommandResult deleted = testing::RunCommand(remote + "delete " + first + " 2>&1");
  EXPECT_EQ(deleted.exit_code, 0) << deleted.out;
  EXPECT_FALSE(fs::exists(Path("jobs/uploads/" + first)));
  EXPECT_TRUE(fs::exists(Path("jobs/uploads/" + second)));
  testing::CommandResult gone = testing::RunCommand(remote + "watch " + first + " 2>&1");
  EXPECT_PRED_FORMAT2(testing::Contains, gone.out, "no job " + first);

  // After a restart: the cancelled job is still cancelled, not resumed.
  coordinator_->Kill(SIGTERM);
  const int restarted = StartCoordinator({FreePort()});
  ASSERT_GT(restarted, 0);
  list = testing::RunCommand(
      absl::StrCat(kBin, "/arbiter --coordinator ", Address(restarted), " job list"));
  rows = testing::Lines(list.out);
  ASSERT_EQ(rows.size(), 1u) << list.out;
  EXPECT_EQ(rows[0].substr(0, 16 + 10), second + "\tcancelled");
  EXPECT_EQ(ReadFile(Path("coordinator.log")).find("resuming job " + second), std::string::npos);
}

// Jobs that ended longer ago than --job-retention are deleted, with their
// uploads; running jobs are kept however old.
TEST_F(Cluster, JobsPastTheirRetentionAreDeleted) {
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  int c = StartCoordinator({w});
  ASSERT_GT(c, 0);
  auto remote = [&] { return absl::StrCat(kBin, "/arbiter --coordinator ", Address(c), " job "); };
  testing::CommandResult submit = testing::RunCommand(remote() + "submit " + kSample);
  ASSERT_EQ(submit.exit_code, 0) << submit.out;
  const std::string id = submit.out.substr(0, submit.out.find('\n'));
  ASSERT_EQ(testing::RunCommand("timeout 60 " + remote() + "watch " + id).exit_code, 0);
  coordinator_->Kill(SIGTERM);
  std::this_thread::sleep_for(milliseconds(2100));
  c = StartCoordinator({w}, {"--job-retention", "1s"});
  ASSERT_GT(c, 0);
  testing::CommandResult gone = testing::RunCommand(remote() + "watch " + id + " 2>&1");
  EXPECT_PRED_FORMAT2(testing::Contains, gone.out, "no job " + id);
  EXPECT_FALSE(fs::exists(Path("jobs/uploads/" + id)));
  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("coordinator.log")), id + " deleted");
}

// SIGTERM ends the coordinator promptly while clients follow a running job
// (watch, results); their calls end UNAVAILABLE. Result calls whose clients
// gave up release their threads.
TEST_F(Cluster, AttachedJobClientsDoNotHoldTheCoordinator) {
  const int c = StartCoordinator({FreePort()});
  ASSERT_GT(c, 0);
  const std::string remote = absl::StrCat(kBin, "/arbiter --coordinator ", Address(c), " job ");
  testing::CommandResult submit = testing::RunCommand(remote + "submit " + kSample);
  ASSERT_EQ(submit.exit_code, 0) << submit.out;
  const std::string id = submit.out.substr(0, submit.out.find('\n'));
  const pid_t pid = coordinator_->pid();
  const int64_t threads_before = ProcStatus(pid, "Threads");
  // 60 result calls that give up after 0.5 s: gRPC keeps a few threads of
  // its own, but none may stay per call (before, each held one).
  testing::CommandResult quitters =
      testing::RunCommand(absl::StrCat("for i in $(seq 60); do timeout -s KILL 0.5 ", remote,
                                       "results --follow ", id, " >/dev/null 2>&1 & done; wait"));
  int64_t threads_after = 0;
  for (int i = 0; i < 50; ++i) {
    std::this_thread::sleep_for(milliseconds(100));
    threads_after = ProcStatus(pid, "Threads");
    if (threads_after <= threads_before + 15) break;
  }
  EXPECT_LE(threads_after, threads_before + 15)
      << "threads before: " << threads_before << ", after the clients left: " << threads_after;

  // No worker: the job makes no progress. Without --follow its results are
  // what is committed (nothing) and end at once, saying the job runs.
  testing::CommandResult now =
      testing::RunCommand("timeout 20 " + remote + "results " + id + " 2>&1");
  EXPECT_EQ(now.exit_code, 1) << now.out;
  EXPECT_PRED_FORMAT2(testing::Contains, now.out, "the job is still running");
  Process results({"/bin/sh", "-c", remote + "results --follow " + id}, Path("results.log"));
  Process watch({"/bin/sh", "-c", remote + "watch " + id}, Path("watch.log"));
  std::this_thread::sleep_for(milliseconds(500));
  coordinator_->Signal(SIGTERM);
  int status = 0;
  EXPECT_TRUE(coordinator_->Wait(milliseconds(10000), &status))
      << "the coordinator hangs on SIGTERM with job clients attached";
  int client_status = 0;
  EXPECT_TRUE(results.Wait(milliseconds(10000), &client_status));
  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("results.log")), "stopping");
}

// Ownership (docs/security.md): a job belongs to the named caller who
// submitted it; another caller is told it does not exist, whatever it
// tries, and does not see it listed; a reader may rule games but not run
// jobs; an admin sees and manages every job. Over gRPC, with the CLI.
TEST_F(Cluster, AJobIsItsSubmittersAndAnAdminsOnly) {
  ASSERT_FALSE(testing::FindProgram("openssl").empty())
      << "openssl (Debian package openssl) makes the test certificates";
  ASSERT_TRUE(MakeTestCertificates("certs"));
  const std::string certs = Path("certs");
  auto cert = [&](const std::string& name) { return absl::StrCat(certs, "/", name); };
  {
    std::ofstream tokens(Path("named-tokens"));
    tokens << "# token name role\n"
           << "alice-secret-0123456789 alice submitter\n"
           << "bob-secret-0123456789 bob submitter\n"
           << "rita-secret-0123456789 rita reader\n"
           << "adam-secret-0123456789 adam admin\n";
  }
  for (const char* name : {"alice", "bob", "rita", "adam"})
    std::ofstream(Path(absl::StrCat(name, ".token"))) << name << "-secret-0123456789\n";
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w}, {"--tls-cert", cert("coordinator.pem"), "--tls-key",
                                       cert("coordinator.key"), "--tokens", Path("named-tokens")});
  ASSERT_GT(c, 0);
  auto as = [&](const std::string& who, const std::string& command) {
    return testing::RunCommand(
        absl::StrCat("env -u ARBITER_SYZYGY -u ARBITER_TLS_CA -u ARBITER_TOKEN_FILE timeout 60 ",
                     kBin, "/arbiter --coordinator localhost:", c, " --tls-ca ", cert("ca.pem"),
                     " --token-file ", Path(who + ".token"), " ", command, " 2>&1"));
  };
  testing::CommandResult submitted = as("alice", absl::StrCat("job submit ", kSample));
  ASSERT_EQ(submitted.exit_code, 0) << submitted.out;
  const std::string id = submitted.out.substr(0, submitted.out.find('\n'));
  testing::CommandResult mine = as("alice", "job list");
  EXPECT_PRED_FORMAT2(testing::Contains, mine.out, id);
  EXPECT_PRED_FORMAT2(testing::Contains, mine.out, "\talice\n");

  // Bob: no such job, whatever he asks; his list is empty.
  for (const std::string verb : {"watch ", "results ", "cancel ", "delete "}) {
    testing::CommandResult r = as("bob", "job " + verb + id);
    EXPECT_NE(r.exit_code, 0) << verb << r.out;
    EXPECT_PRED_FORMAT2(testing::Contains, r.out, "no job " + id);
  }
  EXPECT_EQ(as("bob", "job list").out, "");
  // Rita reads: rulings yes, jobs no.
  testing::CommandResult reader_verify = as("rita", absl::StrCat("verify ", kSample));
  EXPECT_EQ(reader_verify.exit_code, 0) << reader_verify.out;
  testing::CommandResult reader_submit = as("rita", absl::StrCat("job submit ", kSample));
  EXPECT_NE(reader_submit.exit_code, 0);
  EXPECT_PRED_FORMAT2(testing::Contains, reader_submit.out, "the token of rita is a reader's");
  EXPECT_EQ(as("rita", "job list").out, "");
  EXPECT_PRED_FORMAT2(testing::Contains, as("rita", "job results " + id).out, "no job " + id);

  // Adam sees and manages it; the job itself was not touched by the others.
  testing::CommandResult all = as("adam", "job list");
  EXPECT_PRED_FORMAT2(testing::Contains, all.out, id);
  testing::CommandResult results = as("adam", "job results --follow " + id);
  EXPECT_EQ(results.exit_code, 0) << results.out;
  EXPECT_EQ(WithoutTiming(results.out),
            WithoutTiming(as("alice", "job results --follow " + id).out));
  testing::CommandResult deleted = as("adam", "job delete " + id);
  EXPECT_EQ(deleted.exit_code, 0) << deleted.out;
  EXPECT_EQ(as("alice", "job list").out, "");
}

}  // namespace
}  // namespace arbiter
