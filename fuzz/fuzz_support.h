// Helpers shared by the libFuzzer targets in fuzz/ and by
// tests/fuzz_regression_test.cc, which runs the same target functions on the
// inputs that once crashed them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace arbiter::fuzz {

// The fuzzer's bytes as text (FEN, moves and PGN are read as bytes anyway).
inline std::string_view AsText(const uint8_t* data, size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

// A broken invariant: print it and abort, which libFuzzer reports as a crash
// (and saves the input) and which fails the regression test.
[[noreturn]] inline void Fail(const char* file, int line, const char* condition,
                              const std::string& detail) {
  std::fprintf(stderr, "%s:%d: check failed: %s\n  %s\n", file, line, condition, detail.c_str());
  std::fflush(stderr);
  std::abort();
}

// The regression test calls the targets by name; the fuzzer executables
// call them from LLVMFuzzerTestOneInput.
void FenTarget(std::string_view input);
void MoveTarget(std::string_view input);
void PgnTarget(std::string_view input);
void PgnZstdTarget(std::string_view input);
void RequestTarget(std::string_view input);
void Chess99Target(std::string_view input);
void EndingTarget(std::string_view input);
void HttpTarget(std::string_view input);

}  // namespace arbiter::fuzz

// CHECK-style: the detail expression (a std::string) is evaluated only on
// failure.
#define ARBITER_FUZZ_CHECK(condition, detail)                                          \
  do {                                                                                 \
    if (!(condition)) ::arbiter::fuzz::Fail(__FILE__, __LINE__, #condition, (detail)); \
  } while (0)
