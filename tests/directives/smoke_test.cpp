#include <gtest/gtest.h>
#include "directives/directives.hpp"
namespace s2a::directives {
TEST(Smoke, Builds) {
  SourceFile f("job.sh", "#!/bin/bash\n#SBATCH -N 2\npython x\n");
  auto r = scan_directives(f);
  EXPECT_EQ(r.options.size(), 1u);
}
}
