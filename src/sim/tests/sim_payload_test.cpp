#include <gtest/gtest.h>
TEST(placeholder, empty) {}
