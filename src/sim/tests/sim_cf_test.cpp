/*
 * Structured control flow with per-channel masks: nested if/else, loops
 * with divergent break and continue, halt, at SIMD8, SIMD16 and SIMD32.
 * Branch offsets follow brw (brw_set_uip_jip): IF's JIP is the
 * instruction after ELSE, BREAK/CONT UIP is the WHILE, ENDIF's JIP the
 * next block end.
 */
#include <cstdio>

#include "sim/tests/sim_test.h"

using namespace ibis::sim;
using namespace ibis::sim::test;

/* Writes a program for a dispatch width.  In each line "@N" is the ALU
 * exec size and "@Q" its channel group; a line starting with "|" is ALU
 * and is emitted once per 16-channel half with every "%K" register
 * becoming g(K + 2 * half).  Other lines (control flow, labels) are
 * emitted once with "@W" the dispatch width and "@C" its group.
 */
static std::string
program(unsigned simd, const std::string &text)
{
   std::string out;
   size_t pos = 0;
   while (pos < text.size()) {
      size_t eol = text.find('\n', pos);
      if (eol == std::string::npos)
         eol = text.size();
      std::string line = text.substr(pos, eol - pos);
      pos = eol + 1;
      bool alu = !line.empty() && line[0] == '|';
      unsigned halves = alu && simd == 32 ? 2 : 1;
      for (unsigned h = 0; h < halves; h++) {
         std::string l;
         for (size_t i = alu ? 1 : 0; i < line.size(); i++) {
            if (line[i] == '@' && i + 1 < line.size()) {
               char k = line[++i];
               if (k == 'N')
                  l += std::to_string(std::min(simd, 16u));
               else if (k == 'W')
                  l += std::to_string(simd);
               else if (k == 'Q')
                  l += simd == 8 ? "1Q" : h ? "2H" : "1H";
               else if (k == 'C')
                  l += simd == 8 ? "1Q" : simd == 16 ? "1H" : "";
            } else if (line[i] == '%') {
               unsigned r = 0;
               while (i + 1 < line.size() && isdigit((unsigned char)line[i + 1]))
                  r = r * 10 + (line[++i] - '0');
               l += "g" + std::to_string(r + 2 * h);
            } else {
               l += line[i];
            }
         }
         out += l + "\n";
      }
   }
   return out;
}

/* g2 (g2-g5 for SIMD32) holds the channel number as D; every value takes
 * four registers (g10, g14, g18, g22) so that SIMD32 halves do not overlap.
 */
static machine
setup(unsigned simd)
{
   machine m(simd);
   for (unsigned ch = 0; ch < simd; ch++) {
      unsigned reg = 2 + (ch / 16) * 2 + (ch % 16) / 8;
      m.t.write<int32_t>(reg, ch % 8, int32_t(ch));
   }
   return m;
}

static int32_t
chan(const machine &m, unsigned reg, unsigned ch)
{
   return m.t.read<int32_t>(reg + (ch / 16) * 2 + (ch % 16) / 8, ch % 8);
}

class sim_cf : public ::testing::TestWithParam<unsigned> {};

TEST_P(sim_cf, nested_if_else)
{
   unsigned simd = GetParam();
   machine m = setup(simd);
   m.run(program(simd, R"(
|mov(@N)         %10<1>D    0D                         { align1 @Q };
|and.z.f0.0(@N)  null<1>D   %2<8,8,1>D   1D            { align1 @Q };
(+f0.0) if(@W)   JIP: ELSE1   UIP: ENDIF1              { align1 @C };
|and.z.f0.0(@N)  null<1>D   %2<8,8,1>D   2D            { align1 @Q };
(+f0.0) if(@W)   JIP: ELSE2   UIP: ENDIF2              { align1 @C };
|mov(@N)         %10<1>D    1D                         { align1 @Q };
else(@W)         JIP: ENDIF2  UIP: ENDIF2              { align1 @C };
ELSE2:
|mov(@N)         %10<1>D    2D                         { align1 @Q };
ENDIF2:
endif(@W)        JIP: NEXT2                            { align1 @C };
NEXT2:
|add(@N)         %10<1>D    %10<8,8,1>D  10D           { align1 @Q };
else(@W)         JIP: ENDIF1  UIP: ENDIF1              { align1 @C };
ELSE1:
|mov(@N)         %10<1>D    3D                         { align1 @Q };
ENDIF1:
endif(@W)        JIP: NEXT1                            { align1 @C };
NEXT1:
|add(@N)         %10<1>D    %10<8,8,1>D  100D          { align1 @Q };
)"));
   for (unsigned ch = 0; ch < simd; ch++) {
      int32_t want = ch % 2 ? 103 : ch % 4 == 0 ? 111 : 112;
      EXPECT_EQ(chan(m, 10, ch), want) << "channel " << ch;
   }
}

/* A uniform if/else as JMPIs inside a divergent if: the jumps move only
 * the thread's channels that are running and leave the mask alone; the
 * NoMask SIMD1 compare sets channel 0's bit, which the JMPI reads.
 */
TEST_P(sim_cf, uniform_jmpi_inside_divergent_if)
{
   unsigned simd = GetParam();
   machine m = setup(simd);
   m.run(program(simd, R"(
|mov(@N)         %10<1>D    0D                         { align1 @Q };
|and.z.f0.0(@N)  null<1>D   %2<8,8,1>D   1D            { align1 @Q };
(+f0.0) if(@W)   JIP: ENDIF1  UIP: ENDIF1              { align1 @C };
mov(1)           g30<1>D    5D                         { align1 WE_all 1N };
cmp.g.f0.1(1)    null<1>D   g30<0,1,0>D  4D            { align1 WE_all 1N };
(-f0.1) jmpi(1)  JIP: ELSE                             { align1 WE_all 1N };
|mov(@N)         %10<1>D    1D                         { align1 @Q };
jmpi(1)          JIP: END                              { align1 WE_all 1N };
ELSE:
|mov(@N)         %10<1>D    2D                         { align1 @Q };
END:
|add(@N)         %10<1>D    %10<8,8,1>D  10D           { align1 @Q };
ENDIF1:
endif(@W)        JIP: NEXT1                            { align1 @C };
NEXT1:
)"));
   for (unsigned ch = 0; ch < simd; ch++)
      EXPECT_EQ(chan(m, 10, ch), ch % 2 ? 0 : 11) << "channel " << ch;
}

TEST_P(sim_cf, loop_with_divergent_break_and_continue)
{
   unsigned simd = GetParam();
   machine m = setup(simd);
   /* for (i = 1;; i++) { if (i > x) break; if (i & 1) continue; sum += i; } */
   m.run(program(simd, R"(
|mov(@N)         %10<1>D    0D                         { align1 @Q };
|mov(@N)         %14<1>D    0D                         { align1 @Q };
HEAD:
|add(@N)         %14<1>D    %14<8,8,1>D  1D            { align1 @Q };
|cmp.g.f0.0(@N)  null<1>D   %14<8,8,1>D  %2<8,8,1>D    { align1 @Q };
(+f0.0) break(@W) JIP: WHILE  UIP: WHILE               { align1 @C };
|and.nz.f0.0(@N) null<1>D   %14<8,8,1>D  1D            { align1 @Q };
(+f0.0) cont(@W) JIP: WHILE   UIP: WHILE               { align1 @C };
|add(@N)         %10<1>D    %10<8,8,1>D  %14<8,8,1>D   { align1 @Q };
WHILE:
while(@W)        JIP: HEAD                             { align1 @C };
|add(@N)         %18<1>D    %10<8,8,1>D  1000D         { align1 @Q };
)"));
   for (unsigned ch = 0; ch < simd; ch++) {
      int32_t sum = 0;
      for (unsigned i = 2; i <= ch; i += 2)
         sum += i;
      EXPECT_EQ(chan(m, 10, ch), sum) << "channel " << ch;
      EXPECT_EQ(chan(m, 14, ch), int32_t(ch + 1)) << "channel " << ch;
      EXPECT_EQ(chan(m, 18, ch), sum + 1000) << "channel " << ch;
   }
}

/* Gen8-10 ELSE with BranchCtrl (brw_ENDIF): JIP is the NOP before the
 * ENDIF, UIP the ENDIF.  The if-channels wait at the ENDIF: when every
 * else-channel breaks, the inner ENDIF jumps (its JIP) straight to the
 * outer ENDIF, past the NOP, and they must still be there (random vs seed
 * 1602 lost them).
 */
TEST_P(sim_cf, else_branch_ctrl_rejoins_at_the_endif)
{
   unsigned simd = GetParam();
   machine m = setup(simd);
   /* do { if (x odd) n = 1; else { if (true) break; n = 2; } n += 10; break; } */
   m.run(program(simd, R"(
|mov(@N)         %10<1>D    0D                         { align1 @Q };
HEAD:
|and.nz.f0.0(@N) null<1>D   %2<8,8,1>D   1D            { align1 @Q };
(+f0.0) if(@W)   JIP: ELSE1   UIP: ENDIF1              { align1 @C };
|mov(@N)         %10<1>D    1D                         { align1 @Q };
else(@W)         JIP: NOP1    UIP: ENDIF1              { align1 @C BranchCtrl };
ELSE1:
|cmp.z.f0.0(@N)  null<1>D   %10<8,8,1>D  0D            { align1 @Q };
(+f0.0) if(@W)   JIP: ENDIF2  UIP: ENDIF2              { align1 @C };
break(@W)        JIP: ENDIF2  UIP: WHILE               { align1 @C };
ENDIF2:
endif(@W)        JIP: ENDIF1                           { align1 @C };
|mov(@N)         %10<1>D    2D                         { align1 @Q };
NOP1:
nop ;
ENDIF1:
endif(@W)        JIP: WHILE                            { align1 @C };
|add(@N)         %10<1>D    %10<8,8,1>D  10D           { align1 @Q };
break(@W)        JIP: WHILE   UIP: WHILE               { align1 @C };
WHILE:
while(@W)        JIP: HEAD                             { align1 @C };
|add(@N)         %10<1>D    %10<8,8,1>D  100D          { align1 @Q };
)"));
   for (unsigned ch = 0; ch < simd; ch++)
      EXPECT_EQ(chan(m, 10, ch), ch % 2 ? 111 : 100) << "channel " << ch;
}

TEST_P(sim_cf, nested_loops_inside_if)
{
   unsigned simd = GetParam();
   machine m = setup(simd);
   /* for (j = 1; j < 4 after increment; ) { if (j odd) for (k = 1;; k++)
    * { n++; if (k >= x) break; } }, with the outer loop predicated. */
   m.run(program(simd, R"(
|mov(@N)         %10<1>D    0D                         { align1 @Q };
|mov(@N)         %18<1>D    0D                         { align1 @Q };
OUTER:
|add(@N)         %18<1>D    %18<8,8,1>D  1D            { align1 @Q };
|and.nz.f0.0(@N) null<1>D   %18<8,8,1>D  1D            { align1 @Q };
(+f0.0) if(@W)   JIP: ENDIF   UIP: ENDIF               { align1 @C };
|mov(@N)         %22<1>D    0D                         { align1 @Q };
INNER:
|add(@N)         %22<1>D    %22<8,8,1>D  1D            { align1 @Q };
|add(@N)         %10<1>D    %10<8,8,1>D  1D            { align1 @Q };
|cmp.ge.f0.0(@N) null<1>D   %22<8,8,1>D  %2<8,8,1>D    { align1 @Q };
(+f0.0) break(@W) JIP: IWHILE UIP: IWHILE              { align1 @C };
IWHILE:
while(@W)        JIP: INNER                            { align1 @C };
ENDIF:
endif(@W)        JIP: OWHILE                           { align1 @C };
|cmp.l.f0.0(@N)  null<1>D   %18<8,8,1>D  %2<8,8,1>D    { align1 @Q };
OWHILE:
(+f0.0) while(@W) JIP: OUTER                           { align1 @C };
)"));
   /* Outer iterations: j = 1 .. max(x, 1); inner runs max(x, 1) times for
    * each odd j.
    */
   for (unsigned ch = 0; ch < simd; ch++) {
      unsigned outer = std::max(ch, 1u), odd = (outer + 1) / 2;
      EXPECT_EQ(chan(m, 10, ch), int32_t(odd * std::max(ch, 1u))) << "channel " << ch;
      EXPECT_EQ(chan(m, 18, ch), int32_t(outer)) << "channel " << ch;
   }
}

TEST_P(sim_cf, halt_discards_until_the_target)
{
   unsigned simd = GetParam();
   machine m = setup(simd);
   m.run(program(simd, R"(
|mov(@N)         %10<1>D    0D                         { align1 @Q };
|and.nz.f0.1(@N) null<1>D   %2<8,8,1>D   1D            { align1 @Q };
(+f0.1) halt(@W) JIP: TARGET  UIP: TARGET              { align1 @C };
|mov(@N)         %10<1>D    5D                         { align1 @Q };
TARGET:
halt(@W)         JIP: NEXT    UIP: NEXT                { align1 @C };
NEXT:
|add(@N)         %14<1>D    %10<8,8,1>D  1D            { align1 @Q };
)"));
   for (unsigned ch = 0; ch < simd; ch++) {
      EXPECT_EQ(chan(m, 10, ch), ch % 2 ? 0 : 5) << "channel " << ch;
      EXPECT_EQ(chan(m, 14, ch), ch % 2 ? 1 : 6) << "channel " << ch;
   }
}

TEST_P(sim_cf, no_channel_left_follows_jip)
{
   unsigned simd = GetParam();
   machine m = setup(simd);
   /* Nobody takes the IF: its body, NoMask or not, must be skipped. */
   m.run(program(simd, R"(
|mov(@N)         %10<1>D    0D                         { align1 @Q };
|cmp.l.f0.0(@N)  null<1>D   %2<8,8,1>D   0D            { align1 @Q };
(+f0.0) if(@W)   JIP: ENDIF   UIP: ENDIF               { align1 @C };
|mov(@N)         %10<1>D    7D                         { align1 WE_all @Q };
ENDIF:
endif(@W)        JIP: NEXT                             { align1 @C };
NEXT:
)"));
   for (unsigned ch = 0; ch < simd; ch++)
      EXPECT_EQ(chan(m, 10, ch), 0) << "channel " << ch;
}

TEST_P(sim_cf, undispatched_channels_stay_off)
{
   unsigned simd = GetParam();
   machine m = setup(simd);
   m.t.dispatch_mask = 0x5;
   m.run(program(simd, R"(
|mov(@N)         %10<1>D    9D                         { align1 @Q };
)"));
   for (unsigned ch = 0; ch < simd; ch++)
      EXPECT_EQ(chan(m, 10, ch), ch == 0 || ch == 2 ? 9 : 0) << "channel " << ch;
}

INSTANTIATE_TEST_SUITE_P(widths, sim_cf, ::testing::Values(8u, 16u, 32u),
                         [](const auto &info) { return "simd" + std::to_string(info.param); });

TEST(sim_cf_limits, infinite_loop_is_an_error)
{
   machine m;
   ibis::sim::limits lim;
   lim.max_instructions = 1000;
   std::vector<uint8_t> bin = ibis::isa::assemble(R"(
HEAD:
while(8)         JIP: HEAD                             { align1 1Q };
)", ibis::isa::gen::gen9, false);
   try {
      run(bin, m.t, m.mem, lim);
      FAIL() << "the loop ended";
   } catch (const ibis::error &e) {
      EXPECT_NE(std::string(e.what()).find("instruction limit"), std::string::npos) << e.what();
   }
}

/* A JMPI must be SIMD1 NoMask, and must not jump over channels that wait
 * for the thread further on (here at the ELSE): nothing would bring them
 * back.
 */
TEST(sim_cf_limits, jmpi_misuse_is_an_error)
{
   auto error_of = [](const char *text) {
      machine m;
      m.t.dispatch_mask = 0xff;
      for (unsigned ch = 0; ch < 8; ch++)
         m.t.write<int32_t>(2, ch, int32_t(ch));
      std::vector<uint8_t> bin = ibis::isa::assemble(text, ibis::isa::gen::gen9, false);
      try {
         run(bin, m.t, m.mem);
      } catch (const ibis::error &e) {
         return std::string(e.what());
      }
      return std::string("no error");
   };
   EXPECT_NE(error_of(R"(
jmpi(1)          JIP: END                              { align1 1N };
END:
nop                                                    ;
)").find("jmpi must be SIMD1 NoMask"), std::string::npos);
   std::string skip = error_of(R"(
and.z.f0.0(8)    null<1>D   g2<8,8,1>D   1D            { align1 1Q };
(+f0.0) if(8)    JIP: ELSE    UIP: ENDIF               { align1 1Q };
jmpi(1)          JIP: PAST                             { align1 WE_all 1N };
else(8)          JIP: ENDIF   UIP: ENDIF               { align1 1Q };
ELSE:
nop                                                    ;
ENDIF:
endif(8)         JIP: PAST                             { align1 1Q };
PAST:
nop                                                    ;
)");
   EXPECT_NE(skip.find("jmpi passes channel 1, which waits"), std::string::npos) << skip;
}

TEST(sim_cf_limits, jump_outside_the_program_is_an_error)
{
   machine m;
   std::vector<uint8_t> bin = ibis::isa::assemble(R"(
if(8)            JIP: 64      UIP: 64                  { align1 1Q };
)", ibis::isa::gen::gen9, false);
   m.t.dispatch_mask = 0xff;
   /* The unpredicated IF keeps every channel: no jump, ends normally. */
   EXPECT_NO_THROW(run(bin, m.t, m.mem));
   std::vector<uint8_t> bad = ibis::isa::assemble(R"(
(+f0.0) if(8)    JIP: 24      UIP: 24                  { align1 1Q };
nop                                                    ;
nop                                                    ;
)", ibis::isa::gen::gen9, false);
   EXPECT_THROW(run(bad, m.t, m.mem), ibis::error);
}
