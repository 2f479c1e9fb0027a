# `jitser convert` end to end: JSON to binary and back gives the same document; keys in another
# order, whitespace and unknown keys are read; bad input exits non-zero naming field and offset.
# Run with -DTOOL=<jitser> -DSCHEMA=<examples/payloads.jitser> -DWORK=<scratch directory>.
file(MAKE_DIRECTORY ${WORK})

function(convert input_file output_file from to expect_code)
  execute_process(COMMAND ${TOOL} convert --schema ${SCHEMA} --type MediaContent --from ${from} --to ${to}
                  INPUT_FILE ${input_file} OUTPUT_FILE ${output_file} ERROR_VARIABLE err
                  RESULT_VARIABLE code)
  if(NOT code EQUAL expect_code)
    message(FATAL_ERROR "convert ${from} -> ${to}: exit ${code}, expected ${expect_code}: ${err}")
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
