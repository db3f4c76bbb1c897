#include <gtest/gtest.h>

#include "diag/catalog.hpp"
#include "support/run_process.hpp"

namespace s2a {
namespace {

TEST(Catalog, DocsDiagnosticsMdIsGeneratedFromTheRegistry) {
  const std::string path = std::string(SLURM2AIR_SOURCE_DIR) + "/docs/diagnostics.md";
  EXPECT_EQ(testing::read_file(path), diagnostics_markdown())
      << "regenerate with: build/slurm2air --diagnostics-markdown > docs/diagnostics.md";
}

}  // namespace
}  // namespace s2a
