#include "formats/cbor/items.h"

#include <cstring>

#include "typeinfo/utf8.h"

namespace jitser::cbor {

const char* item_name(const Head& h) {
  switch (h.major) {
    case Major::Unsigned:
    case Major::Negative: return "an integer";
    case Major::Bytes: return "a byte string";
    case Major::Text: return "a text string";
    case Major::Array: return "an array";
    case Major::Map: return "a map";
    case Major::Tag: return "a tag";
    case Major::Simple: break;
  }
  if (h.float_bytes) return "a float";
  switch (h.n) {
    case 20:
    case 21: return "a bool";
    case 22: return "null";
    case 23: return "undefined";
    default: return "a simple value";
  }
}

bool read_head(const std::uint8_t*& p, const std::uint8_t* end, Head& h, Failure& f) {
  const std::uint8_t* at = p;
  const HeadStatus s = get_head(p, end, h);
  if (s == HeadStatus::ok) return true;
  const Errc code = s == HeadStatus::truncated ? Errc::truncated : Errc::syntax_error;
  return f.set(code, head_fault(s), s == HeadStatus::truncated ? end : at);
}

bool read_untagged(const std::uint8_t*& p, const std::uint8_t* end, Head& h, Tag& tag, Failure& f) {
  tag = {};
  for (;;) {
    if (!read_head(p, end, h, f)) return false;
    if (h.major != Major::Tag) return true;
    tag = {true, h.n};
  }
}

bool read_string(const std::uint8_t*& p, const std::uint8_t* end, const Head& h,
                 std::string& scratch, std::string_view& out, const std::uint8_t* start,
                 Failure& f) {
  const bool text = h.major == Major::Text;
  if (!h.indefinite) {
    if (h.n > static_cast<std::uint64_t>(end - p)) {
      return f.set(Errc::length_too_large,
                   std::string(item_name(h)) + " of " + std::to_string(h.n) + " bytes, " +
                       std::to_string(end - p) + " left",
                   start);
    }
    if (text && !valid_utf8(p, h.n)) return f.set(Errc::invalid_utf8, "text is not UTF-8", start);
    out = {reinterpret_cast<const char*>(p), static_cast<std::size_t>(h.n)};
    p += h.n;
    return true;
  }
  scratch.clear();
  switch (get_chunks(p, end, h.major, [&](const std::uint8_t* bytes, std::size_t n) {
    if (text && !valid_utf8(bytes, n)) return false;
    scratch.append(reinterpret_cast<const char*>(bytes), n);
    return true;
  })) {
    case ChunkStatus::ok: break;
    case ChunkStatus::truncated:
      return f.set(Errc::truncated, head_fault(HeadStatus::truncated), end);
    case ChunkStatus::too_long:
      return f.set(Errc::length_too_large, "a chunk longer than the input left", p);
    case ChunkStatus::bad_chunk:
      return f.set(Errc::syntax_error,
                   std::string("a chunk of an indefinite-length ") + (text ? "text" : "byte") +
                       " string that is not a definite one of its type",
                   p);
    case ChunkStatus::rejected: return f.set(Errc::invalid_utf8, "text is not UTF-8", p);
  }
  out = scratch;
  return true;
}

bool read_integer(const std::uint8_t*& p, const std::uint8_t* end, const Head& h, Tag tag,
                  Integer& v, const std::uint8_t* start, Failure& f) {
  if (h.major == Major::Unsigned || h.major == Major::Negative) {
    v = {h.major == Major::Negative, h.n};
    return true;
  }
  if (h.major != Major::Bytes || (!tag.is(kTagPositiveBignum) && !tag.is(kTagNegativeBignum))) {
    return f.set(Errc::type_mismatch, std::string("expected an integer, found ") + item_name(h),
                 start);
  }
  std::string scratch;
  std::string_view magnitude;
  if (!read_string(p, end, h, scratch, magnitude, start, f)) return false;
  v.negative = tag.is(kTagNegativeBignum);
  if (!bignum_magnitude(reinterpret_cast<const std::uint8_t*>(magnitude.data()), magnitude.size(),
                        v.n)) {
    return f.set(Errc::out_of_range, "a bignum beyond 64 bits", start);
  }
  return true;
}

namespace {

// An integer item, tags and all.
bool next_integer(const std::uint8_t*& p, const std::uint8_t* end, Integer& v, Failure& f) {
  const std::uint8_t* at = p;
  Head h;
  Tag tag;
  return read_untagged(p, end, h, tag, f) && read_integer(p, end, h, tag, v, at, f);
}

// An array or map of exactly n items (pairs for a map), definite or indefinite: `each` reads
// the items, and an indefinite one must end after them.
template <class Each>
bool exactly(const std::uint8_t*& p, const std::uint8_t* end, const Head& h, std::uint64_t n,
             const char* what, const std::uint8_t* start, Failure& f, Each each) {
  if (!h.indefinite && h.n != n) {
    return f.set(Errc::type_mismatch, std::string(what) + " of " + std::to_string(h.n) + " items",
                 start);
  }
  if (!each()) return false;
  if (!h.indefinite) return true;
  if (p == end) return f.set(Errc::truncated, head_fault(HeadStatus::truncated), end);
  if (*p != kBreak) {
    return f.set(Errc::type_mismatch, std::string(what) + " of more items", start);
  }
  ++p;
  return true;
}

}  // namespace

bool read_decimal(const std::uint8_t*& p, const std::uint8_t* end, const Head& h, Decimal& out,
                  const std::uint8_t* start, Failure& f) {
  if (h.major != Major::Array) {
    return f.set(Errc::type_mismatch,
                 std::string("expected a decimal fraction, found ") + item_name(h), start);
  }
  return exactly(p, end, h, 2, "a decimal fraction", start, f, [&] {
    Integer exponent, mantissa;
    if (!next_integer(p, end, exponent, f)) return false;
    if (!scale_of(exponent, out.scale)) {
      return f.set(Errc::out_of_range, "a decimal fraction's exponent beyond an int32", start);
    }
    if (!next_integer(p, end, mantissa, f)) return false;
    if (!int_fits(mantissa, true, 8)) {
      return f.set(Errc::out_of_range, "a decimal fraction's mantissa beyond an int64", start);
    }
    out.unscaled = static_cast<std::int64_t>(int_bits(mantissa));
    return true;
  });
}

bool read_time(const std::uint8_t*& p, const std::uint8_t* end, const Head& h, Tag tag,
               TimeUnit unit, std::int64_t& ticks, const std::uint8_t* start, Failure& f) {
  auto seconds_of = [&](const Head& s, const std::uint8_t* at, std::int64_t& secs,
                        std::uint64_t& nanos) {
    if (s.float_bytes) {
      if (float_seconds(float_value(s), secs, nanos)) return true;
      return f.set(Errc::out_of_range, "a time beyond int64 seconds", at);
    }
    Integer v;
    if (s.major != Major::Unsigned && s.major != Major::Negative) {
      return f.set(Errc::type_mismatch,
                   std::string("expected epoch seconds, found ") + item_name(s), at);
    }
    v = {s.major == Major::Negative, s.n};
    if (!int_fits(v, true, 8)) return f.set(Errc::out_of_range, "seconds beyond int64", at);
    secs = static_cast<std::int64_t>(int_bits(v));
    nanos = 0;
    return true;
  };
  std::int64_t secs = 0;
  std::uint64_t nanos = 0;
  if (tag.is(kTagTimeEpoch)) {
    if (!seconds_of(h, start, secs, nanos)) return false;
  } else if (tag.is(kTagExtendedTime) && h.major == Major::Map) {
    // Seconds (key 1) and at most one fraction (-3, -6 or -9: milli-, micro- or nanoseconds),
    // in either order; a fraction goes with whole seconds only.
    bool have_seconds = false, float_seconds_given = false, have_fraction = false;
    std::uint64_t fraction = 0;
    const bool ok = read_items(p, end, h, 2, start, f, [&] {
      const std::uint8_t* key_at = p;
      Integer key;
      if (!next_integer(p, end, key, f)) return false;
      const std::uint8_t* value_at = p;
      Head v;
      Tag inner;
      if (!read_untagged(p, end, v, inner, f)) return false;
      if (!key.negative && key.n == kExtendedSeconds && !have_seconds) {
        have_seconds = true;
        float_seconds_given = v.float_bytes != 0;
        return seconds_of(v, value_at, secs, nanos);
      }
      const int digits = key.negative ? static_cast<int>(key.n) + 1 : 0;
      if ((digits != 3 && digits != 6 && digits != 9) || have_fraction) {
        return f.set(Errc::unsupported, "extended time with a key jitser does not read", key_at);
      }
      have_fraction = true;
      std::uint64_t per_second = 1;
      for (int d = 0; d < digits; ++d) per_second *= 10;
      if (v.major != Major::Unsigned || v.n >= per_second) {
        return f.set(Errc::out_of_range, "a fraction of a second that is not below one second",
                     value_at);
      }
      fraction = v.n * (1000000000 / per_second);
      return true;
    });
    if (!ok) return false;
    if (!have_seconds) return f.set(Errc::syntax_error, "extended time without seconds", start);
    if (have_fraction) {
      if (float_seconds_given) {
        return f.set(Errc::syntax_error, "extended time with float seconds and a fraction", start);
      }
      nanos = fraction;
    }
  } else if (tag.is(kTagTimeText) && h.major == Major::Text) {
    std::string scratch;
    std::string_view text;
    if (!read_string(p, end, h, scratch, text, start, f)) return false;
    if (!time_text::parse_timestamp(text, unit, &ticks)) {
      return f.set(Errc::out_of_range,
                   "text under tag 0 that is not an RFC 3339 timestamp this field's unit can hold",
                   start);
    }
    return true;
  } else {
    return f.set(Errc::type_mismatch,
                 std::string("expected a time (tag 0, 1 or 1001), found ") + item_name(h), start);
  }
  if (!join_ticks(secs, nanos, unit, ticks)) {
    return f.set(Errc::out_of_range, "a time this field's unit cannot hold", start);
  }
  return true;
}

std::uint8_t* put_time_text(std::uint8_t* out, std::int64_t ticks, TimeUnit unit) {
  char text[time_text::kMaxChars];
  const char* end = time_text::put_timestamp(text, ticks, unit, time_text::Fraction::fewest_digits);
  if (!end) return nullptr;
  const auto n = static_cast<std::size_t>(end - text);
  out = put_text_head(put_head(out, Major::Tag, kTagTimeText), n);
  std::memcpy(out, text, n);
  return out + n;
}

bool key_text(const std::uint8_t* raw, std::string& scratch, std::string_view& text) {
  const std::uint8_t* p = raw;
  Head h;
  // The key was read whole, its head in its shortest form.
  if (get_head(p, p + kMaxHead, h) != HeadStatus::ok) return false;
  switch (h.major) {
    case Major::Text:
      text = {reinterpret_cast<const char*>(p), static_cast<std::size_t>(h.n)};
      return valid_utf8(p, h.n);
    case Major::Unsigned: scratch = std::to_string(h.n); break;
    // -1 - n, whose magnitude n + 1 may be 2^64.
    case Major::Negative:
      scratch = h.n == UINT64_MAX ? "-18446744073709551616" : "-" + std::to_string(h.n + 1);
      break;
    default: return false;
  }
  text = scratch;
  return true;
}

}  // namespace jitser::cbor
