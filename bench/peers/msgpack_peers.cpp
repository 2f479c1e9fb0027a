// msgpack-cxx bound to the payloads (msgpack_peers.h): structs of the same fields, annotated as
// its documentation shows, in each layout.
#include "bench/peers/msgpack_peers.h"

#include <array>
#include <map>
#include <msgpack.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace jitser::bench::msgpack_peers {
namespace {

using payloads::Player;
using payloads::Size;

// The payload structs' fields, with `DEFINE` naming them for msgpack-cxx. A value class is its
// one field, as jitser writes it; Foo, FooImmutable and FooWithDefault share one shape.
#define JITSER_MSGPACK_PEER_STRUCTS(DEFINE)                                                 \
  struct Image {                                                                            \
    std::string uri;                                                                        \
    std::optional<std::string> title;                                                       \
    std::int32_t width = 0;                                                                 \
    std::int32_t height = 0;                                                                \
    Size size = Size::SMALL;                                                                \
    DEFINE(uri, title, width, height, size);                                                \
  };                                                                                        \
  struct Media {                                                                            \
    std::string uri;                                                                        \
    std::optional<std::string> title;                                                       \
    std::int32_t width = 0;                                                                 \
    std::int32_t height = 0;                                                                \
    std::string format;                                                                     \
    std::int64_t duration = 0;                                                              \
    std::int64_t size = 0;                                                                  \
    std::int32_t bitrate = 0;                                                               \
    bool hasBitrate = false;                                                                \
    std::vector<std::string> persons;                                                       \
    Player player = Player::JAVA;                                                           \
    std::optional<std::string> copyright;                                                   \
    DEFINE(uri, title, width, height, format, duration, size, bitrate, hasBitrate, persons, \
           player, copyright);                                                              \
  };                                                                                        \
  struct MediaContent {                                                                     \
    Media media;                                                                            \
    std::vector<Image> images;                                                              \
    DEFINE(media, images);                                                                  \
  };                                                                                        \
  struct A1 {                                                                               \
    std::int32_t id = 0;                                                                    \
    std::string name;                                                                       \
    double score = 0;                                                                       \
    bool active = false;                                                                    \
    std::vector<std::string> tags;                                                          \
    std::int64_t timestamp = 0;                                                             \
    DEFINE(id, name, score, active, tags, timestamp);                                       \
  };                                                                                        \
  struct Foo {                                                                              \
    std::string bar;                                                                        \
    std::int32_t baz = 0;                                                                   \
    DEFINE(bar, baz);                                                                       \
  };                                                                                        \
  struct FooWithValueClass {                                                                \
    std::string bar;                                                                        \
    std::int32_t bizz = 0;                                                                  \
    DEFINE(bar, bizz);                                                                      \
  };                                                                                        \
  struct StringList {                                                                       \
    std::vector<std::string> items;                                                         \
    DEFINE(items);                                                                          \
  };                                                                                        \
  struct StringMap {                                                                        \
    std::map<std::string, std::string> items;                                               \
    DEFINE(items);                                                                          \
  }

struct AsMap {
  JITSER_MSGPACK_PEER_STRUCTS(MSGPACK_DEFINE_MAP);
};
struct AsArray {
  JITSER_MSGPACK_PEER_STRUCTS(MSGPACK_DEFINE);
};
#undef JITSER_MSGPACK_PEER_STRUCTS

// The payload value as the peer's struct of layout L, and back.
template <class L>
typename L::Image to_peer(L, const payloads::Image& v) {
  return {v.uri, v.title, v.width, v.height, v.size};
}
template <class L>
payloads::Image from_peer(const typename L::Image& p, L) {
  return {p.uri, p.title, p.width, p.height, p.size};
}
template <class L>
typename L::MediaContent to_peer(L l, const payloads::MediaContent& v) {
  const payloads::Media& m = v.media;
  typename L::MediaContent p{{m.uri, m.title, m.width, m.height, m.format, m.duration, m.size,
                              m.bitrate, m.hasBitrate, m.persons, m.player, m.copyright},
                             {}};
  for (const payloads::Image& image : v.images) p.images.push_back(to_peer(l, image));
  return p;
}
template <class L>
payloads::MediaContent from_peer(const typename L::MediaContent& p, L l) {
  const typename L::Media& m = p.media;
  payloads::MediaContent v{{m.uri, m.title, m.width, m.height, m.format, m.duration, m.size,
                            m.bitrate, m.hasBitrate, m.persons, m.player, m.copyright},
                           {}};
  for (const typename L::Image& image : p.images) v.images.push_back(from_peer(image, l));
  return v;
}
template <class L>
typename L::A1 to_peer(L, const payloads::A1& v) {
  return {v.id, v.name, v.score, v.active, v.tags, v.timestamp};
}
template <class L>
payloads::A1 from_peer(const typename L::A1& p, L) {
  return {p.id, p.name, p.score, p.active, p.tags, p.timestamp};
}
template <class L, class Foo>
requires std::is_same_v<Foo, payloads::Foo> || std::is_same_v<Foo, payloads::FooImmutable> ||
    std::is_same_v<Foo, payloads::FooWithDefault>
typename L::Foo to_peer(L, const Foo& v) { return {v.bar, v.baz}; }
template <class L>
payloads::FooWithValueClass from_peer(const typename L::FooWithValueClass& p, L) {
  return {p.bar, {p.bizz}};
}
template <class L>
typename L::FooWithValueClass to_peer(L, const payloads::FooWithValueClass& v) {
  return {v.bar, v.bizz.value};
}
template <class L>
typename L::StringList to_peer(L, const payloads::StringList& v) {
  return {v.items};
}
template <class L>
payloads::StringList from_peer(const typename L::StringList& p, L) {
  return {p.items};
}
template <class L>
typename L::StringMap to_peer(L, const payloads::StringMap& v) {
  return {v.items};
}
template <class L>
payloads::StringMap from_peer(const typename L::StringMap& p, L) {
  return {p.items};
}

// The payload type T as read back from a peer struct: the Foo shapes by T.
template <class T, class P, class L>
T back(const P& p, L l) {
  if constexpr (std::is_same_v<P, typename L::Foo>) {
    return T{p.bar, p.baz};
  } else {
    return from_peer<L>(p, l);
  }
}

// One layout's struct and buffer.
template <class T, class L>
struct Held {
  using Peer = decltype(to_peer(L{}, std::declval<const T&>()));
  Peer peer;
  msgpack::sbuffer buffer;
};

}  // namespace
}  // namespace jitser::bench::msgpack_peers

// Enums by name, as jitser writes them.
namespace msgpack {
MSGPACK_API_VERSION_NAMESPACE(MSGPACK_DEFAULT_API_NS) {
  namespace adaptor {

  template <class E>
  constexpr std::array<std::string_view, 2> kEnumNames =
      std::is_same_v<E, jitser::payloads::Player>
          ? std::array<std::string_view, 2>{"JAVA", "FLASH"}
          : std::array<std::string_view, 2>{"SMALL", "LARGE"};

  template <class E>
  requires std::is_same_v<E, jitser::payloads::Player> || std::is_same_v<E, jitser::payloads::Size>
  struct pack<E> {
    template <class Stream>
    packer<Stream>& operator()(packer<Stream>& o, E v) const {
      const std::string_view name = kEnumNames<E>.at(static_cast<std::size_t>(v));
      o.pack_str(static_cast<std::uint32_t>(name.size()));
      o.pack_str_body(name.data(), static_cast<std::uint32_t>(name.size()));
      return o;
    }
  };

  template <class E>
  requires std::is_same_v<E, jitser::payloads::Player> || std::is_same_v<E, jitser::payloads::Size>
  struct convert<E> {
    const msgpack::object& operator()(const msgpack::object& o, E& v) const {
      if (o.type != msgpack::type::STR) throw msgpack::type_error();
      const std::string_view name(o.via.str.ptr, o.via.str.size);
      for (std::size_t i = 0; i < kEnumNames<E>.size(); ++i) {
        if (kEnumNames<E>[i] == name) {
          v = static_cast<E>(i);
          return o;
        }
      }
      throw msgpack::type_error();
    }
  };

  }  // namespace adaptor
}
}  // namespace msgpack

namespace jitser::bench::msgpack_peers {

template <class T>
struct MsgpackCxx<T>::Impl {
  std::variant<Held<T, AsMap>, Held<T, AsArray>> held;
};

template <class T>
MsgpackCxx<T>::MsgpackCxx(Layout layout, const T& value) : impl_(std::make_unique<Impl>()) {
  if (layout == Layout::Map) {
    impl_->held = Held<T, AsMap>{to_peer(AsMap{}, value), {}};
  } else {
    impl_->held = Held<T, AsArray>{to_peer(AsArray{}, value), {}};
  }
}

template <class T>
MsgpackCxx<T>::~MsgpackCxx() = default;

template <class T>
std::span<const std::uint8_t> MsgpackCxx<T>::write() {
  return std::visit(
      [](auto& h) {
        h.buffer.clear();
        msgpack::pack(h.buffer, h.peer);
        return std::span(reinterpret_cast<const std::uint8_t*>(h.buffer.data()), h.buffer.size());
      },
      impl_->held);
}

template <class T>
bool MsgpackCxx<T>::read(std::span<const std::uint8_t> bytes) {
  return std::visit(
      [&](auto& h) {
        try {
          const msgpack::object_handle handle =
              msgpack::unpack(reinterpret_cast<const char*>(bytes.data()), bytes.size());
          handle.get().convert(h.peer);
          return true;
        } catch (const std::exception&) {
          return false;
        }
      },
      impl_->held);
}

template <class T>
T MsgpackCxx<T>::value() const {
  return std::visit(
      [](const auto& h) {
        using L = std::conditional_t<std::is_same_v<std::decay_t<decltype(h)>, Held<T, AsMap>>,
                                     AsMap, AsArray>;
        return back<T>(h.peer, L{});
      },
      impl_->held);
}

template class MsgpackCxx<payloads::MediaContent>;
template class MsgpackCxx<payloads::A1>;
template class MsgpackCxx<payloads::Foo>;
template class MsgpackCxx<payloads::FooImmutable>;
template class MsgpackCxx<payloads::FooWithDefault>;
template class MsgpackCxx<payloads::FooWithValueClass>;
template class MsgpackCxx<payloads::StringList>;
template class MsgpackCxx<payloads::StringMap>;

}  // namespace jitser::bench::msgpack_peers
