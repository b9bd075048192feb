# SPDX-License-Identifier: GPL-3.0-or-later
# CMake toolchain for the libraries of the Windows GTK stack that build
# with CMake (pcre2, libpng, libjpeg-turbo, libtiff). build-aux/windows-gtk-build
# sets DM_WIN_PREFIX, DM_WIN_CC and DM_WIN_CXX in the environment.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)
set(CMAKE_C_COMPILER $ENV{DM_WIN_CC})
set(CMAKE_CXX_COMPILER $ENV{DM_WIN_CXX})
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH $ENV{DM_WIN_PREFIX} /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_C_FLAGS_INIT "-I$ENV{DM_WIN_PREFIX}/include")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-L$ENV{DM_WIN_PREFIX}/lib -static-libgcc")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-L$ENV{DM_WIN_PREFIX}/lib -static-libgcc")
