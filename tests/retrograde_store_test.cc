// Retrograde tables on disk (core/tablebase/retrograde_store.h): a table
// read back is the table written, every damaged or foreign file is refused
// with an error naming it, and a directory that cannot be written costs
// only the saving.
#include "core/tablebase/retrograde_store.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/chess/bitboard.h"
#include "core/chess/movegen.h"
#include "core/chess/random_placement.h"
#include "core/mate/mate_ability.h"
#include "core/tablebase/retrograde.h"
#include "core/tablebase/table_stamp.h"
#include "tests/test_support.h"

namespace arbiter::tablebase {
namespace {

namespace fs = std::filesystem;
using ::arbiter::testing::Contains;
using ::arbiter::testing::FromFen;

// A fresh directory under the system's temporary one, removed afterwards.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = (fs::temp_directory_path() /
             ("arbiter_store_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
                .string();
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

// What ForEachPosition shows of one position, packed small: KRvKP alone
// has 9 million.
struct Packed {
  uint32_t squares;  // 6 bits per man
  int16_t dtz;
  int8_t wdl, stm;
  std::array<int16_t, 2> mate;
  bool operator==(const Packed&) const = default;
};

Packed Pack(const RetrogradeTable::Entry& e) {
  Packed p{};
  for (int i = 0; i < e.men; ++i) p.squares |= uint32_t(e.square[i]) << (6 * i);
  p.dtz = int16_t(e.dtz);
  p.wdl = int8_t(e.wdl);
  p.stm = int8_t(e.side_to_move);
  for (Color c : {kWhite, kBlack}) {
    EXPECT_EQ(e.can_mate[c], e.mate_distance[c] >= 0);
    p.mate[c] = int16_t(e.mate_distance[c]);
  }
  return p;
}

// Every stored entry of `a` and `b` is the same, in the same order.
void ExpectSameEntries(const RetrogradeTable& a, const RetrogradeTable& b) {
  std::vector<Packed> expected;
  a.ForEachPosition([&](const RetrogradeTable::Entry& e) { expected.push_back(Pack(e)); });
  size_t i = 0, mismatches = 0;
  b.ForEachPosition([&](const RetrogradeTable::Entry& e) {
    if (i >= expected.size() || !(Pack(e) == expected[i])) ++mismatches;
    ++i;
  });
  EXPECT_EQ(i, expected.size()) << a.signature();
  EXPECT_EQ(mismatches, 0u) << a.signature();
  EXPECT_GT(expected.size(), 0u);
}

// Whether a line captures (a man disappears) or promotes (a pawn does) on
// the way: either crosses into a sub-table.
struct Crossings {
  bool capture = false, promotion = false;
};
Crossings CrossingsOf(const Position& start, const std::vector<Move>& line) {
  Crossings out;
  Position pos = start;
  for (Move m : line) {
    const int men = PopCount(pos.pieces()), pawns = PopCount(pos.pieces(kPawn));
    pos.DoMove(m);
    out.capture |= PopCount(pos.pieces()) < men;
    out.promotion |= PopCount(pos.pieces()) == men && PopCount(pos.pieces(kPawn)) < pawns;
  }
  return out;
}

const char* const kRoundTrip[] = {"KQvK", "KPvK", "KBNvK", "KRvKP"};

TEST(RetrogradeStore, RoundTripKeepsEveryEntryAndLine) {
  TempDir dir;
  RetrogradeSolver writer(dir.path());
  for (const char* signature : kRoundTrip) ASSERT_TRUE(writer.Table(signature).ok()) << signature;
  EXPECT_TRUE(writer.last_store_error().ok()) << writer.last_store_error();
  EXPECT_EQ(writer.tables_loaded(), 0u);
  EXPECT_EQ(writer.tables_generated(), writer.tables());
  // Sub-tables too: KRvKP promotes into KQvKR, captures into KRvK and KPvK.
  for (const char* sub : {"KQvKR", "KRvK", "KvK", "KRvKR"})
    EXPECT_TRUE(fs::exists(TableFilePath(dir.path(), sub))) << sub;
  // Saves leave no temporary files behind.
  for (const auto& entry : fs::directory_iterator(dir.path()))
    EXPECT_EQ(entry.path().extension(), ".arbt") << entry.path();

  RetrogradeSolver reader(dir.path());
  for (const char* signature : kRoundTrip) {
    auto written = writer.Table(signature);
    auto read = reader.Table(signature);
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ((*read)->signature(), (*written)->signature());
    EXPECT_EQ((*read)->positions(), (*written)->positions());
    EXPECT_EQ((*read)->bytes(), (*written)->bytes()) << signature;  // sub-table list included
    ExpectSameEntries(**written, **read);
  }
  // Nothing generated: the sub-tables were read from their own files.
  EXPECT_EQ(reader.tables_generated(), 0u);
  EXPECT_EQ(reader.tables_loaded(), writer.tables());

  // Mating lines walk through sub-tables (captures, promotions): the loaded
  // tables must find them there, and give the same lines.
  std::mt19937_64 rng(2024);
  int captures = 0, promotions = 0, compared = 0;
  for (const char* signature : kRoundTrip) {
    for (int i = 0; i < 60; ++i) {
      std::optional<Position> pos = RandomPlacement(signature, rng() % 2 ? kWhite : kBlack, rng);
      ASSERT_TRUE(pos);
      for (Color side : {kWhite, kBlack}) {
        auto a = writer.MatingLine(*pos, side);
        auto b = reader.MatingLine(*pos, side);
        ASSERT_EQ(a.status().code(), b.status().code()) << pos->Fen();
        if (!a.ok()) continue;
        ++compared;
        EXPECT_EQ(*a, *b) << pos->Fen();
        const Crossings crossings = CrossingsOf(*pos, *a);
        captures += crossings.capture;
        promotions += crossings.promotion;
      }
    }
  }
  std::printf("%d mating lines compared: %d through a capture, %d through a promotion\n", compared,
              captures, promotions);
  EXPECT_GT(captures, 5);
  EXPECT_GT(promotions, 5);
}

// A directory holding KQvK (and its sub-table KvK), copied per case so that
// each case damages its own files.
class DamagedFile : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    source_ = new TempDir;
    RetrogradeSolver solver(source_->path());
    ASSERT_TRUE(solver.Table("KQvK").ok());
    ASSERT_TRUE(solver.Table("KRvK").ok());
    ASSERT_TRUE(solver.last_store_error().ok());
  }
  static void TearDownTestSuite() { delete source_; }
  void SetUp() override {
    for (const auto& entry : fs::directory_iterator(source_->path()))
      fs::copy_file(entry.path(), fs::path(dir_.path()) / entry.path().filename());
  }

  std::string Path(const std::string& signature) const {
    return TableFilePath(dir_.path(), signature);
  }
  // Opens KQvK through a fresh solver: it must fail, name the file, say to
  // delete it, and neither regenerate nor touch the file.
  absl::Status LoadFails(const std::string& damaged = "KQvK") {
    const std::string before = ReadFile(Path(damaged));
    RetrogradeSolver solver(dir_.path());
    auto table = solver.Table("KQvK");
    EXPECT_FALSE(table.ok());
    if (table.ok()) return absl::OkStatus();
    const std::string message(table.status().message());
    EXPECT_PRED_FORMAT2(Contains, message, Path(damaged));
    EXPECT_PRED_FORMAT2(Contains, message, "delete it to regenerate");
    EXPECT_EQ(solver.tables_generated(), 0u);
    EXPECT_EQ(solver.last_load_error(), table.status());
    // Remembered: a probe gets the same answer without reading the file.
    const Position pos = FromFen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
    EXPECT_EQ(solver.CanMate(pos, kWhite).status(), table.status());
    EXPECT_EQ(ReadFile(Path(damaged)), before);
    return table.status();
  }

  static TempDir* source_;
  TempDir dir_;
};
TempDir* DamagedFile::source_ = nullptr;

// A loaded table maps its file: deleting the file, or saving a new one over
// it (a rename), must leave the table answering as it did. K+P v K: a table
// with sub-tables (its promotions, its capture) that is quick to generate.
// Servers compare the tables they hold by RetrogradeSolver::digest(): one
// that loaded its tables from files, one that generated and saved them,
// and one that generated them in memory only must agree, and a different
// set must not.
TEST(RetrogradeStore, DigestsAgreeHoweverTheTablesCame) {
  TempDir dir;
  RetrogradeSolver writer(dir.path()), reader(dir.path()), memory;
  for (const char* signature : {"KQvK", "KRvK", "KBNvK"}) {
    ASSERT_TRUE(writer.Table(signature).ok()) << signature;
    ASSERT_TRUE(reader.Table(signature).ok()) << signature;
    ASSERT_TRUE(memory.Table(signature).ok()) << signature;
  }
  EXPECT_EQ(reader.tables_loaded(), reader.tables());
  EXPECT_EQ(reader.digest(), writer.digest());
  EXPECT_EQ(memory.digest(), writer.digest());
  EXPECT_EQ(writer.digest().substr(0, writer.digest().find(',')),
            absl::StrCat(writer.tables(), " tables"));
  // A table's checksum is its file's (the trailer's 8 bytes).
  auto table = reader.Table("KQvK");
  std::ifstream file(TableFilePath(dir.path(), "KQvK"), std::ios::binary | std::ios::ate);
  const std::streamoff size = file.tellg();
  file.seekg(size - 8);
  uint64_t trailer = 0;
  for (int i = 0; i < 8; ++i) trailer |= uint64_t(uint8_t(file.get())) << (8 * i);
  EXPECT_EQ((*table)->checksum(), trailer);
  EXPECT_EQ(TableChecksum(**memory.Table("KQvK")), trailer);
  RetrogradeSolver fewer;
  ASSERT_TRUE(fewer.Table("KQvK").ok());
  EXPECT_NE(fewer.digest(), writer.digest());
}

TEST(RetrogradeStore, LoadedTableOutlivesItsFile) {
  TempDir dir;
  RetrogradeSolver writer(dir.path());
  auto written = writer.Table("KPvK");
  ASSERT_TRUE(written.ok()) << written.status();
  RetrogradeSolver reader(dir.path());
  auto read = reader.Table("KPvK");
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(reader.tables_loaded(), writer.tables());
  ASSERT_TRUE(SaveTable(**written, dir.path()).ok());  // a new file renamed over the old
  for (const auto& entry : fs::directory_iterator(dir.path())) fs::remove(entry.path());
  ExpectSameEntries(**written, **read);
}

TEST_F(DamagedFile, IntactFilesLoad) {
  RetrogradeSolver solver(dir_.path());
  ASSERT_TRUE(solver.Table("KQvK").ok());
  EXPECT_EQ(solver.tables_loaded(), 2u);  // KQvK and KvK
  EXPECT_EQ(solver.tables_generated(), 0u);
  EXPECT_TRUE(solver.last_load_error().ok());
}

TEST_F(DamagedFile, FlippedByteFailsTheChecksum) {
  std::string bytes = ReadFile(Path("KQvK"));
  bytes[bytes.size() / 2] ^= 0x10;
  WriteFile(Path("KQvK"), bytes);
  EXPECT_PRED_FORMAT2(Contains, std::string(LoadFails().message()), "checksum mismatch");
}

// A file checked in full is stamped once its times have settled
// (table_stamp.h); a later load trusts the stamp and skips the full read,
// and any change to the file voids it: the damage below is found although
// the file was stamped.
TEST_F(DamagedFile, AStampSparesTheFullCheckUntilTheFileChanges) {
  const std::string stamp = StampPath(Path("KQvK"));
  {
    RetrogradeSolver fresh(dir_.path());
    ASSERT_TRUE(fresh.Table("KQvK").ok());
  }
  EXPECT_FALSE(fs::exists(stamp)) << "stamped within seconds of being written";
  std::this_thread::sleep_for(std::chrono::milliseconds(3200));
  RetrogradeSolver checking(dir_.path());
  auto checked = checking.Table("KQvK");
  ASSERT_TRUE(checked.ok()) << checked.status();
  ASSERT_TRUE(fs::exists(stamp));
  {
    // The stamp describes the file as it is: the next load takes it.
    const std::string file = ReadFile(Path("KQvK"));
    uint64_t checksum = 0;
    for (int i = 0; i < 8; ++i) checksum |= uint64_t(uint8_t(file[file.size() - 8 + i])) << (8 * i);
    const int fd = ::open(Path("KQvK").c_str(), O_RDONLY);
    FileIdentity identity;
    ASSERT_TRUE(IdentityOf(fd, &identity));
    ::close(fd);
    EXPECT_TRUE(StampMatches(Path("KQvK"), identity, checksum));
    EXPECT_FALSE(StampMatches(Path("KQvK"), identity, checksum ^ 1));
  }
  RetrogradeSolver trusting(dir_.path());
  auto trusted = trusting.Table("KQvK");
  ASSERT_TRUE(trusted.ok()) << trusted.status();
  ExpectSameEntries(**checked, **trusted);

  std::string bytes = ReadFile(Path("KQvK"));
  bytes[bytes.size() / 2] ^= 0x10;  // in place: the same size and inode
  WriteFile(Path("KQvK"), bytes);
  EXPECT_PRED_FORMAT2(Contains, std::string(LoadFails().message()), "checksum mismatch");
}

// A stamp that does not describe the file (another file's, edited, or of a
// table regenerated since) is ignored.
TEST_F(DamagedFile, AStampOfAnotherFileIsIgnored) {
  std::this_thread::sleep_for(std::chrono::milliseconds(3200));
  {
    RetrogradeSolver checking(dir_.path());
    ASSERT_TRUE(checking.Table("KQvK").ok());
  }
  const std::string stamp = ReadFile(StampPath(Path("KQvK")));
  ASSERT_FALSE(stamp.empty());
  std::string bytes = ReadFile(Path("KQvK"));
  bytes[bytes.size() / 2] ^= 0x10;
  WriteFile(Path("KQvK"), bytes);
  WriteFile(StampPath(Path("KQvK")), stamp);  // the old stamp, put back
  EXPECT_PRED_FORMAT2(Contains, std::string(LoadFails().message()), "checksum mismatch");
}

TEST_F(DamagedFile, FlippedChecksumByteFails) {
  std::string bytes = ReadFile(Path("KQvK"));
  bytes.back() ^= 1;
  WriteFile(Path("KQvK"), bytes);
  EXPECT_PRED_FORMAT2(Contains, std::string(LoadFails().message()), "checksum mismatch");
}

TEST_F(DamagedFile, TruncatedFile) {
  std::string bytes = ReadFile(Path("KQvK"));
  WriteFile(Path("KQvK"), bytes.substr(0, bytes.size() - 1000));
  EXPECT_PRED_FORMAT2(Contains, std::string(LoadFails().message()), "truncated");
  WriteFile(Path("KQvK"), bytes.substr(0, 20));
  EXPECT_PRED_FORMAT2(Contains, std::string(LoadFails().message()), "truncated");
  WriteFile(Path("KQvK"), "");
  EXPECT_PRED_FORMAT2(Contains, std::string(LoadFails().message()), "truncated");
}

TEST_F(DamagedFile, TrailingBytes) {
  WriteFile(Path("KQvK"), ReadFile(Path("KQvK")) + "extra");
  EXPECT_PRED_FORMAT2(Contains, std::string(LoadFails().message()), "size mismatch");
}

TEST_F(DamagedFile, RenamedFileHoldsAnotherSignature) {
  // KRvK has KQvK's layout, so only the signature tells them apart.
  fs::copy_file(Path("KRvK"), Path("KQvK"), fs::copy_options::overwrite_existing);
  EXPECT_PRED_FORMAT2(Contains, std::string(LoadFails().message()),
                      "holds the table \"KRvK\", not KQvK");
}

TEST_F(DamagedFile, BadMagicAndVersion) {
  const std::string good = ReadFile(Path("KQvK"));
  std::string bytes = good;
  bytes[0] = 'X';
  WriteFile(Path("KQvK"), bytes);
  EXPECT_PRED_FORMAT2(Contains, std::string(LoadFails().message()), "bad magic");
  bytes = good;
  bytes[8] = char(kTableFormatVersion + 1);
  WriteFile(Path("KQvK"), bytes);
  EXPECT_PRED_FORMAT2(Contains, std::string(LoadFails().message()),
                      "format version " + std::to_string(kTableFormatVersion + 1));
}

TEST_F(DamagedFile, OtherLayoutIsRefused) {
  std::string bytes = ReadFile(Path("KQvK"));
  bytes[32] ^= 2;  // the slot count, as if another build laid the table out
  WriteFile(Path("KQvK"), bytes);
  EXPECT_PRED_FORMAT2(Contains, std::string(LoadFails().message()), "slots");
}

TEST_F(DamagedFile, ImpossibleContentWithAValidChecksum) {
  // A code byte no table holds, and a checksum made to match: only the
  // content check can catch it (a bug or a forged file, not bit rot).
  std::string bytes = ReadFile(Path("KQvK"));
  bytes[56 + 1000] = char(250);
  Xxh64 hash;
  hash.Update(bytes.data(), bytes.size() - 8);
  uint64_t sum = hash.Digest();
  for (int i = 0; i < 8; ++i) bytes[bytes.size() - 8 + i] = char(sum >> (8 * i));
  WriteFile(Path("KQvK"), bytes);
  EXPECT_PRED_FORMAT2(Contains, std::string(LoadFails().message()), "inconsistent content");
}

TEST_F(DamagedFile, DamagedSubtableFailsItsUsers) {
  std::string bytes = ReadFile(Path("KvK"));
  bytes[100] ^= 1;
  WriteFile(Path("KvK"), bytes);
  EXPECT_PRED_FORMAT2(Contains, std::string(LoadFails("KvK").message()), "checksum mismatch");
}

TEST_F(DamagedFile, DirectoryInPlaceOfTheFile) {
  fs::remove(Path("KQvK"));
  fs::create_directory(Path("KQvK"));
  RetrogradeSolver solver(dir_.path());
  auto table = solver.Table("KQvK");
  ASSERT_FALSE(table.ok());
  EXPECT_PRED_FORMAT2(Contains, std::string(table.status().message()), "not a regular file");
}

// A directory that cannot be written: probes work from memory, and the
// solver says what it could not save.
TEST(RetrogradeStore, UnwritableDirectoryKeepsTablesInMemory) {
  TempDir base;
  std::string dir = base.File("read_only");
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
  // Root writes anywhere: then use a path below a regular file instead,
  // which nobody can create.
  if (std::FILE* probe = std::fopen((dir + "/probe").c_str(), "w")) {
    std::fclose(probe);
    WriteFile(base.File("plain_file"), "not a directory");
    dir = base.File("plain_file") + "/tables";
  }
  RetrogradeSolver solver(dir);
  const Position pos = FromFen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
  absl::StatusOr<std::optional<int>> distance = solver.MateDistance(pos, kWhite);
  ASSERT_TRUE(distance.ok()) << distance.status();
  EXPECT_TRUE(distance->has_value());
  EXPECT_EQ(solver.tables_generated(), 2u);  // KQvK, KvK
  ASSERT_FALSE(solver.last_store_error().ok());
  EXPECT_PRED_FORMAT2(Contains, std::string(solver.last_store_error().message()),
                      "cannot save retrograde table");
  EXPECT_TRUE(solver.last_load_error().ok());
  EXPECT_FALSE(fs::exists(TableFilePath(dir, "KQvK")));
}

// Processes sharing a directory: two solvers saving the same tables at
// once leave one whole file each, which a third reads.
TEST(RetrogradeStore, ConcurrentSavesLeaveWholeFiles) {
  TempDir dir;
  std::thread a([&] { EXPECT_TRUE(RetrogradeSolver(dir.path()).Table("KRvK").ok()); });
  std::thread b([&] { EXPECT_TRUE(RetrogradeSolver(dir.path()).Table("KRvK").ok()); });
  a.join();
  b.join();
  RetrogradeSolver reader(dir.path());
  ASSERT_TRUE(reader.Table("KRvK").ok());
  EXPECT_EQ(reader.tables_loaded(), 2u);
  for (const auto& entry : fs::directory_iterator(dir.path()))
    EXPECT_EQ(entry.path().extension(), ".arbt") << entry.path();
}

// Tables generated side by side are the tables generated one at a time:
// the files of a parallel build are a serial build's, byte for byte, and
// so are the digests. K+P v K (promotions into the 3-man tables) and
// K+R v K+N share sub-tables, so the parallel plan interleaves them.
TEST(RetrogradeStore, ParallelBuildWritesTheSerialFiles) {
  const std::vector<std::string> signatures = {"KPvK", "KRvKN"};
  TempDir serial_dir, parallel_dir;
  RetrogradeSolver serial(serial_dir.path()), parallel(parallel_dir.path());
  serial.set_generation_threads(1);
  parallel.set_generation_threads(4);  // more than the cores, to interleave
  ASSERT_TRUE(serial.Obtain(signatures).ok());
  ASSERT_TRUE(parallel.Obtain(signatures).ok());
  EXPECT_EQ(parallel.tables_generated(), serial.tables_generated());
  EXPECT_EQ(parallel.tables(), parallel.tables_generated());
  EXPECT_EQ(parallel.digest(), serial.digest());
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(serial_dir.path())) {
    const std::string name = entry.path().filename().string();
    SCOPED_TRACE(name);
    ++files;
    EXPECT_EQ(ReadFile(parallel_dir.File(name)), ReadFile(entry.path().string()));
  }
  EXPECT_EQ(files, serial.tables());
  // And the one-table-at-a-time path of probes makes the same files.
  TempDir probed_dir;
  RetrogradeSolver probed(probed_dir.path());
  for (const std::string& signature : signatures) ASSERT_TRUE(probed.Table(signature).ok());
  EXPECT_EQ(probed.digest(), serial.digest());
}

// Threads asking at once for tables that are missing, the same ones and
// different ones, get each table generated once, and the same table.
TEST(RetrogradeStore, ConcurrentRequestsGenerateEachTableOnce) {
  RetrogradeSolver solver;
  solver.set_generation_threads(2);
  const std::vector<std::string> asked = {"KPvK", "KRvKN", "KQvK", "KPvK",
                                          "KvK",  "KRvKN", "KNvK", "KBvK"};
  std::vector<std::shared_ptr<const RetrogradeTable>> got(asked.size());
  std::vector<std::thread> threads;
  std::atomic<int> ready{0};
  for (size_t i = 0; i < asked.size(); ++i) {
    threads.emplace_back([&, i] {
      ++ready;
      while (ready.load() < int(asked.size())) std::this_thread::yield();
      absl::StatusOr<std::shared_ptr<const RetrogradeTable>> t = solver.Table(asked[i]);
      ASSERT_TRUE(t.ok()) << asked[i] << ": " << t.status();
      got[i] = *t;
    });
  }
  for (std::thread& t : threads) t.join();
  // Every table of the union once: the asked ones and their sub-tables.
  RetrogradeSolver serial;
  serial.set_generation_threads(1);
  for (const std::string& signature : asked) ASSERT_TRUE(serial.Table(signature).ok());
  EXPECT_EQ(solver.tables_generated(), serial.tables());
  EXPECT_EQ(solver.tables(), serial.tables());
  EXPECT_EQ(solver.digest(), serial.digest());
  for (size_t i = 0; i < asked.size(); ++i) {
    ASSERT_NE(got[i], nullptr);
    EXPECT_EQ(got[i], *solver.Table(asked[i])) << asked[i];  // one table per signature
  }
  // Held tables are answered without generating anything again.
  EXPECT_TRUE(solver.Obtain(asked).ok());
  EXPECT_EQ(solver.tables_generated(), serial.tables());
}

// The progress reports name each table once as it is obtained, count down
// to none left, and end with one report saying the burst is finished.
TEST(RetrogradeStore, ProgressReportsEveryTableAndTheEnd) {
  RetrogradeSolver solver;
  std::mutex mu;
  std::vector<RetrogradeProgress> reports;
  solver.set_progress(
      [&](const RetrogradeProgress& p) {
        std::lock_guard<std::mutex> lock(mu);
        reports.push_back(p);
      },
      std::chrono::milliseconds(1));
  ASSERT_TRUE(solver.Table("KPvK").ok());
  ASSERT_FALSE(reports.empty());
  std::vector<std::string> obtained;
  bool generating = false, wanted = false;
  for (const RetrogradeProgress& p : reports) {
    if (!p.obtained.empty()) obtained.push_back(p.obtained);
    generating |= !p.generating.empty();
    wanted |= p.wanted == std::vector<std::string>{"KPvK"};
    EXPECT_EQ(p.done + p.left, 6u) << p.Line();
    EXPECT_TRUE(p.generates);
  }
  std::sort(obtained.begin(), obtained.end());
  EXPECT_EQ(obtained, (std::vector<std::string>{"KBvK", "KNvK", "KPvK", "KQvK", "KRvK", "KvK"}));
  EXPECT_TRUE(generating);
  EXPECT_TRUE(wanted);
  const RetrogradeProgress& last = reports.back();
  EXPECT_TRUE(last.finished);
  EXPECT_EQ(last.done, 6u);
  EXPECT_EQ(last.left, 0u);
  EXPECT_EQ(std::count_if(reports.begin(), reports.end(),
                          [](const RetrogradeProgress& p) { return p.finished; }),
            1);
  EXPECT_PRED_FORMAT2(Contains, last.Line(), "6 of 6 done in ");
  EXPECT_TRUE(solver.progress().finished);
  // A report while generating names the table, the count and what is left.
  RetrogradeProgress p;
  p.generating = {"KQPvK", "KRPvK"};
  p.wanted = {"KPPvK"};
  p.done = 7;
  p.left = 5;
  p.seconds_left = 24.2;
  EXPECT_EQ(p.Line(), "generating KQPvK, KRPvK for KPPvK: 7 of 12 done, 5 left, about 25 s");

  // Tables already held start no burst and report nothing.
  reports.clear();
  ASSERT_TRUE(solver.Obtain({"KPvK", "KQvK"}).ok());
  EXPECT_TRUE(reports.empty());
}

// A plan's caller hears of each table once, sub-tables included, and can
// stop it: the tables not started then are not built.
TEST(RetrogradeStore, ObtainReportsEachTableAndStops) {
  RetrogradeSolver solver;
  solver.set_generation_threads(1);
  std::vector<std::string> seen;
  ASSERT_TRUE(solver
                  .Obtain({"KQvK", "KRvK"},
                          [&](const RetrogradeTableOutcome& t) {
                            EXPECT_TRUE(t.status.ok()) << t.signature;
                            EXPECT_TRUE(t.generated) << t.signature;
                            seen.push_back(t.signature);
                            return true;
                          })
                  .ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"KvK", "KRvK", "KQvK"}));  // sub-table first
  RetrogradeSolver stopped;
  stopped.set_generation_threads(1);
  absl::Status s = stopped.Obtain({"KQvK"}, [](const RetrogradeTableOutcome&) { return false; });
  EXPECT_EQ(s.code(), absl::StatusCode::kCancelled) << s;
  EXPECT_EQ(stopped.tables(), 1u);  // KvK, then the stop
  EXPECT_TRUE(stopped.progress().finished);
  EXPECT_EQ(stopped.Obtain({"KQvKX"}).code(), absl::StatusCode::kInvalidArgument);
}

// A table whose file cannot be written still answers, and says so; a
// damaged sub-table fails the tables above it, each reported.
TEST(RetrogradeStore, FailuresReachTheCaller) {
  TempDir dir;
  WriteFile(dir.File("plain_file"), "not a directory");
  RetrogradeSolver solver(dir.File("plain_file") + "/tables");  // nobody can create it
  std::vector<std::string> failed;
  ASSERT_TRUE(solver.Obtain({"KQvK", "KRvK"}).ok());
  EXPECT_EQ(solver.tables_generated(), 3u);
  EXPECT_PRED_FORMAT2(Contains, std::string(solver.last_store_error().message()),
                      "cannot save retrograde table");
  EXPECT_TRUE(solver.last_load_error().ok());
  TempDir damaged;
  {
    RetrogradeSolver writer(damaged.path());
    ASSERT_TRUE(writer.Table("KQvK").ok());
  }
  std::string bytes = ReadFile(damaged.File("KvK.arbt"));
  bytes[100] ^= 1;
  WriteFile(damaged.File("KvK.arbt"), bytes);
  RetrogradeSolver reader(damaged.path());
  absl::Status s = reader.Obtain({"KQvK", "KRvK"}, [&](const RetrogradeTableOutcome& t) {
    if (!t.status.ok()) failed.push_back(t.signature);
    return true;
  });
  EXPECT_PRED_FORMAT2(Contains, std::string(s.message()), "checksum mismatch");
  std::sort(failed.begin(), failed.end());
  EXPECT_EQ(failed, (std::vector<std::string>{"KQvK", "KRvK", "KvK"}));
  EXPECT_EQ(reader.tables_generated(), 0u);  // nothing is generated over a damaged file
}

// Known XXH64 values (seed 0; checked against libxxhash 0.8.1), fed in
// uneven pieces so that the buffering is exercised.
TEST(RetrogradeStore, Xxh64MatchesTheReference) {
  std::string data;
  for (int i = 0; i < 1000; ++i) data.push_back(char((i * 131 + 7) & 0xff));
  auto hash = [&](size_t n) {
    Xxh64 h;
    for (size_t p = 0, step = 1; p < n; step = step * 3 % 37 + 1) {
      const size_t k = std::min(step, n - p);
      h.Update(data.data() + p, k);
      p += k;
    }
    return h.Digest();
  };
  EXPECT_EQ(hash(0), 0xef46db3751d8e999ull);
  EXPECT_EQ(hash(1), 0xa96c7f0ce858bbb7ull);
  EXPECT_EQ(hash(7), 0x2744460dd675d2c0ull);
  EXPECT_EQ(hash(31), 0x6711d55e306b5d8full);
  EXPECT_EQ(hash(32), 0x07f7b8e3bc5d6e25ull);
  EXPECT_EQ(hash(33), 0x09f85eeb4e1cbe9full);
  EXPECT_EQ(hash(100), 0x9ddada11d3dc2d8full);
  EXPECT_EQ(hash(1000), 0x0bf0bdbcc82eb373ull);
}

}  // namespace
}  // namespace arbiter::tablebase
