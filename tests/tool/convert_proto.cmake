# `jitser convert --schema file.proto`: a message type loaded from a .proto file converts from
# Protobuf's JSON to its wire format, which protoc itself decodes, and through jitser's binary
# format back to the same JSON.
# Run with -DTOOL=<jitser> -DPROTOC=<protoc> -DPROTO=<payloads.proto> -DWORK=<scratch directory>.
file(MAKE_DIRECTORY ${WORK})
get_filename_component(proto_dir ${PROTO} DIRECTORY)
set(type jitser.bench.pb.MediaContent)

function(convert input_file output_file from to)
  execute_process(COMMAND ${TOOL} convert --schema ${PROTO} --type ${type} --from ${from}
                          --to ${to}
                  INPUT_FILE ${input_file} OUTPUT_FILE ${output_file} ERROR_VARIABLE err
                  RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "convert ${from} -> ${to}: exit ${code}: ${err}")
  endif()
endfunction()

set(doc [=[{"media":{"uri":"http://javaone.com/keynote.mpg","width":640,"height":480,"format":"video/mpg4","duration":"18000000","persons":["Bill Gates","Steve Jobs"],"player":"FLASH"},"images":[{"uri":"http://javaone.com/keynote_large.jpg","title":"Javaone Keynote","width":1024,"size":"LARGE"}]}]=])
file(WRITE ${WORK}/in.json "${doc}")
convert(${WORK}/in.json ${WORK}/out.pb json protobuf)
execute_process(COMMAND ${PROTOC} --proto_path=${proto_dir} --decode=${type} ${PROTO}
                INPUT_FILE ${WORK}/out.pb OUTPUT_VARIABLE decoded ERROR_VARIABLE err
                RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "protoc cannot decode what jitser wrote: ${err}")
endif()
foreach(expected [[uri: "http://javaone.com/keynote.mpg"]] "width: 640" "duration: 18000000"
        "player: FLASH" "size: LARGE" [[persons: "Steve Jobs"]])
  string(FIND "${decoded}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "protoc's decoding lacks '${expected}':\n${decoded}")
  endif()
endforeach()
convert(${WORK}/out.pb ${WORK}/out.bin protobuf binary)
convert(${WORK}/out.bin ${WORK}/back.json binary json)
file(READ ${WORK}/back.json back)
if(NOT back STREQUAL "${doc}\n")
  message(FATAL_ERROR "JSON -> Protobuf -> binary -> JSON changed the document:\n${doc}\n${back}")
endif()
