# `jitser convert` end to end: JSON to binary and back gives the same document; keys in another
# order, whitespace and unknown keys are read; bad input exits non-zero naming field and offset;
# streams of records convert both ways, and a bad record is named; MessagePack and CBOR convert
# in both layouts; a document of any shape converts as a jitser::Value.
# Run with -DTOOL=<jitser> -DSCHEMA=<examples/payloads.jitser> -DWORK=<scratch directory>.
file(MAKE_DIRECTORY ${WORK})

# convert(input output from to expected-exit-code [more options...])
function(convert input_file output_file from to expect_code)
  execute_process(COMMAND ${TOOL} convert --schema ${SCHEMA} --type MediaContent --from ${from}
                          --to ${to} ${ARGN}
                  INPUT_FILE ${input_file} OUTPUT_FILE ${output_file} ERROR_VARIABLE err
                  RESULT_VARIABLE code)
  if(NOT code EQUAL expect_code)
    message(FATAL_ERROR "convert ${ARGN} ${from} -> ${to}: exit ${code}, expected "
                        "${expect_code}: ${err}")
  endif()
  set(last_error "${err}" PARENT_SCOPE)
endfunction()

set(doc [=[{"media":{"uri":"http://javaone.com/keynote.mpg","title":"Javaone Keynote","width":640,"height":480,"format":"video/mpg4","duration":18000000,"size":58982400,"bitrate":262144,"hasBitrate":true,"persons":["Bill Gates","Steve Jobs"],"player":"JAVA","copyright":null},"images":[{"uri":"http://javaone.com/keynote_large.jpg","title":"Javaone Keynote","width":1024,"height":768,"size":"LARGE"}]}]=])
file(WRITE ${WORK}/in.json "${doc}")
convert(${WORK}/in.json ${WORK}/out.bin json binary 0)
convert(${WORK}/out.bin ${WORK}/back.json binary json 0)
file(READ ${WORK}/back.json back)
if(NOT back STREQUAL "${doc}\n")
  message(FATAL_ERROR "JSON -> binary -> JSON changed the document:\n${doc}\n${back}")
endif()

# The same document through MessagePack.
convert(${WORK}/in.json ${WORK}/out.msgpack json msgpack 0)
convert(${WORK}/out.msgpack ${WORK}/back_msgpack.json msgpack json 0)
file(READ ${WORK}/back_msgpack.json back_msgpack)
if(NOT back_msgpack STREQUAL "${doc}\n")
  message(FATAL_ERROR "JSON -> MessagePack -> JSON changed the document:\n${doc}\n${back_msgpack}")
endif()

# And through CBOR.
convert(${WORK}/in.json ${WORK}/out.cbor json cbor 0)
convert(${WORK}/out.cbor ${WORK}/back_cbor.json cbor json 0)
file(READ ${WORK}/back_cbor.json back_cbor)
if(NOT back_cbor STREQUAL "${doc}\n")
  message(FATAL_ERROR "JSON -> CBOR -> JSON changed the document:\n${doc}\n${back_cbor}")
endif()

# And through each with structs as arrays and enums as integers, which is smaller.
foreach(fmt msgpack cbor)
  convert(${WORK}/in.json ${WORK}/compact.${fmt} json ${fmt} 0 --struct-arrays --enum-integers)
  convert(${WORK}/compact.${fmt} ${WORK}/back_compact_${fmt}.json ${fmt} json 0 --struct-arrays
          --enum-integers)
  file(READ ${WORK}/back_compact_${fmt}.json back_compact)
  if(NOT back_compact STREQUAL "${doc}\n")
    message(FATAL_ERROR "JSON -> compact ${fmt} -> JSON changed the document:\n${back_compact}")
  endif()
  file(SIZE ${WORK}/out.${fmt} keyed_size)
  file(SIZE ${WORK}/compact.${fmt} compact_size)
  if(NOT compact_size LESS keyed_size)
    message(FATAL_ERROR "compact ${fmt} is ${compact_size} bytes, keyed ${keyed_size}")
  endif()
  # Read as maps, the arrays are a type mismatch at the root.
  convert(${WORK}/compact.${fmt} ${WORK}/mismatch.json ${fmt} json 1)
  if(NOT last_error MATCHES "type mismatch at byte 0")
    message(FATAL_ERROR "compact ${fmt} read as maps: ${last_error}")
  endif()
endforeach()

# CBOR keyed by field number, deterministic, timestamps as text (MediaContent has none); a
# reader keyed by name finds no field in it.
convert(${WORK}/in.json ${WORK}/numbered.cbor json cbor 0 --keys-by-number --deterministic
        --text-timestamps)
convert(${WORK}/numbered.cbor ${WORK}/back_numbered.json cbor json 0 --keys-by-number)
file(READ ${WORK}/back_numbered.json back_numbered)
if(NOT back_numbered STREQUAL "${doc}\n")
  message(FATAL_ERROR "JSON -> CBOR by number -> JSON changed the document:\n${back_numbered}")
endif()
convert(${WORK}/numbered.cbor ${WORK}/unnamed.json cbor json 1)
if(NOT last_error MATCHES "missing field at byte 0 in MediaContent.media")
  message(FATAL_ERROR "CBOR by number read by name: ${last_error}")
endif()

# A document of any shape, as a jitser::Value without a schema, through MessagePack and CBOR.
set(any [=[[1,-2,18446744073709551615,1.5,true,null,"é",{"a":{},"b":[2,"x"]}]]=])
file(WRITE ${WORK}/any.json "${any}")
foreach(step "any.json;any.msgpack;json;msgpack" "any.msgpack;any.cbor;msgpack;cbor"
             "any.cbor;any_back.json;cbor;json")
  list(GET step 0 in)
  list(GET step 1 out)
  list(GET step 2 from)
  list(GET step 3 to)
  execute_process(COMMAND ${TOOL} convert --type Value --from ${from} --to ${to}
                  INPUT_FILE ${WORK}/${in} OUTPUT_FILE ${WORK}/${out} ERROR_VARIABLE err
                  RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "convert --type Value ${from} -> ${to}: exit ${code}: ${err}")
  endif()
endforeach()
file(READ ${WORK}/any_back.json any_back)
if(NOT any_back STREQUAL "${any}\n")
  message(FATAL_ERROR "a Value JSON -> MessagePack -> CBOR -> JSON changed:\n${any}\n${any_back}")
endif()

# The same document through the Protobuf wire format, and a stream of its records.
convert(${WORK}/in.json ${WORK}/out.pb json protobuf 0)
convert(${WORK}/out.pb ${WORK}/back_pb.json protobuf json 0)
file(READ ${WORK}/back_pb.json back_pb)
if(NOT back_pb STREQUAL "${doc}\n")
  message(FATAL_ERROR "JSON -> Protobuf -> JSON changed the document:\n${doc}\n${back_pb}")
endif()
file(WRITE ${WORK}/pb_records.ndjson "${doc}\n${doc}\n")
convert(${WORK}/pb_records.ndjson ${WORK}/pb_records.bin json protobuf 0 --records)
convert(${WORK}/pb_records.bin ${WORK}/pb_records.back protobuf json 0 --records)
file(READ ${WORK}/pb_records.back pb_records_back)
if(NOT pb_records_back STREQUAL "${doc}\n${doc}\n")
  message(FATAL_ERROR "Protobuf records did not convert back:\n${pb_records_back}")
endif()

# The same value written otherwise: keys reversed, whitespace, an unknown key.
file(WRITE ${WORK}/shuffled.json [=[
{ "extra": [1, {"x": null}],
  "images": [ {"size": "LARGE", "height": 768, "width": 1024, "title": "Javaone Keynote",
               "uri": "http://javaone.com/keynote_large.jpg"} ],
  "media": {"copyright": null, "player": "JAVA", "persons": ["Bill Gates", "Steve Jobs"],
            "hasBitrate": true, "bitrate": 262144, "size": 58982400, "duration": 18000000,
            "format": "video/mpg4", "height": 480, "width": 640, "title": "Javaone Keynote",
            "uri": "http://javaone.com/keynote.mpg"} }
]=])
convert(${WORK}/shuffled.json ${WORK}/shuffled.bin json binary 0)
file(READ ${WORK}/out.bin expected HEX)
file(READ ${WORK}/shuffled.bin actual HEX)
if(NOT expected STREQUAL actual)
  message(FATAL_ERROR "a reordered document converted to other bytes")
endif()

string(REPLACE "\"width\":640" "\"width\":\"640\"" bad "${doc}")
file(WRITE ${WORK}/bad.json "${bad}")
string(FIND "${bad}" "\"640\"" at)
convert(${WORK}/bad.json ${WORK}/bad.bin json binary 1)
if(NOT last_error MATCHES "MediaContent\\.media\\.width" OR NOT last_error MATCHES "byte ${at} ")
  message(FATAL_ERROR "the error does not name the field and offset: ${last_error}")
endif()
file(WRITE ${WORK}/truncated.bin "")
convert(${WORK}/truncated.bin ${WORK}/truncated.json binary json 1)

# Streams of records: NDJSON to length-prefixed binary and back gives the same lines; a bad
# record is named by its number, and the records before it are written.
string(REPLACE "\"width\":640" "\"width\":641" second "${doc}")
file(WRITE ${WORK}/records.ndjson "${doc}\n\n${second}\n${doc}\n")
convert(${WORK}/records.ndjson ${WORK}/records.bin json binary 0 --records)
convert(${WORK}/records.bin ${WORK}/records.back binary json 0 --records)
file(READ ${WORK}/records.back records_back)
if(NOT records_back STREQUAL "${doc}\n${second}\n${doc}\n")
  message(FATAL_ERROR "NDJSON -> binary records -> NDJSON changed the records:\n${records_back}")
endif()
file(WRITE ${WORK}/bad_records.ndjson "${doc}\n${bad}\n${doc}\n")
convert(${WORK}/bad_records.ndjson ${WORK}/bad_records.bin json binary 1 --records)
if(NOT last_error MATCHES "record 1 \\(at byte" OR NOT last_error MATCHES "MediaContent\\.media\\.width")
  message(FATAL_ERROR "the error does not name the record and field: ${last_error}")
endif()
file(READ ${WORK}/bad_records.bin before_bad HEX)
file(READ ${WORK}/out.bin one_record HEX)
if(NOT before_bad MATCHES "${one_record}$")
  message(FATAL_ERROR "the record before the bad one was not written")
endif()
# A stream cut inside a record: the records before it are written, then the error.
execute_process(COMMAND head -c 250 ${WORK}/records.bin
                COMMAND ${TOOL} convert --schema ${SCHEMA} --type MediaContent --from binary
                        --to json --records
                OUTPUT_VARIABLE cut_out ERROR_VARIABLE cut_err RESULTS_VARIABLE codes)
list(GET codes 1 cut_code)
if(NOT cut_code EQUAL 1 OR NOT cut_err MATCHES "after record 1: the stream ends inside a record"
   OR NOT cut_out STREQUAL "${doc}\n")
  message(FATAL_ERROR "a cut stream: exit ${cut_code}, '${cut_err}', output '${cut_out}'")
endif()
