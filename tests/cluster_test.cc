// The cluster with real processes on 127.0.0.1 and ephemeral ports: a
// coordinator and workers are started as the binaries users run, the
// `arbiter` client talks to them, and the output must equal the embedded
// run's byte for byte (the summary's timing aside). Workers are killed with
// SIGKILL mid-run and restarted.
#include <algorithm>
#include <fstream>
#include <map>

#include "tests/cluster_support.h"

namespace arbiter {
namespace {

TEST_F(Cluster, AnalyzeThroughTheCoordinatorEqualsEmbedded) {
  std::string remote, embedded;
  ASSERT_TRUE(StartSmallCluster(&remote, &embedded));
  // A mate line, a dead position, a fortress, a claim by move, text output.
  const std::vector<std::string> cases = {
      "analyze --json --fen '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1'",
      "analyze --json --fen '8/8/8/4k3/8/8/2B5/K7 w - - 0 1'",
      "analyze --json --fen '8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1'",
      "analyze --json --fen 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 99 80'",
      "analyze --fen '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1' --moves g1f1 g8f8 f1g1 f8g8",
  };
  ExpectSameAsEmbedded(embedded, remote, cases);
  // Bad input: the same error, from the worker, through the coordinator.
  testing::CommandResult bad = testing::RunCommand(remote + "analyze --fen 'bad fen' 2>&1");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_PRED_FORMAT2(testing::Contains, bad.out, "FEN must have 6 fields");
}

// Chess 99 (issue 8): the ruleset travels with the request (analyze) and
// with the records (verify), and the answers are the embedded run's bytes.
TEST_F(Cluster, Chess99ThroughTheCoordinatorEqualsEmbedded) {
  std::string remote, embedded;
  ASSERT_TRUE(StartSmallCluster(&remote, &embedded));
  const std::string games = std::string(ARBITER_SOURCE_DIR) + "/examples/chess99_games.pgn";
  // The same games without their [Variant] tags: Chess 99 only by --rules.
  const std::string untagged = ::testing::TempDir() + "/chess99_untagged.pgn";
  ASSERT_EQ(testing::RunCommand("grep -v '^\\[Variant ' " + games + " > " + untagged).exit_code, 0);
  const std::vector<std::string> cases = {
      "analyze --rules chess99 --json --fen '9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60'",
      "analyze --rules chess99 --fen '4k4/9/p8/9/9/9/9/P8/4K4 b - - 0 99'",
      "analyze --rules chess99 --json --fen '9/9/9/9/4k4/9/9/9/n3K4 w - - 0 70' --moves Kd2 Nb3",
      "verify --format jsonl " + games,
      "verify --rules chess99 --format jsonl " + untagged,
  };
  ExpectSameAsEmbedded(embedded, remote, cases);
  // Untagged and read as chess, the same games are errors; with the rules
  // given, they are the tagged games' verdicts.
  testing::CommandResult tagged = testing::RunCommand(embedded + "verify --format jsonl " + games);
  testing::CommandResult as_chess =
      testing::RunCommand(embedded + "verify --format jsonl " + untagged);
  testing::CommandResult as_chess99 =
      testing::RunCommand(remote + "verify --rules chess99 --format jsonl " + untagged);
  EXPECT_EQ(WithoutTiming(as_chess99.out), WithoutTiming(tagged.out));
  EXPECT_PRED_FORMAT2(testing::Contains, as_chess.out, "\"errors\": 8");
  testing::CommandResult bad = testing::RunCommand(
      remote + "analyze --rules chess99 --fen '9/9/9/9/9/9/9/9/9 w - - 0 1' 2>&1");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_PRED_FORMAT2(testing::Contains, bad.out, "exactly one per side");
}

// Rule sets and claims (issue 30): the rules and the claim travel with the
// request, the evidence (mating lines, retrograde tables) comes back, and
// the answers are the embedded run's bytes.
TEST_F(Cluster, ClaimsAndRuleSetsThroughTheCoordinatorEqualEmbedded) {
  std::string remote, embedded;
  ASSERT_TRUE(StartSmallCluster(&remote, &embedded));
  const std::string games = std::string(ARBITER_SOURCE_DIR) + "/examples/claims_games.pgn";
  const std::vector<std::string> cases = {
      "analyze --json --fen '8/8/8/4k3/8/8/8/K6Q b - - 0 50' --claim quickplay_finish",
      "analyze --fen '8/8/4k3/8/2b5/8/3PK3/7R w - - 0 40' --claim quickplay_finish",
      "analyze --json --fen '8/8/4k3/8/8/8/3PK3/7R w - - 0 40' --claim "
      "insufficient_losing_chances",
      "analyze --fen '8/8/8/4k3/8/8/8/K6Q w - - 0 50' --claim tablebase_claim --claimed win",
      "verify --format jsonl --rules fide " + games,
      "verify --format jsonl --rules uscf " + games,
      "verify --format jsonl --rules iccf " + games,
  };
  ExpectSameAsEmbedded(embedded, remote, cases);
  // A claim of other rules than those asked for is refused on both paths.
  for (const std::string& client : {embedded, remote}) {
    testing::CommandResult bad =
        testing::RunCommand(client + "analyze --rules uscf --claim quickplay_finish --fen '" +
                            "8/8/8/4k3/8/8/8/K6Q b - - 0 50' 2>&1");
    EXPECT_EQ(bad.exit_code, 2) << bad.out;
    EXPECT_PRED_FORMAT2(testing::Contains, bad.out, "is a claim of the FIDE rules");
  }
}

// verify --report and --annotate-pgn (issue 29): the client keeps each
// record until its verdict comes back, in input order here as embedded, so
// the files are the embedded run's bytes.
TEST_F(Cluster, ReportAndAnnotatedPgnThroughTheCoordinatorEqualEmbedded) {
  std::string remote, embedded;
  ASSERT_TRUE(StartSmallCluster(&remote, &embedded));
  const std::string games = ::testing::TempDir() + "/cluster_disputes.pgn";
  std::ofstream(games)
      << ReadFile(kSample)
      << "\n[Event \"mated, declared 1-0\"]\n[Site \"https://lichess.org/abcdEFGH\"]\n"
         "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n"
         "[Event \"a draw on time that White wins\"]\n[Result \"1/2-1/2\"]\n"
         "[Termination \"Time forfeit\"]\n[SetUp \"1\"]\n"
         "[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30\"]\n\n30. Kf1 1/2-1/2\n\n"
         "[Event \"illegal\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n";
  std::map<std::string, std::string> files[2];
  int side = 0;
  for (const std::string& prefix : {embedded, remote}) {
    const std::string html = absl::StrCat(::testing::TempDir(), "/cluster_report_", side, ".html");
    const std::string pgn = absl::StrCat(::testing::TempDir(), "/cluster_annotated_", side, ".pgn");
    testing::CommandResult r = testing::RunCommand(prefix + "verify --format jsonl " + games +
                                                   " --report " + html + " --annotate-pgn " + pgn);
    ASSERT_EQ(r.exit_code, 0) << prefix;
    files[side]["html"] = ReadFile(html);
    files[side]["pgn"] = ReadFile(pgn);
    ++side;
  }
  // The three games added are disputed; the sample's Atomic game is skipped.
  EXPECT_EQ(std::count(files[0]["pgn"].begin(), files[0]["pgn"].end(), '\n') > 0, true);
  size_t articles = 0;
  for (size_t at = files[0]["html"].find("<article"); at != std::string::npos;
       at = files[0]["html"].find("<article", at + 1))
    ++articles;
  EXPECT_EQ(articles, 3u);
  EXPECT_PRED_FORMAT2(testing::Contains, files[0]["html"],
                      "White can mate, helpmate line (both sides&#39; moves): 30... ");
  EXPECT_PRED_FORMAT2(testing::Contains, files[0]["html"], "https://lichess.org/abcdEFGH#4");
  EXPECT_EQ(files[1]["html"], files[0]["html"]);
  EXPECT_EQ(files[1]["pgn"], files[0]["pgn"]);
}

TEST_F(Cluster, HealthAndReflectionOnBothDaemons) {
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w});
  ASSERT_GT(c, 0);
  EXPECT_TRUE(Serving(w));
  EXPECT_TRUE(Serving(c));
  // ServerReflectionRequest{list_services: ""} is field 7, empty: 3a 00.
  // Reflection is a bidirectional stream; a unary call sends one message and
  // reads one reply, which is all list_services needs.
  for (auto [port, service] : {std::pair{w, "arbiter.v1.Worker"}, {c, "arbiter.v1.Arbiter"}}) {
    grpc::Status status;
    std::string reply =
        CallRaw(Address(port), "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
                std::string("\x3a\x00", 2), &status);
    EXPECT_TRUE(status.ok()) << status.error_message();
    EXPECT_PRED_FORMAT2(testing::Contains, reply, service);
    EXPECT_PRED_FORMAT2(testing::Contains, reply, "grpc.health.v1.Health");
  }
}

// The fault test: coordinator + 3 workers verify >= 10,000 real
// games; one worker is killed with SIGKILL mid-run and restarted on its
// port; the records equal the embedded run's, none missing, none twice;
// the restarted worker gets work again.
TEST_F(Cluster, VerifySurvivesAKilledWorkerAndTheRestartedOneRejoins) {
  const std::string shared = testing::SharedDir();
  const std::string lichess = shared + "/games/lichess_jishanshaikh4_37221.pgn.zst";
  if (shared.empty() || !fs::exists(lichess))
    GTEST_SKIP() << "../shared/games/lichess_jishanshaikh4_37221.pgn.zst is absent "
                    "(set ARBITER_SHARED): the 10,000-game fault test cannot run";
  const std::string zstd = testing::FindProgram("zstd");
  ASSERT_FALSE(zstd.empty()) << "zstd (Debian package zstd) is needed to cut the game file";
  // The first 10,000 games, as plain PGN.
  const std::string games = Path("games.pgn");
  ASSERT_EQ(testing::RunCommand(zstd + " -dc " + lichess +
                                " | awk '/^\\[Event /{n++} n<=10000' > " + games)
                .exit_code,
            0);
  const std::string embedded = Path("embedded.jsonl");
  ASSERT_EQ(testing::RunCommand("env -u ARBITER_COORDINATOR -u ARBITER_SYZYGY " + kBin +
                                "/arbiter verify " + games + " --tables " + kTables +
                                " --format jsonl > " + embedded)
                .exit_code,
            0);
  ASSERT_EQ(CountLines(embedded), 10001u) << "10,000 records and a summary";

  std::vector<int> ports;
  for (size_t i = 0; i < 3; ++i) ports.push_back(StartWorker(i));
  for (int p : ports) ASSERT_GT(p, 0);
  const int c = StartCoordinator(ports);
  ASSERT_GT(c, 0);
  const std::string remote_out = Path("remote.jsonl");
  Process client({"/usr/bin/env", "-u", "ARBITER_SYZYGY", kBin + "/arbiter", "--coordinator",
                  Address(c), "verify", games, "--format", "jsonl"},
                 Path("client.log"), remote_out);
  // Kill worker 1 once the run is well under way (verdicts arrive in input
  // order, so 1,000 lines means at least that many games are done).
  int status = 0;
  for (int i = 0; i < 30000 && CountLines(remote_out) < 1000; ++i)
    std::this_thread::sleep_for(milliseconds(10));
  ASSERT_FALSE(client.Wait(milliseconds(1), &status)) << "the run ended before the kill";
  ASSERT_LT(CountLines(remote_out), 9000u) << "too late for a mid-run kill";
  workers_[1]->Kill(SIGKILL);
  std::this_thread::sleep_for(milliseconds(500));
  ASSERT_EQ(StartWorker(1, ports[1]), ports[1]) << "restart on the same port";
  ASSERT_TRUE(client.Wait(milliseconds(600000), &status)) << "the run did not finish";
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << ReadFile(Path("client.log"));
  EXPECT_EQ(WithoutTiming(ReadFile(remote_out)), WithoutTiming(ReadFile(embedded)));

  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("coordinator.log")), "failed");

  // The restarted worker serves: with the other two stopped, a run through
  // the coordinator still completes, on it alone, with the embedded output.
  workers_[0]->Kill(SIGTERM);
  workers_[2]->Kill(SIGTERM);
  testing::CommandResult alone = VerifyRemote(c, kSample);
  testing::CommandResult local = VerifyEmbedded(kSample);
  EXPECT_EQ(alone.exit_code, 0);
  EXPECT_EQ(WithoutTiming(alone.out), WithoutTiming(local.out));
  workers_[1]->Kill(SIGTERM);
  std::smatch m;
  const std::string log = ReadFile(Path("worker1.log"));
  ASSERT_TRUE(std::regex_search(log, m, std::regex("stopped after ([0-9]+) batches"))) << log;
  EXPECT_GT(std::stoll(m[1]), 0) << "the restarted worker got no work";
}

// Verifies the OTB file through two workers with worker 1 stopped (SIGSTOP:
// connected, silent) and the coordinator given `flags`: the run completes
// within `limit` with every record, in order, equal to the embedded run's,
// and the coordinator's log says `log_says`. Worker 1 is stopped once the
// coordinator counts it up (connected), and before the run, so that every
// batch the coordinator gives it is held. (Stopping it at the first verdict
// raced on a loaded machine: the client reads verdicts late, and by then
// worker 1 could have finished its last batch.)
void VerifyWithWorkerOneStopped(Cluster& cluster, std::vector<std::string> flags,
                                milliseconds limit, const std::string& log_says) {
  const std::string shared = testing::SharedDir();
  const std::string otb = shared + "/games/otb_kasparov_2128.pgn.zst";
  if (shared.empty() || !fs::exists(otb))
    GTEST_SKIP() << "../shared/games/otb_kasparov_2128.pgn.zst is absent (set ARBITER_SHARED)";
  std::vector<int> ports = {cluster.StartWorker(0), cluster.StartWorker(1)};
  for (int p : ports) ASSERT_GT(p, 0);
  const int metrics = FreePort();
  flags.insert(flags.end(), {"--metrics", Address(metrics)});
  const int c = cluster.StartCoordinator(ports, flags);
  ASSERT_GT(c, 0);
  ASSERT_TRUE(WaitForWorkersUp(metrics, 2)) << Metrics(metrics);
  cluster.workers_[1]->Signal(SIGSTOP);
  const std::string out = cluster.Path("remote.jsonl");
  Process client(
      {kBin + "/arbiter", "--coordinator", Address(c), "verify", otb, "--format", "jsonl"},
      cluster.Path("client.log"), out);
  int status = 0;
  const bool finished = client.Wait(limit, &status);
  cluster.workers_[1]->Signal(SIGCONT);
  ASSERT_TRUE(finished) << "the run did not finish in time";
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << ReadFile(cluster.Path("client.log"));
  EXPECT_EQ(WithoutTiming(ReadFile(out)), WithoutTiming(VerifyEmbedded(otb).out));
  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(cluster.Path("coordinator.log")), log_says);
}

// A worker that stops answering holds its batches until their lease ends
// (here 1.5 s, shorter than the watchdog's two missed pings); they go to the
// other worker.
TEST_F(Cluster, ABatchPastItsDeadlineGoesToAnotherWorker) {
  VerifyWithWorkerOneStopped(*this, {"--batch-deadline-ms", "1500"}, milliseconds(300000),
                             "Deadline Exceeded");
}

// With the default 120 s lease, the watchdog finds the hung worker within
// seconds and its batches move: only the watchdog can end the run in time.
TEST_F(Cluster, AHungWorkersBatchesMoveLongBeforeTheirLeaseEnds) {
  VerifyWithWorkerOneStopped(*this, {}, milliseconds(100000), "does not answer");
}

// A game that no worker finishes within its lease cannot stall the run:
// after kMaxGameFailures broken calls it gets an error verdict, and the
// other games theirs. The lease (1 ms) is far shorter than the first game's
// ruling, whose flag fall needs a can-mate search of tenths of a second, so
// that game fails on every machine; the sample's games may finish in time or
// fail the same way, and either is right.
TEST_F(Cluster, AGameNoWorkerFinishesGetsAnErrorVerdict) {
  const std::string games = Path("slow_first.pgn");
  {
    std::ofstream out(games);
    out << "[Event \"A flag fall whose ruling needs a long search\"]\n"
           "[Site \"?\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n"
           "[FEN \"3b1b1k/2b1bpb1/1b1b1b2/2b5/4KB2/4B1B1/3B1B1B/2B1B1B1 w - - 0 1\"]\n"
           "[Termination \"Time forfeit\"]\n\n1-0\n\n"
        << ReadFile(kSample);
  }
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w}, {"--batch-deadline-ms", "1"});
  ASSERT_GT(c, 0);
  testing::CommandResult far = VerifyRemote(c, games);
  testing::CommandResult local = VerifyEmbedded(games);
  EXPECT_EQ(far.exit_code, 0);
  std::vector<std::string> got = testing::Lines(far.out), want = testing::Lines(local.out);
  ASSERT_EQ(got.size(), want.size());
  ASSERT_GE(got.size(), 2u);
  EXPECT_PRED_FORMAT2(testing::Contains, got[0], "no worker could rule on this game: 3 calls");
  for (size_t i = 0; i + 1 < got.size(); ++i) {
    if (got[i] == want[i]) continue;
    EXPECT_PRED_FORMAT2(testing::Contains, got[i], "no worker could rule on this game: 3 calls");
    EXPECT_PRED_FORMAT2(testing::Contains, got[i], absl::StrCat("\"game\": ", i + 1, ","));
  }
}

// SIGTERM while a client streams games: the coordinator ends the run (the
// client hears UNAVAILABLE, never a shortened success) and exits.
TEST_F(Cluster, ShutdownDuringARunEndsItCleanly) {
  const std::string shared = testing::SharedDir();
  const std::string otb = shared + "/games/otb_blackmar_diemer_3768.pgn.zst";
  if (shared.empty() || !fs::exists(otb))
    GTEST_SKIP() << "../shared/games/otb_blackmar_diemer_3768.pgn.zst is absent";
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w});
  ASSERT_GT(c, 0);
  const std::string out = Path("remote.jsonl");
  Process client(
      {kBin + "/arbiter", "--coordinator", Address(c), "verify", otb, "--format", "jsonl"},
      Path("client.log"), out);
  for (int i = 0; i < 30000 && CountLines(out) < 100; ++i)
    std::this_thread::sleep_for(milliseconds(10));
  int status = 0;
  ASSERT_FALSE(client.Wait(milliseconds(1), &status)) << "the run ended before the signal";
  coordinator_->Signal(SIGTERM);
  ASSERT_TRUE(coordinator_->Wait(milliseconds(15000), &status)) << "the coordinator hangs";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ASSERT_TRUE(client.Wait(milliseconds(15000), &status)) << "the client hangs";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0);
  // UNAVAILABLE with its reason, as documented, not CANCELLED.
  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("client.log")),
                      "the coordinator is shutting down");
}

// Workers found through a DNS name (as a Kubernetes headless Service gives
// them), and the Prometheus endpoints of both daemons counting the work.
TEST_F(Cluster, WorkersFromADnsNameAndMetrics) {
  const int worker_metrics = FreePort(), coordinator_metrics = FreePort();
  const int w = StartWorker(0, 0, {"--metrics", Address(worker_metrics)});
  ASSERT_GT(w, 0);
  const int c = StartCoordinatorFor(absl::StrCat("dns:///localhost:", w),
                                    {"--metrics", Address(coordinator_metrics)});
  ASSERT_GT(c, 0);
  testing::CommandResult far = VerifyRemote(c, kSample);
  testing::CommandResult local = VerifyEmbedded(kSample);
  EXPECT_EQ(far.exit_code, 0);
  EXPECT_EQ(WithoutTiming(far.out), WithoutTiming(local.out));
  const std::string cm = Metrics(coordinator_metrics), wm = Metrics(worker_metrics);
  EXPECT_PRED_FORMAT2(testing::Contains, cm, "arbiter_coordinator_verdicts_total 5");
  EXPECT_PRED_FORMAT2(testing::Contains, cm, "arbiter_coordinator_workers_up");
  EXPECT_PRED_FORMAT2(testing::Contains, cm, "arbiter_coordinator_batch_seconds_bucket");
  EXPECT_PRED_FORMAT2(testing::Contains, wm, "arbiter_worker_verdicts_total 5");
  EXPECT_PRED_FORMAT2(testing::Contains, wm, "arbiter_worker_game_seconds_count 5");
  EXPECT_PRED_FORMAT2(testing::Contains, cm, "arbiter_build_info{");
  EXPECT_PRED_FORMAT2(testing::Contains, cm, "program=\"arbiter-coordinator\"");
  EXPECT_PRED_FORMAT2(testing::Contains, wm, "program=\"arbiter-worker\"");
}

// A worker that builds its retrograde tables first is not sent work, and a
// client is told so at once (not after --no-worker-timeout), naming what
// it builds; once it is built the same call rules.
TEST_F(Cluster, AWorkerBuildingItsTablesIsNamedAtOnce) {
  tables_ = TablesWithout("partial-tables", {"KQvKR", "KPvKP"});
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  tables_ = kTables;
  // A second worker, started later with every table stored: the two must
  // then agree on their tables (WorkerInfo.retrograde_digest), built here
  // and saved there, or loaded, alike.
  const int second = FreePort();
  const int c = StartCoordinator({w, second});
  ASSERT_GT(c, 0);
  const std::string verify =
      absl::StrCat("env -u ARBITER_SYZYGY timeout 25 ", kBin, "/arbiter --coordinator ", Address(c),
                   " verify ", kSample, " --format jsonl 2>&1");
  testing::CommandResult early = testing::RunCommand(verify);
  EXPECT_NE(early.exit_code, 0) << early.out;
  EXPECT_PRED_FORMAT2(testing::Contains, early.out, "no worker rules yet: ");
  EXPECT_PRED_FORMAT2(testing::Contains, early.out,
                      "building the retrograde tables (3-4 men) before ruling");
  std::string log;
  for (int i = 0; i < 1200 && log.find("ruling now") == std::string::npos; ++i) {
    std::this_thread::sleep_for(milliseconds(100));
    log = ReadFile(Path("worker0.log"));
  }
  ASSERT_PRED_FORMAT2(testing::Contains, log, "retrograde tables built in ");
  ASSERT_GT(StartWorker(1, second), 0);
  testing::CommandResult later;
  for (int i = 0; i < 50; ++i) {  // the coordinator's next probe finds it ruling
    later = testing::RunCommand(verify);
    if (later.exit_code == 0) break;
    std::this_thread::sleep_for(milliseconds(200));
  }
  EXPECT_EQ(later.exit_code, 0) << later.out;
  EXPECT_EQ(WithoutTiming(later.out), WithoutTiming(VerifyEmbedded(kSample).out));
  // Both took games, none refused for a mismatch of tables.
  const std::string second_up = absl::StrCat("worker ", Address(second), " answers\n");
  for (int i = 0; i < 100 && ReadFile(Path("coordinator.log")).find(second_up) == std::string::npos;
       ++i)
    std::this_thread::sleep_for(milliseconds(100));
  ASSERT_PRED_FORMAT2(testing::Contains, ReadFile(Path("coordinator.log")), second_up);
  {
    std::ofstream games(Path("many.pgn"));
    for (int i = 0; i < 40; ++i) games << ReadFile(kSample) << "\n";
  }
  testing::CommandResult many = testing::RunCommand(
      absl::StrCat("env -u ARBITER_SYZYGY timeout 60 ", kBin, "/arbiter --coordinator ", Address(c),
                   " verify ", Path("many.pgn"), " 2>&1"));
  EXPECT_EQ(many.exit_code, 0) << many.out;
  EXPECT_EQ(ReadFile(Path("coordinator.log")).find("different retrograde"), std::string::npos);
  std::smatch built, loaded;
  const std::string log1 = ReadFile(Path("worker1.log"));
  ASSERT_TRUE(
      std::regex_search(log, built, std::regex("ruling now with ([0-9]+ tables, [0-9a-f]+)")));
  ASSERT_TRUE(
      std::regex_search(log1, loaded, std::regex("retrograde tables: ([0-9]+ tables, [0-9a-f]+)")));
  EXPECT_EQ(built[1], loaded[1]);
  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("coordinator.log")),
                      "answers but is building the retrograde tables");
}

// TLS everywhere: clients need the CA and a bearer token; workers take only
// the coordinator (mutual TLS with a CA that signed nothing else); probes
// use the plain-text health port.
TEST_F(Cluster, TlsTokensAndWorkersThatAcceptOnlyTheCoordinator) {
  const std::string openssl = testing::FindProgram("openssl");
  ASSERT_FALSE(openssl.empty()) << "openssl (Debian package openssl) makes the test certificates";
  const std::string certs = Path("certs");
  ASSERT_TRUE(MakeTestCertificates("certs"));
  auto cert = [&](const std::string& name) { return absl::StrCat(certs, "/", name); };
  const int w = StartWorker(0, 0,
                            {"--tls-cert", cert("worker.pem"), "--tls-key", cert("worker.key"),
                             "--client-ca", cert("client-ca.pem")});
  ASSERT_GT(w, 0);
  // Workers by DNS name, as in Kubernetes: the coordinator connects to the
  // addresses the name resolves to and checks the workers' certificate,
  // which names no address, against the name.
  const int c = StartCoordinatorFor(
      absl::StrCat("dns:///localhost:", w),
      {"--tls-cert", cert("coordinator.pem"), "--tls-key", cert("coordinator.key"), "--tokens",
       cert("tokens"), "--worker-ca", cert("ca.pem"), "--worker-cert",
       cert("coordinator-client.pem"), "--worker-key", cert("coordinator-client.key"), "--health",
       "127.0.0.1:0"});
  ASSERT_GT(c, 0);
  const std::string client = absl::StrCat("env -u ARBITER_SYZYGY -u ARBITER_TLS_CA -u ",
                                          "ARBITER_TOKEN_FILE ", kBin, "/arbiter --coordinator ");
  const std::string verify = absl::StrCat(" verify ", kSample, " --format jsonl 2>&1");

  testing::CommandResult good =
      testing::RunCommand(absl::StrCat("timeout 60 ", client, Address(c), " --tls-ca ",
                                       cert("ca.pem"), " --token-file ", cert("token"), verify));
  testing::CommandResult local = testing::RunCommand(
      absl::StrCat("env -u ARBITER_SYZYGY -u ARBITER_COORDINATOR ", kBin, "/arbiter", verify));
  EXPECT_EQ(good.exit_code, 0) << good.out;
  EXPECT_EQ(WithoutTiming(good.out), WithoutTiming(local.out));

  testing::CommandResult no_token =
      testing::RunCommand(absl::StrCat(client, Address(c), " --tls-ca ", cert("ca.pem"), verify));
  EXPECT_EQ(no_token.exit_code, 2);
  EXPECT_PRED_FORMAT2(testing::Contains, no_token.out, "a valid bearer token is required");

  std::ofstream(Path("wrong-token")) << "not-the-token\n";
  testing::CommandResult wrong =
      testing::RunCommand(absl::StrCat(client, Address(c), " --tls-ca ", cert("ca.pem"),
                                       " --token-file ", Path("wrong-token"), verify));
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_PRED_FORMAT2(testing::Contains, wrong.out, "a valid bearer token is required");

  testing::CommandResult plain = testing::RunCommand(absl::StrCat(client, Address(c), verify));
  EXPECT_EQ(plain.exit_code, 2);
  EXPECT_PRED_FORMAT2(testing::Contains, plain.out, "UNAVAILABLE");

  // A client that reaches a worker directly, even with the CA and a token,
  // has no certificate from the coordinator's client CA: refused.
  testing::CommandResult direct = testing::RunCommand(
      absl::StrCat(client, "localhost:", w, " --tls-ca ", cert("ca.pem"), " --token-file ",
                   cert("token"), " analyze --fen '8/8/8/8/8/8/8/K6k w - - 0 1' 2>&1"));
  EXPECT_EQ(direct.exit_code, 2);
  EXPECT_PRED_FORMAT2(testing::Contains, direct.out, "UNAVAILABLE");

  // Kubernetes probes: plain-text health on its own port, and nothing else
  // there (reflection would list the API to anyone, without TLS or token).
  const int health = WaitForPort(Path("coordinator.port.health"));
  ASSERT_GT(health, 0);
  EXPECT_TRUE(Serving(health));
  grpc::Status reflection;
  CallRaw(Address(health), "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
          std::string("\x3a\x00", 2), &reflection);
  EXPECT_EQ(reflection.error_code(), grpc::StatusCode::UNIMPLEMENTED);
}

// A verify through a coordinator whose workers cannot be reached ends
// within --no-worker-timeout, naming each worker and its reason; analyze
// fails at once, naming them too; the coordinator logs every failed
// handshake with its reason.
TEST_F(Cluster, VerifyWithNoReachableWorkerEndsNamingEachReason) {
  ASSERT_TRUE(MakeTestCertificates("certs"));
  const std::string certs = Path("certs");
  // One address nobody listens on, and a worker that speaks only TLS to a
  // coordinator that speaks plain text.
  const int refused = FreePort();
  const int tls = StartWorker(0, 0,
                              {"--tls-cert", certs + "/worker.pem", "--tls-key",
                               certs + "/worker.key", "--client-ca", certs + "/client-ca.pem"});
  ASSERT_GT(tls, 0);
  const int c = StartCoordinatorFor(absl::StrCat(Address(refused), ",", Address(tls)),
                                    {"--no-worker-timeout", "2"});
  ASSERT_GT(c, 0);
  const std::string client = absl::StrCat("env -u ARBITER_SYZYGY timeout 60 ", kBin,
                                          "/arbiter --coordinator ", Address(c));

  const auto start = std::chrono::steady_clock::now();
  testing::CommandResult verify =
      testing::RunCommand(absl::StrCat(client, " verify ", kSample, " --format jsonl 2>&1"));
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start);
  EXPECT_EQ(verify.exit_code, 2) << verify.out;  // not 124: the timeout did not end it
  EXPECT_LT(seconds.count(), 30) << verify.out;
  EXPECT_PRED_FORMAT2(testing::Contains, verify.out,
                      "no worker answered for 2 s (--no-worker-timeout): ");
  EXPECT_PRED_FORMAT2(
      testing::Contains, verify.out,
      absl::StrCat(Address(refused), ": Failed to connect to remote host: ", "Connection refused"));
  EXPECT_PRED_FORMAT2(testing::Contains, verify.out,
                      absl::StrCat(Address(tls), ": Socket closed (a worker that expects TLS"));

  testing::CommandResult analyze = testing::RunCommand(
      absl::StrCat(client, " analyze --fen '8/8/8/8/8/8/8/K6k w - - 0 1' 2>&1"));
  EXPECT_EQ(analyze.exit_code, 2) << analyze.out;
  EXPECT_PRED_FORMAT2(testing::Contains, analyze.out, "no worker is serving: ");
  EXPECT_PRED_FORMAT2(testing::Contains, analyze.out, Address(refused));

  const std::string log = ReadFile(Path("coordinator.log"));
  EXPECT_PRED_FORMAT2(testing::Contains, log,
                      absl::StrCat("worker ", Address(refused), " does not answer: "));
  EXPECT_PRED_FORMAT2(testing::Contains, log,
                      absl::StrCat("worker ", Address(tls), " does not answer: "));
}

// Workers with different Syzygy sets: a run that probes them is refused,
// naming each worker's set, instead of verdicts that depend on which worker
// took which batch; a run without probes goes on.
TEST_F(Cluster, WorkersWithDifferentSyzygyTablesAreRefusedForProbingRuns) {
  const std::string shared = testing::SharedDir();
  if (shared.empty() || !fs::exists(shared + "/syzygy"))
    GTEST_SKIP() << "../shared/syzygy is absent (set ARBITER_SHARED)";
  const std::string all = shared + "/syzygy";
  const std::string some = Path("some-syzygy");
  fs::create_directories(some);
  int n = 0;
  for (const auto& entry : fs::directory_iterator(all))
    if (n++ % 2 == 0)
      fs::create_symlink(entry.path(), some + "/" + entry.path().filename().string());
  const int a = StartWorker(0, 0, {"--syzygy", all});
  const int b = StartWorker(1, 0, {"--syzygy", some});
  ASSERT_GT(a, 0);
  ASSERT_GT(b, 0);
  const int metrics = FreePort();
  const int c = StartCoordinator({a, b}, {"--metrics", Address(metrics)});
  ASSERT_GT(c, 0);
  ASSERT_TRUE(WaitForWorkersUp(metrics, 2)) << Metrics(metrics);
  const std::string client = absl::StrCat("env -u ARBITER_SYZYGY timeout 60 ", kBin,
                                          "/arbiter --coordinator ", Address(c));
  testing::CommandResult probing = testing::RunCommand(
      absl::StrCat(client, " verify ", kSample, " --syzygy ", all, " --format jsonl 2>&1"));
  EXPECT_EQ(probing.exit_code, 2) << probing.out;
  EXPECT_PRED_FORMAT2(testing::Contains, probing.out, "the workers hold different Syzygy tables");
  EXPECT_PRED_FORMAT2(testing::Contains, probing.out, Address(a) + ": ");
  EXPECT_PRED_FORMAT2(testing::Contains, probing.out, Address(b) + ": ");
  testing::CommandResult plain =
      testing::RunCommand(absl::StrCat(client, " verify ", kSample, " --format jsonl"));
  EXPECT_EQ(plain.exit_code, 0) << plain.out;
  EXPECT_EQ(WithoutTiming(plain.out), WithoutTiming(VerifyEmbedded(kSample).out));
}

// Certificates and tokens are rotated by replacing their files: within a few
// seconds the coordinator serves the new certificate and accepts only the
// new tokens, without a restart.
TEST_F(Cluster, RotatedCertificatesAndTokensTakeEffectWithoutARestart) {
  ASSERT_FALSE(testing::FindProgram("openssl").empty());
  ASSERT_TRUE(MakeTestCertificates("old") && MakeTestCertificates("new"));
  const std::string live = Path("live");
  const std::vector<std::string> files = {"coordinator.pem", "coordinator.key", "tokens"};
  InstallCertificates("old", files);
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w}, {"--tls-cert", live + "/coordinator.pem", "--tls-key",
                                       live + "/coordinator.key", "--tokens", live + "/tokens"});
  ASSERT_GT(c, 0);
  auto analyze = [&](const std::string& set) {
    return testing::RunCommand(absl::StrCat(
        "env -u ARBITER_TLS_CA -u ARBITER_TOKEN_FILE ", kBin, "/arbiter --coordinator localhost:",
        c, " --tls-ca ", Path(set + "/ca.pem"), " --token-file ", Path(set + "/token"),
        " analyze --fen '8/8/8/4k3/8/8/2B5/K7 w - - 0 1' 2>&1"));
  };
  EXPECT_EQ(analyze("old").exit_code, 0);
  EXPECT_NE(analyze("new").exit_code, 0);
  InstallCertificates("new", files);
  bool rotated = false;
  for (int i = 0; i < 40 && !rotated; ++i) {
    std::this_thread::sleep_for(milliseconds(500));
    rotated = analyze("new").exit_code == 0;
  }
  EXPECT_TRUE(rotated) << "the new certificate and token were not taken within 20 s: "
                       << analyze("new").out;
  testing::CommandResult old = analyze("old");
  EXPECT_NE(old.exit_code, 0) << "the old certificate or token is still accepted";
}

// A VerifyGames message that is not a VerifyGamesRequest is an error of the
// call (INVALID_ARGUMENT, naming the message), not the end of the client's
// input: before, the stream ended OK with the verdicts of the games before
// it, and the client could not tell.
TEST_F(Cluster, AMessageThatDoesNotParseEndsTheStreamWithAnError) {
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w});
  ASSERT_GT(c, 0);
  v1::VerifyGamesRequest good;
  v1::GameInput* game = good.add_games();
  game->set_id("g1");
  game->set_pgn("[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n");
  // Field 1 (games) as a length-delimited field claiming 100 bytes it lacks.
  const std::string garbage("\x0a\x64\x01\x02", 4);

  class RawStream : public grpc::ClientBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer> {
   public:
    RawStream(grpc::GenericStub& stub, std::vector<std::string> messages)
        : messages_(std::move(messages)) {
      ctx_.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
      stub.PrepareBidiStreamingCall(&ctx_, "/arbiter.v1.Arbiter/VerifyGames", grpc::StubOptions(),
                                    this);
      StartRead(&in_);
      WriteNext();
      StartCall();
    }
    void OnWriteDone(bool ok) override {
      if (ok) WriteNext();
    }
    void OnReadDone(bool ok) override {
      if (!ok) return;
      ++responses_;
      StartRead(&in_);
    }
    void OnDone(const grpc::Status& s) override {
      std::lock_guard<std::mutex> lock(mu_);
      status_ = s;
      done_ = true;
      cv_.notify_all();
    }
    grpc::Status Await() {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return done_; });
      return status_;
    }

   private:
    void WriteNext() {
      if (next_ == messages_.size()) {
        StartWritesDone();
        return;
      }
      grpc::Slice slice(messages_[next_++]);
      out_ = grpc::ByteBuffer(&slice, 1);
      StartWrite(&out_);
    }
    grpc::ClientContext ctx_;
    std::vector<std::string> messages_;
    size_t next_ = 0;
    grpc::ByteBuffer in_, out_;
    int responses_ = 0;
    std::mutex mu_;
    std::condition_variable cv_;
    bool done_ = false;
    grpc::Status status_;
  };

  grpc::GenericStub stub(grpc::CreateChannel(Address(c), grpc::InsecureChannelCredentials()));
  RawStream fine(stub, {good.SerializeAsString(), good.SerializeAsString()});
  EXPECT_TRUE(fine.Await().ok());
  RawStream bad(stub, {good.SerializeAsString(), garbage, good.SerializeAsString()});
  const grpc::Status status = bad.Await();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
  EXPECT_PRED_FORMAT2(testing::Contains, status.error_message(), "message 2");
}

// Mutual TLS between coordinator and workers rotates too: both sides' files
// are replaced by a new set (new CAs), the worker restarts on its port, and
// the coordinator's new connection uses its new client certificate and
// trusts the new worker certificate, without a restart of its own.
TEST_F(Cluster, RotatedWorkerCertificatesTakeEffectWithoutACoordinatorRestart) {
  ASSERT_FALSE(testing::FindProgram("openssl").empty());
  ASSERT_TRUE(MakeTestCertificates("old") && MakeTestCertificates("new"));
  const std::string live = Path("live");
  const std::vector<std::string> files = {"worker.pem",
                                          "worker.key",
                                          "client-ca.pem",
                                          "ca.pem",
                                          "coordinator-client.pem",
                                          "coordinator-client.key"};
  InstallCertificates("old", files);
  const std::vector<std::string> worker_tls = {"--tls-cert",  live + "/worker.pem",
                                               "--tls-key",   live + "/worker.key",
                                               "--client-ca", live + "/client-ca.pem"};
  const int w = StartWorker(0, 0, worker_tls);
  ASSERT_GT(w, 0);
  // The worker by host name, which its certificate holds.
  const int coordinator = StartCoordinatorFor(
      absl::StrCat("localhost:", w),
      {"--worker-ca", live + "/ca.pem", "--worker-cert", live + "/coordinator-client.pem",
       "--worker-key", live + "/coordinator-client.key"});
  ASSERT_GT(coordinator, 0);
  auto verify = [&] {
    return testing::RunCommand(absl::StrCat("timeout 60 env -u ARBITER_SYZYGY ", kBin,
                                            "/arbiter --coordinator ", Address(coordinator),
                                            " verify ", kSample, " --format jsonl 2>&1"));
  };
  EXPECT_EQ(verify().exit_code, 0);
  InstallCertificates("new", files);
  std::this_thread::sleep_for(milliseconds(7000));  // both sides look every 5 s
  workers_[0]->Kill(SIGKILL);
  ASSERT_EQ(StartWorker(0, w, worker_tls), w);
  testing::CommandResult after = verify();
  EXPECT_EQ(after.exit_code, 0) << after.out << ReadFile(Path("coordinator.log"));
}

// Limits: a request asking too much is refused with RESOURCE_EXHAUSTED and
// a message; in a stream, the one over-long record gets an error verdict and
// the others theirs.
TEST_F(Cluster, RequestsOverTheLimitsAreRefusedClearly) {
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w}, {"--max-budget", "1000000", "--max-message-mb", "1"});
  ASSERT_GT(c, 0);
  testing::CommandResult budget = testing::RunCommand(
      absl::StrCat(kBin, "/arbiter --coordinator ", Address(c),
                   " analyze --fen '8/8/8/4k3/8/8/2B5/K7 w - - 0 1' --budget 2000000 2>&1"));
  EXPECT_EQ(budget.exit_code, 2);
  EXPECT_PRED_FORMAT2(testing::Contains, budget.out, "exceeds this coordinator's 1000000");

  auto stub =
      v1::Arbiter::NewStub(grpc::CreateChannel(Address(c), grpc::InsecureChannelCredentials()));
  v1::GameRecord longest;
  longest.set_index(1);
  for (int i = 0; i < 10001; ++i) {
    longest.mutable_moves()->append(i % 4 < 2 ? (i % 2 ? "Nf6 " : "Nf3 ")
                                              : (i % 2 ? "Ng8 " : "Ng1 "));
    longest.add_move_lines(1);
  }
  {
    v1::VerifyGameRequest request;
    *request.mutable_record() = longest;
    v1::GameVerdict reply;
    grpc::ClientContext ctx;
    grpc::Status s = stub->VerifyGame(&ctx, request, &reply);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_PRED_FORMAT2(testing::Contains, s.error_message(), "10001 plies, more than 10000");
  }
  {
    v1::VerifyGameRequest request;
    request.set_pgn(std::string(2 << 20, ' '));  // 2 MB, over --max-message-mb 1
    v1::GameVerdict reply;
    grpc::ClientContext ctx;
    EXPECT_EQ(stub->VerifyGame(&ctx, request, &reply).error_code(),
              grpc::StatusCode::RESOURCE_EXHAUSTED);
  }
  {
    grpc::ClientContext ctx;
    auto stream = stub->VerifyGames(&ctx);
    v1::VerifyGamesRequest request;
    for (int i = 0; i < 3; ++i) {
      v1::GameInput* game = request.add_games();
      game->set_id(absl::StrCat("g", i));
      if (i == 1) {
        v1::GameRecord shorter = longest;
        shorter.set_index(2);
        *game->mutable_record() = shorter;
      } else {
        game->set_pgn("[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n");
      }
    }
    ASSERT_TRUE(stream->Write(request));
    stream->WritesDone();
    std::vector<v1::IdentifiedVerdict> got;
    v1::VerifyGamesResponse response;
    while (stream->Read(&response))
      for (const v1::IdentifiedVerdict& v : response.verdicts()) got.push_back(v);
    EXPECT_TRUE(stream->Finish().ok());
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0].verdict().ruling().rule(), v1::RULE_CHECKMATE);
    EXPECT_PRED_FORMAT2(testing::Contains, got[1].verdict().error(), "more than 10000");
    EXPECT_EQ(got[2].id(), "g2");
    EXPECT_EQ(got[2].verdict().ruling().rule(), v1::RULE_CHECKMATE);
  }
}

// A worker's refusal of a request (tables it does not have, a search table
// larger than it allows) ends the run with the worker's own status and
// words: the client's error, not a worker failure. The workers stay up.
TEST_F(Cluster, AWorkersRefusalIsTheCallersError) {
  const int w = StartWorker(0, 0, {"--max-table-mb", "16"});
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w});
  ASSERT_GT(c, 0);
  const std::string remote =
      absl::StrCat("env -u ARBITER_SYZYGY ", kBin, "/arbiter --coordinator ", Address(c), " ");
  testing::CommandResult table =
      testing::RunCommand(remote + "verify " + kSample + " --table-mb 64 2>&1");
  EXPECT_EQ(table.exit_code, 2) << table.out;
  EXPECT_PRED_FORMAT2(testing::Contains, table.out, "exceeds this worker's 16 (--max-table-mb)");
  testing::CommandResult syzygy =
      testing::RunCommand(remote + "verify " + kSample + " --syzygy " + dir_.string() + " 2>&1");
  EXPECT_EQ(syzygy.exit_code, 2) << syzygy.out;
  EXPECT_PRED_FORMAT2(testing::Contains, syzygy.out, "no Syzygy tables");
  testing::CommandResult analyze = testing::RunCommand(
      remote + "analyze --fen '8/8/8/4k3/8/8/2B5/K7 w - - 0 1' --table-mb 64 2>&1");
  EXPECT_EQ(analyze.exit_code, 2) << analyze.out;
  EXPECT_PRED_FORMAT2(testing::Contains, analyze.out, "--max-table-mb");
  EXPECT_EQ(ReadFile(Path("coordinator.log")).find(" failed ("), std::string::npos)
      << "a refusal was taken for a worker failure:\n"
      << ReadFile(Path("coordinator.log"));
  EXPECT_EQ(VerifyRemote(c, kSample).exit_code, 0);
}

// Streams are bounded: past --max-streams a stream is refused at once
// (RESOURCE_EXHAUSTED), and one whose client leaves its verdicts unread is
// cancelled after --stream-stall-timeout, freeing its slot, its threads
// and its run.
TEST_F(Cluster, StalledStreamsAreBoundedAndReaped) {
  const int w = StartWorker(0);
  ASSERT_GT(w, 0);
  const int c = StartCoordinator({w}, {"--max-streams", "4", "--stream-stall-timeout", "2"});
  ASSERT_GT(c, 0);
  // A client that reads nothing: a small receive window, no auto-tuning,
  // so that the coordinator's writes block once it is full.
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_HTTP2_BDP_PROBE, 0);
  args.SetInt(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 8192);
  const std::string pgn = ReadFile(kSample);
  v1::VerifyGamesRequest request;
  for (int i = 0; i < 400; ++i) {
    v1::GameInput* game = request.add_games();
    game->set_id(absl::StrCat("g", i));
    game->set_pgn(pgn);  // its first game
  }
  constexpr int kStreams = 6;
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
  std::vector<
      std::unique_ptr<grpc::ClientReaderWriter<v1::VerifyGamesRequest, v1::VerifyGamesResponse>>>
      streams;
  for (int i = 0; i < kStreams; ++i) {
    // One connection each, as separate clients would have.
    args.SetInt("arbiter.test.connection", i);
    channels.push_back(
        grpc::CreateCustomChannel(Address(c), grpc::InsecureChannelCredentials(), args));
    contexts.push_back(std::make_unique<grpc::ClientContext>());
    contexts.back()->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    streams.push_back(v1::Arbiter::NewStub(channels.back())->VerifyGames(contexts.back().get()));
    streams.back()->Write(request);
    streams.back()->WritesDone();
    std::this_thread::sleep_for(milliseconds(200));  // in order: the first four get slots
  }
  // Past the stall timeout (and the guard's one-second sweep), the client
  // reads what had reached it, then hears how the stream ended.
  std::this_thread::sleep_for(milliseconds(4000));
  std::map<grpc::StatusCode, int> codes;
  std::string messages;
  for (auto& stream : streams) {
    v1::VerifyGamesResponse unread;
    while (stream->Read(&unread)) {
    }
    grpc::Status s = stream->Finish();
    ++codes[s.error_code()];
    messages += s.error_message() + "\n";
  }
  EXPECT_EQ(codes[grpc::StatusCode::RESOURCE_EXHAUSTED], 2) << messages;
  EXPECT_EQ(codes[grpc::StatusCode::CANCELLED], 4) << messages;
  EXPECT_PRED_FORMAT2(testing::Contains, messages, "--max-streams");
  EXPECT_PRED_FORMAT2(testing::Contains, ReadFile(Path("coordinator.log")),
                      "--stream-stall-timeout");
  // The slots are free again.
  EXPECT_EQ(VerifyRemote(c, kSample).exit_code, 0);
}

}  // namespace
}  // namespace arbiter
