// The shared UTF-8 rules: Unicode's well-formed sequences, and the U+FFFD
// replacement the translation applies to a script that is not UTF-8.
#include "source/utf8.hpp"

#include <gtest/gtest.h>

namespace s2a {
namespace {

TEST(Utf8, SequenceLengths) {
  EXPECT_EQ(utf8_sequence_length("a", 0), 1U);
  EXPECT_EQ(utf8_sequence_length("\xC3\xA9", 0), 2U);          // é
  EXPECT_EQ(utf8_sequence_length("\xE2\x9C\x93", 0), 3U);      // check mark
  EXPECT_EQ(utf8_sequence_length("\xF0\x9F\x9A\x80", 0), 4U);  // rocket
  EXPECT_EQ(utf8_sequence_length("\xC0\xAF", 0), 0U);          // overlong '/'
  EXPECT_EQ(utf8_sequence_length("\xED\xA0\x80", 0), 0U);      // surrogate
  EXPECT_EQ(utf8_sequence_length("\xF4\x90\x80\x80", 0), 0U);  // above U+10FFFF
  EXPECT_EQ(utf8_sequence_length("\xE2\x9C", 0), 0U);          // truncated
  EXPECT_EQ(utf8_sequence_length("\x80", 0), 0U);              // lone continuation
}

TEST(Utf8, InvalidBytesBecomeReplacementCharacters) {
  EXPECT_EQ(with_valid_utf8("plain ascii"), "plain ascii");
  EXPECT_EQ(with_valid_utf8("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_EQ(with_valid_utf8("caf\xE9!"), "caf\xEF\xBF\xBD!");
  EXPECT_EQ(with_valid_utf8("\xFF\xFE"), "\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(with_valid_utf8("ok \xE2\x9C\x93 cut \xE2\x9C"),
            "ok \xE2\x9C\x93 cut \xEF\xBF\xBD\xEF\xBF\xBD");
}

}  // namespace
}  // namespace s2a
