// CBOR with libcbor, the library our users have: what jitser writes for each payload, libcbor
// loads and its binding reads back to the same value, and what libcbor writes jitser reads
// back equal. The bytes differ where the RFC allows a choice: libcbor's cbor_encode_double
// writes every double in eight bytes, jitser in the shortest width that keeps it. Run per
// JITSER_JIT policy like the rest of the suite, so both tiers are covered.
#include "bench/peers/cbor_peers.h"
#include "support.h"

namespace jitser {
namespace {

using bench::cbor_peers::LibCbor;

TEST(CborInterop, LibcborReadsWhatJitserWritesAndTheReverse) {
  Engine e;
  ASSERT_TRUE(payloads::register_all(e).ok());
  bench::cbor_peers::for_each_payload([&](const char* name, const auto& value) {
    using T = std::decay_t<decltype(value)>;
    SCOPED_TRACE(name);
    Codec<T> codec = test::codec_of<T>(e, Format::Cbor);
    Buffer ours;
    ASSERT_TRUE(codec.serialize(value, ours).ok());

    LibCbor<T> peer(T{});
    ASSERT_TRUE(peer.read(ours.bytes()));
    EXPECT_TRUE(peer.value() == value);

    LibCbor<T> writer(value);
    const std::span<const std::uint8_t> theirs = writer.write();
    T back{};
    const Status s = codec.deserialize(theirs, back);
    ASSERT_TRUE(s.ok()) << s.to_string();
    EXPECT_TRUE(back == value);
  });
}

}  // namespace
}  // namespace jitser
