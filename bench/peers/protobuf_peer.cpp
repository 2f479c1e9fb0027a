#include "bench/peers/protobuf_peer.h"

#include "payloads.pb.h"

namespace jitser::bench::protobuf_peer {
namespace {

using namespace payloads;

void to_proto(const Image& in, pb::Image& out) {
  out.set_uri(in.uri);
  if (in.title) out.set_title(*in.title);
  out.set_width(in.width);
  out.set_height(in.height);
  out.set_size(static_cast<pb::Size>(in.size));
}

void from_proto(const pb::Image& in, Image& out) {
  out.uri = in.uri();
  if (in.has_title()) {
    out.title = in.title();
  } else {
    out.title.reset();
  }
  out.width = in.width();
  out.height = in.height();
  out.size = static_cast<Size>(in.size());
}

void to_proto(const MediaContent& in, pb::MediaContent& out) {
  pb::Media& m = *out.mutable_media();
  const Media& media = in.media;
  m.set_uri(media.uri);
  if (media.title) m.set_title(*media.title);
  m.set_width(media.width);
  m.set_height(media.height);
  m.set_format(media.format);
  m.set_duration(media.duration);
  m.set_size(media.size);
  m.set_bitrate(media.bitrate);
  m.set_has_bitrate(media.hasBitrate);
  for (const std::string& p : media.persons) m.add_persons(p);
  m.set_player(static_cast<pb::Player>(media.player));
  if (media.copyright) m.set_copyright(*media.copyright);
  for (const Image& image : in.images) to_proto(image, *out.add_images());
}

void from_proto(const pb::MediaContent& in, MediaContent& out) {
  const pb::Media& m = in.media();
  Media& media = out.media;
  media.uri = m.uri();
  if (m.has_title()) {
    media.title = m.title();
  } else {
    media.title.reset();
  }
  media.width = m.width();
  media.height = m.height();
  media.format = m.format();
  media.duration = m.duration();
  media.size = m.size();
  media.bitrate = m.bitrate();
  media.hasBitrate = m.has_bitrate();
  media.persons.assign(m.persons().begin(), m.persons().end());
  media.player = static_cast<Player>(m.player());
  if (m.has_copyright()) {
    media.copyright = m.copyright();
  } else {
    media.copyright.reset();
  }
  out.images.resize(static_cast<std::size_t>(in.images_size()));
  for (int i = 0; i < in.images_size(); ++i) from_proto(in.images(i), out.images[i]);
}

template <class T, class P>
void copy_repeated(const std::vector<T>& in, P& out) {
  out.Reserve(static_cast<int>(in.size()));
  for (const T& v : in) out.Add(v);
}

template <class T, class P>
void copy_back(const P& in, std::vector<T>& out) {
  out.resize(static_cast<std::size_t>(in.size()));
  for (int i = 0; i < in.size(); ++i) out[static_cast<std::size_t>(i)] = static_cast<T>(in.Get(i));
}

void to_proto(const Sample& in, pb::Sample& out) {
  out.set_int_value(in.intValue);
  out.set_long_value(in.longValue);
  out.set_float_value(in.floatValue);
  out.set_double_value(in.doubleValue);
  out.set_short_value(in.shortValue);
  out.set_char_value(in.charValue);
  out.set_boolean_value(in.booleanValue);
  if (in.IntValue) out.set_boxed_int(*in.IntValue);
  if (in.LongValue) out.set_boxed_long(*in.LongValue);
  if (in.FloatValue) out.set_boxed_float(*in.FloatValue);
  if (in.DoubleValue) out.set_boxed_double(*in.DoubleValue);
  if (in.ShortValue) out.set_boxed_short(*in.ShortValue);
  if (in.CharValue) out.set_boxed_char(*in.CharValue);
  if (in.BooleanValue) out.set_boxed_boolean(*in.BooleanValue);
  copy_repeated(in.intArray, *out.mutable_int_array());
  copy_repeated(in.longArray, *out.mutable_long_array());
  copy_repeated(in.floatArray, *out.mutable_float_array());
  copy_repeated(in.doubleArray, *out.mutable_double_array());
  for (std::int16_t v : in.shortArray) out.add_short_array(v);
  for (char16_t v : in.charArray) out.add_char_array(v);
  for (bool v : in.booleanArray) out.add_boolean_array(v);
  out.set_string(in.string);
}

template <class T, class Has, class Get>
void optional_from(std::optional<T>& out, Has has, Get get) {
  if (has) {
    out = static_cast<T>(get);
  } else {
    out.reset();
  }
}

void from_proto(const pb::Sample& in, Sample& out) {
  out.intValue = in.int_value();
  out.longValue = in.long_value();
  out.floatValue = in.float_value();
  out.doubleValue = in.double_value();
  out.shortValue = static_cast<std::int16_t>(in.short_value());
  out.charValue = static_cast<char16_t>(in.char_value());
  out.booleanValue = in.boolean_value();
  optional_from(out.IntValue, in.has_boxed_int(), in.boxed_int());
  optional_from(out.LongValue, in.has_boxed_long(), in.boxed_long());
  optional_from(out.FloatValue, in.has_boxed_float(), in.boxed_float());
  optional_from(out.DoubleValue, in.has_boxed_double(), in.boxed_double());
  optional_from(out.ShortValue, in.has_boxed_short(), in.boxed_short());
  optional_from(out.CharValue, in.has_boxed_char(), in.boxed_char());
  optional_from(out.BooleanValue, in.has_boxed_boolean(), in.boxed_boolean());
  copy_back(in.int_array(), out.intArray);
  copy_back(in.long_array(), out.longArray);
  copy_back(in.float_array(), out.floatArray);
  copy_back(in.double_array(), out.doubleArray);
  copy_back(in.short_array(), out.shortArray);
  copy_back(in.char_array(), out.charArray);
  out.booleanArray.resize(static_cast<std::size_t>(in.boolean_array_size()));
  for (int i = 0; i < in.boolean_array_size(); ++i) out.booleanArray[i] = in.boolean_array(i);
  out.string = in.string();
}

template <class T>
struct ProtoOf;
template <>
struct ProtoOf<MediaContent> {
  using type = pb::MediaContent;
};
template <>
struct ProtoOf<Sample> {
  using type = pb::Sample;
};

}  // namespace

template <class T>
struct Codec<T>::Message {
  typename ProtoOf<T>::type proto;
};

template <class T>
Codec<T>::Codec() : message_(std::make_unique<Message>()) {}
template <class T>
Codec<T>::~Codec() = default;

template <class T>
bool Codec<T>::serialize(const T& value, std::string& out) {
  message_->proto.Clear();
  to_proto(value, message_->proto);
  return message_->proto.SerializeToString(&out);
}

template <class T>
bool Codec<T>::deserialize(std::string_view bytes, T& value) {
  if (!message_->proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return false;
  from_proto(message_->proto, value);
  return true;
}

template <class T>
bool Codec<T>::parse(std::string_view bytes) {
  return message_->proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
}

template class Codec<MediaContent>;
template class Codec<Sample>;

}  // namespace jitser::bench::protobuf_peer
