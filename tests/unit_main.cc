// The single doctest runner that every engine/*_test.cc links into.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
