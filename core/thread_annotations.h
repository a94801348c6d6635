// Clang's thread-safety annotations (https://clang.llvm.org/docs/ThreadSafetyAnalysis.html),
// checked by clang builds (-Wthread-safety, an error; CMakeLists.txt) and no-ops elsewhere.
//
// A lock type is a PARTSTORE_CAPABILITY; data it guards is PARTSTORE_GUARDED_BY it; a function
// that needs it held says PARTSTORE_REQUIRES (exclusive) or PARTSTORE_REQUIRES_SHARED; scoped
// lock objects are PARTSTORE_SCOPED_CAPABILITY with PARTSTORE_ACQUIRE* constructors. Where the
// caller holds a lock the analysis cannot see (locks taken in a loop, in a sorted order), the
// function states it with an assertion annotated PARTSTORE_ASSERT_CAPABILITY, as abseil's
// Mutex::AssertHeld does.
#pragma once

#if defined(__clang__)
#define PARTSTORE_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define PARTSTORE_THREAD_ANNOTATION(x)
#endif

#define PARTSTORE_CAPABILITY(x) PARTSTORE_THREAD_ANNOTATION(capability(x))
#define PARTSTORE_SCOPED_CAPABILITY PARTSTORE_THREAD_ANNOTATION(scoped_lockable)
#define PARTSTORE_GUARDED_BY(x) PARTSTORE_THREAD_ANNOTATION(guarded_by(x))
#define PARTSTORE_REQUIRES(...) PARTSTORE_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define PARTSTORE_REQUIRES_SHARED(...) \
  PARTSTORE_THREAD_ANNOTATION(requires_shared_capability(__VA_ARGS__))
#define PARTSTORE_ACQUIRE(...) PARTSTORE_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define PARTSTORE_ACQUIRE_SHARED(...) \
  PARTSTORE_THREAD_ANNOTATION(acquire_shared_capability(__VA_ARGS__))
#define PARTSTORE_RELEASE(...) PARTSTORE_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define PARTSTORE_RELEASE_SHARED(...) \
  PARTSTORE_THREAD_ANNOTATION(release_shared_capability(__VA_ARGS__))
#define PARTSTORE_RELEASE_GENERIC(...) \
  PARTSTORE_THREAD_ANNOTATION(release_generic_capability(__VA_ARGS__))
#define PARTSTORE_ASSERT_CAPABILITY(x) PARTSTORE_THREAD_ANNOTATION(assert_capability(x))
#define PARTSTORE_ASSERT_SHARED_CAPABILITY(x) \
  PARTSTORE_THREAD_ANNOTATION(assert_shared_capability(x))
#define PARTSTORE_RETURN_CAPABILITY(x) PARTSTORE_THREAD_ANNOTATION(lock_returned(x))
#define PARTSTORE_NO_THREAD_SAFETY_ANALYSIS PARTSTORE_THREAD_ANNOTATION(no_thread_safety_analysis)
