# Writes the C++ records `sqlite-bridge generate cxx` makes for the two
# databases the GeneratedRecords tests round-trip, into OUT_DIR:
#   NotesRecords.hpp    Examples/NotesApp's bundled seed (notes-seed.db)
#   HostileRecords.hpp  Tests/Fixtures/generate/hostile-schema.sql (made into
#                       hostile.db by the CLI's own shell)
# The headers in this folder are these files, committed: the C++ builds
# without Swift (gcc, sanitizers, engines) compile them too. The ctest test
# GeneratedRecords.CommittedHeadersMatchTheCLI (where CMake builds the CLI)
# and scripts/check-generated compare them with what the CLI writes today;
# `scripts/check-generated --update CLI` rewrites them.
#
#   cmake -DCLI=path/to/sqlite-bridge -DSOURCE_DIR=repo -DOUT_DIR=dir [-DCOMPARE_DIR=dir] -P generate-headers.cmake
#
# With COMPARE_DIR, fails unless each header there equals the one written.
foreach(variable CLI SOURCE_DIR OUT_DIR)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "generate-headers.cmake needs -D${variable}=...")
  endif()
endforeach()
file(MAKE_DIRECTORY "${OUT_DIR}")

function(run_cli)
  execute_process(COMMAND "${CLI}" ${ARGN} RESULT_VARIABLE status ERROR_VARIABLE errors ${RUN_CLI_INPUT})
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "sqlite-bridge ${ARGN} failed (${status}): ${errors}")
  endif()
endfunction()

set(RUN_CLI_INPUT)
run_cli(generate cxx "${SOURCE_DIR}/Examples/NotesApp/Sources/NotesKit/Seed/notes-seed.db"
        --output "${OUT_DIR}/NotesRecords.hpp")

set(hostile "${OUT_DIR}/hostile.db")
file(REMOVE "${hostile}")
set(RUN_CLI_INPUT INPUT_FILE "${SOURCE_DIR}/Tests/Fixtures/generate/hostile-schema.sql" OUTPUT_QUIET)
run_cli(shell "${hostile}")
set(RUN_CLI_INPUT)
run_cli(generate cxx "${hostile}" --output "${OUT_DIR}/HostileRecords.hpp")
file(REMOVE "${hostile}")

if(DEFINED COMPARE_DIR)
  foreach(header NotesRecords.hpp HostileRecords.hpp)
    execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT_DIR}/${header}" "${COMPARE_DIR}/${header}"
                    RESULT_VARIABLE different)
    if(NOT different EQUAL 0)
      message(FATAL_ERROR "${COMPARE_DIR}/${header} is not what `sqlite-bridge generate cxx` writes now "
                          "(${OUT_DIR}/${header}): regenerate with scripts/check-generated --update CLI")
    endif()
  endforeach()
endif()
