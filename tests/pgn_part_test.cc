// Parts of a file (core/io/pgn_part.h): for any content and any number of
// parts, the parts' bytes in order are the file's bytes, each once; cuts
// fall only where a tag section starts after a blank line; zstd files are
// cut between frames (skippable frames included) and a single frame is
// refused.
#include "core/io/pgn_part.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace arbiter {
namespace {

std::string ReadAll(ByteSource& source) {
  std::string out;
  char buf[777];  // odd size: cuts and patterns straddle reads
  for (;;) {
    absl::StatusOr<size_t> got = source.Read(buf, sizeof buf);
    EXPECT_TRUE(got.ok()) << got.status();
    if (!got.ok() || *got == 0) return out;
    out.append(buf, *got);
  }
}

std::string Write(const std::string& name, const std::string& bytes) {
  const std::string path = (std::filesystem::path(::testing::TempDir()) / name).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// Text made of the bytes that matter to cuts, with games here and there.
std::string RandomText(std::mt19937& rng, size_t size) {
  static const std::string kPieces[] = {"\n",  "\n\n", "[", "[Event \"x\"]\n", "1. e4 e5 ",
                                        "{c}", "\r\n", "a", "1-0\n\n"};
  std::string text;
  while (text.size() < size) text += kPieces[rng() % std::size(kPieces)];
  return text;
}

std::string Frame(const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3));
  return out;
}

std::string SkippableFrame(const std::string& payload) {
  std::string out = "\x50\x2A\x4D\x18";
  const uint32_t n = uint32_t(payload.size());
  for (int i = 0; i < 4; ++i) out += char((n >> (8 * i)) & 0xFF);
  return out + payload;
}

void ExpectPartsCover(const std::string& path, const std::string& text, int count) {
  std::string joined;
  for (int i = 0; i < count; ++i) {
    absl::StatusOr<std::unique_ptr<ByteSource>> part = OpenPgnPart(path, i, count);
    ASSERT_TRUE(part.ok()) << part.status();
    const std::string bytes = ReadAll(**part);
    // Every part but the first starts at a cut, if it has anything.
    if (i > 0 && !bytes.empty()) {
      EXPECT_EQ(bytes[0], '[') << "part " << i << "/" << count;
      EXPECT_EQ(joined.substr(joined.size() - 2), "\n\n") << "part " << i << "/" << count;
    }
    joined += bytes;
  }
  EXPECT_TRUE(joined == text) << count << " parts of " << text.size() << " bytes give "
                              << joined.size();
}

TEST(PgnPart, PlainFilesArePartitionedExactly) {
  std::mt19937 rng(27);
  for (int round = 0; round < 150; ++round) {
    const std::string text = RandomText(rng, rng() % 5000);
    const std::string path = Write("part_plain.pgn", text);
    for (int count : {1, 2, 3, 5, 8, 13}) ExpectPartsCover(path, text, count);
  }
}

TEST(PgnPart, ZstdFilesArePartitionedBetweenFrames) {
  std::mt19937 rng(99);
  for (int round = 0; round < 60; ++round) {
    std::string text, file;
    const int frames = 2 + int(rng() % 8);
    for (int f = 0; f < frames; ++f) {
      const std::string chunk = RandomText(rng, rng() % 3000);
      if (rng() % 3 == 0) file += SkippableFrame("pzstd");
      file += Frame(chunk);
      text += chunk;
    }
    const std::string path = Write("part_frames.pgn.zst", file);
    for (int count : {1, 2, 3, 4, 7, 16}) ExpectPartsCover(path, text, count);
  }
}

TEST(PgnPart, OneFrameCannotBeCut) {
  const std::string path = Write("part_one_frame.pgn.zst", Frame("[Event \"a\"]\n\n1. e4 1-0\n"));
  absl::StatusOr<std::unique_ptr<ByteSource>> whole = OpenPgnPart(path, 0, 1);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(ReadAll(**whole), "[Event \"a\"]\n\n1. e4 1-0\n");
  absl::StatusOr<std::unique_ptr<ByteSource>> part = OpenPgnPart(path, 1, 2);
  EXPECT_EQ(part.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(part.status().message().find("single zstd frame"), std::string::npos);
}

TEST(PgnPart, BadRequestsAreRefused) {
  const std::string path = Write("part_small.pgn", "[Event \"a\"]\n\n1. e4 1-0\n");
  EXPECT_EQ(OpenPgnPart(path, 2, 2).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(OpenPgnPart("/no/such/file.pgn", 0, 2).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(OpenPgnPart("/dev/null", 0, 2).status().code(), absl::StatusCode::kInvalidArgument);
  // A file that claims zstd but is cut inside a frame.
  std::string cut = Frame(std::string(5000, 'x')) + Frame("[Event \"b\"]\n");
  cut.resize(cut.size() - 3);
  EXPECT_EQ(OpenPgnPart(Write("part_cut.pgn.zst", cut), 0, 2).status().code(),
            absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace arbiter
