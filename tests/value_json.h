// Comparing a jitser::Value with what nlohmann/json reads, for the conformance tests of the
// formats whose suites give their cases' values as JSON.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <jitser/value.h>

namespace jitser::test {

/// Whether a jitser::Value holds what nlohmann/json reads from the same document. A repeated key:
/// a Value keeps every member, nlohmann the last one's value. Bytes and decimals, which JSON
/// has not, agree with nothing.
inline ::testing::AssertionResult agrees(const Value& v, const nlohmann::ordered_json& j) {
  auto no = [&] {
    return ::testing::AssertionFailure()
           << "nlohmann reads " << j.dump() << ", jitser a " << value_type_name(v.type());
  };
  switch (v.type()) {
    case Value::Type::Null: return j.is_null() ? ::testing::AssertionSuccess() : no();
    case Value::Type::Bool:
      return j.is_boolean() && j.get<bool>() == v.as_bool() ? ::testing::AssertionSuccess() : no();
    case Value::Type::Int:
      return j.is_number_integer() && j.get<std::int64_t>() == v.as_int()
                 ? ::testing::AssertionSuccess()
                 : no();
    case Value::Type::UInt:
      return j.is_number_unsigned() && j.get<std::uint64_t>() == v.as_uint()
                 ? ::testing::AssertionSuccess()
                 : no();
    case Value::Type::Double:
      return j.is_number() && j.get<double>() == v.as_double() ? ::testing::AssertionSuccess()
                                                               : no();
    case Value::Type::Float:
      return j.is_number() && j.get<double>() == static_cast<double>(v.as_float())
                 ? ::testing::AssertionSuccess()
                 : no();
    case Value::Type::String:
      return j.is_string() && j.get<std::string>() == v.as_string() ? ::testing::AssertionSuccess()
                                                                    : no();
    case Value::Type::Array: {
      if (!j.is_array() || j.size() != v.as_array().size()) return no();
      for (std::size_t i = 0; i < j.size(); ++i) {
        if (auto r = agrees(v.as_array()[i], j[i]); !r) return r;
      }
      return ::testing::AssertionSuccess();
    }
    case Value::Type::Map: {
      if (!j.is_object()) return no();
      std::size_t distinct = 0;
      for (std::size_t i = 0; i < v.as_map().size(); ++i) {
        const auto& [key, value] = v.as_map()[i];
        bool later = false;
        for (std::size_t k = i + 1; k < v.as_map().size(); ++k) later |= v.as_map()[k].first == key;
        if (later) continue;
        ++distinct;
        if (!j.contains(key)) return no() << " (key " << key << ")";
        if (auto r = agrees(value, j.at(key)); !r) return r;
      }
      return distinct == j.size() ? ::testing::AssertionSuccess() : no();
    }
    default: return no();
  }
}

}  // namespace jitser::test
