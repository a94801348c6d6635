// RetryQueue (tools/simulator/retry_queue.h): requests come out by due time, ties in the order
// they were scheduled, with their contents intact across reused slots.
#include "tools/simulator/retry_queue.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tools/simulator/random.h"

namespace partstore::sim::internal {
namespace {

TEST(RetryQueueTest, PopsByDueThenBySchedulingOrder) {
  RetryQueue<std::string> queue;
  EXPECT_TRUE(queue.empty());
  queue.Push(30, "c");
  queue.Push(10, "a1");
  queue.Push(20, "b");
  queue.Push(10, "a2");
  queue.Push(10, "a3");
  ASSERT_EQ(queue.size(), 5u);
  std::vector<std::string> out;
  while (!queue.empty()) {
    const int64_t due = queue.next_due();
    out.push_back(std::to_string(due) + ":" + queue.Pop());
  }
  EXPECT_EQ(out, (std::vector<std::string>{"10:a1", "10:a2", "10:a3", "20:b", "30:c"}));
}

TEST(RetryQueueTest, ReusedSlotsKeepEachValueIntactAndForEachSeesTheWaitingOnes) {
  RetryQueue<std::unique_ptr<std::string>> queue;
  queue.Push(5, std::make_unique<std::string>("first"));
  queue.Push(7, std::make_unique<std::string>("second"));
  EXPECT_EQ(*queue.Pop(), "first");
  queue.Push(6, std::make_unique<std::string>("third"));  // takes the freed slot
  std::vector<std::string> waiting;
  queue.ForEach([&](const std::unique_ptr<std::string>& s) { waiting.push_back(*s); });
  std::sort(waiting.begin(), waiting.end());
  EXPECT_EQ(waiting, (std::vector<std::string>{"second", "third"}));
  EXPECT_EQ(*queue.Pop(), "third");
  EXPECT_EQ(*queue.Pop(), "second");
  EXPECT_TRUE(queue.empty());
  queue.Push(1, std::make_unique<std::string>("after"));
  queue.clear();
  EXPECT_TRUE(queue.empty());
}

// Random pushes and pops against a multimap keyed by (due, scheduling order).
TEST(RetryQueueTest, RandomScheduleMatchesAnOrderedModel) {
  RetryQueue<int64_t> queue;
  std::map<std::pair<int64_t, int64_t>, int64_t> model;
  Random random(7);
  int64_t scheduled = 0;
  int64_t now = 0;
  for (int step = 0; step < 20000; ++step) {
    if (model.empty() || random.Below(3) != 0) {
      const int64_t due = now + static_cast<int64_t>(random.Below(50));  // many ties
      const int64_t value = scheduled * 1000 + due;
      queue.Push(due, value);
      model.emplace(std::make_pair(due, scheduled++), value);
    } else {
      ASSERT_EQ(queue.next_due(), model.begin()->first.first);
      now = queue.next_due();
      ASSERT_EQ(queue.Pop(), model.begin()->second) << "step " << step;
      model.erase(model.begin());
    }
    ASSERT_EQ(queue.size(), model.size());
  }
}

}  // namespace
}  // namespace partstore::sim::internal
