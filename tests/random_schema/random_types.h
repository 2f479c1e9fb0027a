// What every generated file of random types includes (generate.py writes them), and the table
// of the seeds a test binary was built with.
#pragma once

#include <array>
#include <chrono>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <jitser/jitser.h>

namespace jitser::random_schema {

/// One seed's types: register them into an engine, then ask for a codec of each struct name.
struct Schema {
  std::uint64_t seed;
  Status (*register_types)(Engine& engine);
  const std::vector<std::string>& (*struct_names)();
};

/// The seeds generated into this binary (schemas.cpp, written by generate.py).
const std::vector<Schema>& schemas();

/// A memory resource over new and delete that knows which of its blocks are live, so that a
/// test can ask whether an object lies in memory from it.
class TrackedResource : public std::pmr::memory_resource {
 public:
  /// Whether `p` lies inside a block this resource handed out and has not taken back.
  bool holds(const void* p) const;

 private:
  void* do_allocate(std::size_t bytes, std::size_t align) override;
  void do_deallocate(void* p, std::size_t bytes, std::size_t align) override;
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }
  mutable std::mutex mutex_;
  std::map<const std::byte*, std::size_t> blocks_;  // start, size
};

/// The resource the generated allocator-aware structs are made with by default.
TrackedResource* tracked_resource();

}  // namespace jitser::random_schema
