// Catch2's main and its implementation (CATCH_CONFIG_MAIN), compiled once
// for both Catch2 programs (unit-tests, nvcc-shim-tests) as the object
// library catch2-main: at -O0 and without the sanitizers, as the library
// code it is (it compiled in 25 s under ASan at -O1, 10 s like this: CI's
// two cores pay it in both build trees).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
