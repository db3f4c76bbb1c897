// Commands that reach another machine over SSH (S2A5033).
#include "air/remote_shells.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "support/diagnostics.hpp"
#include "translate.hpp"

namespace s2a::air {
namespace {

/// "login 2" for a call whose other machine is its third word; "none" when
/// the call reaches no other machine.
std::string remote_use_of(std::vector<std::string_view> words) {
  const std::optional<RemoteShell> remote = read_remote_shell(words[0], words);
  if (!remote) return "none";
  constexpr std::array kUses = {"tunnel", "login", "copy", "fan_out"};
  return std::string(kUses[static_cast<size_t>(remote->use)]) + " " +
         std::to_string(remote->host_word);
}

TEST(RemoteShells, SshFindsItsDestinationPastOptionsAndTheirValues) {
  EXPECT_EQ(remote_use_of({"ssh", "node2", "hostname"}), "login 1");
  EXPECT_EQ(remote_use_of({"ssh", "-p", "2222", "-o", "StrictHostKeyChecking=no", "me@login1"}),
            "login 5");
  EXPECT_EQ(remote_use_of({"ssh", "-p2222", "-q", "$first", "hostname", "-I"}), "login 3");
  EXPECT_EQ(remote_use_of({"ssh", "-i", "~/.ssh/id", "--", "host"}), "login 4");
  EXPECT_EQ(remote_use_of({"ssh", "-NL", "8888:localhost:8888", "login1"}), "tunnel 3");
  EXPECT_EQ(remote_use_of({"ssh", "-fN", "-R", "6006:localhost:6006", "gw"}), "tunnel 4");
  EXPECT_EQ(remote_use_of({"ssh", "-V"}), "none");
  EXPECT_EQ(remote_use_of({"ssh", "-Q", "cipher"}), "none");
}

/// "host 2 options 1 other 0": the words read_ssh() named, for the calls
/// whose options may be kept in a variable.
std::string ssh_words_of(std::vector<std::string_view> words) {
  const std::optional<RemoteShell> remote = read_remote_shell(words[0], words);
  if (!remote) return "none";
  return "host " + std::to_string(remote->host_word) + " options " +
         std::to_string(remote->options_word) + " other " + std::to_string(remote->other_host_word);
}

// `ssh $SSH_OPTS host cmd` reads like `ssh $host cmd`. A variable named for
// options is passed over; a lone `$X` before another operand that could name
// a machine leaves the destination open between the two; before a
// command's first word it is the machine (the common `ssh $host cmd`).
TEST(RemoteShells, SshDestinationAfterALoneExpansionIsDecidedConservatively) {
  EXPECT_EQ(ssh_words_of({"ssh", "$host", "dask-worker", "--nprocs", "2"}),
            "host 1 options 0 other 0");
  EXPECT_EQ(ssh_words_of({"ssh", "$i", "'export A=1; bash run.sh'"}), "host 1 options 0 other 0");
  EXPECT_EQ(
      ssh_words_of({"ssh", "$SSH_PORTOPT", "$remote_address", "-l", "$remote_user", "\"cd x\""}),
      "host 2 options 1 other 0");
  EXPECT_EQ(ssh_words_of({"ssh", "$ssh_key", "$SSH_PORTOPT", "$remote_address", "-l", "me"}),
            "host 3 options 1 other 0");
  EXPECT_EQ(ssh_words_of({"ssh", "$opts", "$USER@log-$i.nyu.cluster"}), "host 2 options 1 other 0");
  EXPECT_EQ(ssh_words_of({"ssh", "$SSH_OPTS"}), "host 1 options 0 other 0");
  EXPECT_EQ(ssh_words_of({"ssh", "$X", "$dest", "hostname"}), "host 1 options 0 other 2");
  EXPECT_EQ(ssh_words_of({"ssh", "${X}", "me@login1", "ls"}), "host 1 options 0 other 2");
  EXPECT_EQ(ssh_words_of({"ssh", "\"$X\"", "me@login1", "ls"}), "host 1 options 0 other 0");
  EXPECT_EQ(ssh_words_of({"ssh", "-q", "$node", "nvidia-smi"}), "host 2 options 0 other 0");
  EXPECT_EQ(ssh_words_of({"ssh", "-q", "$node", "$node_cmd"}), "host 2 options 0 other 0");
}

TEST(RemoteShells, CopiesNeedAHostOperand) {
  EXPECT_EQ(remote_use_of({"scp", "-r", "out", "me@login1:/project/"}), "copy 3");
  EXPECT_EQ(remote_use_of({"rsync", "-av", "\"$HOST:/data/\"", "."}), "copy 2");
  EXPECT_EQ(remote_use_of({"scp", "scp://me@dtn:2222/x", "."}), "copy 1");
  EXPECT_EQ(remote_use_of({"rsync", "-a", "backup::module", "x/"}), "none");
  EXPECT_EQ(remote_use_of({"rsync", "-a", "rsync://ftp.ensembl.org/pub/", "x/"}), "none");
  EXPECT_EQ(remote_use_of({"sftp", "-b", "batch.txt", "me@dtn"}), "copy 3");
  EXPECT_EQ(remote_use_of({"rsync", "-a", "x/", "/scratch/y/"}), "none");
  EXPECT_EQ(remote_use_of({"rsync", "-a", "${SRC:-x}/", "/tmp/${RUN}:a/"}), "none");
  EXPECT_EQ(remote_use_of({"scp", "a", "b"}), "none");
}

TEST(RemoteShells, FanOutToolsRunOnNodeLists) {
  EXPECT_EQ(remote_use_of({"pdsh", "-w", "$SLURM_JOB_NODELIST", "nvidia-smi"}), "fan_out 1");
  EXPECT_EQ(remote_use_of({"clush", "-w", "node[1-4]", "hostname"}), "fan_out 1");
  EXPECT_EQ(remote_use_of({"pdsh"}), "none");
  EXPECT_FALSE(is_remote_shell_program("sshd"));
  EXPECT_FALSE(is_remote_shell_program("ssh-keygen"));
}

TEST(RemoteShells, ReportedAtTheOtherMachineOnTheCommandsThatStay) {
  const Translation t = translate("job.sbatch",
                                  "#!/bin/bash\n#SBATCH -N 2 --gpus-per-node=h100:8\n"
                                  "ssh -NL 8888:localhost:8888 $USER@login1 &\n"
                                  "ips=$(ssh $first hostname -I)\n"
                                  "ssh $SSH_OPTS gw1.hpc.edu ls\n"
                                  "ssh $X me@gw1 ls\n"
                                  "torchrun --nnodes=2 --nproc_per_node=8 train.py --out results\n"
                                  "scp -r results me@login1:/project/runs/\n"
                                  "pdsh -w $SLURM_JOB_NODELIST rm -rf /tmp/cache\n"
                                  "rsync -a results/ /scratch/me/\n"
                                  "ssh-keygen -f key -N ''\n");
  std::vector<std::string> reported;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code != Code::remote_shell) continue;
    const auto at = t.file->line_col(d.span.begin);
    reported.push_back(std::to_string(at.line) + ":" + std::to_string(at.col) + " " +
                       d.message.substr(0, d.message.find(':')));
  }
  EXPECT_EQ(reported, (std::vector<std::string>{"3:29 `ssh` forwards ports through $USER@login1 (a "
                                                "notebook's or dashboard's, typically)",
                                                "4:11 `ssh` logs in to $first, a machine of the "
                                                "cluster or another node of the job",
                                                "5:15 `ssh` logs in to gw1.hpc.edu ($SSH_OPTS "
                                                "before it is taken, by its name, for ssh's "
                                                "options), a machine of the cluster or another "
                                                "node of the job",
                                                "6:5 `ssh` logs in to $X (or, when $X holds ssh's "
                                                "options, me@gw1), a machine of the cluster or "
                                                "another node of the job",
                                                "8:16 `scp` copies to or from me@login1",
                                                "9:1 `pdsh` runs a command on a list of nodes "
                                                "over SSH"}));
  EXPECT_NE(t.yaml.find("scp -r results me@login1:/project/runs/"), std::string::npos)
      << "reported, not removed: the user decides what replaces it";
}

// The program behind command wrappers and srun, and a quoted path to it.
TEST(RemoteShells, CallsBehindWrappersAreReadAsWithout) {
  const Translation t = translate("job.sbatch",
                                  "#!/bin/bash\n#SBATCH --gpus-per-node=h100:8\n"
                                  "nohup ssh -NL 8888:localhost:8888 login1 &\n"
                                  "timeout 60 scp a.tar me@login1:/x/\n"
                                  "\"/usr/bin/ssh\" node2 hostname\n"
                                  "python t.py\n");
  std::vector<std::string> reported;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code != Code::remote_shell) continue;
    const auto at = t.file->line_col(d.span.begin);
    reported.push_back(std::to_string(at.line) + ":" + std::to_string(at.col) + " " +
                       d.message.substr(0, d.message.find(' ', 2)));
  }
  EXPECT_EQ(reported, (std::vector<std::string>{"3:35 `ssh`", "4:22 `scp`", "5:16 `ssh`"}));
}

}  // namespace
}  // namespace s2a::air
