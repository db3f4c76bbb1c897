// Differential test: the parser accepts exactly what `bash -n` accepts.
//
// Each snippet says what bash does with it; the test checks that claim against
// /bin/bash when it exists (skipped otherwise) and checks the parser against
// it always. Covers every construct the parser knows plus realistic sbatch
// bodies.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "parse/dump_ast.hpp"
#include "parse/parse_script.hpp"

namespace s2a {
namespace {

struct Snippet {
  const char* name;
  bool valid;  // what bash -n says
  const char* text;
};

// clang-format off
const Snippet kSnippets[] = {
  // words and quoting
  {"plain words", true, "echo hello world\n"},
  {"single quotes", true, "echo 'a b' 'c\"d'\n"},
  {"double quotes with expansions", true, "echo \"$HOME ${USER:-x} $(id -u) `id -g` $((1+2))\"\n"},
  {"nested quotes in substitution", true, "echo \"$(echo \"inner $(echo deep)\")\"\n"},
  {"ansi c quote", true, "echo $'a\\tb\\'c'\n"},
  {"locale quote", true, "echo $\"hello\"\n"},
  {"backslash escapes", true, "echo \\$HOME \\\" \\' a\\ b\n"},
  {"hash inside word", true, "echo a#b c#\n"},
  {"comment after word", true, "echo a # comment ; fi\n"},
  {"line continuation", true, "srun \\\n  --nodes=2 \\\n  python train.py\n"},
  {"continuation inside word", true, "ec\\\nho hi\n"},
  {"unterminated single quote", false, "echo 'abc\n"},
  {"unterminated double quote", false, "echo \"abc\n"},
  {"unterminated backquote", false, "echo `date\n"},
  {"unterminated ansi c", false, "echo $'abc\n"},
  {"dollar at end", true, "echo $\n"},
  {"brace expansion literal", true, "echo {a,b}.txt {1..3}\n"},
  // parameter expansions
  {"simple params", true, "echo $X ${X} $1 $@ $* $# $? $$ $! $- $0 ${10}\n"},
  {"param operators", true, "echo ${X:-def} ${X:=d} ${X:+alt} ${X:?err} ${#X} ${X%%.*} ${X#*/} ${X/a/b} ${X^^} ${X,,}\n"},
  {"param arrays", true, "echo ${arr[0]} ${arr[@]} ${#arr[@]} ${!x} ${!arr[@]}\n"},
  {"param nested default", true, "echo ${GPUS:-${SLURM_GPUS_ON_NODE:-$(nvidia-smi -L | wc -l)}}\n"},
  {"unterminated brace param", false, "echo ${X:-abc\n"},
  {"param substring", true, "echo ${SLURM_JOB_ID: -4} ${X:1:2}\n"},
  // substitutions
  {"command substitution", true, "MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n"},
  {"nested substitution", true, "echo $(basename $(dirname $(pwd)))\n"},
  {"backticks", true, "echo `hostname` `echo \\`date\\``\n"},
  {"arith expansion", true, "export MASTER_PORT=$((10000 + SLURM_JOB_ID % 50000))\n"},
  {"arith with parens", true, "echo $(( (1+2)*3 ))\n"},
  {"old arith spelling", true, "sleep $[ ( $RANDOM / 100 ) + 1 ]s; echo \"$[1+$[2*3]]\"\n"},
  {"old arith unterminated", false, "echo $[1+2\n"},
  {"let with parenthesized value", true, "let SEED=(REPLICANT-1)*1000000 m=(d/60)%60\n"},
  {"parenthesized value elsewhere", false, "echo m=(d/60)%60\n"},
  {"subscript with arith and length", true, "frac=${frac[$(( trial % ${#frac[@]} ))]}\n"},
  {"subscript with nested param", true, "x=$(echo ${s[$((${I}-1))]} | sed 's/a//')\n"},
  {"backquote content unparsed", true, "for t in `seq 0 {{ (x * y)-1 }}`; do echo $t; done\n"},
  {"subshell in substitution", true, "echo $( (echo a) )\n"},
  {"case in substitution", true, "x=$(case $y in a) echo A;; *) echo B;; esac)\n"},
  {"process substitution", true, "diff <(sort a) <(sort b) > >(tee log)\n"},
  {"unterminated substitution", false, "echo $(hostname\n"},
  {"unterminated process substitution", false, "cat <(ls\n"},
  {"substitution with comment", true, "x=$(echo a # c )\n)\n"},
  // assignments
  {"assignments", true, "X=1 Y+=2 Z= env\n"},
  {"array assignment", true, "nodes=( $(scontrol show hostnames \"$SLURM_JOB_NODELIST\") )\nhead_node=${nodes[0]}\n"},
  {"array multiline", true, "A=(\n  a # c\n  b\n)\n"},
  {"subscript assignment", true, "a[1]=x\n"},
  {"declare array", true, "declare -a X=(a b)\nlocal -a Y=(1)\n"},
  {"export several", true, "export A=1 B=\"$X\" C\n"},
  {"unterminated array", false, "A=(a b\n"},
  // redirects
  {"redirects", true, "cmd >out 2>&1 <in >>app 2>>err &>all &>>all2 <>rw >|clob 3<&0 4>&-\n"},
  {"redirect before command", true, ">log echo hi\n"},
  {"here string", true, "cat <<< \"$X\"\n"},
  {"missing redirect target", false, "echo >\n"},
  {"redirect to operator", false, "echo > ;\n"},
  // heredocs
  {"heredoc", true, "cat <<EOF > hostfile\n$HOST slots=8\nEOF\necho done\n"},
  {"heredoc quoted", true, "cat <<'EOF'\n$not expanded\nEOF\n"},
  {"heredoc dash", true, "if true; then\n\tcat <<-EOF\n\tbody\n\tEOF\nfi\n"},
  {"two heredocs one line", true, "cat <<A <<B\na\nA\nb\nB\n"},
  {"heredoc in pipeline", true, "cat <<EOF | grep x\nx\nEOF\n"},
  {"heredoc with fi inside", true, "cat <<EOF\nfi\ndone )\nEOF\n"},
  {"heredoc unterminated", true, "cat <<EOF\nabc\n"},
  // pipelines and lists
  {"pipeline", true, "a | b |& c\n"},
  {"negated pipeline", true, "! grep -q x file && echo no\n"},
  {"and or chain", true, "a && b || c && d\n"},
  {"and with newline", true, "a &&\n  b ||\n  c\n"},
  {"pipe with newline", true, "a |\n  b\n"},
  {"background and wait", true, "for i in 1 2; do srun -N1 task $i & done\nwait\n"},
  {"semicolons", true, "a; b; c;\n"},
  {"double semicolon top level", false, "a ;; b\n"},
  {"leading pipe", false, "| a\n"},
  {"dangling and", false, "a &&\n"},
  {"empty command", false, "a; ; b\n"},
  {"time prefix", true, "time srun python train.py\ntime -p sleep 1\n"},
  // compound commands
  {"if elif else", true, "if a; then b; elif c; then d; else e; fi\n"},
  {"if empty then", false, "if true; then fi\n"},
  {"if missing fi", false, "if true; then echo\n"},
  {"fi alone", false, "fi\n"},
  {"then alone", false, "then echo\n"},
  {"extra fi", false, "if true; then echo; fi; fi\n"},
  {"for in", true, "for f in *.txt \"a b\"; do echo $f; done\n"},
  {"for without in", true, "for x; do echo $x; done\nfor y do echo; done\n"},
  {"for newline in", true, "for x\nin a b\ndo\n echo\ndone\n"},
  {"for brace body", true, "for x in a; { echo $x; }\n"},
  {"arith for", true, "for ((i=0; i<4; i++)); do echo $i; done\n"},
  {"for bad name is a runtime error", true, "for 1x in a; do echo; done\n"},
  {"for missing name", false, "for ; do echo; done\n"},
  {"done without loop", false, "echo; done\n"},
  {"while", true, "while read -r line; do echo \"$line\"; done < file\n"},
  {"until", true, "until nc -z $MASTER_ADDR 29500; do sleep 1; done\n"},
  {"while empty body", false, "while true; do done\n"},
  {"case", true, "case $SLURM_ARRAY_TASK_ID in\n  0) LR=1e-3 ;;\n  1|2) LR=1e-4 ;&\n  (3) LR=1e-5 ;;&\n  *) LR=0\nesac\n"},
  {"case empty items", true, "case x in a) ;; esac\ncase y in esac\n"},
  {"case missing esac", false, "case x in a) echo;;\n"},
  {"case missing in", false, "case x a) echo;; esac\n"},
  {"select", true, "select x in a b; do echo $x; break; done\n"},
  {"function paren", true, "setup() {\n  module load cuda\n}\nsetup\n"},
  {"function keyword", true, "function cleanup { rm -rf $TMP; }\nfunction f() { :; }\n"},
  {"function subshell body", true, "f() ( cd /tmp; ls )\n"},
  {"function redirect", true, "f() { echo; } > log\n"},
  {"function without body", false, "f()\n"},
  {"subshell", true, "(cd dir && make)\n"},
  {"unbalanced close paren", false, "echo a)\n"},
  {"unclosed subshell", false, "(echo a\n"},
  {"brace group", true, "{ echo a; echo b; } > log\n"},
  {"brace missing semicolon", false, "{ echo }\n"},
  {"brace word", true, "echo {a}\n"},
  {"arith command", true, "(( i++ ))\nif (( SLURM_NNODES > 1 )); then echo multi; fi\n"},
  {"cond command", true, "[[ -n $X && $Y == a* ]] && echo\n[[ $x =~ ^[0-9]+$ ]]\n"},
  {"cond unterminated", false, "[[ -n $X\n"},
  {"reserved as argument", true, "echo if then fi done esac {\n"},
  {"nested compound", true, "for i in 1; do if a; then while b; do case c in d) { e; } ;; esac; done; fi; done\n"},
  // corner cases
  {"arith with substitution", true, "echo $(( 1 + $(echo 2) ))\n"},
  {"quoted paren in substitution", true, "x=$( echo \")\" )\n"},
  {"case paren pattern list", true, "case x in (a|b) echo;; esac\n"},
  {"escaped quote in param", true, "echo \"${X//\\\"/}\"\n"},
  {"if with redirects in background", true, "if true; then :; fi > log 2>&1 &\n"},
  {"quoted param defaults", true, "echo ${X:-\"a b\"} ${Y:-'c'}\n"},
  {"quoted paren in substitution 2", true, "echo $(echo 'a)')\n"},
  {"array append", true, "arr+=(x)\n"},
  {"cond parens", true, "[[ ( -n $a ) ]]\n"},
  {"close brace as argument", true, "echo }\n"},
  {"extra close brace", false, "{ echo a; }; }\n"},
  {"read from process substitution", true, "while read a b; do :; done < <(ls)\n"},
  {"export function", true, "f() { :; }; export -f f\n"},
  {"escaped backquote in dquote", true, "echo \"a\\`b\"\n"},
  {"multiline substitution", true, "echo $(\n  echo a\n)\n"},
  {"nested backquotes", true, "x=`echo \\`echo a\\``\n"},
  {"case empty body multiline", true, "case $x in\n  a)\n    ;;\nesac\n"},
  {"braced hash", true, "echo ${#}\n"},
  {"negated command in if", true, "if ! command -v conda >/dev/null; then exit 1; fi\n"},
  {"brace range loop", true, "for i in {1..3}; do echo $i; done;\n"},
  {"multiline arith", true, "echo $((\n1+2\n))\n"},
  {"case in quoted substitution", true, "echo \"$(case a in a) echo x;; esac)\"\n"},
  {"empty arith", true, "(( ))\n"},
  {"triple ampersand", false, "echo a &&& b\n"},
  {"double or", false, "echo a || || b\n"},
  {"trailing semicolon", true, "echo ;\n"},
  {"leading semicolon", false, "; echo\n"},
  {"dangling pipe", false, "echo a |\n"},
  {"lone backquote", false, "echo `\n"},
  {"empty brace group", false, "{ }\n"},
  {"empty subshell", false, "( )\n"},
  {"function without name", false, "function { echo; }\n"},
  {"arith nested parens", true, "echo $((1+(2)))\n"},
  {"trap double quoted", true, "trap \"rm -f $TMP\" EXIT\n"},
  {"bash -c escaped dollar", true, "srun bash -c \"echo \\$SLURM_NODEID\"\n"},
  {"backslash at end", true, "echo a\\\n"},
  {"heredoc double quoted delimiter", true, "cat << \"EOF\"\nx\nEOF\n"},
  {"heredoc escaped delimiter", true, "cat <<E\\OF\nx\nEOF\n"},
  {"array assignment prefix", true, "a=(1 2) b=3 cmd\n"},
  {"export array", true, "export X=(1 2)\n"},
  {"brackets as arguments", true, "echo [[ ]]\n"},
  {"time alone", true, "time\n"},
  {"bang alone", true, "! \n"},
  {"nested subscripts", true, "echo ${a[${i}]} ${a[$((i+1))]}\n"},
  {"case then command", true, "case a in a) echo;; b) ;; esac; echo\n"},
  {"if on separate lines", true, "if true\nthen\n  echo\nfi\n"},
  {"until break", true, "until false; do break; done\n"},
  {"unterminated param in dquote", false, "echo \"unterminated ${X\n"},
  {"subshell in substitution spaced", true, "echo $( ( cd / ) )\n"},
  {"for newline do", true, "for x in a b c\ndo echo\ndone\n"},
  // realistic sbatch bodies
  {"torchrun via bash -c", true,
   "#!/bin/bash\n#SBATCH --nodes=2\nexport MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n"
   "export MASTER_PORT=29500\nsrun bash -c 'torchrun --nnodes=$SLURM_NNODES --node_rank=$SLURM_NODEID \\\n"
   "  --nproc_per_node=8 --master_addr=$MASTER_ADDR train.py'\n"},
  {"trap handler", true, "cleanup() { echo \"caught\"; scancel $SLURM_JOB_ID; }\ntrap cleanup SIGTERM EXIT\ntrap 'echo bye' USR1\n"},
  {"conda and modules", true,
   "module purge\nmodule load cuda/12.1 nccl\nsource ~/miniconda3/etc/profile.d/conda.sh\nconda activate train || exit 1\n"},
  {"deepspeed hostfile", true,
   "scontrol show hostnames \"$SLURM_JOB_NODELIST\" | sed 's/$/ slots=8/' > hostfile\n"
   "cat > ds_config.json <<EOF\n{\n  \"train_batch_size\": $((SLURM_NNODES * 8)),\n  \"fp16\": {\"enabled\": true}\n}\nEOF\n"
   "deepspeed --hostfile hostfile train.py --deepspeed ds_config.json\n"},
  {"array job case", true,
   "CONFIGS=(small.yaml medium.yaml large.yaml)\nCFG=${CONFIGS[$SLURM_ARRAY_TASK_ID]}\n"
   "case \"$SLURM_ARRAY_TASK_ID\" in\n  0) EPOCHS=10 ;;\n  *) EPOCHS=5 ;;\nesac\nsrun python train.py --config \"$CFG\" --epochs $EPOCHS\n"},
  {"loop of srun and wait", true,
   "for node in $(scontrol show hostnames $SLURM_JOB_NODELIST); do\n  srun --nodes=1 --ntasks=1 -w \"$node\" ./worker.sh &\ndone\nwait\n"},
  {"accelerate escaped rank", true,
   "srun accelerate launch --num_processes $((SLURM_NNODES*8)) --machine_rank \\$SLURM_NODEID \\\n  --main_process_ip $MASTER_ADDR train.py\n"},
  {"set options and logging", true,
   "set -euo pipefail\nexec > >(tee -a \"logs/${SLURM_JOB_ID}.out\") 2>&1\necho \"start: $(date +%s)\"\n"},
  {"wait loop with if", true,
   "while [ ! -f ready ]; do\n  if [[ $SECONDS -gt 600 ]]; then echo timeout >&2; exit 1; fi\n  sleep 5\ndone\n"},
  {"heredoc python", true,
   "python - <<'PY'\nimport os\nprint(os.environ['SLURM_PROCID'])\nPY\n"},
};
// clang-format on

bool bash_available() { return access("/bin/bash", X_OK) == 0; }

// Runs `bash -n` on the text; true when bash reports no syntax error.
bool bash_accepts(const std::string& text) {
  char path[] = "/tmp/slurm2air_bash_n_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return false;
  close(fd);
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  std::string command = std::string("/bin/bash -n ") + path + " >/dev/null 2>&1";
  int status = std::system(command.c_str());
  unlink(path);
  return status == 0;
}

void PrintTo(const Snippet& snippet, std::ostream* out) { *out << snippet.name; }

class BashDifferential : public testing::TestWithParam<Snippet> {};

TEST_P(BashDifferential, ParserAgreesWithBash) {
  const Snippet& snippet = GetParam();
  ParseResult result = parse_script(snippet.text);
  bool parser_accepts = !has_errors(result.diagnostics);
  EXPECT_EQ(parser_accepts, result.complete) << snippet.name;
  std::string details;
  for (const Diagnostic& d : result.diagnostics) {
    details += code_id(d.code) + " [" + std::to_string(d.span.begin) + "," +
               std::to_string(d.span.end) + ") " + d.message + "\n";
  }
  EXPECT_EQ(parser_accepts, snippet.valid) << snippet.name << "\n"
                                           << snippet.text << "\n"
                                           << details << dump_ast(result.script);
  if (bash_available()) {
    EXPECT_EQ(bash_accepts(snippet.text), snippet.valid)
        << snippet.name << ": the table disagrees with bash -n";
  }
}

INSTANTIATE_TEST_SUITE_P(Snippets, BashDifferential, testing::ValuesIn(kSnippets),
                         [](const testing::TestParamInfo<Snippet>& param_info) {
                           std::string name;
                           for (const char* c = param_info.param.name; *c; ++c) {
                             name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace s2a
