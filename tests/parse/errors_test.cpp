// Error tests for the shell parser: code, message, line:col of each syntax
// error, recovery after it, and robustness on hostile input.
#include <gtest/gtest.h>

#include <string>

#include "parse/parse_script.hpp"
#include "parse_test_util.hpp"

namespace s2a {
namespace {

using testing_parse::Parsed;

struct ErrorCase {
  const char* name;
  const char* text;
  Code code;
  const char* message;
  uint32_t line;
  uint32_t col;
  const char* covered;  // the text the diagnostic's span covers
};

// clang-format off
const ErrorCase kErrors[] = {
  {"single_quote", "echo ok\necho 'abc\nmore\n", Code::unterminated_quote,
   "unterminated single quote starting here", 2, 6, "'"},
  {"double_quote", "X=\"abc\n", Code::unterminated_quote,
   "unterminated double quote starting here", 1, 3, "\""},
  {"backquote", "echo `date\n", Code::unterminated_quote,
   "unterminated backquote starting here", 1, 6, "`"},
  {"ansi_c", "echo $'x\n", Code::unterminated_quote,
   "unterminated $'...' quote starting here", 1, 6, "$'"},
  {"command_subst", "A=$(hostname\n", Code::unterminated_substitution,
   "unterminated command substitution \"$(\" starting here", 1, 3, "$("},
  {"process_subst", "cat <(ls\n", Code::unterminated_substitution,
   "unterminated process substitution \"<(\" starting here", 1, 5, "<("},
  {"braced_param", "echo ${X:-a\n", Code::unterminated_substitution,
   "unterminated parameter expansion \"${\" starting here", 1, 6, "${"},
  {"stray_fi", "echo a\nfi\n", Code::shell_syntax_error,
   "syntax error near unexpected token \"fi\"", 2, 1, "fi"},
  {"stray_done", "echo; done\n", Code::shell_syntax_error,
   "syntax error near unexpected token \"done\"", 1, 7, "done"},
  {"empty_then", "if true; then fi\n", Code::shell_syntax_error,
   "syntax error near unexpected token \"fi\": bash needs a command after \"then\"", 1, 15, "fi"},
  {"unclosed_if", "if true; then\n  echo\n", Code::shell_syntax_error,
   "syntax error: \"if\" without matching \"fi\"", 1, 1, "if"},
  {"unclosed_brace", "{ echo }\n", Code::shell_syntax_error,
   "syntax error: \"{\" without matching \"}\"", 1, 1, "{"},
  {"unclosed_while", "while true; do\n  sleep 1\n", Code::shell_syntax_error,
   "syntax error: \"while\" without matching \"done\"", 1, 1, "while"},
  {"unclosed_case", "case $X in\n  a) echo ;;\n", Code::shell_syntax_error,
   "syntax error: \"case\" without matching \"esac\"", 1, 1, "case"},
  {"unbalanced_paren", "echo a)\n", Code::shell_syntax_error,
   "syntax error near unexpected token \")\"", 1, 7, ")"},
  {"missing_target", "echo >\n", Code::shell_syntax_error,
   "syntax error near unexpected token \"newline\"", 1, 7, "\n"},
  {"dangling_and", "make &&\n", Code::shell_syntax_error,
   "syntax error: unexpected end of file", 2, 1, ""},
  {"double_semicolon", "a ;; b\n", Code::shell_syntax_error,
   "syntax error near unexpected token \";;\"", 1, 3, ";;"},
};
// clang-format on

void PrintTo(const ErrorCase& error, std::ostream* out) { *out << error.name; }

class ShellErrors : public testing::TestWithParam<ErrorCase> {};

TEST_P(ShellErrors, CodeMessageAndPosition) {
  const ErrorCase& error = GetParam();
  Parsed p(error.text);
  EXPECT_FALSE(p.result.complete);
  ASSERT_FALSE(p.result.diagnostics.empty()) << p.dump();
  const Diagnostic& d = p.result.diagnostics.front();
  EXPECT_EQ(code_id(d.code), code_id(error.code));
  EXPECT_EQ(d.message, error.message);
  SourceFile file("job.sh", error.text);
  LineCol at = file.line_col(d.span.begin);
  EXPECT_EQ(at.line, error.line);
  EXPECT_EQ(at.col, error.col);
  EXPECT_EQ(p.slice(d.span), error.covered);
}

INSTANTIATE_TEST_SUITE_P(Cases, ShellErrors, testing::ValuesIn(kErrors),
                         [](const testing::TestParamInfo<ErrorCase>& param_info) {
                           return std::string(param_info.param.name);
                         });

TEST(ShellErrorsMore, UnterminatedHeredocIsAWarningWithTheRedirectSpan) {
  Parsed p("cat > ds.json <<EOF\n{}\n");
  ASSERT_EQ(p.result.diagnostics.size(), 1u);
  const Diagnostic& d = p.result.diagnostics[0];
  EXPECT_EQ(d.code, Code::unterminated_heredoc);
  EXPECT_EQ(d.severity(), Severity::warning);
  EXPECT_EQ(d.message, "here-document delimited by \"EOF\" is never closed");
  EXPECT_EQ(p.slice(d.span), "<<EOF");
  EXPECT_TRUE(p.result.complete);
  EXPECT_EQ(p.slice(p.command(0).redirects.at(1).heredoc_body), "{}\n");
}

TEST(ShellErrorsMore, RecoversAtTheNextLine) {
  Parsed p("echo a\necho b)\nsrun python train.py\nfi\necho c\n");
  EXPECT_FALSE(p.result.complete);
  ASSERT_EQ(p.result.diagnostics.size(), 1u) << "the stray fi after an error is not reported";
  ASSERT_EQ(p.body().items.size(), 3u) << p.dump();
  EXPECT_EQ(p.slice(p.command(1).span), "srun python train.py");
  EXPECT_EQ(p.slice(p.command(2).span), "echo c");
}

TEST(ShellErrorsMore, SecondIndependentErrorIsReported) {
  Parsed p("echo a)\necho ok\necho b)\n");
  EXPECT_EQ(p.result.diagnostics.size(), 2u);
  EXPECT_EQ(p.body().items.size(), 1u);
}

TEST(ShellErrorsMore, NeverThrowsOnBinaryInput) {
  std::string binary;
  for (int i = 0; i < 4096; ++i) binary += static_cast<char>((i * 7919) % 256);
  ParseResult result = parse_script(binary);
  (void)result;
  std::string nul("echo a\0b\n\xff\xfe 'x\0y'\n", 17);
  ParseResult with_nul = parse_script(nul);
  EXPECT_TRUE(with_nul.complete);
  EXPECT_EQ(with_nul.script.body.items.size(), 2u);
}

TEST(ShellErrorsMore, EveryPrefixOfARealScriptParsesWithoutCrashing) {
  const std::string script =
      "#!/bin/bash\nset -e\nexport A=$(scontrol show hostnames \"$N\" | head -n 1)\n"
      "cat <<EOF > f\n$A ${B:-c} `d`\nEOF\nfor i in 1 2; do\n  case $i in 1) x ;; *) y ;; esac &\n"
      "done\nwait\nf() { [[ -n $1 ]] && (( $2 > 0 )) || echo \"$'q' $((1+2))\"; }\n";
  for (size_t n = 0; n <= script.size(); ++n) {
    ParseResult result = parse_script(std::string_view(script).substr(0, n));
    for (const Diagnostic& d : result.diagnostics) {
      EXPECT_LE(d.span.begin, d.span.end);
      EXPECT_LE(d.span.end, n);
    }
  }
}

}  // namespace
}  // namespace s2a
