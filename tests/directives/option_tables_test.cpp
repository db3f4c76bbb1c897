// The tables themselves: complete, consistent, and matching Slurm's counts.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "directives/directives.hpp"

namespace s2a::directives {
namespace {

size_t count_origin(const OptionTable& table, OptionOrigin origin) {
  size_t n = 0;
  for (const OptionSpec& spec : table.specs()) n += spec.origin == origin ? 1 : 0;
  return n;
}

TEST(OptionTables, SlurmOptionCountsMatchSlurmOptC) {
  // 120 named sbatch entries and 147 srun entries in common_options[].
  EXPECT_EQ(count_origin(sbatch_options(), OptionOrigin::slurm) +
                count_origin(sbatch_options(), OptionOrigin::early_pass),
            120u);
  EXPECT_EQ(count_origin(srun_options(), OptionOrigin::slurm) +
                count_origin(srun_options(), OptionOrigin::early_pass),
            147u);
  EXPECT_EQ(count_origin(sbatch_options(), OptionOrigin::early_pass), 6u);
  EXPECT_EQ(count_origin(srun_options(), OptionOrigin::early_pass), 0u);
  EXPECT_EQ(count_origin(sbatch_options(), OptionOrigin::plugin),
            28u);  // pyxis, shifter, CSCS, EAR
}

void expect_unique(const OptionTable& table) {
  std::set<std::string_view> longs;
  std::set<char> shorts;
  for (const OptionSpec& spec : table.specs()) {
    EXPECT_TRUE(longs.insert(spec.long_name).second) << spec.long_name;
    if (spec.short_name != 0) {
      EXPECT_TRUE(shorts.insert(spec.short_name).second) << spec.short_name;
    }
    if (!spec.alias_of.empty()) {
      EXPECT_NE(table.find(spec.alias_of), nullptr) << spec.long_name;
    }
  }
}

TEST(OptionTables, NamesAndLettersAreUnique) {
  expect_unique(sbatch_options());
  expect_unique(srun_options());
}

struct SpecCase {
  const char* name;
  char short_name;
  ArgKind arg;
  OptionOrigin origin;
};

TEST(OptionTables, SbatchEntries) {
  const SpecCase cases[] = {
      {"nodes", 'N', ArgKind::required, OptionOrigin::slurm},
      {"ntasks", 'n', ArgKind::required, OptionOrigin::slurm},
      {"cpus-per-task", 'c', ArgKind::required, OptionOrigin::slurm},
      {"exclusive", 0, ArgKind::optional, OptionOrigin::slurm},
      {"no-kill", 'k', ArgKind::optional, OptionOrigin::slurm},
      {"requeue", 0, ArgKind::optional, OptionOrigin::slurm},
      {"get-user-env", 0, ArgKind::optional, OptionOrigin::slurm},
      {"wait", 'W', ArgKind::none, OptionOrigin::slurm},
      {"array", 'a', ArgKind::required, OptionOrigin::slurm},
      {"wrap", 0, ArgKind::required, OptionOrigin::early_pass},
      {"verbose", 'v', ArgKind::none, OptionOrigin::early_pass},
      {"help", 'h', ArgKind::none, OptionOrigin::early_pass},
      {"container-image", 0, ArgKind::required, OptionOrigin::plugin},
      {"container-mount-home", 0, ArgKind::none, OptionOrigin::plugin},
      {"image", 0, ArgKind::required, OptionOrigin::plugin},
      {"environment", 0, ArgKind::required, OptionOrigin::plugin},
      {"workdir", 0, ArgKind::required, OptionOrigin::removed},
  };
  for (const SpecCase& c : cases) {
    const OptionSpec* spec = sbatch_options().find(c.name);
    ASSERT_NE(spec, nullptr) << c.name;
    EXPECT_EQ(spec->short_name, c.short_name) << c.name;
    EXPECT_EQ(spec->arg, c.arg) << c.name;
    EXPECT_EQ(spec->origin, c.origin) << c.name;
  }
  EXPECT_EQ(sbatch_options().find("tasks-per-node")->canonical(), "ntasks-per-node");
  EXPECT_EQ(sbatch_options().find("cluster")->canonical(), "clusters");
  EXPECT_EQ(sbatch_options().find("exact"), nullptr);
  EXPECT_EQ(sbatch_options().find_short('K'), nullptr);
}

TEST(OptionTables, SrunEntries) {
  const SpecCase cases[] = {
      {"wait", 'W', ArgKind::required, OptionOrigin::slurm},
      {"kill-on-bad-exit", 'K', ArgKind::optional, OptionOrigin::slurm},
      {"overlap", 0, ArgKind::optional, OptionOrigin::slurm},
      {"exact", 0, ArgKind::none, OptionOrigin::slurm},
      {"label", 'l', ArgKind::none, OptionOrigin::slurm},
      {"relative", 'r', ArgKind::required, OptionOrigin::slurm},
      {"preserve-env", 'E', ArgKind::none, OptionOrigin::slurm},
      {"unbuffered", 'u', ArgKind::none, OptionOrigin::slurm},
      {"disable-status", 'X', ArgKind::none, OptionOrigin::slurm},
      {"immediate", 'I', ArgKind::optional, OptionOrigin::slurm},
      {"threads", 'T', ArgKind::required, OptionOrigin::slurm},
      {"pty", 0, ArgKind::optional, OptionOrigin::slurm},
      {"verbose", 'v', ArgKind::none, OptionOrigin::slurm},
      {"container-image", 0, ArgKind::required, OptionOrigin::plugin},
  };
  for (const SpecCase& c : cases) {
    const OptionSpec* spec = srun_options().find(c.name);
    ASSERT_NE(spec, nullptr) << c.name;
    EXPECT_EQ(spec->short_name, c.short_name) << c.name;
    EXPECT_EQ(spec->arg, c.arg) << c.name;
    EXPECT_EQ(spec->origin, c.origin) << c.name;
  }
  EXPECT_EQ(srun_options().find("array"), nullptr);
  EXPECT_EQ(srun_options().find("pack-group")->canonical(), "het-group");
  EXPECT_EQ(srun_options().find_short('q')->long_name, "qos");
}

}  // namespace
}  // namespace s2a::directives
