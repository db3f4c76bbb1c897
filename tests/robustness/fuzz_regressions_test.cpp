// Replays every stored fuzzer finding (tests/fuzz/regressions/<target>/*)
// through the same entry point the libFuzzer target uses, so a fixed crash
// stays fixed in the ordinary (gcc, and ASan/UBSan in CI) test build.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "fuzz/entry_points.hpp"

namespace s2a {
namespace {

namespace fs = std::filesystem;
using Entry = void (*)(const uint8_t*, size_t);

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void replay(const std::string& target, Entry entry) {
  const fs::path dir = fs::path(SLURM2AIR_SOURCE_DIR) / "tests/fuzz/regressions" / target;
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  size_t replayed = 0;
  for (const auto& item : fs::directory_iterator(dir)) {
    if (!item.is_regular_file() || item.path().filename().string().starts_with(".")) continue;
    SCOPED_TRACE(item.path().string());
    const std::string bytes = slurp(item.path());
    EXPECT_NO_THROW(entry(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
    ++replayed;
  }
  std::printf("replayed %zu stored %s input(s)\n", replayed, target.c_str());
}

TEST(FuzzRegressions, Scanner) { replay("scanner", fuzz::scanner); }
TEST(FuzzRegressions, Values) { replay("values", fuzz::values); }
TEST(FuzzRegressions, Shell) { replay("shell", fuzz::shell); }
TEST(FuzzRegressions, Pipeline) { replay("pipeline", fuzz::pipeline); }

// The entry points must take the empty input and a lone byte of each kind.
TEST(FuzzRegressions, TrivialInputs) {
  for (Entry entry : {fuzz::scanner, fuzz::values, fuzz::shell, fuzz::pipeline}) {
    entry(nullptr, 0);
    for (int byte = 0; byte < 256; ++byte) {
      const auto b = static_cast<uint8_t>(byte);
      EXPECT_NO_THROW(entry(&b, 1));
    }
  }
}

}  // namespace
}  // namespace s2a
