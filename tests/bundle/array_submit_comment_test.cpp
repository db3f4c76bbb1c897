// array_submit_comment: the index list of a long array, gaps and all.
#include <gtest/gtest.h>

#include "bundle/workflow.hpp"

namespace s2a::bundle {
namespace {

TEST(ArraySubmitComment, ListsEveryIndexOfALongArrayInOneLoop) {
  JobWorkflow workflow;
  ArrayPlan plan;
  plan.spec = "custom";
  for (uint64_t i = 0; i < 25; ++i) plan.indexes.push_back(i * 3);
  plan.indexes.push_back(18446744073709551615ULL);  // the longest spelling
  workflow.array = plan;
  std::string expected_list;
  for (uint64_t index : plan.indexes) expected_list += " " + std::to_string(index);
  EXPECT_EQ(array_submit_comment(workflow, "train.yaml"),
            "# Slurm job array --array=custom: one run per index. Submit them with:\n"
            "#   array_job_id=$(date +%s)\n"
            "#   for i in" +
                expected_list +
                "; do\n"
                "#   databricks air run --file train.yaml --override "
                "parameters.array_job_id=$array_job_id --override parameters.array_task_id=$i\n"
                "#   done\n");
}

}  // namespace
}  // namespace s2a::bundle
