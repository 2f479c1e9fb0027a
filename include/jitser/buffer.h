// Buffer: the growable byte buffer serializers write into. Reuse one across calls to serialize
// without allocating: `clear()` keeps the capacity.
//
// PaddedInput and PaddedString: input with readable bytes after its end, which the JSON reader
// (simdjson) needs to read in place. Without them it copies the input into a padded buffer of
// its own first; the binary format never needs padding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace jitser {

/// The readable bytes past its end that input needs for JSON to be read in place.
inline constexpr std::size_t kReadPadding = 64;

/// Input followed by `padding` bytes that may be read but are not part of it: JSON is read in
/// place when `padding >= kReadPadding`.
struct PaddedInput {
  std::span<const std::uint8_t> bytes;
  std::size_t padding = 0;
};

/// Owned text or bytes followed by kReadPadding zero bytes, as simdjson's padded_string: fill
/// it once (from a string, or through `data()` after `resize`, from a file or a socket) and
/// every codec reads it in place.
///
///   jitser::PaddedString json(text);          // one copy, here
///   codec->deserialize(json, value);          // none here, in either tier
class PaddedString {
 public:
  PaddedString() = default;
  explicit PaddedString(std::string_view text) { assign(text); }
  PaddedString(const PaddedString& other) { assign(other.view()); }
  PaddedString& operator=(const PaddedString& other) {
    if (this != &other) assign(other.view());
    return *this;
  }
  PaddedString(PaddedString&& other) noexcept
      : bytes_(std::move(other.bytes_)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  PaddedString& operator=(PaddedString&& other) noexcept {
    bytes_ = std::move(other.bytes_);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    return *this;
  }

  void assign(std::string_view text) {
    resize(text.size());
    if (!text.empty()) std::memcpy(data(), text.data(), text.size());
  }
  /// Makes the content `n` bytes long, keeping what fits; bytes beyond the old size are zero.
  void resize(std::size_t n) {
    if (n > capacity_) {
      auto bigger = std::make_unique<char[]>(n + kReadPadding);  // zeroed
      if (size_) std::memcpy(bigger.get(), bytes_.get(), size_);
      bytes_ = std::move(bigger);
      capacity_ = n;
    } else if (n < size_) {
      std::memset(bytes_.get() + n, 0, size_ - n);
    }
    size_ = n;
  }

  char* data() { return bytes_.get(); }
  const char* data() const { return bytes_.get(); }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::string_view view() const { return {bytes_.get(), size_}; }
  /// The content, and the padding after it.
  operator PaddedInput() const {
    return {{reinterpret_cast<const std::uint8_t*>(bytes_.get()), size_},
            bytes_ ? capacity_ - size_ + kReadPadding : 0};
  }

 private:
  std::unique_ptr<char[]> bytes_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;  // content the allocation holds, not counting the padding
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
  /// The bytes written so far, for a writer that fills in a length it left room for.
  std::uint8_t* data() { return data_.get(); }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  std::span<const std::uint8_t> bytes() const { return {data_.get(), size_}; }
  std::vector<std::uint8_t> to_vector() const { return {data_.get(), data_.get() + size_}; }
  /// The content with the spare capacity after it as padding: `reserve(size() + kReadPadding)`
  /// first, and JSON is read from the buffer without a copy.
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
