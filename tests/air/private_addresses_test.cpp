// Literal addresses on the cluster's private network (S2A5026).
#include "air/private_addresses.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/diagnostics.hpp"
#include "translate.hpp"

namespace s2a::air {
namespace {

std::vector<std::string> addresses_in(std::string_view text) {
  std::vector<std::string> out;
  for (auto found = find_private_address(text); found;
       found = find_private_address(text, found->at + found->written.size())) {
    out.emplace_back(std::string(found->written) + " " + std::string(found->network));
  }
  return out;
}

TEST(PrivateAddresses, TheThreePrivateRangesWithPortsAndPrefixes) {
  EXPECT_EQ(addresses_in("--ip 10.6.7.244 http://192.168.1.1:8123/x 172.31.255.255, "
                         "10.200.0.0/16 10.0.11.224@o2ib10 \"172.16.0.1\"."),
            (std::vector<std::string>{"10.6.7.244 10.0.0.0/8", "192.168.1.1 192.168.0.0/16",
                                      "172.31.255.255 172.16.0.0/12", "10.200.0.0/16 10.0.0.0/8",
                                      "10.0.11.224 10.0.0.0/8", "172.16.0.1 172.16.0.0/12"}));
}

TEST(PrivateAddresses, PublicAddressesVersionsAndLongerNumbersAreNot) {
  EXPECT_TRUE(addresses_in("127.0.0.1 0.0.0.0 8.8.8.8 172.32.0.1 172.15.0.1 192.169.0.1 "
                           "cuda-10.1.2.3 v10.0.0.1 10.1.2.3.4 10.1.2 110.1.2.3 10.1.2.300 "
                           "10.1.2.3a app_10.1.2.3")
                  .empty());
}

TEST(PrivateAddresses, ReportedOnceEachInWordsThatStay) {
  const Translation t =
      translate("job.sbatch",
                "#!/bin/bash\n#SBATCH --gres=gpu:h100:1\n"
                "# the coordinator is 10.9.9.9\n"
                "export MASTER_ADDR=10.1.1.1 SSH_CLIENT=\"10.2.2.2 22\"\n"
                "python infer.py --coordinator-server-ip 10.6.7.244 --visdom-host 172.26.15.44\n"
                "curl http://10.6.7.244:8000/ready\n");
  std::vector<std::string> reported;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == Code::private_network_address) {
      reported.push_back(std::to_string(t.file->line_col(d.span.begin).line) + ":" +
                         d.message.substr(0, d.message.find(' ')));
    }
  }
  EXPECT_EQ(reported, (std::vector<std::string>{"5:`10.6.7.244`", "5:`172.26.15.44`"}));
}

}  // namespace
}  // namespace s2a::air
