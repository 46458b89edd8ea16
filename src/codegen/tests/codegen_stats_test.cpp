#include "codegen/tests/codegen_test.h"
