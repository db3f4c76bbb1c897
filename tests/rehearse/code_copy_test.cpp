// Per-node copies of code_source: what is copied and what is left out.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "rehearse/code_copy.hpp"
#include "rehearse/workload_file.hpp"
#include "support/run_process.hpp"

namespace s2a::rehearse {
namespace {

namespace fs = std::filesystem;
using s2a::testing::write_file;

class RehearseCodeCopy : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("s2a-copy-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "repo/.git/objects");
    fs::create_directories(root_ / "repo/src/model");
    fs::create_directories(root_ / "repo/configs");
    write_file((root_ / "repo/.git/HEAD").string(), "ref: refs/heads/main\n");
    write_file((root_ / "repo/train.py").string(), "import model\n");
    write_file((root_ / "repo/src/model/net.py").string(), "NET = 1\n");
    write_file((root_ / "repo/configs/base.yaml").string(), "lr: 1\n");
    fs::create_symlink("src/model/net.py", root_ / "repo/net.py");
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path root_;
};

TEST_F(RehearseCodeCopy, CopiesTheTreeWithoutGitOrTheWorkdir) {
  fs::create_directories(root_ / "repo/rehearsal/node-0");
  const CopyStats stats = copy_code_tree((root_ / "repo").string(), (root_ / "out").string(), {},
                                         (root_ / "repo/rehearsal").string());
  EXPECT_TRUE(fs::exists(root_ / "out/src/model/net.py"));
  EXPECT_TRUE(fs::exists(root_ / "out/configs/base.yaml"));
  EXPECT_FALSE(fs::exists(root_ / "out/.git"));
  EXPECT_FALSE(fs::exists(root_ / "out/rehearsal"));
  ASSERT_TRUE(fs::is_symlink(root_ / "out/net.py"));
  EXPECT_EQ(fs::read_symlink(root_ / "out/net.py"), "src/model/net.py");
  EXPECT_EQ(stats.bytes, 13U + 8U + 6U);
}

TEST_F(RehearseCodeCopy, IncludePathsSelect) {
  (void)copy_code_tree((root_ / "repo").string(), (root_ / "out").string(),
                       {"src", "configs/base.yaml"}, "");
  EXPECT_TRUE(fs::exists(root_ / "out/src/model/net.py"));
  EXPECT_TRUE(fs::exists(root_ / "out/configs/base.yaml"));
  EXPECT_FALSE(fs::exists(root_ / "out/train.py"));
}

TEST_F(RehearseCodeCopy, MissingIncludePathIsAnError) {
  try {
    (void)copy_code_tree((root_ / "repo").string(), (root_ / "out").string(), {"data"}, "");
    FAIL();
  } catch (const RehearseError& error) {
    EXPECT_EQ(
        std::string(error.what()),
        "code_source.include_paths entry 'data' does not exist under " + (root_ / "repo").string());
  }
}

}  // namespace
}  // namespace s2a::rehearse
