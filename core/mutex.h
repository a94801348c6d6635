// Mutex and MutexLock: std::mutex as a capability the compiler's thread-safety analysis checks
// (clang's -Wthread-safety; core/thread_annotations.h), so that a member can be declared
// PARTSTORE_GUARDED_BY a mutex and every access to it without the lock is a compile error.
//
// Thread safety: Mutex is std::mutex; MutexLock holds one for its scope.
#pragma once

#include <mutex>

#include "core/thread_annotations.h"

namespace partstore {

class PARTSTORE_CAPABILITY("mutex") Mutex {
 public:
  void Lock() PARTSTORE_ACQUIRE() { mu_.lock(); }
  void Unlock() PARTSTORE_RELEASE() { mu_.unlock(); }

 private:
  std::mutex mu_;
};

class PARTSTORE_SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex* mu) PARTSTORE_ACQUIRE(mu) : mu_(mu) { mu_->Lock(); }
  ~MutexLock() PARTSTORE_RELEASE() { mu_->Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex* mu_;
};

}  // namespace partstore
