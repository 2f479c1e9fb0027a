#include "formats/cbor/deterministic.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "formats/cbor/wire.h"

namespace jitser::cbor {
namespace {

// Copies one item from `p` to the end of `to`, its maps sorted, and steps `p` past it.
class Sorter {
 public:
  explicit Sorter(const std::uint8_t* end) : end_(end) {}

  bool item(const std::uint8_t*& p, std::string& to) {
    const std::uint8_t* start = p;
    Head h;
    if (get_head(p, end_, h) != HeadStatus::ok || h.indefinite) return false;
    to.append(reinterpret_cast<const char*>(start), static_cast<std::size_t>(p - start));
    switch (h.major) {
      case Major::Bytes:
      case Major::Text:
        if (h.n > static_cast<std::uint64_t>(end_ - p)) return false;
        to.append(reinterpret_cast<const char*>(p), h.n);
        p += h.n;
        return true;
      case Major::Array:
        for (std::uint64_t i = 0; i < h.n; ++i) {
          if (!item(p, to)) return false;
        }
        return true;
      case Major::Map: return map(p, h.n, to);
      case Major::Tag: return item(p, to);
      default: return true;
    }
  }

 private:
  // A map's entries, each key and value copied (and sorted within) in turn, then put in the
  // order of their keys' bytes.
  bool map(const std::uint8_t*& p, std::uint64_t n, std::string& to) {
    struct Entry {
      std::size_t key, value, end;  // offsets into `entries`
    };
    std::string entries;
    std::vector<Entry> order;
    for (std::uint64_t i = 0; i < n; ++i) {
      Entry e{.key = entries.size(), .value = 0, .end = 0};
      if (!item(p, entries)) return false;
      e.value = entries.size();
      if (!item(p, entries)) return false;
      e.end = entries.size();
      order.push_back(e);
    }
    const auto key = [&](const Entry& e) {
      return std::string_view(entries).substr(e.key, e.value - e.key);
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](const Entry& a, const Entry& b) { return key(a) < key(b); });
    for (const Entry& e : order) to.append(entries, e.key, e.end - e.key);
    return true;
  }

  const std::uint8_t* end_;
};

}  // namespace

bool sort_map_keys(Buffer& out) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(out.data());
  const std::uint8_t* end = p + out.size();
  std::string sorted;
  sorted.reserve(out.size());
  Sorter sorter(end);
  if (!sorter.item(p, sorted) || p != end) return false;
  out.clear();
  out.append(sorted.data(), sorted.size());
  return true;
}

}  // namespace jitser::cbor
