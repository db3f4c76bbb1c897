// Secret detection edge cases found by other tests and the fuzzers.
#include <gtest/gtest.h>

#include "translate.hpp"

namespace s2a {
namespace {

// Found by the bundle robustness test: a bare `--` argument threw out_of_range.
TEST(SecretFlags, BareDoubleDashArgumentIsNotAFlag) {
  const Translation t =
      translate("job.sh", "#!/bin/bash\n#SBATCH --gpus-per-node=h100:1\npython train.py -- --\n");
  EXPECT_TRUE(t.workload.has_value());
}

}  // namespace
}  // namespace s2a
