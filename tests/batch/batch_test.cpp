// Batch conversion over a generated tree of thousands of scripts with hostile
// names: nothing outside OUT, no overwrite without --force, failures isolated,
// results identical whatever the number of threads, clean interruption.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "batch/batch.hpp"
#include "support/run_process.hpp"

namespace s2a::batch {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// Every entry under `dir` (relative path -> content; "->target" for links).
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string relative = fs::relative(entry.path(), dir).generic_string();
    if (entry.is_symlink()) {
      out[relative] = "->" + fs::read_symlink(entry.path()).string();
    } else if (entry.is_regular_file()) {
      out[relative] = ::access(entry.path().c_str(), R_OK) == 0 ? slurp(entry.path()) : "?";
    } else if (entry.is_directory()) {
      out[relative + "/"] = "";
    } else {
      out[relative] = "special";
    }
  }
  return out;
}

std::string script(size_t i) {
  const std::string n = std::to_string(i);
  switch (i % 6) {
    case 0:  // clean
      return "#!/bin/bash\n#SBATCH --job-name=job" + n +
             "\n#SBATCH --nodes=2\n#SBATCH --gpus-per-node=h100:8\n#SBATCH --time=01:00:00\n"
             "srun torchrun --nnodes=2 --nproc_per_node=8 train.py --seed " +
             n + "\n";
    case 1:  // findings
      return "#!/bin/bash\n#SBATCH --qos=high\n#SBATCH --mem=200G\n#SBATCH --gpus-per-node=4\n"
             "python train.py --seed " +
             n + "\n";
    case 2:  // an error: converted, with findings (as the single-file CLI does)
      return "#!/bin/bash\n#SBATCH --nodes=abc" + n + "\nsrun python x.py\n";
    case 3:  // srun only, sh
      return "#!/bin/sh\nsrun hostname\necho " + n + "\n";
    case 4:  // env bash, GPUs in total
      return "#!/usr/bin/env bash\n#SBATCH -N 4\n#SBATCH --gpus=32\n#SBATCH --account=ml\n"
             "srun torchrun --nproc_per_node=8 train.py " +
             n + "\n";
    default:  // not an sbatch script at all
      return "#!/bin/bash\necho hello " + n + "\n";
  }
}

class BatchTree : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    base_ = fs::temp_directory_path() / ("s2a-batch-" + std::to_string(::getpid()));
    fs::remove_all(base_);
    const fs::path in = base_ / "in";
    for (size_t i = 0; i < 3000; ++i) {
      write(in / ("team" + std::to_string(i % 30)) / ("job" + std::to_string(i) + ".sh"),
            script(i));
    }
    const std::string good = script(0);
    write(in / "hostile" / "with space.sh", good);
    write(in / "hostile" / "a..b.sh", good);
    write(in / "hostile" / "new\nline.sh", good);
    write(in / "hostile" / "-leading-dash.sh", good);
    write(in / "hostile" / "--force", good);
    write(in / "hostile" / "dir.sh" / "inner.sh", good);  // a directory named like a script
    write(in / "hostile" / "empty.sh", "");
    write(in / "hostile" / "binary.sh", std::string("#!/bin/bash\n#SBATCH -N 1\n\0\x01\x02", 29));
    write(in / "hostile" / "forced.bin", std::string("#!/bin/bash\n#SBATCH -N 1\n\0\x01", 27));
    write(in / "hostile" / "README.md", "# not a script\nsrun is mentioned here\n");
    write(in / "hostile" / "unreadable.sh", good);
    ::chmod((in / "hostile" / "unreadable.sh").c_str(), 0);
    // A huge file: sparse, so cheap, but over the 4 MiB limit.
    write(in / "hostile" / "huge.sh", good);
    fs::resize_file(in / "hostile" / "huge.sh", uint64_t{5} << 20);
    ::mkfifo((in / "hostile" / "pipe.sh").c_str(), 0644);
    write(base_ / "outside" / "secret.sh", good);
    fs::create_symlink(base_ / "outside" / "secret.sh", in / "hostile" / "link.sh");
    fs::create_directory_symlink(base_ / "outside", in / "hostile" / "linkdir");
    fs::create_symlink("../../outside/secret.sh", in / "hostile" / "relative-link.sh");
  }
  static void TearDownTestSuite() { fs::remove_all(base_); }

  static BatchOptions options(const std::string& out, unsigned jobs) {
    BatchOptions o;
    o.roots = {(base_ / "in").string()};
    o.out_dir = base_ / out;
    o.jobs = jobs;
    o.include = {"*.bin"};
    o.attention = default_attention_codes();
    return o;
  }

  static const FileResult& find(const BatchRun& run, const std::string& relative) {
    for (const FileResult& r : run.files) {
      if (r.relative == relative) return r;
    }
    static FileResult missing;
    ADD_FAILURE() << "no result for " << relative;
    return missing;
  }

  static fs::path base_;
};

fs::path BatchTree::base_;

TEST_F(BatchTree, ConvertsDeterministicallyAndSafely) {
  const auto inputs_before = snapshot(base_ / "in");
  const auto outside_before = snapshot(base_ / "outside");
  const BatchRun one = run_batch(options("out1", 1));
  const BatchRun four = run_batch(options("out4", 4));
  // Identical OUT trees and reports whatever --jobs is.
  const auto tree1 = snapshot(base_ / "out1");
  const auto tree4 = snapshot(base_ / "out4");
  EXPECT_EQ(tree1.size(), tree4.size());
  EXPECT_TRUE(tree1 == tree4);
  EXPECT_EQ(render_summary(one, options("out1", 1)), render_summary(four, options("out1", 4)));
  // Nothing written anywhere but OUT; no links in OUT.
  EXPECT_TRUE(inputs_before == snapshot(base_ / "in"));
  EXPECT_TRUE(outside_before == snapshot(base_ / "outside"));
  for (const auto& entry : fs::recursive_directory_iterator(base_ / "out1")) {
    EXPECT_FALSE(entry.is_symlink()) << entry.path();
    EXPECT_EQ(entry.path().filename().string().rfind(".", 0), std::string::npos)
        << "temporary file left: " << entry.path();
  }
  // 3000 generated files: 2500 scripts, 500 not scripts.
  size_t counts[6] = {0, 0, 0, 0, 0, 0};
  for (const FileResult& r : one.files) ++counts[static_cast<size_t>(r.status)];
  EXPECT_EQ(counts[static_cast<size_t>(FileStatus::not_script)],
            500U + 3U);                                             // + empty, binary, README
  EXPECT_EQ(counts[static_cast<size_t>(FileStatus::skipped)], 4U);  // 2 file links, linkdir, FIFO
  // Hostile names converted under OUT, by their own names.
  for (const char* name : {"with space.sh", "a..b.sh", "new\nline.sh", "-leading-dash.sh",
                           "--force", "dir.sh/inner.sh"}) {
    EXPECT_TRUE(fs::is_regular_file(base_ / "out1/hostile" / (std::string(name) + ".yaml")))
        << name;
  }
  const std::string md = slurp(base_ / "out1/migration-report.md");
  // Failures are isolated and say why.
  EXPECT_EQ(find(one, "hostile/huge.sh").status, FileStatus::failed);
  EXPECT_EQ(find(one, "hostile/huge.sh").reason,
            "larger than 4 MiB (Slurm's default max_script_size)");
  EXPECT_EQ(find(one, "hostile/forced.bin").status, FileStatus::failed);  // --include: binary
  EXPECT_EQ(find(one, "hostile/link.sh").status, FileStatus::skipped);
  EXPECT_EQ(find(one, "hostile/pipe.sh").reason, "not a regular file");
  EXPECT_EQ(find(one, "hostile/linkdir").status, FileStatus::skipped);
  if (::geteuid() != 0) {
    EXPECT_EQ(find(one, "hostile/unreadable.sh").status, FileStatus::failed);
  }
  EXPECT_EQ(find(one, "team2/job2.sh").status, FileStatus::findings);
  EXPECT_EQ(find(one, "team0/job0.sh").status, FileStatus::clean)
      << slurp(base_ / "out1/team0/job0.sh.report.txt");
  EXPECT_NE(slurp(base_ / "out1/team2/job2.sh.report.txt").find("[S2A2101]"), std::string::npos);
  EXPECT_NE(md.find("team2/job2.sh | S2A2101 invalid"), std::string::npos);
  // The migration report names what a planning meeting needs.
  EXPECT_NE(md.find("| Converted with findings |"), std::string::npos);
  EXPECT_NE(md.find("| --qos | 0 | 500 | 500 |"), std::string::npos) << md.substr(0, 3000);
  EXPECT_NE(md.find("new?line.sh"), std::string::npos);
  const std::string json = slurp(base_ / "out1/migration-report.json");
  EXPECT_NE(json.find("\"schema\": \"slurm2air.migration/1\""), std::string::npos);
}

TEST_F(BatchTree, NeverOverwritesWithoutForce) {
  BatchOptions o = options("out-force", 2);
  o.roots = {(base_ / "in/team0").string()};
  (void)run_batch(o);
  const auto before = snapshot(base_ / "out-force");
  const BatchRun again = run_batch(o);
  EXPECT_TRUE(before == snapshot(base_ / "out-force"));
  for (const FileResult& r : again.files) {
    if (r.status == FileStatus::not_script) continue;
    EXPECT_EQ(r.status, FileStatus::failed) << r.relative;
    EXPECT_NE(r.reason.find("already exists (use --force to overwrite)"), std::string::npos);
  }
  EXPECT_EQ(again.run_errors.size(), 2U);  // the two migration reports
  o.force = true;
  const BatchRun forced = run_batch(o);
  EXPECT_TRUE(forced.run_errors.empty());
  EXPECT_TRUE(before == snapshot(base_ / "out-force"));
}

ino_t inode_of(const fs::path& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 ? info.st_ino : 0;
}

// A --force re-run replaces what changed and leaves identical outputs as they
// are (same inode: not even rewritten).
TEST_F(BatchTree, ForceRewritesOnlyWhatChanged) {
  BatchOptions o = options("out-rerun", 2);
  o.roots = {(base_ / "in/team0").string()};
  o.force = true;
  (void)run_batch(o);
  const fs::path same = base_ / "out-rerun/job0.sh.yaml";
  const fs::path edited = base_ / "out-rerun/job30.sh.yaml";
  const std::string expected = slurp(edited);
  write(edited, "stale\n");
  const ino_t same_inode = inode_of(same);
  const BatchRun again = run_batch(o);
  EXPECT_EQ(slurp(edited), expected);
  EXPECT_EQ(inode_of(same), same_inode);
  EXPECT_GT(again.unchanged, 100U);
  EXPECT_EQ(again.written.size(), 3U);  // the edited YAML and the two migration reports
  EXPECT_NE(render_summary(again, o).find("already up to date"), std::string::npos);
}

/// An empty private directory for one test.
fs::path fresh_directory(const std::string& name) {
  const fs::path base = fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  fs::remove_all(base);
  return base;
}

/// A --force run of `roots` into `base`/out.
BatchOptions forced_options(const fs::path& base, std::vector<std::string> roots, unsigned jobs) {
  BatchOptions o;
  o.roots = std::move(roots);
  o.out_dir = base / "out";
  o.jobs = jobs;
  o.force = true;
  return o;
}

// A script that stops converting: --check calls its committed YAML stale and
// a --force run removes it, so OUT never holds a translation its report
// contradicts.
TEST(BatchRerun, ScriptThatNoLongerConverts) {
  const fs::path base = fresh_directory("s2a-rerun");
  write(base / "in/job.sh", script(0));
  BatchOptions o = forced_options(base, {(base / "in").string()}, 1);
  (void)run_batch(o);
  ASSERT_TRUE(fs::exists(base / "out/job.sh.yaml"));
  std::string too_long = "#!/bin/bash\n#SBATCH --gpus-per-node=8\n";  // over 1,000 lines
  for (int i = 0; i < 1200; ++i) too_long += "echo step" + std::to_string(i) + "\n";
  write(base / "in/job.sh", too_long);
  o.check = true;
  const BatchRun check = run_batch(o);
  ASSERT_EQ(check.files.size(), 1U);
  EXPECT_TRUE(check.files[0].stale);
  EXPECT_NE(check.files[0].diff.find("no longer converts"), std::string::npos);
  o.check = false;
  const BatchRun forced = run_batch(o);
  EXPECT_FALSE(fs::exists(base / "out/job.sh.yaml"));
  EXPECT_TRUE(fs::exists(base / "out/job.sh.report.txt"));
  EXPECT_EQ(forced.removed, 1U);
  EXPECT_NE(render_summary(forced, o).find("1 earlier YAML removed"), std::string::npos);
  o.check = true;
  EXPECT_FALSE(run_batch(o).files[0].stale);  // OUT now matches what batch writes
  fs::remove_all(base);
}

// Unchanged outputs get the same checks as written ones: a directory of OUT
// swapped for a symlink (to identical files) is still refused.
TEST(BatchRerun, UnchangedOutputBehindASymlinkIsRefused) {
  const fs::path base = fresh_directory("s2a-rerun-link");
  write(base / "in/sub/job.sh", script(0));
  const BatchOptions o = forced_options(base, {(base / "in").string()}, 1);
  (void)run_batch(o);
  fs::rename(base / "out/sub", base / "elsewhere");
  fs::create_directory_symlink(base / "elsewhere", base / "out/sub");
  const BatchRun again = run_batch(o);
  ASSERT_EQ(again.files.size(), 1U);
  EXPECT_EQ(again.files[0].status, FileStatus::failed);
  EXPECT_NE(again.files[0].reason.find("symbolic link"), std::string::npos)
      << again.files[0].reason;
  fs::remove_all(base);
}

// Two roots with the same name map to one output: the later fails and, even
// with --force, writes nothing over the earlier one's outputs.
TEST(BatchCollision, LaterFileWritesNothing) {
  const fs::path base = fresh_directory("s2a-collide");
  write(base / "a/x/job.sh", "#!/bin/bash\n#SBATCH --gpus-per-node=8\npython a.py\n");
  write(base / "b/x/job.sh", "#!/bin/bash\n#SBATCH --gpus-per-node=8\npython b.py\n");
  const BatchOptions o =
      forced_options(base, {(base / "a/x").string(), (base / "b/x").string()}, 2);
  const BatchRun run = run_batch(o);
  ASSERT_EQ(run.files.size(), 2U);
  EXPECT_EQ(run.files[1].status, FileStatus::failed);
  EXPECT_NE(run.files[1].reason.find("also the output of"), std::string::npos);
  const std::string yaml = slurp(base / "out/x/job.sh.yaml");
  EXPECT_NE(yaml.find("python a.py"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("python b.py"), std::string::npos) << yaml;
  fs::remove_all(base);
}

TEST_F(BatchTree, CheckFindsOneCharacterDrift) {
  BatchOptions o = options("out-check", 2);
  o.roots = {(base_ / "in/team0").string()};
  (void)run_batch(o);
  o.check = true;
  for (const FileResult& r : run_batch(o).files) EXPECT_FALSE(r.stale) << r.relative << r.diff;
  const fs::path yaml = base_ / "out-check/job0.sh.yaml";
  std::string text = slurp(yaml);
  text[text.find("nodes")] = 'N';
  write(yaml, text);
  size_t stale = 0;
  for (const FileResult& r : run_batch(o).files) {
    if (!r.stale) continue;
    ++stale;
    EXPECT_EQ(r.relative, "job0.sh");
    EXPECT_NE(r.diff.find("--- job0.sh.yaml (committed)"), std::string::npos) << r.diff;
  }
  EXPECT_EQ(stale, 1U);
}

TEST_F(BatchTree, InterruptionWritesNothing) {
  std::atomic<bool> cancel{false};
  BatchOptions o = options("out-interrupted", 4);
  o.cancel = &cancel;
  o.progress = [&cancel](size_t done, size_t) {
    if (done == 100) cancel = true;
  };
  const BatchRun run = run_batch(o);
  EXPECT_TRUE(run.interrupted);
  EXPECT_TRUE(snapshot(base_ / "out-interrupted").empty());
  size_t abandoned = 0;
  for (const FileResult& r : run.files) abandoned += r.status == FileStatus::interrupted;
  EXPECT_GT(abandoned, 1000U);
}

TEST(OutputPath, StaysStrictlyInsideOut) {
  const fs::path out = "/tmp/out";
  EXPECT_EQ(output_path(out, "a/b.sh", ".yaml"), fs::path("/tmp/out/a/b.sh.yaml"));
  EXPECT_EQ(output_path(out, "a..b.sh", ".yaml"), fs::path("/tmp/out/a..b.sh.yaml"));
  EXPECT_EQ(output_path(out, "-x", ".yaml"), fs::path("/tmp/out/-x.yaml"));
  EXPECT_EQ(output_path(out, "new\nline", ""), fs::path("/tmp/out/new\nline"));
  for (const char* hostile : {"../x", "a/../../x", "/etc/passwd", "..", ".", "", "a/..", "x/../"}) {
    EXPECT_TRUE(output_path(out, hostile, "").empty()) << hostile;
  }
}

TEST(Classify, ByContent) {
  EXPECT_TRUE(looks_like_sbatch_script("#!/bin/bash\n#SBATCH -N 1\npython x.py\n"));
  EXPECT_TRUE(looks_like_sbatch_script("#!/bin/sh\nsrun hostname\n"));
  EXPECT_TRUE(looks_like_sbatch_script("#!/usr/bin/env bash\nx=$(sbatch --parsable a.sh)\n"));
  EXPECT_TRUE(looks_like_sbatch_script("#!/bin/bash -l\n#SBATCH --gpus=8\n"));
  // Directives sbatch reads make a job whatever runs it; translate() then
  // says what is wrong (S2A1008, S2A1002) or warns (S2A1007).
  EXPECT_TRUE(looks_like_sbatch_script("#!/usr/bin/python3\n#SBATCH -N 1\n"));
  EXPECT_TRUE(looks_like_sbatch_script("#!/usr/bin/zsh\n# job\n\n#SBATCH -N 1\npython x.py\n"));
  EXPECT_TRUE(looks_like_sbatch_script("# Slurm parameters\r\n#SBATCH -N 1\r\n"));
  EXPECT_TRUE(looks_like_sbatch_script("\n#SBATCH --gres=gpu:1\npython x.py\n"));
  // Not past the first command: a generator holding a script in a string.
  EXPECT_FALSE(looks_like_sbatch_script(
      "#!/usr/bin/env python3\nimport os\nJOB = \"\"\"\n#SBATCH -N 1\n\"\"\"\n"));
  EXPECT_FALSE(looks_like_sbatch_script("#!/bin/zsh\nsrun hostname\n"));
  EXPECT_FALSE(looks_like_sbatch_script("#!/bin/bash\necho hi\n"));
  EXPECT_FALSE(looks_like_sbatch_script("#!/bin/bash\n# srun is not used here\n"));
  EXPECT_FALSE(looks_like_sbatch_script("#!/bin/bash\nmysrun x\n"));
  EXPECT_FALSE(looks_like_sbatch_script("echo start\n#SBATCH -N 1\nsrun x\n"));
  EXPECT_FALSE(looks_like_sbatch_script(""));
  EXPECT_FALSE(looks_like_sbatch_script(std::string("#!/bin/bash\n#SBATCH -N 1\n\0", 26)));
}

TEST(Glob, NameOrPath) {
  EXPECT_TRUE(glob_matches("*.sh", "a/b/c.sh"));
  EXPECT_TRUE(glob_matches("a/*", "a/b/c.sh"));  // fnmatch without FNM_PATHNAME
  EXPECT_FALSE(glob_matches("b/*", "a/b/c.sh"));
  EXPECT_TRUE(glob_matches("legacy", "x/legacy"));
}

// Outputs are rw-r--r-- whatever the umask (the check is skipped when the
// umask already allows it, so both paths are run).
TEST(BatchCli, OutputsAreWorldReadable) {
  const fs::path dir = fs::temp_directory_path() / ("s2a-batch-mode-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  write(dir / "in/a.sh", script(0));
  for (const char* mask : {"077", "022"}) {
    const std::string out = std::string("out") + mask;
    const auto result = testing::run_process(
        "/bin/sh",
        {"-c", std::string("umask ") + mask + " && exec \"$0\" batch in --out-dir " + out,
         SLURM2AIR_BINARY},
        dir.string());
    EXPECT_EQ(result.exit_code, 0) << result.err << result.out;
    for (const char* name : {"a.sh.yaml", "a.sh.report.txt", "migration-report.md"}) {
      const auto perms = fs::status(dir / out / name).permissions();
      EXPECT_EQ(perms, fs::perms(0644)) << mask << " " << name;
    }
  }
  fs::remove_all(dir);
}

TEST(BatchCli, ExitCodesSummaryAndCheck) {
  const fs::path dir = fs::temp_directory_path() / ("s2a-batch-cli-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  write(dir / "in/a.sh", script(0));
  write(dir / "in/b.sh", script(1));
  auto result = testing::run_process(
      SLURM2AIR_BINARY,
      {"batch", "in", "--out-dir", "out", "--jobs", "2", "--report-format", "sarif"}, dir.string());
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_NE(result.out.find("2 sbatch scripts: 1 converted cleanly, 1 with findings, 0 failed"),
            std::string::npos)
      << result.out;
  EXPECT_TRUE(fs::exists(dir / "out/report.sarif"));
  EXPECT_EQ(result.err, "");  // not a terminal: no progress bar
  result = testing::run_process(SLURM2AIR_BINARY, {"batch", "in", "--out-dir", "out", "--check"},
                                dir.string());
  EXPECT_EQ(result.exit_code, 0) << result.out;  // nothing stale (findings do not count)
  EXPECT_EQ(result.out.find("---"), std::string::npos) << result.out;
  result =
      testing::run_process(SLURM2AIR_BINARY, {"check", "in/a.sh", "out/a.sh.yaml"}, dir.string());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::string yaml = slurp(dir / "out/a.sh.yaml");
  yaml[yaml.find("max_retries: 1") + 13] = '2';
  write(dir / "out/a.sh.yaml", yaml);
  result =
      testing::run_process(SLURM2AIR_BINARY, {"check", "in/a.sh", "out/a.sh.yaml"}, dir.string());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.out.find("-max_retries: 2\n+max_retries: 1\n"), std::string::npos) << result.out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace s2a::batch
