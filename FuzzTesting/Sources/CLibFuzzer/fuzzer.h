// libFuzzer's entry for programs with a main of their own (LLVM's libFuzzer documentation,
// "Using libFuzzer as a library"): the fuzz targets' main.swift calls it with their callback.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
