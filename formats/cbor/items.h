// Reading CBOR items that take more than a head (docs/formats/cbor.md, "Reading"): tags
// stepped over, strings whole from their chunks, integers from bignums, decimal fractions and
// times. The typed reader (cbor_ops.cpp) and jitser::Value's reader (value_cbor.cpp) both read
// through these, so they accept the same items and word the same failures.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <jitser/status.h>
#include <jitser/type_desc.h>

#include "formats/cbor/read_rules.h"
#include "formats/cbor/time_rules.h"
#include "formats/cbor/wire.h"

namespace jitser::cbor {

/// What went wrong, and where in the input.
struct Failure {
  Errc code = Errc::ok;
  std::string message;
  const std::uint8_t* at = nullptr;

  bool set(Errc c, std::string m, const std::uint8_t* where) {
    code = c;
    message = std::move(m);
    at = where;
    return false;
  }
};

/// What a head's item is, for messages ("a text string").
const char* item_name(const Head& h);

/// The head at p, well-formed.
bool read_head(const std::uint8_t*& p, const std::uint8_t* end, Head& h, Failure& f);

/// The innermost tag before an item, if any: every number is a tag's, 2^64 - 1 too.
struct Tag {
  bool present = false;
  std::uint64_t number = 0;
  bool is(std::uint64_t n) const { return present && number == n; }
};

/// The head of the item at p with the tags before it stepped over, the innermost in `tag`.
bool read_untagged(const std::uint8_t*& p, const std::uint8_t* end, Head& h, Tag& tag, Failure& f);

/// A byte or text string's bytes, its head h read (p after it; the item starts at `start`): in
/// the input for a definite string, else its chunks joined in `scratch`. A text string's are
/// checked as UTF-8.
bool read_string(const std::uint8_t*& p, const std::uint8_t* end, const Head& h,
                 std::string& scratch, std::string_view& out, const std::uint8_t* start,
                 Failure& f);

/// The text of a raw key (a struct's key as a reader compares it: a text string or an integer
/// in its shortest head), for finding the field it names when its bytes matched no field's key
/// as written: a text string's own, or an integer's decimal digits (in `scratch`), which name
/// only a field so named. False for text that is not UTF-8.
bool key_text(const std::uint8_t* raw, std::string& scratch, std::string_view& text);

/// An integer: major type 0 or 1, or a bignum (tag 2 or 3) of at most 64 bits. h and tag as
/// read_untagged gave them; `start` is where the item began.
bool read_integer(const std::uint8_t*& p, const std::uint8_t* end, const Head& h, Tag tag,
                  Integer& v, const std::uint8_t* start, Failure& f);

/// A decimal fraction (tag 4 before h): [exponent, mantissa], each an integer that the Decimal
/// holds.
bool read_decimal(const std::uint8_t*& p, const std::uint8_t* end, const Head& h, Decimal& out,
                  const std::uint8_t* start, Failure& f);

/// A time as ticks of `unit`: tag 0 (RFC 3339 text), tag 1 (epoch seconds, an integer or a
/// float) or tag 1001 (its map of seconds and a fraction) before h.
bool read_time(const std::uint8_t*& p, const std::uint8_t* end, const Head& h, Tag tag,
               TimeUnit unit, std::int64_t& ticks, const std::uint8_t* start, Failure& f);

/// A timestamp as tag 0 and RFC 3339 text with as few fraction digits as it needs; null outside
/// the years 0001 to 9999, which RFC 3339 cannot write. At most kMaxTimeText bytes.
std::uint8_t* put_time_text(std::uint8_t* out, std::int64_t ticks, TimeUnit unit);

/// An array's or map's items, its head h read (p after it; the item starts at `at`): n of them,
/// bounded by the input left at `per_item` bytes each, or up to the break of an indefinite one.
/// `each` reads one (for a map, one entry).
template <class Each>
bool read_items(const std::uint8_t*& p, const std::uint8_t* end, const Head& h,
                std::uint64_t per_item, const std::uint8_t* at, Failure& f, Each each) {
  if (!h.indefinite) {
    if (h.n > static_cast<std::uint64_t>(end - p) / per_item) {
      return f.set(Errc::length_too_large,
                   std::string(item_name(h)) + " of " + std::to_string(h.n) + " items in " +
                       std::to_string(end - p) + " bytes",
                   at);
    }
    for (std::uint64_t i = 0; i < h.n; ++i) {
      if (!each()) return false;
    }
    return true;
  }
  for (;;) {
    if (p == end) return f.set(Errc::truncated, head_fault(HeadStatus::truncated), end);
    if (*p == kBreak) {
      ++p;
      return true;
    }
    if (!each()) return false;
  }
}

}  // namespace jitser::cbor
