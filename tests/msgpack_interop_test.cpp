// MessagePack with msgpack-cxx, the library our users have: what jitser writes for each payload,
// msgpack-cxx reads (MSGPACK_DEFINE_MAP, or MSGPACK_DEFINE for jitser's struct arrays) back to
// the same value, and what msgpack-cxx writes jitser reads back equal. Both are the same bytes:
// fields in declaration order, every integer in its shortest form, enums by name. Run per
// JITSER_JIT policy like the rest of the suite, so both tiers are covered.
#include "bench/peers/msgpack_peers.h"
#include "support.h"

namespace jitser {
namespace {

using bench::msgpack_peers::Layout;
using bench::msgpack_peers::MsgpackCxx;

// Each payload in one of msgpack-cxx's layouts, with jitser's options for it.
void check_layout(Layout layout, EngineOptions options) {
  Engine e(options);
  ASSERT_TRUE(payloads::register_all(e).ok());
  bench::msgpack_peers::for_each_payload([&](const char* name, const auto& value) {
    using T = std::decay_t<decltype(value)>;
    SCOPED_TRACE(name);
    Codec<T> codec = test::codec_of<T>(e, Format::Msgpack);
    Buffer ours;
    ASSERT_TRUE(codec.serialize(value, ours).ok());

    MsgpackCxx<T> peer(layout, T{});
    ASSERT_TRUE(peer.read(ours.bytes()));
    EXPECT_TRUE(peer.value() == value);

    MsgpackCxx<T> writer(layout, value);
    const std::span<const std::uint8_t> theirs = writer.write();
    EXPECT_EQ(test::to_hex(ours.bytes()), test::to_hex(theirs));
    T back{};
    const Status s = codec.deserialize(theirs, back);
    ASSERT_TRUE(s.ok()) << s.to_string();
    EXPECT_TRUE(back == value);
  });
}

TEST(MsgpackInterop, MsgpackCxxReadsWhatJitserWritesAndTheReverse) {
  check_layout(Layout::Map, {});
}

// MSGPACK_DEFINE's arrays in declaration order are EngineOptions::struct_arrays.
TEST(MsgpackInterop, TheArrayLayoutIsStructArrays) {
  check_layout(Layout::Array, {.struct_arrays = true});
}

// A reader of one layout refuses the other with a type mismatch (an array where a map goes,
// or the reverse), in both tiers alike.
TEST(MsgpackInterop, EachLayoutRefusesTheOther) {
  for (const bool arrays : {false, true}) {
    Engine e(EngineOptions{.struct_arrays = arrays});
    ASSERT_TRUE(payloads::register_all(e).ok());
    MsgpackCxx<payloads::A1> writer(arrays ? Layout::Map : Layout::Array, payloads::make_a1());
    payloads::A1 back;
    const Status s =
        test::codec_of<payloads::A1>(e, Format::Msgpack).deserialize(writer.write(), back);
    EXPECT_EQ(s.code(), Errc::type_mismatch) << s.to_string();
    EXPECT_EQ(s.offset(), 0u);
  }
}

}  // namespace
}  // namespace jitser
