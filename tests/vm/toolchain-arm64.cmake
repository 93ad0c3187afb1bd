# SPDX-License-Identifier: GPL-2.0
# toolchain-arm64.cmake - cross-compile the checkout for the arm64 guest on
# the host (scripts/test-vm.sh): Debian's gcc-aarch64-linux-gnu with the
# arm64 image's tree as the sysroot, so the headers and libraries (libbcc,
# libbpf, libpfm4, ...) are the guest's own.  Seconds on the host, where a
# native build in the tree under qemu-user took 10-27 min.
#   cmake -DCMAKE_TOOLCHAIN_FILE=tests/vm/toolchain-arm64.cmake \
#         -DSS_SYSROOT=/var/cache/switchstat-vm/arm64-KEY/tree ...
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
if(NOT SS_SYSROOT OR NOT EXISTS "${SS_SYSROOT}/usr/include")
  message(FATAL_ERROR "SS_SYSROOT: the arm64 image tree (with /usr/include), got '${SS_SYSROOT}'")
endif()
set(CMAKE_SYSROOT "${SS_SYSROOT}")
# try_compile projects read this file again: pass the sysroot on
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES SS_SYSROOT)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH "${SS_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# the host's pkg-config, reading only the tree's .pc files; their -I and -L
# paths get the sysroot prefixed
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${SS_SYSROOT}")
set(ENV{PKG_CONFIG_LIBDIR}
  "${SS_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${SS_SYSROOT}/usr/lib/pkgconfig:${SS_SYSROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
