/*
 * Inline expectations for pass tests, after ACO's check_output.py and
 * LLVM's FileCheck: a test states its input IR, the passes to run and the
 * IR it expects, and the helper reports a readable diff when they differ.
 *
 *    EXPECT_TRUE(check_pass(R"(
 *       shader fs simd8
 *       block0:
 *          %1:f32x8 = mov 1.0:f32
 *          %2:f32x8 = mov %1
 *       )", "copy-prop,dce", R"(
 *       block0:
 *          %[[x]]:f32x8 = mov 1.0:f32
 *       ...
 *       )"));
 *
 * Pattern syntax (lines compared with runs of blanks collapsed and blank
 * lines ignored):
 *   [[name]]  matches a word ([A-Za-z0-9_]+) and binds name to it; every
 *             later [[name]] must match the same word.  Use it for value
 *             numbers (%[[x]]) and registers (@g[[r]]).
 *   [[_]]     matches any word without binding.
 *   ...       (a line of its own) matches any number of lines.
 *   A pattern line without ';' ignores a ';' comment at the end of the
 *   output line (block edges); one with ';' compares it too.
 * The pattern need not start at the first line: unless it begins with
 * "shader", it may start anywhere (as if preceded by "...").
 */
#pragma once

#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "ir/ibis_ir.h"

namespace ibis::testing {

/* "" when actual matches pattern, else a report of the first mismatch. */
std::string match_ir(const std::string &pattern, const std::string &actual);

/* Parses input, runs the comma-separated passes, prints and matches. */
::testing::AssertionResult check_pass(const std::string &input,
                                      const std::string &passes,
                                      const std::string &expected);
/* Same with a function instead of registered passes. */
::testing::AssertionResult check_pass(const std::string &input,
                                      const std::function<void(shader &)> &fn,
                                      const std::string &expected);

/* Parses, prints and parses again: text must come back unchanged, and so
 * must the second print.  Leading indentation of text is ignored.
 */
::testing::AssertionResult check_round_trip(const std::string &text);

/* Removes the common leading indentation and the surrounding blank lines
 * of an inline raw string.
 */
std::string dedent(const std::string &text);

} /* namespace ibis::testing */
