// Every value parser on hostile input: random bytes, mutated valid values,
// absurd lengths and deep nesting. Each call must return a value or an error
// message, never throw, crash or take long.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "grammar/values.hpp"

namespace s2a::values {
namespace {

template <class T>
void expect_value_or_error(const Parsed<T>& parsed) {
  EXPECT_TRUE(parsed.value.has_value() != !parsed.error.empty()) << parsed.error;
}

void run_every_parser(const std::string& text) {
  expect_value_or_error(parse_time(text));
  expect_value_or_error(parse_nodes(text));
  expect_value_or_error(parse_positive_int(text));
  expect_value_or_error(parse_gpu_counts(text));
  expect_value_or_error(parse_gres(text));
  expect_value_or_error(parse_tres(text));
  expect_value_or_error(parse_memory_mib(text));
  const Parsed<ArraySpec> array = parse_array(text);
  expect_value_or_error(array);
  if (array) (void)array->count();
  expect_value_or_error(parse_dependency(text));
  expect_value_or_error(parse_mail_type(text));
  expect_value_or_error(parse_signal(text));
  expect_value_or_error(parse_export(text));
  expect_value_or_error(expand_hostlist(text, 1000));
}

TEST(ValuesRobustness, RandomBytes) {
  std::mt19937 random(20240601);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> length(0, 40);
  for (int round = 0; round < 2000; ++round) {
    std::string text(static_cast<size_t>(length(random)), '\0');
    for (char& c : text) c = static_cast<char>(byte(random));
    run_every_parser(text);
  }
}

TEST(ValuesRobustness, MutatedValidValues) {
  const std::vector<std::string> seeds = {"1-00:00:00",
                                          "2-4",
                                          "1-15:4",
                                          "a100:8",
                                          "gpu:a100:4,nvme:1",
                                          "cpu=4,gres/gpu:a100=2",
                                          "16GB",
                                          "0-15:4%2",
                                          "afterok:$jid:12_[1-3]+5",
                                          "BEGIN,END",
                                          "B:USR1@300",
                                          "ALL,A=\"x,y\"",
                                          "node[01-04,07],gpu-a[1-2]"};
  const std::string alphabet = "0123456789-:,[]%@+_=$*?(){}/kKmMgGtTpPbB \t\"'\xff";
  std::mt19937 random(7);
  for (int round = 0; round < 3000; ++round) {
    std::string text = seeds[random() % seeds.size()];
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = text.empty() ? 0 : random() % (text.size() + 1);
      const char c = alphabet[random() % alphabet.size()];
      switch (random() % 3) {
        case 0:
          text.insert(at, 1, c);
          break;
        case 1:
          if (at < text.size()) text.erase(at, 1);
          break;
        default:
          if (at < text.size()) text[at] = c;
      }
    }
    run_every_parser(text);
  }
}

TEST(ValuesRobustness, HugeAndDeeplyNested) {
  run_every_parser(std::string(200000, '9'));
  run_every_parser(std::string(100000, ','));
  run_every_parser(std::string(100000, '['));
  run_every_parser("afterok:$" + std::string(100000, '{'));
  run_every_parser("afterok:$" + std::string(50000, '{') + std::string(50000, '}'));
  run_every_parser(std::string(100000, 'a'));
  std::string many_items;
  for (int i = 0; i < 20000; ++i) many_items += "1-2:1,";
  many_items += "3";
  run_every_parser(many_items);
  const Parsed<Dependency> nested =
      parse_dependency("afterok:$" + std::string(50000, '{') + std::string(50000, '}'));
  ASSERT_TRUE(nested) << nested.error;
  EXPECT_EQ(nested->items[0].targets[0].job.size(), 100001u);
}

}  // namespace
}  // namespace s2a::values
