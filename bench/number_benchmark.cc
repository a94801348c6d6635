// Microbenchmarks for Number: parsing (short and 38-digit forms), comparison, addition and
// canonical formatting. Inputs cycle through a fixed set so branch prediction sees variety.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "partstore/number.h"

namespace partstore::number_benchmark {
namespace {

// Typical item attributes: counters, prices, timestamps, small negatives.
const std::vector<std::string>& ShortTexts() {
  static const std::vector<std::string> texts = {
      "42", "-17", "3.14", "1700000000", "0.25", "100", "-0.5", "99.99", "12345", "7",
  };
  return texts;
}

// 38 significant digits with an exponent.
const std::vector<std::string>& LongTexts() {
  static const std::vector<std::string> texts = {
      "1.2345678901234567890123456789012345678E+50",
      "-9.8765432109876543210987654321098765432e-40",
      "31415926535897932384626433832795028841e30",
      "2.7182818284590452353602874713526624977E0",
  };
  return texts;
}

std::vector<Number> ParseAll(const std::vector<std::string>& texts) {
  std::vector<Number> numbers;
  for (const std::string& t : texts) numbers.push_back(*Number::Parse(t));
  return numbers;
}

// Parses `texts` round-robin, one per iteration.
void ParseEach(benchmark::State& state, const std::vector<std::string>& texts) {
  size_t i = 0;
  for (auto _ : state) {
    Result<Number> r = Number::Parse(texts[i]);
    benchmark::DoNotOptimize(r);
    if (++i == texts.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Number_Parse(benchmark::State& state) { ParseEach(state, ShortTexts()); }
BENCHMARK(BM_Number_Parse);

void BM_Number_ParseLong(benchmark::State& state) { ParseEach(state, LongTexts()); }
BENCHMARK(BM_Number_ParseLong);

void BM_Number_Compare(benchmark::State& state) {
  std::vector<Number> numbers = ParseAll(ShortTexts());
  for (const Number& n : ParseAll(LongTexts())) numbers.push_back(n);
  size_t i = 0;
  size_t j = 3;
  for (auto _ : state) {
    auto order = numbers[i] <=> numbers[j];
    benchmark::DoNotOptimize(order);
    if (++i == numbers.size()) i = 0;
    if (++j == numbers.size()) j = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Number_Compare);

// Counter-style additions (the common update-expression case).
void BM_Number_Add(benchmark::State& state) {
  const std::vector<Number> numbers = ParseAll(ShortTexts());
  size_t i = 0;
  size_t j = 1;
  for (auto _ : state) {
    Result<Number> r = Number::Add(numbers[i], numbers[j]);
    benchmark::DoNotOptimize(r);
    if (++i == numbers.size()) i = 0;
    if (++j == numbers.size()) j = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Number_Add);

std::vector<Number> FormatInputs() {
  std::vector<Number> numbers = ParseAll(ShortTexts());
  for (const Number& n : ParseAll(LongTexts())) numbers.push_back(n);
  return numbers;
}

// ToString allocates once the text outgrows the small-string buffer (the long inputs).
void BM_Number_ToString(benchmark::State& state) {
  const std::vector<Number> numbers = FormatInputs();
  size_t i = 0;
  for (auto _ : state) {
    std::string s = numbers[i].ToString();
    benchmark::DoNotOptimize(s.data());
    if (++i == numbers.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Number_ToString);

// AppendTo into a reused buffer: formatting alone.
void BM_Number_AppendTo(benchmark::State& state) {
  const std::vector<Number> numbers = FormatInputs();
  std::string out;
  size_t i = 0;
  for (auto _ : state) {
    out.clear();
    numbers[i].AppendTo(&out);
    benchmark::DoNotOptimize(out.data());
    if (++i == numbers.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Number_AppendTo);

}  // namespace
}  // namespace partstore::number_benchmark
