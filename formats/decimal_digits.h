// Decimal digits as text, for the formats that write numbers and times as text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace jitser {

/// Decimal digits of v, at least `min_digits` of them (zeros in front).
inline char* put_digits(char* out, std::uint64_t v, int min_digits = 1) {
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  int n = 1;
  for (std::uint64_t rest = v; rest >= 10; rest /= 10) ++n;
  if (n < min_digits) {
    std::memset(out, '0', static_cast<std::size_t>(min_digits - n));
    out += min_digits - n;
  }
  // From the last digit back, two at a time.
  char* p = out + n;
  while (v >= 100) {
    const std::size_t pair = static_cast<std::size_t>(v % 100) * 2;
    v /= 100;
    p -= 2;
    std::memcpy(p, kPairs + pair, 2);
  }
  if (v >= 10) {
    std::memcpy(p - 2, kPairs + v * 2, 2);
  } else {
    p[-1] = static_cast<char>('0' + v);
  }
  return out + n;
}

/// Reads the decimal digits at text[*i...] into *v, *i past them, and their number into *count;
/// false when there are none or they overflow 64 bits.
inline bool get_digits(std::string_view text, std::size_t* i, std::uint64_t* v,
                       std::size_t* count = nullptr) {
  const std::size_t start = *i;
  *v = 0;
  for (; *i < text.size() && text[*i] >= '0' && text[*i] <= '9'; ++*i) {
    if (__builtin_mul_overflow(*v, 10u, v) ||
        __builtin_add_overflow(*v, static_cast<unsigned>(text[*i] - '0'), v))
      return false;
  }
  if (count) *count = *i - start;
  return *i > start;
}

}  // namespace jitser
