// Which sanitizer a test binary is built with. Clang names them with __has_feature, GCC with
// __SANITIZE_*__; each macro is 0 or 1.
//   PARTSTORE_TEST_ASAN       AddressSanitizer (the ASan + UBSan tree)
//   PARTSTORE_TEST_SANITIZED  any sanitizer with its own heap (ASan, TSan, MSan)
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define PARTSTORE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PARTSTORE_TEST_ASAN 1
#endif
#endif
#ifndef PARTSTORE_TEST_ASAN
#define PARTSTORE_TEST_ASAN 0
#endif

#if PARTSTORE_TEST_ASAN || defined(__SANITIZE_THREAD__)
#define PARTSTORE_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define PARTSTORE_TEST_SANITIZED 1
#endif
#endif
#ifndef PARTSTORE_TEST_SANITIZED
#define PARTSTORE_TEST_SANITIZED 0
#endif
