// apply_edits_double_quoted(): a rewritten `bash -c "SCRIPT"` must hand the
// inner shell exactly the edited script, and leave the outer shell's own
// expansions to the outer shell.
#include <gtest/gtest.h>

#include "edit/edits.hpp"
#include "support/run_process.hpp"

namespace s2a {
namespace {

Span whole(std::string_view text) { return Span{0, static_cast<uint32_t>(text.size())}; }

/// The span of the last `part` in `text`.
Span last(std::string_view text, std::string_view part) {
  const auto begin = static_cast<uint32_t>(text.rfind(part));
  return Span{begin, static_cast<uint32_t>(begin + part.size())};
}

// take_notes() hands each kept edit to its note, in the order the edits were
// added, so a note can take the replacement instead of holding a copy.
TEST(EditSet, NotesTakeTheirEditsReplacementsInOrder) {
  struct Note {
    std::string reason;
    std::string replacement;
  };
  EditSet<Note> set;
  EXPECT_TRUE(set.add({10, 12}, "b", {"second", {}}));
  EXPECT_TRUE(set.add({0, 4}, "a", {"first", {}}));
  EXPECT_FALSE(set.add({1, 2}, "inside", {"covered", {}}));
  EXPECT_TRUE(set.add({4, 4}, "+", {"insertion", {}}));
  EXPECT_EQ(set.edits().size(), 3u);
  const std::vector<Note> notes = std::move(set).take_notes(
      [](Note& note, Edit&& edit) { note.replacement = std::move(edit.replacement); });
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(notes[0].reason, "second");
  EXPECT_EQ(notes[0].replacement, "b");
  EXPECT_EQ(notes[1].reason, "first");
  EXPECT_EQ(notes[1].replacement, "a");
  EXPECT_EQ(notes[2].reason, "insertion");
  EXPECT_EQ(notes[2].replacement, "+");
}

TEST(DoubleQuotedEdits, EscapeWhatTheOuterShellWouldReadAndKeepItsExpansions) {
  // The script as the inner shell saw it: `$1` was the outer shell's.
  const std::string script = "echo \"$HOME\" `id -u` \\x $1";
  const std::vector<Span> outer{last(script, "$1")};
  EXPECT_EQ(apply_edits_double_quoted(script, whole(script), {}, outer),
            "echo \\\"\\$HOME\\\" \\`id -u\\` \\\\x $1");
}

TEST(DoubleQuotedEdits, ReplacementsAreEscapedAndContinuationsKept) {
  const std::string script = "conda activate x; torchrun \\\n  t.py";
  const std::vector<Edit> edits{{{0, 16}, ": '[removed] conda activate x'"},
                                {{27, 27}, "--nnodes=\"$NUM_NODES\" "}};
  EXPECT_EQ(apply_edits_double_quoted(script, whole(script), edits, {}),
            ": '[removed] conda activate x'; torchrun --nnodes=\\\"\\$NUM_NODES\\\" \\\n  t.py");
}

TEST(DoubleQuotedEdits, TheInnerShellRunsTheEditedScript) {
  // Round trip through real shells: the outer shell fills in $1 and hands
  // the rest over; the inner shell expands $WHO and runs the edit's text.
  const std::string script = "WHO=inner; echo \"[$WHO]\" '$1' $1; echo done";
  const std::vector<Span> outer{last(script, "$1")};
  const std::vector<Edit> edits{{last(script, "echo done"), "echo \"$WHO\" \\$ok"}};
  const std::string quoted = apply_edits_double_quoted(script, whole(script), edits, outer);
  const testing::ProcessResult bash =
      testing::run_process("bash", {"-c", "bash -c \"" + quoted + "\"", "outer", "ARG"});
  EXPECT_EQ(bash.exit_code, 0) << bash.err;
  EXPECT_EQ(bash.out, "[inner] $1 ARG\ninner $ok\n") << quoted;  // only the last $1 was the outer shell's
}

}  // namespace
}  // namespace s2a
