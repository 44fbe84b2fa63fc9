# Writes ${OUT} with the current git revision, touching it only when it
# changes, so the library relinks only after a commit or an edit.
set(rev "unknown")
find_program(GIT git)
if(GIT)
  execute_process(COMMAND ${GIT} describe --always --dirty --abbrev=12
                  WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE r OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND r)
    set(rev "${r}")
  endif()
endif()
file(WRITE ${OUT}.new "#define GPUSIM_GIT_REV \"${rev}\"\n")
configure_file(${OUT}.new ${OUT} COPYONLY)
