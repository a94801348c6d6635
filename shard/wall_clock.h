// The wall clock as DynamoDB's *DateTime fields carry it: seconds since the epoch, to the
// millisecond (CreationDateTime, LastUpdateToPayPerRequestDateTime, ...).
#ifndef PARTSTORE_SHARD_WALL_CLOCK_H_
#define PARTSTORE_SHARD_WALL_CLOCK_H_

#include <chrono>

namespace partstore {

inline double WallClockSeconds() {
  using namespace std::chrono;
  return static_cast<double>(
             duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count()) /
         1000.0;
}

}  // namespace partstore

#endif  // PARTSTORE_SHARD_WALL_CLOCK_H_
