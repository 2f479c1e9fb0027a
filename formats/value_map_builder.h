// A jitser::Value map read from a format whose keys may be of any type (MessagePack, CBOR): a
// Value::Map while every key is a string, so that the common document reads as the common
// type, and Value::Entries from the first key that is not, in the order read.
#pragma once

#include <utility>

#include <jitser/value.h>

namespace jitser {

class ValueMapBuilder {
 public:
  void add(Value key, Value value) {
    if (string_keys_ && key.type() == Value::Type::String) {
      members_.emplace_back(std::move(key.as_string()), std::move(value));
      return;
    }
    if (string_keys_) {
      string_keys_ = false;
      for (Value::Member& m : members_) {
        entries_.emplace_back(Value(std::move(m.first)), std::move(m.second));
      }
      members_.clear();
    }
    entries_.emplace_back(std::move(key), std::move(value));
  }

  Value finish() && {
    return string_keys_ ? Value(std::move(members_)) : Value(std::move(entries_));
  }

 private:
  bool string_keys_ = true;
  Value::Map members_;
  Value::Entries entries_;
};

}  // namespace jitser
