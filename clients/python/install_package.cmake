# Installs the staged Python package (cmake --install, component python),
# included by the install script that clients/python/CMakeLists.txt writes,
# which sets ARBITER_PYTHON, ARBITER_PYTHON_INSTALL_DIR,
# ARBITER_PYTHON_STAGE, ARBITER_PYTHON_PACKAGES, ARBITER_LIBDIR and
# ARBITER_SONAME.
#
# Where: decided at install time, for the prefix given then (--prefix), so
# that the package lands where that prefix's Python looks:
#   - ARBITER_PYTHON_INSTALL_DIR when set (relative: to the prefix);
#   - else the first of the site directories of the prefix's own Python
#     (PREFIX/bin/python3: a venv, a conda environment, /usr), then of
#     ARBITER_PYTHON (/usr/bin/python3), that lies in PREFIX/lib*: on
#     Debian 12, /usr/local gives /usr/local/lib/python3.11/dist-packages
#     and /usr gives /usr/lib/python3/dist-packages, a venv its
#     lib/python3.11/site-packages;
#   - else PREFIX/lib/python3/dist-packages, which no Python searches by
#     itself: the install then says to put it on PYTHONPATH.
# DESTDIR is honoured by file(INSTALL); the paths decided and recorded are
# the prefix's, where the files will be used.

set(prefix "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/+$" "" prefix "${prefix}")
set(site "")
if(ARBITER_PYTHON_INSTALL_DIR)
  set(site "${ARBITER_PYTHON_INSTALL_DIR}")
  if(NOT IS_ABSOLUTE "${site}")
    set(site "${prefix}/${site}")
  endif()
else()
  set(interpreters)
  if(EXISTS "${prefix}/bin/python3")
    list(APPEND interpreters "${prefix}/bin/python3")
  endif()
  if(ARBITER_PYTHON)
    list(APPEND interpreters "${ARBITER_PYTHON}")
  endif()
  foreach(python ${interpreters})
    execute_process(
      COMMAND "${python}" -c "import site; print(';'.join(site.getsitepackages()))"
      OUTPUT_VARIABLE dirs OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE result
      ERROR_QUIET)
    if(NOT result EQUAL 0)
      continue()
    endif()
    string(LENGTH "${prefix}/" length)
    foreach(dir ${dirs})
      string(SUBSTRING "${dir}" 0 ${length} head)
      if(NOT head STREQUAL "${prefix}/")
        continue()
      endif()
      # PREFIX/lib..., not PREFIX/local/lib... (under /usr, /usr/local's).
      string(SUBSTRING "${dir}" ${length} -1 rest)
      if(rest MATCHES "^lib[^/]*/python[^/]*/(site|dist)-packages$")
        set(site "${dir}")
        break()
      endif()
    endforeach()
    if(site)
      break()
    endif()
  endforeach()
  if(NOT site)
    set(site "${prefix}/lib/python3/dist-packages")
    message(STATUS "Python package: ${site} is not on any Python's path here; "
                   "use it with PYTHONPATH=${site}")
  endif()
endif()

foreach(package ${ARBITER_PYTHON_PACKAGES})
  file(INSTALL "${ARBITER_PYTHON_STAGE}/${package}" DESTINATION "${site}"
       FILES_MATCHING PATTERN "*.py" PATTERN "*.pyi" PATTERN "py.typed"
       PATTERN "__pycache__" EXCLUDE)
endforeach()

# The library installed with the package, for arbiter/_library.py.
set(libdir "${ARBITER_LIBDIR}")
if(NOT IS_ABSOLUTE "${libdir}")
  set(libdir "${prefix}/${libdir}")
endif()
set(record "${ARBITER_PYTHON_STAGE}/install/arbiter/_installed.py")
file(WRITE "${record}"
  "\"\"\"Written by cmake --install: the library installed with this package.\"\"\"\n\n"
  "LIBRARY = \"${libdir}/${ARBITER_SONAME}\"\n")
file(INSTALL "${record}" DESTINATION "${site}/arbiter")
