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

}  // namespace jitser::random_schema
