#include "opt_test.h"
