// Reading a whole map into one that may hold entries, as every reader does: the entries it
// held are reused for those read (MapOps::refill_begin), so a map read again and again, as a
// server reads request after request, allocates nothing for entries it had.
#pragma once

#include <cstddef>
#include <cstdint>

#include <jitser/type_desc.h>

namespace jitser {

class MapRefill {
 public:
  /// Starts refilling the map at `map` of type `type`; `count` is the entries to come when the
  /// format says first, else UINT64_MAX.
  MapRefill(const TypeDesc& type, void* map, std::uint64_t count)
      : ops_(*type.map_ops), type_(&type), map_(map) {
    ops_.refill_begin(type_, map_, state_, count);
  }
  MapRefill(const MapRefill&) = delete;
  MapRefill& operator=(const MapRefill&) = delete;
  /// Frees the entries that were not reused.
  ~MapRefill() { ops_.refill_end(type_, state_); }

  /// Where to read the next key: a value of the key type, to overwrite.
  void* key() { return ops_.refill_key(type_, state_); }
  /// Puts the entry of the key just read into the map and returns its value to overwrite, with
  /// the key's place in the map in *stored_key; null when the key is there already.
  void* insert(const void** stored_key) {
    return ops_.refill_insert(type_, map_, state_, stored_key);
  }

 private:
  const MapOps& ops_;
  const TypeDesc* type_;
  void* map_;
  alignas(std::max_align_t) unsigned char state_[kMapRefillSize];
};

}  // namespace jitser
