// LineReader: lines split as a batch command needs them, and output
// flushed only when the next read may wait for input.
#include "core/io/line_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/io/byte_source.h"
#include "tests/trickle_source.h"

namespace arbiter {
namespace {

using testing::TrickleSource;

std::vector<std::string> AllLines(LineReader& reader) {
  std::vector<std::string> lines;
  std::string line;
  while (reader.Next(&line)) lines.push_back(line);
  return lines;
}

TEST(LineReader, SplitsOnNewlinesWhateverThePieces) {
  const std::string long_line(200000, 'x');  // longer than one read
  const std::string text = "a\r\nbb\n\n" + long_line + "\nlast without newline\r";
  const std::vector<std::string> expected = {"a", "bb", "", long_line, "last without newline"};
  for (size_t piece : {size_t(1), size_t(3), size_t(4096), size_t(1) << 20}) {
    LineReader reader(std::make_unique<TrickleSource>(text, piece), nullptr);
    EXPECT_EQ(AllLines(reader), expected) << piece;
    EXPECT_EQ(reader.line_number(), 5);
    EXPECT_TRUE(reader.status().ok());
  }
}

TEST(LineReader, EmptyInputHasNoLines) {
  LineReader reader(ByteSource::FromString(""), nullptr);
  EXPECT_TRUE(AllLines(reader).empty());
}

// The hook runs before each read of the source, and never while buffered
// lines remain: a feeder waiting for an answer gets it, a file of many
// lines costs one flush per read.
TEST(LineReader, AsksForAFlushOnlyBeforeReading) {
  int waits = 0;
  LineReader reader(std::make_unique<TrickleSource>("1\n2\n3\n4\n", 4), [&] { ++waits; });
  std::string line;
  ASSERT_TRUE(reader.Next(&line));  // the first read: "1\n2\n"
  EXPECT_EQ(waits, 1);
  ASSERT_TRUE(reader.Next(&line));  // buffered
  EXPECT_EQ(line, "2");
  EXPECT_EQ(waits, 1);
  ASSERT_TRUE(reader.Next(&line));  // the second read: "3\n4\n"
  EXPECT_EQ(waits, 2);
  ASSERT_TRUE(reader.Next(&line));
  EXPECT_FALSE(reader.Next(&line));  // the read that finds the end
  EXPECT_EQ(waits, 3);
}

TEST(LineReader, CorruptCompressedInputIsAnError) {
  // zstd magic bytes, then garbage.
  LineReader reader(ByteSource::FromString(std::string("\x28\xb5\x2f\xfd", 4) + "garbage"),
                    nullptr);
  AllLines(reader);
  EXPECT_FALSE(reader.status().ok());
}

}  // namespace
}  // namespace arbiter
