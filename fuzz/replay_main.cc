// Runs a libFuzzer target over files, without libFuzzer: every file of the
// directories (or the files) given is fed once to LLVMFuzzerTestOneInput.
// The normal build (gcc, no sanitizers) links each target with this, so that
// CI runs every target over its seeds and every input that once broke it
// (ctest: FuzzReplay.*). Fuzzing itself needs clang: scripts/fuzz-smoke.sh.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    // A target without past crashers has no regressions directory (git
    // keeps no empty ones): nothing to replay there.
    if (!std::filesystem::exists(argv[i], ec)) {
      std::printf("%s: absent, nothing to replay\n", argv[i]);
      continue;
    }
    if (std::filesystem::is_directory(argv[i], ec)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(argv[i]))
        if (entry.is_regular_file()) files.push_back(entry.path());
    } else {
      files.emplace_back(argv[i]);
    }
  }
  for (const std::filesystem::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "cannot read %s\n", f.c_str());
      return 1;
    }
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  }
  std::printf("%zu inputs replayed\n", files.size());
  return files.empty() ? 1 : 0;
}
