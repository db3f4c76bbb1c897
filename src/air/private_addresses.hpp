// Literal IPv4 addresses on a private network (RFC 1918): 10.0.0.0/8,
// 172.16.0.0/12, 192.168.0.0/16. In a batch script they name the cluster's
// own machines — a coordinator, a proxy, a dashboard, a database, the
// interconnect's subnet — which AI Runtime nodes, on another network, cannot
// reach (S2A5026).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace s2a::air {

struct PrivateAddress {
  size_t at = 0;             // offset in the text searched
  std::string_view written;  // "10.6.7.244", "10.200.0.0/16"
  std::string_view network;  // "10.0.0.0/8"
};

/// The first private address in `text` at or after `from`. An address is
/// four decimal parts of 0-255 standing alone: not inside a longer dotted
/// number or a name (`cuda-10.1.2.3`, `v10.0.0.1`), and followed by an end,
/// a port, a prefix length or punctuation.
[[nodiscard]] std::optional<PrivateAddress> find_private_address(std::string_view text,
                                                                 size_t from = 0);

}  // namespace s2a::air
