// What the fuzz regression tests share (fuzz_regression_test.cc, the
// core's targets; fuzz_regression_wire_test.cc, the API's, which only the
// cluster build has): each target as a parameterized test over its
// regression inputs (fuzz/regressions/TARGET/) and seeds
// (fuzz/corpus/TARGET/). Each file instantiates it with its targets.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/byte_source.h"
#include "core/pgn/pgn_reader.h"
#include "fuzz/fuzz_support.h"

namespace arbiter::fuzz {

namespace fs = std::filesystem;

inline const fs::path kFuzzDir = fs::path(ARBITER_SOURCE_DIR) / "fuzz";

inline std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The files of a directory, in name order (none when it does not exist).
inline std::vector<fs::path> Files(const fs::path& dir) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) return files;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

struct Target {
  const char* name;  // the directory under fuzz/corpus and fuzz/regressions
  void (*run)(std::string_view input);
};

class FuzzTarget : public ::testing::TestWithParam<Target> {};

TEST_P(FuzzTarget, RegressionInputs) {
  for (const fs::path& file : Files(kFuzzDir / "regressions" / GetParam().name)) {
    SCOPED_TRACE(file.string());
    GetParam().run(ReadFile(file));
  }
}

TEST_P(FuzzTarget, SeedCorpus) {
  const std::vector<fs::path> seeds = Files(kFuzzDir / "corpus" / GetParam().name);
  EXPECT_FALSE(seeds.empty());
  for (const fs::path& file : seeds) {
    SCOPED_TRACE(file.string());
    GetParam().run(ReadFile(file));
  }
}

// Every game of `source`, as read.
inline std::vector<RawGame> Games(std::unique_ptr<ByteSource> source) {
  PgnReader reader(std::move(source));
  std::vector<RawGame> games;
  for (RawGame g; reader.Next(&g);) games.push_back(g);
  return games;
}

// Each instantiation names its cases by target (Fuzz/FuzzTarget.SeedCorpus/pgn).
inline std::string TargetName(const ::testing::TestParamInfo<Target>& info) {
  return std::string(info.param.name);
}

}  // namespace arbiter::fuzz
