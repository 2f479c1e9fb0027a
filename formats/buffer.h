// Buffer: the growable byte buffer serializers write into. Reuse one across calls to serialize
// without allocating: `clear()` keeps the capacity.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

namespace jitser {

/// Input followed by `padding` bytes that may be read but are not part of it. The JSON reader
/// (simdjson) reads up to 64 bytes past the end of its input: with at least that much padding it
/// reads in place, otherwise it first copies the input into a padded buffer of its own.
struct PaddedInput {
  std::span<const std::uint8_t> bytes;
  std::size_t padding = 0;
};

class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer& other) { append(other.data(), other.size()); }
  Buffer& operator=(const Buffer& other) {
    if (this != &other) {
      clear();
      append(other.data(), other.size());
    }
    return *this;
  }
  Buffer(Buffer&& other) noexcept
      : data_(std::move(other.data_)), size_(other.size_), capacity_(other.capacity_) {
    other.size_ = other.capacity_ = 0;
  }
  Buffer& operator=(Buffer&& other) noexcept {
    data_ = std::move(other.data_);
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.size_ = other.capacity_ = 0;
    return *this;
  }

  const std::uint8_t* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  std::span<const std::uint8_t> bytes() const { return {data_.get(), size_}; }
  std::vector<std::uint8_t> to_vector() const { return {data_.get(), data_.get() + size_}; }
  /// The content with the spare capacity after it as padding: `reserve(size() + 64)` first, and
  /// JSON is read from the buffer without a copy.
  PaddedInput padded() const { return {bytes(), capacity_ - size_}; }

  void clear() { size_ = 0; }
  void reserve(std::size_t n) {
    if (n > capacity_) grow_to(n);
  }

  /// Room for n more bytes at the end; write them, then `commit` how many were used.
  std::uint8_t* ensure(std::size_t n) {
    if (capacity_ - size_ < n) grow_to(size_ + n);
    return data_.get() + size_;
  }
  void commit(std::size_t n) { size_ += n; }
  /// Sets the size to `end - data()`, for writers that track their own cursor.
  void commit_to(const std::uint8_t* end) { size_ = static_cast<std::size_t>(end - data_.get()); }

  void append(const void* bytes, std::size_t n) {
    if (n == 0) return;
    std::memcpy(ensure(n), bytes, n);
    size_ += n;
  }

 private:
  void grow_to(std::size_t n) {
    std::size_t cap = capacity_ ? capacity_ : 64;
    while (cap < n) cap *= 2;
    auto bigger = std::make_unique_for_overwrite<std::uint8_t[]>(cap);
    if (size_) std::memcpy(bigger.get(), data_.get(), size_);
    data_ = std::move(bigger);
    capacity_ = cap;
  }

  std::unique_ptr<std::uint8_t[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace jitser
