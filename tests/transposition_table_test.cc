#include "core/mate/transposition_table.h"

#include <cstdint>
#include <thread>

#include "gtest/gtest.h"

namespace arbiter {
namespace {

TEST(TranspositionTable, StoresAndReplaces) {
  TranspositionTable<int16_t> table;
  table.Reset(1024);
  EXPECT_EQ(table.size(), 1024u);
  EXPECT_EQ(table.Find(5), nullptr);
  table.Store(5, 7);
  ASSERT_NE(table.Find(5), nullptr);
  EXPECT_EQ(*table.Find(5), 7);
  // 5 + 1024 shares the slot: the newest entry wins.
  table.Store(5 + 1024, 9);
  EXPECT_EQ(table.Find(5), nullptr);
  ASSERT_NE(table.Find(5 + 1024), nullptr);
  EXPECT_EQ(*table.Find(5 + 1024), 9);
}

TEST(TranspositionTable, KeyZeroIsNotFoundInAnEmptyTable) {
  TranspositionTable<int8_t> table;
  table.Reset(1024);
  EXPECT_EQ(table.Find(0), nullptr);
  table.Store(0, 3);
  ASSERT_NE(table.Find(0), nullptr);
  EXPECT_EQ(*table.Find(0), 3);
}

TEST(TranspositionTable, ResetEmptiesWhateverTheSize) {
  TranspositionTable<int16_t> table;
  table.Reset(4096);
  for (uint64_t k = 0; k < 4096; ++k) table.Store(k, 1);
  table.Reset(1024);  // smaller: the old entries are in the memory kept
  for (uint64_t k = 0; k < 4096; ++k) EXPECT_EQ(table.Find(k), nullptr) << k;
  table.Store(3, 2);
  table.Reset(1024);  // same size
  EXPECT_EQ(table.Find(3), nullptr);
  table.Store(3, 2);
  table.Reset(16384);  // larger than the memory kept
  EXPECT_EQ(table.Find(3), nullptr);
}

TEST(TranspositionTable, NextSearchOnTheThreadStartsEmpty) {
  {
    TranspositionTable<int16_t> first;
    first.Reset(1024);
    first.Store(42, 5);
  }
  TranspositionTable<int16_t> second;  // reuses the first one's memory
  second.Reset(1024);
  EXPECT_EQ(second.Find(42), nullptr);
}

TEST(TranspositionTable, TablesAliveTogetherAreIndependent) {
  TranspositionTable<int16_t> outer;
  outer.Reset(1024);
  outer.Store(42, 5);
  {
    TranspositionTable<int16_t> inner;  // the thread's memory is taken
    inner.Reset(1024);
    EXPECT_EQ(inner.Find(42), nullptr);
    inner.Store(42, 6);
    inner.Store(43, 6);
  }
  ASSERT_NE(outer.Find(42), nullptr);
  EXPECT_EQ(*outer.Find(42), 5);
  EXPECT_EQ(outer.Find(43), nullptr);
}

TEST(TranspositionTable, ThreadsHaveTheirOwnTables) {
  TranspositionTable<int16_t> here;
  here.Reset(1024);
  here.Store(42, 5);
  std::thread other([] {
    TranspositionTable<int16_t> there;
    there.Reset(1024);
    EXPECT_EQ(there.Find(42), nullptr);
    there.Store(42, 6);
  });
  other.join();
  ASSERT_NE(here.Find(42), nullptr);
  EXPECT_EQ(*here.Find(42), 5);
}

}  // namespace
}  // namespace arbiter
