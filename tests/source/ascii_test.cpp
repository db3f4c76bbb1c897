#include "source/ascii.hpp"

#include <gtest/gtest.h>

namespace s2a {
namespace {

TEST(AsciiContainsIgnoringCase, FindsTheWordInAnyMixOfCases) {
  EXPECT_TRUE(ascii_contains_ignoring_case("import horovod.torch as hvd", "horovod"));
  EXPECT_TRUE(ascii_contains_ignoring_case("module load HOROVOD/0.28", "horovod"));
  EXPECT_TRUE(ascii_contains_ignoring_case("x=HoRoVoD", "horovod"));
  EXPECT_TRUE(ascii_contains_ignoring_case("MASTER_NODE", "master"));
  EXPECT_TRUE(ascii_contains_ignoring_case("hvd", "hvd"));  // the whole text
  EXPECT_TRUE(ascii_contains_ignoring_case("anything", ""));
  EXPECT_TRUE(ascii_contains_ignoring_case("/opt/Python/2.7", "/python/2"));
}

TEST(AsciiContainsIgnoringCase, NeedsTheWholeWord) {
  EXPECT_FALSE(ascii_contains_ignoring_case("horovo", "horovod"));  // cut at the end
  EXPECT_FALSE(ascii_contains_ignoring_case("hhhorovo", "horovod"));
  EXPECT_FALSE(ascii_contains_ignoring_case("", "hvd"));
  EXPECT_FALSE(ascii_contains_ignoring_case("python train.py", "mpi"));
  // `lower_word` is lower case: an upper-case letter in it matches nothing.
  EXPECT_FALSE(ascii_contains_ignoring_case("MPI", "Mpi"));
}

TEST(ContainsAround, FindsTheWordFromItsRareByte) {
  EXPECT_TRUE(contains_around("echo $SLURM_JOB_ID", "SLURM", 2));
  EXPECT_TRUE(contains_around("SLURM", "SLURM", 2));
  EXPECT_TRUE(contains_around("UU SLURM", "SLURM", 2));
  EXPECT_TRUE(contains_around("x", "", 0));
  EXPECT_FALSE(contains_around("", "SLURM", 2));
  EXPECT_FALSE(contains_around("SLUR", "SLURM", 2));
  EXPECT_FALSE(contains_around("LURM SLUR URM", "SLURM", 2));
  EXPECT_FALSE(contains_around("slurm SLURm", "SLURM", 2));
  EXPECT_FALSE(contains_around("USLURUM", "SLURM", 2));
}

TEST(FindAround, FindsEachOccurrenceFromAPosition) {
  constexpr std::string_view text = "$TMPDIR/a ${TMPDIR} TMPDI";
  EXPECT_EQ(find_around(text, "TMPDIR", 2), 1u);
  EXPECT_EQ(find_around(text, "TMPDIR", 2, 1), 1u);
  EXPECT_EQ(find_around(text, "TMPDIR", 2, 2), 12u);
  EXPECT_EQ(find_around(text, "TMPDIR", 2, 13), std::string_view::npos);
  EXPECT_EQ(find_around(text, "TMPDIR", 0, 2), 12u);
  EXPECT_EQ(find_around(text, "TMPDIR", 5, 2), 12u);
  EXPECT_EQ(find_around(text, "TMPDIR", 2, 100), std::string_view::npos);
  EXPECT_EQ(find_around("ab", "", 0, 1), 1u);
  EXPECT_EQ(find_around("PD", "TMPDIR", 2), std::string_view::npos);
  EXPECT_EQ(find_around("a $HOME", "HOME", 9), 3u);  // past the end: from the last byte
}

}  // namespace
}  // namespace s2a
