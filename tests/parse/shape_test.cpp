// AST shape tests for the shell parser: kinds, texts and exact spans.
//
// Every span is checked against the source text it must cover, because the
// mapping stage rewrites the user's command by span-based edits.
#include <gtest/gtest.h>

#include "parse/parse_script.hpp"
#include "parse_test_util.hpp"

namespace s2a {
namespace {

using ast::CommandKind;
using ast::PartKind;
using testing_parse::Parsed;

TEST(ShellShape, SimpleCommandWordsAndParts) {
  Parsed p("srun --node_rank=$SLURM_NODEID 'a b' \"x${Y}z\"\n");
  ASSERT_TRUE(p.result.complete) << p.dump();
  const ast::Command& c = p.command(0);
  ASSERT_EQ(c.kind, CommandKind::simple);
  ASSERT_EQ(c.words.size(), 4u);
  EXPECT_EQ(p.slice(c.span), "srun --node_rank=$SLURM_NODEID 'a b' \"x${Y}z\"");
  const ast::Word& rank = c.words[1];
  EXPECT_EQ(p.slice(rank.span), "--node_rank=$SLURM_NODEID");
  ASSERT_EQ(rank.parts.size(), 2u);
  EXPECT_EQ(rank.parts[0].text, "--node_rank=");
  EXPECT_EQ(rank.parts[1].kind, PartKind::param);
  EXPECT_EQ(rank.parts[1].text, "SLURM_NODEID");
  EXPECT_EQ(p.slice(rank.parts[1].span), "$SLURM_NODEID");
  EXPECT_EQ(p.slice(rank.parts[1].inner), "SLURM_NODEID");
  const ast::WordPart& sq = c.words[2].parts.at(0);
  EXPECT_EQ(sq.kind, PartKind::single_quoted);
  EXPECT_EQ(sq.text, "a b");
  EXPECT_EQ(p.slice(sq.span), "'a b'");
  EXPECT_EQ(p.slice(sq.inner), "a b");
  const ast::WordPart& dq = c.words[3].parts.at(0);
  EXPECT_EQ(dq.kind, PartKind::double_quoted);
  EXPECT_EQ(p.slice(dq.inner), "x${Y}z");
  ASSERT_EQ(dq.parts.size(), 3u);
  EXPECT_EQ(p.slice(dq.parts[1].span), "${Y}");
  EXPECT_EQ(p.slice(dq.parts[1].inner), "Y");
}

TEST(ShellShape, EscapesAndContinuations) {
  Parsed p("echo a\\ b \\$X ec\\\nho \"q\\\"\\$\\a\"\n");
  ASSERT_TRUE(p.result.complete) << p.dump();
  const ast::Command& c = p.command(0);
  ASSERT_EQ(c.words.size(), 5u);
  EXPECT_EQ(c.words[1].parts.at(0).text, "a b");
  EXPECT_EQ(p.slice(c.words[1].parts[0].span), "a\\ b");
  EXPECT_EQ(c.words[2].parts.at(0).text, "$X");
  EXPECT_EQ(c.words[3].parts.at(0).text, "echo");
  EXPECT_EQ(p.slice(c.words[3].span), "ec\\\nho");
  EXPECT_EQ(c.words[3].parts.size(), 1u);
}

// A continuation right after a word (`--x=1\` then a newline and an
// indented next word) joins lines, not text: the word ends before it, so
// an edit replacing the word keeps the line break. Inside a word it stays.
TEST(ShellShape, TrailingContinuationIsNotPartOfTheWord) {
  Parsed p("python t.py --a=\"1\"\\\n  --b=2\\\n\\\n  c\\\nd\nx\\\\\n");
  ASSERT_TRUE(p.result.complete) << p.dump();
  const ast::Command& c = p.command(0);
  ASSERT_EQ(c.words.size(), 5u) << p.dump();
  EXPECT_EQ(p.slice(c.words[2].span), "--a=\"1\"");
  ASSERT_EQ(c.words[2].parts.size(), 2u);  // the empty literal of the continuation is gone
  EXPECT_EQ(p.slice(c.words[3].span), "--b=2");
  EXPECT_EQ(p.slice(c.words[3].parts.at(0).span), "--b=2");
  EXPECT_EQ(c.words[3].parts[0].text, "--b=2");
  EXPECT_EQ(p.slice(c.words[4].span), "c\\\nd");
  EXPECT_EQ(c.words[4].parts.at(0).text, "cd");
  const ast::Command& escaped = p.command(1);  // `x\\`: an escaped backslash, then the newline
  ASSERT_EQ(escaped.words.size(), 1u) << p.dump();
  EXPECT_EQ(p.slice(escaped.words[0].span), "x\\\\");
}

TEST(ShellShape, DoubleQuotedEscapes) {
  Parsed p("echo \"q\\\"\\$\\a\"\n");
  const ast::WordPart& dq = p.command(0).words.at(1).parts.at(0);
  ASSERT_EQ(dq.parts.size(), 1u) << p.dump();
  EXPECT_EQ(dq.parts[0].text, "q\"$\\a");
}

TEST(ShellShape, AnsiCQuote) {
  Parsed p("echo $'a\\tb\\x41\\101\\q'\n");
  const ast::WordPart& part = p.command(0).words.at(1).parts.at(0);
  EXPECT_EQ(part.kind, PartKind::ansi_c_quoted);
  EXPECT_EQ(part.text, "a\tbAA\\q");
  EXPECT_EQ(p.slice(part.span), "$'a\\tb\\x41\\101\\q'");
}

struct ParamCase {
  const char* word;
  const char* name;
  const char* op;
};

class ShellParam : public testing::TestWithParam<ParamCase> {};

TEST_P(ShellParam, NameAndOperator) {
  const ParamCase& param = GetParam();
  Parsed p(std::string("echo ") + param.word + "\n");
  ASSERT_TRUE(p.result.complete) << p.dump();
  const ast::Word& word = p.command(0).words.at(1);
  ASSERT_EQ(word.parts.size(), 1u) << p.dump();
  const ast::WordPart& part = word.parts[0];
  EXPECT_EQ(part.kind, PartKind::param);
  EXPECT_EQ(part.text, param.name);
  EXPECT_EQ(part.op, param.op);
  EXPECT_EQ(p.slice(part.span), param.word);
}

INSTANTIATE_TEST_SUITE_P(
    Spellings, ShellParam,
    testing::Values(ParamCase{"$X", "X", ""}, ParamCase{"${X}", "X", ""},
                    ParamCase{"${X:-def}", "X", ":-def"}, ParamCase{"${#X}", "X", "#"},
                    ParamCase{"${X%%.*}", "X", "%%.*"}, ParamCase{"${arr[0]}", "arr", "[0]"},
                    ParamCase{"${!x}", "x", "!"}, ParamCase{"$1", "1", ""},
                    ParamCase{"${10}", "10", ""}, ParamCase{"$@", "@", ""},
                    ParamCase{"$*", "*", ""}, ParamCase{"$#", "#", ""}, ParamCase{"$?", "?", ""},
                    ParamCase{"$$", "$", ""}, ParamCase{"$!", "!", ""}, ParamCase{"${#}", "#", ""},
                    ParamCase{"${#arr[@]}", "arr", "#[@]"},
                    ParamCase{"${SLURM_GPUS_ON_NODE:-8}", "SLURM_GPUS_ON_NODE", ":-8"}));

TEST(ShellShape, ParamDefaultWordIsParsed) {
  Parsed p("echo ${GPUS:-$(nvidia-smi -L)}\n");
  const ast::WordPart& part = p.command(0).words.at(1).parts.at(0);
  ASSERT_EQ(part.parts.size(), 1u) << p.dump();
  EXPECT_EQ(part.parts[0].kind, PartKind::command_subst);
  EXPECT_EQ(p.slice(part.parts[0].span), "$(nvidia-smi -L)");
}

TEST(ShellShape, CommandSubstitutionIsParsedWithFileSpans) {
  Parsed p("export MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n");
  ASSERT_TRUE(p.result.complete) << p.dump();
  const ast::Command& c = p.command(0);
  ASSERT_EQ(c.words.size(), 2u);
  const ast::WordPart& subst = c.words[1].parts.at(1);
  ASSERT_EQ(subst.kind, PartKind::command_subst);
  EXPECT_EQ(p.slice(subst.span), "$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)");
  EXPECT_EQ(p.slice(subst.inner), "scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1");
  ASSERT_TRUE(subst.script);
  EXPECT_EQ(subst.script->span, subst.inner);
  const ast::Command& pipeline = subst.script->body.items.at(0).command;
  ASSERT_EQ(pipeline.kind, CommandKind::pipeline);
  ASSERT_EQ(pipeline.children.size(), 2u);
  EXPECT_EQ(pipeline.ops, std::vector<std::string>{"|"});
  EXPECT_EQ(p.slice(pipeline.children[1].span), "head -n 1");
  const ast::WordPart& var = pipeline.children[0].words.at(3).parts.at(0).parts.at(0);
  EXPECT_EQ(p.slice(var.span), "$SLURM_JOB_NODELIST");
}

TEST(ShellShape, BacktickAndArithAndProcessSubst) {
  Parsed p("echo `hostname -s` $((SLURM_NNODES * 8)) <(sort a)\n");
  ASSERT_TRUE(p.result.complete) << p.dump();
  const ast::Command& c = p.command(0);
  const ast::WordPart& bt = c.words.at(1).parts.at(0);
  EXPECT_EQ(bt.kind, PartKind::backtick);
  EXPECT_EQ(p.slice(bt.inner), "hostname -s");
  EXPECT_EQ(p.slice(bt.script->body.items.at(0).command.words.at(1).span), "-s");
  const ast::WordPart& arith = c.words.at(2).parts.at(0);
  EXPECT_EQ(arith.kind, PartKind::arith);
  EXPECT_EQ(arith.text, "SLURM_NNODES * 8");
  EXPECT_EQ(p.slice(arith.span), "$((SLURM_NNODES * 8))");
  const ast::WordPart& ps = c.words.at(3).parts.at(0);
  EXPECT_EQ(ps.kind, PartKind::process_subst);
  EXPECT_EQ(p.slice(ps.span), "<(sort a)");
  EXPECT_EQ(p.slice(ps.inner), "sort a");
}

TEST(ShellShape, Assignments) {
  Parsed p("X=1 Y+=\"a b\" Z= nodes=(a \"b c\") a[1]=v env\n");
  ASSERT_TRUE(p.result.complete) << p.dump();
  const ast::Command& c = p.command(0);
  ASSERT_EQ(c.assignments.size(), 5u) << p.dump();
  EXPECT_EQ(c.assignments[0].name, "X");
  EXPECT_EQ(p.slice(c.assignments[0].span), "X=1");
  EXPECT_EQ(p.slice(c.assignments[0].value.span), "1");
  EXPECT_TRUE(c.assignments[1].append);
  EXPECT_EQ(c.assignments[1].name, "Y");
  EXPECT_EQ(p.slice(c.assignments[1].value.span), "\"a b\"");
  EXPECT_TRUE(c.assignments[2].value.parts.empty());
  EXPECT_TRUE(c.assignments[3].is_array);
  ASSERT_EQ(c.assignments[3].elements.size(), 2u);
  EXPECT_EQ(p.slice(c.assignments[3].elements[1].span), "\"b c\"");
  EXPECT_EQ(p.slice(c.assignments[3].span), "nodes=(a \"b c\")");
  EXPECT_EQ(c.assignments[4].name, "a[1]");
  ASSERT_EQ(c.words.size(), 1u);
}

TEST(ShellShape, DeclarationAssignments) {
  Parsed p("export A=1 B=\"$(hostname)\" PATH -n C+=x\n");
  const ast::Command& c = p.command(0);
  ASSERT_EQ(c.words.size(), 6u);
  EXPECT_TRUE(c.assignments.empty());
  EXPECT_TRUE(is_declaration_command(c));
  std::vector<ast::Assignment> found = declaration_assignments(c);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].name, "A");
  EXPECT_EQ(p.slice(found[0].value.span), "1");
  ASSERT_EQ(found[0].value.parts.size(), 1u);
  EXPECT_EQ(found[0].value.parts[0].text, "1");
  EXPECT_EQ(p.slice(found[0].value.parts[0].span), "1");
  EXPECT_EQ(found[1].name, "B");
  EXPECT_EQ(p.slice(found[1].value.span), "\"$(hostname)\"");
  ASSERT_EQ(found[1].value.parts.size(), 1u);
  EXPECT_EQ(found[1].value.parts[0].kind, PartKind::double_quoted);
  EXPECT_EQ(found[2].name, "C");
  EXPECT_TRUE(found[2].append);
  EXPECT_TRUE(declaration_assignments(Parsed("echo A=1\n").command(0)).empty());
}

TEST(ShellShape, DeclareArrayArgument) {
  Parsed p("declare -a X=(a b)\n");
  ASSERT_TRUE(p.result.complete) << p.dump();
  std::vector<ast::Assignment> found = declaration_assignments(p.command(0));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(found[0].is_array);
  ASSERT_EQ(found[0].elements.size(), 2u);
  EXPECT_EQ(p.slice(found[0].elements[1].span), "b");
  EXPECT_EQ(p.slice(found[0].span), "X=(a b)");
}

TEST(ShellShape, Redirects) {
  Parsed p("cmd >out 2>&1 <in 2>>err &>all <<<\"$X\" 3<&- >|f\n");
  ASSERT_TRUE(p.result.complete) << p.dump();
  const ast::Command& c = p.command(0);
  ASSERT_EQ(c.redirects.size(), 8u) << p.dump();
  struct Expected {
    const char* fd;
    const char* op;
    const char* target;
    const char* span;
  };
  const Expected expected[] = {{"", ">", "out", ">out"},   {"2", ">&", "1", "2>&1"},
                               {"", "<", "in", "<in"},     {"2", ">>", "err", "2>>err"},
                               {"", "&>", "all", "&>all"}, {"", "<<<", "\"$X\"", "<<<\"$X\""},
                               {"3", "<&", "-", "3<&-"}};
  for (size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(c.redirects[i].fd, expected[i].fd) << i;
    EXPECT_EQ(c.redirects[i].op, expected[i].op) << i;
    EXPECT_EQ(p.slice(c.redirects[i].target.span), expected[i].target) << i;
    EXPECT_EQ(p.slice(c.redirects[i].span), expected[i].span) << i;
  }
  EXPECT_EQ(c.redirects[7].op, ">|");
  EXPECT_EQ(c.words.size(), 1u);
}

TEST(ShellShape, HeredocBodiesAndParts) {
  Parsed p(
      "cat <<EOF > hostfile; cat <<'RAW' | tr a b\n$HOST slots=$((8))\nEOF\n$not\nRAW\n"
      "if true; then\n\tcat <<-END\n\t\tindented $X\n\tEND\nfi\necho after\n");
  ASSERT_TRUE(p.result.complete) << p.dump();
  ASSERT_EQ(p.body().items.size(), 4u) << p.dump();
  const ast::Redirect& first = p.command(0).redirects.at(0);
  EXPECT_EQ(first.op, "<<");
  EXPECT_FALSE(first.heredoc_quoted);
  EXPECT_EQ(p.slice(first.span), "<<EOF");
  EXPECT_EQ(p.slice(first.heredoc_body), "$HOST slots=$((8))\n");
  ASSERT_EQ(first.heredoc_parts.size(), 4u);
  EXPECT_EQ(p.slice(first.heredoc_parts[0].span), "$HOST");
  EXPECT_EQ(first.heredoc_parts[2].kind, PartKind::arith);
  const ast::Command& pipe = p.command(1);
  ASSERT_EQ(pipe.kind, CommandKind::pipeline);
  const ast::Redirect& raw = pipe.children.at(0).redirects.at(0);
  EXPECT_TRUE(raw.heredoc_quoted);
  EXPECT_EQ(p.slice(raw.heredoc_body), "$not\n");
  EXPECT_TRUE(raw.heredoc_parts.empty());
  const ast::Redirect& dash = p.command(2).blocks.at(1).items.at(0).command.redirects.at(0);
  EXPECT_EQ(dash.op, "<<-");
  EXPECT_EQ(p.slice(dash.heredoc_body), "\t\tindented $X\n");
  EXPECT_EQ(p.slice(p.command(3).span), "echo after");
}

TEST(ShellShape, HeredocInsideCommandSubstitution) {
  Parsed p("X=$(cat <<EOF\nbody\nEOF\n)\necho $X\n");
  ASSERT_TRUE(p.result.complete) << p.dump();
  const ast::WordPart& subst = p.command(0).assignments.at(0).value.parts.at(0);
  const ast::Redirect& redirect = subst.script->body.items.at(0).command.redirects.at(0);
  EXPECT_EQ(p.slice(redirect.heredoc_body), "body\n");
  EXPECT_EQ(p.body().items.size(), 2u);
}

TEST(ShellShape, ListsAndAndOr) {
  Parsed p("a && b || c; d & e\nf |& g\n! h | i\n");
  ASSERT_TRUE(p.result.complete) << p.dump();
  ASSERT_EQ(p.body().items.size(), 5u);
  const ast::Command& chain = p.command(0);
  ASSERT_EQ(chain.kind, CommandKind::and_or);
  EXPECT_EQ(chain.ops, (std::vector<std::string>{"&&", "||"}));
  EXPECT_EQ(p.slice(chain.span), "a && b || c");
  EXPECT_EQ(p.slice(p.body().items[0].span), "a && b || c;");
  EXPECT_TRUE(p.body().items[1].background);
  EXPECT_FALSE(p.body().items[2].background);
  EXPECT_EQ(p.command(3).ops, std::vector<std::string>{"|&"});
  EXPECT_TRUE(p.command(4).negated);
  EXPECT_EQ(p.slice(p.command(4).span), "! h | i");
}

TEST(ShellShape, CommentsOnlyAtWordStart) {
  Parsed p("echo a#b # trailing comment\n# full line\necho c\n");
  ASSERT_EQ(p.body().items.size(), 2u);
  EXPECT_EQ(p.command(0).words.size(), 2u);
  EXPECT_EQ(p.command(0).words[1].parts.at(0).text, "a#b");
}

TEST(ShellShape, CompoundCommands) {
  Parsed p(
      "if a; then b; elif c; then d; else e; fi\n"
      "for f in x \"y z\"; do echo $f; done\n"
      "for ((i=0;i<3;i++)); do :; done\n"
      "while a; do b; done\n"
      "until a; do b; done\n"
      "case $T in 0|1) x ;; (2) y ;& *) z ;;& esac\n"
      "select s in a b; do break; done\n"
      "f() { a; }\n"
      "function g { b; }\n"
      "(cd x; y)\n"
      "{ a; b; } >log\n"
      "(( i += 1 ))\n"
      "[[ -n $X && $Y == a* ]]\n"
      "time srun x\n");
  ASSERT_TRUE(p.result.complete) << p.dump();
  ASSERT_EQ(p.body().items.size(), 14u) << p.dump();
  const ast::Command& if_clause = p.command(0);
  EXPECT_EQ(if_clause.kind, CommandKind::if_clause);
  EXPECT_EQ(if_clause.blocks.size(), 5u);
  EXPECT_EQ(p.slice(if_clause.span), "if a; then b; elif c; then d; else e; fi");
  const ast::Command& for_clause = p.command(1);
  EXPECT_EQ(for_clause.kind, CommandKind::for_clause);
  EXPECT_EQ(for_clause.name, "f");
  EXPECT_EQ(for_clause.words.size(), 2u);
  EXPECT_EQ(p.command(2).kind, CommandKind::arith_for);
  EXPECT_EQ(p.command(2).text, "i=0;i<3;i++");
  EXPECT_EQ(p.command(3).kind, CommandKind::while_clause);
  EXPECT_EQ(p.command(4).kind, CommandKind::until_clause);
  const ast::Command& case_clause = p.command(5);
  EXPECT_EQ(case_clause.kind, CommandKind::case_clause);
  EXPECT_EQ(p.slice(case_clause.words.at(0).span), "$T");
  ASSERT_EQ(case_clause.case_items.size(), 3u);
  EXPECT_EQ(case_clause.case_items[0].patterns.size(), 2u);
  EXPECT_EQ(case_clause.case_items[0].terminator, ";;");
  EXPECT_EQ(case_clause.case_items[1].terminator, ";&");
  EXPECT_EQ(case_clause.case_items[2].terminator, ";;&");
  EXPECT_EQ(p.slice(case_clause.case_items[1].span), "(2) y ;&");
  EXPECT_EQ(p.command(6).kind, CommandKind::select_clause);
  EXPECT_EQ(p.command(7).kind, CommandKind::function_def);
  EXPECT_EQ(p.command(7).name, "f");
  EXPECT_EQ(p.command(7).blocks.at(0).items.at(0).command.kind, CommandKind::brace_group);
  EXPECT_EQ(p.command(8).name, "g");
  EXPECT_EQ(p.command(9).kind, CommandKind::subshell);
  EXPECT_EQ(p.command(10).kind, CommandKind::brace_group);
  EXPECT_EQ(p.command(10).redirects.size(), 1u);
  EXPECT_EQ(p.slice(p.command(10).span), "{ a; b; } >log");
  EXPECT_EQ(p.command(11).kind, CommandKind::arith_command);
  EXPECT_EQ(p.command(11).text, " i += 1 ");
  EXPECT_EQ(p.command(12).kind, CommandKind::cond_command);
  EXPECT_EQ(p.command(12).words.size(), 6u);
  EXPECT_TRUE(p.command(13).timed);
  EXPECT_EQ(p.slice(p.command(13).span), "time srun x");
}

TEST(ShellShape, ReservedWordsOnlyInCommandPosition) {
  Parsed p("echo if then fi\n");
  ASSERT_TRUE(p.result.complete);
  EXPECT_EQ(p.command(0).kind, CommandKind::simple);
  EXPECT_EQ(p.command(0).words.size(), 4u);
}

TEST(ShellShape, BaseOffsetShiftsEverySpan) {
  // The content of `srun bash -c '...'` re-parsed at its offset in the file.
  std::string file = "srun bash -c 'torchrun --node_rank=$SLURM_NODEID train.py'\n";
  size_t open = file.find('\'') + 1;
  size_t close = file.rfind('\'');
  ParseResult nested =
      parse_script(std::string_view(file).substr(open, close - open), static_cast<uint32_t>(open));
  ASSERT_TRUE(nested.complete);
  const ast::Command& c = nested.script.body.items.at(0).command;
  const ast::WordPart& var = c.words.at(1).parts.at(1);
  EXPECT_EQ(file.substr(var.span.begin, var.span.size()), "$SLURM_NODEID");
  EXPECT_EQ(nested.script.span.begin, open);
  EXPECT_EQ(nested.script.span.end, close);
}

TEST(ShellShape, DumpAstIsReadable) {
  Parsed p("echo $X\n");
  EXPECT_EQ(p.dump(),
            "Script [0,8)\n"
            "  Item [0,7)\n"
            "    Simple [0,7)\n"
            "      Word [0,4)\n"
            "        literal \"echo\" [0,4)\n"
            "      Word [5,7)\n"
            "        param \"X\" [5,7)\n");
}

}  // namespace
}  // namespace s2a
