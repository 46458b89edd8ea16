/*
 * Shared functions at message level, as the compiler uses them: URB write,
 * render-target write, sampler, data port (untyped surface read, write and
 * atomics; OWord block and constant loads; scratch block read/write),
 * gateway barrier, and EOT.  Descriptor fields follow brw_eu.h and
 * brw_inst.h; docs/sim.md lists every message and payload modeled.
 */
#include <cmath>

#include "sim/sim_internal.h"

namespace ibis::sim {

namespace {

constexpr uint32_t
bits(uint32_t v, unsigned hi, unsigned lo)
{
   return (v >> lo) & ((1u << (hi - lo + 1)) - 1);
}

/* A message being executed: its payload as one byte array (SENDS joins
 * the two parts), its descriptors and where the response goes.
 */
class message {
public:
   explicit message(exec_ctx &c) : c(c), t(c.t), mem(c.mem), in(c.in) {}
   bool execute();

private:
   exec_ctx &c;
   thread &t;
   memory &mem;
   const isa::inst &in;
   std::vector<uint8_t> payload;
   uint32_t desc = 0, ex_desc = 0;
   unsigned mlen = 0, rlen = 0, nregs = 0;
   bool header = false;

   uint32_t ud(unsigned reg, unsigned dw) const
   {
      if (reg >= nregs)
         c.fail("payload register %u beyond the message length %u", reg, nregs);
      uint32_t v;
      std::memcpy(&v, &payload[reg * grf_size + dw * 4], 4);
      return v;
   }
   /* Per-channel dword i of a parameter that takes n registers. */
   uint32_t param(unsigned first, unsigned i) const { return ud(first + i / 8, i % 8); }
   float paramf(unsigned first, unsigned i) const { return bits_to_float(param(first, i)); }
   bool on(unsigned i) const { return (c.enabled >> i) & 1; }

   uint8_t *response(unsigned reg)
   {
      if (reg >= rlen)
         c.fail("response register %u beyond the response length %u", reg, rlen);
      if (in.dst.file != isa::reg_file::grf)
         c.fail("response to a non-GRF destination");
      unsigned r = in.dst.nr + reg;
      if (r >= num_grfs)
         c.fail("response register g%u out of range", r);
      return t.bytes(r);
   }
   void respond(unsigned reg, unsigned dw, uint32_t v)
   {
      std::memcpy(response(reg) + dw * 4, &v, 4);
   }

   surface &surf(unsigned bti)
   {
      auto it = mem.surfaces.find(bti);
      if (it == mem.surfaces.end())
         c.fail("no surface at binding table index %u", bti);
      return it->second;
   }

   bool urb();
   bool render_target();
   bool sampler();
   bool buffer_ld(const surface &s, const std::vector<unsigned> &comps, unsigned first,
                  unsigned n);
   bool const_cache();
   bool data_cache();
   bool data_cache1();
   bool pixel_interp();
   bool scattered(unsigned type, unsigned ctl, unsigned bti);
   bool typed(unsigned type, unsigned ctl, unsigned bti);
   void block_read(std::vector<uint8_t> *buf, size_t addr, unsigned dwords, bool high);
   void block_write(std::vector<uint8_t> *buf, size_t addr, unsigned dwords, unsigned first);
   std::vector<uint8_t> &block_target(unsigned bti);
};

bool
message::execute()
{
   if (in.op == isa::opcode::sends || in.op == isa::opcode::sendsc) {
      ex_desc = in.ex_desc_indirect ? uint32_t(t.a0[in.ex_desc_subnr]) |
                                         uint32_t(t.a0[in.ex_desc_subnr + 1]) << 16
                                    : in.ex_desc;
   }
   desc = in.desc_indirect ? (uint32_t(t.a0[0]) | uint32_t(t.a0[1]) << 16) : in.desc;
   mlen = isa::desc_mlen(desc);
   rlen = isa::desc_rlen(desc);
   header = isa::desc_header_present(desc);
   unsigned ex_mlen = 0;
   if (in.op == isa::opcode::sends || in.op == isa::opcode::sendsc)
      ex_mlen = isa::ex_desc_ex_mlen(ex_desc);

   auto gather = [&](const isa::reg &r, unsigned n) {
      if (n == 0)
         return;
      if (r.file != isa::reg_file::grf || r.nr + n > num_grfs)
         c.fail("message payload g%u+%u out of range", r.nr, n);
      const uint8_t *p = t.bytes(r.nr);
      payload.insert(payload.end(), p, p + n * grf_size);
   };
   gather(in.src[0], mlen);
   gather(in.src[1], ex_mlen);
   nregs = mlen + ex_mlen;

   bool done;
   switch (in.sfid) {
   case isa::sfid::urb: done = urb(); break;
   case isa::sfid::render_cache: done = render_target(); break;
   case isa::sfid::sampler: done = sampler(); break;
   case isa::sfid::const_cache: done = const_cache(); break;
   case isa::sfid::data_cache: done = data_cache(); break;
   case isa::sfid::data_cache1: done = data_cache1(); break;
   case isa::sfid::pixel_interp: done = pixel_interp(); break;
   case isa::sfid::gateway:
      if (bits(desc, 2, 0) != 4)
         c.fail("gateway message %u not modeled", bits(desc, 2, 0));
      /* The answer raises n0 once every thread of the group has sent its
       * message (run_group); alone, at once.  The header's dword 2 carries
       * the barrier id from g0.2.
       */
      if (bits(ud(0, 2), 27, 24) != t.barrier_id)
         c.fail("barrier id %u in the message, the thread's group has %u",
                bits(ud(0, 2), 27, 24), t.barrier_id);
      if (t.barrier_sent)
         c.fail("a second barrier message before the group answered the first");
      mem.barriers++;
      if (mem.barrier_waits)
         t.barrier_sent = true;
      else
         t.n0++;
      done = true;
      break;
   case isa::sfid::thread_spawner:
      if (!in.eot)
         c.fail("thread spawner message without EOT");
      done = true;
      break;
   default:
      c.fail("shared function %u not modeled", unsigned(in.sfid));
   }
   (void)done;
   return in.eot;
}

/* URB SIMD8 write (brw_urb_desc): handles, [per-slot offsets],
 * [channel masks], then one register per dword of the written slots.
 */
bool
message::urb()
{
   unsigned op = bits(desc, 3, 0);
   if (op != 7)
      c.fail("URB message %u not modeled (only SIMD8 write)", op);
   if (in.exec_size != 8)
      c.fail("URB SIMD8 write with exec size %u", in.exec_size);
   bool per_slot = bits(desc, 17, 17), masked = bits(desc, 15, 15);
   unsigned global = bits(desc, 14, 4);
   unsigned data = 1 + per_slot + masked;
   if (mlen < data)
      c.fail("URB write without data");
   unsigned ndata = nregs - data;
   if (masked && ndata > 8)
      c.fail("masked URB write of more than two slots");
   for (unsigned i = 0; i < 8; i++) {
      if (!on(i))
         continue;
      size_t owords = size_t(ud(0, i)) + global + (per_slot ? ud(1, i) : 0);
      unsigned mask = masked ? bits(ud(1 + per_slot, i), 23, 16) : 0xff;
      for (unsigned k = 0; k < ndata; k++) {
         if (masked && !((mask >> k) & 1))
            continue;
         size_t addr = owords * 16 + k * 4;
         if (addr + 4 > mem.urb.size())
            mem.urb.resize(addr + 4);
         uint32_t v = ud(data + k, i);
         std::memcpy(&mem.urb[addr], &v, 4);
      }
   }
   return true;
}

/* Render-target write (brw_fb_write_desc, lower_fb_write_logical_send):
 * [header (2)] [src0 alpha] [oMask] R G B A [depth] per SIMD8/16 layout.
 */
bool
message::render_target()
{
   unsigned type = bits(desc, 17, 14);
   if (type != 12)
      c.fail("render cache message %u not modeled (only RT write)", type);
   unsigned ctl = bits(desc, 10, 8);
   unsigned bti = bits(desc, 7, 0);
   bool replicated = ctl == 1;
   /* Dual source (control 2: channels 0-7 of the pair, 3: channels 8-15)
    * is SIMD8 with both sources' RGBA in the payload.
    */
   bool dual = ctl == 2 || ctl == 3;
   unsigned width;
   switch (ctl) {
   case 0: case 1: width = 16; break;
   case 2: case 3: case 4: width = 8; break;
   default: c.fail("render target write control %u not modeled", ctl);
   }
   if (in.exec_size != width)
      c.fail("RT write SIMD%u message with exec size %u", width, in.exec_size);
   if (dual && (in.group % 16 >= 8) != (ctl == 3))
      c.fail("dual-source RT write control %u for channel group %u", ctl, in.group);
   unsigned n = width / 8;
   unsigned r = header ? 2 : 0;
   bool src0_alpha = header && (ud(0, 0) >> 11) & 1;
   if (dual && src0_alpha)
      c.fail("dual-source RT write with source 0 alpha");
   unsigned alpha_reg = r;
   if (src0_alpha)
      r += n;
   unsigned omask_reg = r;
   if (mem.fs.omask)
      r += 1;
   unsigned color_reg = r;
   r += replicated ? 1 : 4 * n;
   unsigned color1_reg = r;
   if (dual)
      r += 4;
   unsigned depth_reg = r;
   if (mem.fs.depth)
      r += n;
   if (mem.fs.stencil)
      r += 1;
   if (r != nregs)
      c.fail("RT write payload of %u registers, expected %u", nregs, r);
   (void)alpha_reg;

   auto &rt = mem.rt[bti];
   unsigned sub = in.group % 16;
   for (unsigned i = 0; i < width; i++) {
      unsigned ch = in.group + i;
      bool live = header ? (ud(1, 7) >> (sub + i)) & 1 : (t.pixel_mask >> ch) & 1;
      if (!on(i) || !live)
         continue;
      rt_pixel &p = rt[ch];
      p.written = true;
      p.x = t.pixel_x[ch];
      p.y = t.pixel_y[ch];
      for (unsigned k = 0; k < 4; k++)
         p.color[k] = replicated ? ud(color_reg, k) : param(color_reg + k * n, i);
      p.dual = dual;
      for (unsigned k = 0; k < 4 && dual; k++)
         p.color1[k] = param(color1_reg + k, i);
      p.has_depth = mem.fs.depth;
      if (mem.fs.depth)
         p.depth = paramf(depth_reg, i);
      p.has_omask = mem.fs.omask;
      if (mem.fs.omask) {
         uint16_t m;
         std::memcpy(&m, &payload[omask_reg * grf_size + 2 * (sub + i)], 2);
         p.omask = m;
      }
   }
   return true;
}

/* ---- Sampler ---- */

struct texel {
   std::array<uint32_t, 4> v;
};

bool
integer_format(format f)
{
   return f == format::r32_uint || f == format::r32_sint ||
          f == format::rgba32_uint || f == format::rgba32_sint;
}

texel
fetch(const surface &s, unsigned level, int x, int y, int z)
{
   texel out;
   bool integer = integer_format(s.fmt);
   out.v = { 0, 0, 0, integer ? 1u : float_to_bits(1.0f) };
   unsigned w = s.level_width(level), h = s.level_height(level), d = s.level_depth(level);
   if (x < 0 || y < 0 || z < 0 || unsigned(x) >= w || unsigned(y) >= h || unsigned(z) >= d) {
      out.v = { 0, 0, 0, 0 };   /* out-of-bounds ld returns zero */
      return out;
   }
   size_t off = s.level_offset(level) +
                ((size_t(z) * h + y) * w + x) * format_size(s.fmt);
   if (off + format_size(s.fmt) > s.data.size())
      throw error(strfmt("sim: texel (%d,%d,%d) of level %u beyond the texture data",
                         x, y, z, level));
   const uint8_t *p = &s.data[off];
   switch (s.fmt) {
   case format::rgba8_unorm:
      for (unsigned k = 0; k < 4; k++)
         out.v[k] = float_to_bits(p[k] / 255.0f);
      break;
   case format::rgba32_uint:
   case format::rgba32_sint:
   case format::rgba32_float:
      std::memcpy(out.v.data(), p, 16);
      break;
   default:
      std::memcpy(out.v.data(), p, 4);
   }
   return out;
}

int
wrap_coord(int x, unsigned size, wrap w)
{
   if (w == wrap::clamp)
      return std::min(std::max(x, 0), int(size) - 1);
   int m = x % int(size);
   return m < 0 ? m + int(size) : m;
}

bool
compare_pass(compare op, float ref, float texel)
{
   switch (op) {
   case compare::never: return false;
   case compare::less: return ref < texel;
   case compare::equal: return ref == texel;
   case compare::lequal: return ref <= texel;
   case compare::greater: return ref > texel;
   case compare::notequal: return ref != texel;
   case compare::gequal: return ref >= texel;
   default: return true;
   }
}

/* The slice of a lookup: a 2D array's layer clamp(floor(r + 0.5)) (the
 * interpreter's rounding), a 3D texture's floor(r * depth), else 0.
 */
int
slice_of(const surface &s, unsigned level, float r)
{
   if (s.array || s.cube) {
      float l = std::floor(r + 0.5f);
      return int(std::min(std::max(l, 0.0f), float(s.depth - 1)));
   }
   unsigned d = s.level_depth(level);
   return d > 1 ? int(std::floor(r * d)) : 0;
}

/* A cube direction on its face (the GL face table): the face by the
 * largest magnitude (x before y before z on ties), and (s, t) in [0, 1].
 */
struct cube_pos {
   unsigned face;
   float s, t;
};

/* (s, t) of a direction on a given face, which need not be its own (a
 * neighbour's, for derivatives).
 */
cube_pos
cube_on_face(float x, float y, float z, unsigned face)
{
   float sc, tc, ma;
   switch (face) {
   case 0: sc = -z; tc = -y; ma = x; break;
   case 1: sc = z; tc = -y; ma = x; break;
   case 2: sc = x; tc = z; ma = y; break;
   case 3: sc = x; tc = -z; ma = y; break;
   case 4: sc = x; tc = -y; ma = z; break;
   default: sc = -x; tc = -y; ma = z; break;
   }
   ma = std::fabs(ma);
   cube_pos p;
   p.face = face;
   p.s = ma == 0 ? 0.5f : (sc / ma + 1) * 0.5f;
   p.t = ma == 0 ? 0.5f : (tc / ma + 1) * 0.5f;
   return p;
}

cube_pos
cube_project(float x, float y, float z)
{
   float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
   unsigned face;
   if (ax >= ay && ax >= az)
      face = x >= 0 ? 0 : 1;
   else if (ay >= az)
      face = y >= 0 ? 2 : 3;
   else
      face = z >= 0 ? 4 : 5;
   return cube_on_face(x, y, z, face);
}

/* Filtered lookup of normalized coordinates at one mip level; with
 * shadow, each tap is compared first (percentage closer filtering).
 */
std::array<float, 4>
filtered(const surface &s, const sampler_state &ss, unsigned level, filter f,
         float u, float v, float r, bool shadow, float ref)
{
   unsigned w = s.level_width(level), h = s.level_height(level), d = s.level_depth(level);
   auto tap = [&](int x, int y, int z) {
      texel tx = fetch(s, level, wrap_coord(x, w, ss.wrap_s), wrap_coord(y, h, ss.wrap_t),
                       s.array || s.cube ? z : wrap_coord(z, d, ss.wrap_r));
      std::array<float, 4> o;
      for (unsigned k = 0; k < 4; k++)
         o[k] = bits_to_float(tx.v[k]);
      if (shadow) {
         float p = compare_pass(ss.cmp, ref, o[0]) ? 1.0f : 0.0f;
         o = { p, p, p, 1.0f };
      }
      return o;
   };
   float x = u * w, y = v * h;
   int zi = slice_of(s, level, r);
   if (f == filter::nearest)
      return tap(int(std::floor(x)), int(std::floor(y)), zi);
   float fx = x - 0.5f, fy = y - 0.5f;
   int x0 = int(std::floor(fx)), y0 = int(std::floor(fy));
   float ax = fx - x0, ay = fy - y0;
   if (h == 1)
      ay = 0;
   /* A 3D surface filters between two slices as well (8 taps). */
   int z0 = zi;
   float az = 0;
   if (!s.array && !s.cube && d > 1) {
      float fz = r * d - 0.5f;
      z0 = int(std::floor(fz));
      az = fz - z0;
   }
   std::array<float, 4> o{};
   const float wts[4] = { (1 - ax) * (1 - ay), ax * (1 - ay), (1 - ax) * ay, ax * ay };
   for (unsigned dz = 0; dz < 2; dz++) {
      const float wz = dz ? az : 1 - az;
      if (wz == 0)
         continue;
      for (unsigned q = 0; q < 4; q++) {
         if (wts[q] == 0)
            continue;
         auto tv = tap(x0 + (q & 1), y0 + (q >> 1), z0 + int(dz));
         for (unsigned k = 0; k < 4; k++)
            o[k] += wz * wts[q] * tv[k];
      }
   }
   return o;
}

/* One 2x2 gather footprint at level 0: texel (i0 + dx, j0 + dy) for the
 * corners in the hardware's return order R (0,1), G (1,1), B (1,0), A (0,0),
 * (i0, j0) the texel below-left of u * w - 0.5, v * h - 0.5.
 */
std::array<uint32_t, 4>
gather(const surface &s, const sampler_state &ss, float u, float v, float r,
       const int (&off)[4][2], unsigned chan, bool shadow, float ref)
{
   static const int corner[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 0 } };
   unsigned w = s.level_width(0), h = s.level_height(0), d = s.level_depth(0);
   int i0 = int(std::floor(u * w - 0.5f)), j0 = int(std::floor(v * h - 0.5f));
   int z = slice_of(s, 0, r);
   std::array<uint32_t, 4> out;
   for (unsigned k = 0; k < 4; k++) {
      texel tx = fetch(s, 0, wrap_coord(i0 + corner[k][0] + off[k][0], w, ss.wrap_s),
                       wrap_coord(j0 + corner[k][1] + off[k][1], h, ss.wrap_t),
                       s.array || s.cube ? z : wrap_coord(z, d, ss.wrap_r));
      if (shadow)
         out[k] = float_to_bits(compare_pass(ss.cmp, ref, bits_to_float(tx.v[0])) ? 1.0f : 0.0f);
      else
         out[k] = tx.v[chan];
   }
   return out;
}

bool
message::sampler()
{
   unsigned simd = bits(desc, 18, 17) | bits(desc, 29, 29) << 2;
   unsigned width = simd == 1 ? 8 : simd == 2 ? 16 : 0;
   if (!width)
      c.fail("sampler SIMD mode %u not modeled", simd);
   if (bits(desc, 30, 30))
      c.fail("16-bit sampler return format not modeled");
   if (in.exec_size != width)
      c.fail("sampler SIMD%u message with exec size %u", width, in.exec_size);
   unsigned type = bits(desc, 16, 12);
   unsigned bti = bits(desc, 7, 0), sampler_idx = bits(desc, 11, 8);
   unsigned n = width / 8;
   unsigned first = header ? 1 : 0;
   unsigned nparams = (nregs - first) / n;
   if ((nregs - first) % n)
      c.fail("sampler payload of %u registers is not whole parameters", nregs);

   /* Parameter order per message type (Gen9; lower_sampler_logical_send). */
   enum pk { U, V, R, AI, LOD, BIAS, REF, DUDX, DUDY, DVDX, DVDY, DRDX, DRDY, OFFU, OFFV,
             MLOD, SI, MCS0, MCS1 };
   struct layout {
      unsigned type, n;
      pk p[11];
   };
   /* MLOD (min_lod) follows u v r ai (and sample_d's gradients). */
   static const layout layouts[] = {
      { 0, 5, { U, V, R, AI, MLOD } },        /* sample */
      { 1, 6, { BIAS, U, V, R, AI, MLOD } },  /* sample_b */
      { 2, 5, { LOD, U, V, R, AI } },         /* sample_l */
      { 3, 6, { REF, U, V, R, AI, MLOD } },   /* sample_c */
      { 4, 11, { U, DUDX, DUDY, V, DVDX, DVDY, R, DRDX, DRDY, AI, MLOD } },   /* sample_d */
      { 5, 7, { REF, BIAS, U, V, R, AI, MLOD } },   /* sample_b_c */
      { 6, 5, { REF, LOD, U, V, R } },        /* sample_l_c */
      { 7, 4, { U, V, LOD, R } },             /* ld */
      { 8, 4, { U, V, R, AI } },              /* gather4 */
      { 9, 4, { U, V, R, AI } },              /* lod */
      { 10, 1, { LOD } },                     /* resinfo */
      { 16, 5, { REF, U, V, R, AI } },        /* gather4_c */
      { 17, 5, { U, V, OFFU, OFFV, R } },     /* gather4_po */
      { 18, 6, { REF, U, V, OFFU, OFFV, R } },   /* gather4_po_c */
      { 20, 10, { REF, U, DUDX, DUDY, V, DVDX, DVDY, R, DRDX, DRDY } },   /* sample_d_c */
      { 24, 4, { U, V, R, AI } },             /* sample_lz */
      { 25, 4, { REF, U, V, R } },            /* sample_c_lz */
      { 26, 3, { U, V, R } },                 /* ld_lz */
      { 28, 6, { SI, MCS0, MCS1, U, V, R } },   /* ld2dms_w */
      { 29, 3, { U, V, R } },                 /* ld_mcs */
   };
   const layout *lay = nullptr;
   for (const layout &l : layouts) {
      if (l.type == type)
         lay = &l;
   }
   if (!lay)
      c.fail("sampler message %u not modeled", type);
   bool int_coords = type == 7 || type == 10 || type == 26 || type == 28 || type == 29;
   bool is_gather = type == 8 || type == 16 || type == 17 || type == 18;
   if (nparams > lay->n)
      c.fail("sampler message with %u parameters, at most %u", nparams, lay->n);

   /* Header .2: texel offsets in 11:0 (u, v, r, 4 bits each), disabled
    * channels in 15:12, gather4 source channel in 17:16.
    */
   unsigned disabled = 0, gather_chan = 0;
   int off[3] = { 0, 0, 0 };
   if (header) {
      uint32_t h2 = ud(0, 2);
      disabled = bits(h2, 15, 12);
      gather_chan = bits(h2, 17, 16);
      for (unsigned k = 0; k < 3; k++) {
         int o = int(bits(h2, 11 - 4 * k, 8 - 4 * k));
         off[k] = o >= 8 ? o - 16 : o;
      }
   }
   std::vector<unsigned> comps;
   for (unsigned k = 0; k < 4; k++) {
      if (!((disabled >> k) & 1))
         comps.push_back(k);
   }
   if (comps.size() * n < rlen)
      c.fail("sampler response length %u for %zu channels", rlen, comps.size());

   /* The header's sampler state pointer (g0.3 is 0 at dispatch): samplers
    * above 15 are 16-byte states past the first 16.
    */
   if (header) {
      uint32_t h3 = ud(0, 3);
      if (h3 % 16)
         c.fail("sampler state pointer %#x is not a whole state", h3);
      sampler_idx += h3 / 16;
   }

   surface &s = surf(bti);
   if (!s.texture && (type == 28 || type == 29))
      c.fail("multisample message %u on binding table index %u, a buffer", type, bti);
   if (!s.texture) {
      if (type != 7 && type != 26)
         c.fail("sampler message %u on binding table index %u, a buffer (only ld reads buffers)",
                type, bti);
      return buffer_ld(s, comps, first, n);
   }
   sampler_state ss;
   if (!int_coords) {
      auto it = mem.samplers.find(sampler_idx);
      if (it == mem.samplers.end())
         c.fail("no sampler state %u", sampler_idx);
      ss = it->second;
   }

   auto get = [&](pk k, unsigned i) -> uint32_t {
      for (unsigned p = 0; p < nparams; p++) {
         if (lay->p[p] == k)
            return param(first + p * n, i);
      }
      return 0;
   };
   /* Non-normalized samplers take u, v in texels: normalized here. */
   auto getf = [&](pk k, unsigned i) {
      float f = bits_to_float(get(k, i));
      if (ss.unnormalized && !int_coords) {
         if (k == U || k == DUDX || k == DUDY)
            f /= float(s.width);
         else if (k == V || k == DVDX || k == DVDY)
            f /= float(s.height);
      }
      return f;
   };
   /* A cube array's cube: ai rounded, clamped to the cubes there are. */
   auto cube_layer = [&](unsigned i) {
      float l = std::floor(getf(AI, i) + 0.5f);
      return unsigned(std::min(std::max(l, 0.0f), float(s.depth / 6 - 1)));
   };

   /* The LOD before the sampler state's bias and clamps: from the 2x2 quad
    * for sample/_b/_c/_b_c/lod (FS only; other stages have no derivatives
    * and sample level 0), from the gradients for sample_d/_d_c, or given.
    */
   auto rho_lod = [&](float dudx, float dvdx, float drdx, float dudy, float dvdy, float drdy) {
      const bool vol = s.depth > 1 && !s.array && !s.cube;   /* r: a layer in arrays */
      float sx = dudx * s.width, tx = dvdx * s.height, rx = vol ? drdx * s.depth : 0;
      float sy = dudy * s.width, ty = dvdy * s.height, ry = vol ? drdy * s.depth : 0;
      float rho = std::max(std::sqrt(sx * sx + tx * tx + rx * rx),
                           std::sqrt(sy * sy + ty * ty + ry * ry));
      return std::log2(rho);
   };
   bool implicit = type == 0 || type == 1 || type == 3 || type == 5 || type == 9;
   bool gradients = type == 4 || type == 20;
   std::array<float, 32> lod{};
   for (unsigned i = 0; i < width; i++) {
      float l = 0;
      if (implicit && t.fragment && s.cube) {
         /* One LOD per quad, from how the face's (s, t) move from the
          * quad's first pixel to its right and lower neighbours, on the
          * face that pixel's direction falls on (the GL rule).  The raw
          * direction's derivatives put tesseract 336-340's cube lookups
          * levels away from where the hardware samples.
          */
         const unsigned q = i & ~3u;
         const cube_pos c = cube_project(getf(U, q), getf(V, q), getf(R, q));
         auto moved = [&](unsigned n) {
            return cube_on_face(getf(U, n), getf(V, n), getf(R, n), c.face);
         };
         const cube_pos fx = moved(q + 1), fy = moved(q + 2);
         const float sx = (fx.s - c.s) * s.width, tx = (fx.t - c.t) * s.height;
         const float sy = (fy.s - c.s) * s.width, ty = (fy.t - c.t) * s.height;
         l = std::log2(std::sqrt(std::max(sx * sx + tx * tx, sy * sy + ty * ty)));
      } else if (implicit && t.fragment) {
         unsigned q = i & ~3u;
         l = rho_lod(getf(U, q + 1) - getf(U, q), getf(V, q + 1) - getf(V, q),
                     getf(R, q + 1) - getf(R, q), getf(U, q + 2) - getf(U, q),
                     getf(V, q + 2) - getf(V, q), getf(R, q + 2) - getf(R, q));
      } else if (gradients) {
         l = rho_lod(getf(DUDX, i), getf(DVDX, i), getf(DRDX, i), getf(DUDY, i),
                     getf(DVDY, i), getf(DRDY, i));
      } else if (type == 2 || type == 6) {
         l = getf(LOD, i);
      }
      if (type == 1 || type == 5)
         l += getf(BIAS, i);
      for (unsigned p = 0; p < nparams; p++) {
         if (lay->p[p] == MLOD)
            l = std::max(l, getf(MLOD, i));
      }
      lod[i] = l;
   }

   bool shadow = type == 3 || type == 5 || type == 6 || type == 16 || type == 18 ||
                 type == 20 || type == 25;
   for (unsigned i = 0; i < width; i++) {
      if (!on(i))
         continue;
      std::array<uint32_t, 4> outv;
      if (type == 10) {
         unsigned l = get(LOD, i);
         if (l >= s.levels) {
            outv = { 0, 0, 0, s.levels };
         } else {
            const bool has_h = s.dims ? s.dims >= 2 : s.height > 1;
            const bool has_d = s.dims ? s.dims == 3 || s.array : s.array || s.depth > 1;
            outv = { s.level_width(l), has_h ? s.level_height(l) : 0,
                     has_d ? s.level_depth(l) : 0, s.levels };
         }
      } else if (type == 29) {
         /* Surfaces are single-sampled: no MCS, which reads as 0. */
         outv = {};
      } else if (int_coords) {
         /* ld2dms_w of a single-sampled surface: sample 0 is the texel. */
         unsigned l = type == 7 ? get(LOD, i) : 0;
         int x = int32_t(get(U, i)) + off[0], y = int32_t(get(V, i)) + off[1],
             z = int32_t(get(R, i)) + off[2];
         outv = l < s.levels ? fetch(s, l, x, y, z).v : std::array<uint32_t, 4>{};
      } else if (type == 9) {
         /* lod: R = the LOD after bias and clamps, G = before them. */
         float l = lod[i] + ss.lod_bias;
         float clamped = std::min(std::max(l, ss.min_lod), ss.max_lod);
         outv = { float_to_bits(clamped), float_to_bits(lod[i]), 0, 0 };
      } else if (is_gather) {
         /* Offsets: the header's for gather4/_c, per channel for _po
          * (low 6 bits, signed) applied to all four texels.
          */
         int o[4][2];
         int ou = off[0], ov = off[1];
         if (type == 17 || type == 18) {
            auto six = [](uint32_t x) { int v = int(x & 63); return v >= 32 ? v - 64 : v; };
            ou = six(get(OFFU, i));
            ov = six(get(OFFV, i));
         }
         for (unsigned k = 0; k < 4; k++)
            o[k][0] = ou, o[k][1] = ov;
         if (integer_format(s.fmt) && shadow)
            c.fail("shadow gather of an integer format");
         float gu = getf(U, i), gv = getf(V, i), gr = getf(R, i);
         sampler_state gs = ss;
         if (s.cube) {
            /* Faces clamp to their edges; offsets do not apply. */
            cube_pos cp = cube_project(gu, gv, gr);
            gu = cp.s, gv = cp.t, gr = float(6 * cube_layer(i) + cp.face);
            gs.wrap_s = gs.wrap_t = wrap::clamp;
            for (unsigned k = 0; k < 4; k++)
               o[k][0] = o[k][1] = 0;
         }
         outv = gather(s, gs, gu, gv, gr, o, gather_chan, shadow, getf(REF, i));
      } else {
         float l = lod[i] + ss.lod_bias;
         l = std::min(std::max(l, ss.min_lod), ss.max_lod);
         filter f = l > 0 ? ss.min : ss.mag;
         const unsigned last = s.levels - 1;
         unsigned level = std::min<unsigned>(last, unsigned(std::max(0.0f, std::nearbyint(l))));
         /* Linear mip filtering blends floor(l) and the next level by
          * the fraction; "none" samples the base level.
          */
         unsigned level1 = level;
         float frac = 0;
         if (ss.mip == mip_filter::none) {
            level = level1 = 0;
         } else if (ss.mip == mip_filter::linear && l > 0 && last > 0) {
            level = std::min<unsigned>(last, unsigned(std::floor(l)));
            level1 = std::min(last, level + 1);
            frac = level == last ? 0 : l - float(level);
         }
         if (integer_format(s.fmt))
            c.fail("sampling an integer format is not modeled (use ld)");
         auto at_level = [&](unsigned lv) {
            float u = getf(U, i) + float(off[0]) / s.level_width(lv);
            float v = getf(V, i) + float(off[1]) / s.level_height(lv);
            float r = getf(R, i);
            sampler_state fs = ss;
            if (s.cube) {
               cube_pos cp = cube_project(getf(U, i), getf(V, i), getf(R, i));
               u = cp.s, v = cp.t, r = float(6 * cube_layer(i) + cp.face);
               fs.wrap_s = fs.wrap_t = wrap::clamp;
            }
            return filtered(s, fs, lv, f, u, v, r, shadow, getf(REF, i));
         };
         auto fv = at_level(level);
         if (frac > 0) {
            auto fv1 = at_level(level1);
            for (unsigned k = 0; k < 4; k++)
               fv[k] = (1 - frac) * fv[k] + frac * fv1[k];
         }
         for (unsigned k = 0; k < 4; k++)
            outv[k] = float_to_bits(fv[k]);
      }
      for (unsigned k = 0; k < comps.size() && k * n < rlen; k++)
         respond(k * n + i / 8, i % 8, outv[comps[k]]);
   }
   return true;
}

/* ld on a buffer surface: parameter u is the element index (the LOD, if
 * present, must be 0 for a buffer and is ignored, as are v and r).  An
 * element past the surface reads zeros; with iris/anv's 1-byte pitch the
 * index is a byte offset, and bytes past the end of the data read 0.
 */
bool
message::buffer_ld(const surface &s, const std::vector<unsigned> &comps, unsigned first,
                   unsigned n)
{
   if (s.buffer_stride == 0)
      c.fail("buffer surface with a zero pitch");
   const unsigned size = format_size(s.buffer_format);
   const size_t elements = s.data.size() / s.buffer_stride;
   const bool integer = integer_format(s.buffer_format);
   const unsigned width = in.exec_size;
   for (unsigned i = 0; i < width; i++) {
      if (!on(i))
         continue;
      uint32_t x = param(first, i);
      std::array<uint32_t, 4> v = { 0, 0, 0, 0 };
      if (x < elements) {
         uint8_t raw[16] = {};
         size_t at = size_t(x) * s.buffer_stride;
         for (unsigned b = 0; b < size; b++)
            raw[b] = at + b < s.data.size() ? s.data[at + b] : 0;
         /* Components the format lacks read (0, 0, 0, 1). */
         v[3] = integer ? 1u : float_to_bits(1.0f);
         switch (s.buffer_format) {
         case format::rgba8_unorm:
            for (unsigned k = 0; k < 4; k++)
               v[k] = float_to_bits(raw[k] / 255.0f);
            break;
         case format::rgba32_uint:
         case format::rgba32_sint:
         case format::rgba32_float:
            std::memcpy(v.data(), raw, 16);
            break;
         default:
            std::memcpy(v.data(), raw, 4);
         }
      }
      for (unsigned k = 0; k < comps.size() && k * n < rlen; k++)
         respond(k * n + i / 8, i % 8, v[comps[k]]);
   }
   return true;
}

/* ---- Data port ---- */

/* OWord block sizes (BRW_DATAPORT_OWORD_BLOCK_*) in dwords. */
unsigned
oword_block_dwords(exec_ctx &c, unsigned ctl)
{
   switch (ctl & 7) {
   case 0: case 1: return 4;
   case 2: return 8;
   case 3: return 16;
   case 4: return 32;
   default: c.fail("OWord block size %u", ctl & 7);
   }
}

void
message::block_read(std::vector<uint8_t> *buf, size_t addr, unsigned dwords, bool high)
{
   unsigned base = high ? 4 : 0;
   for (unsigned k = 0; k < dwords; k++) {
      uint32_t v = 0;
      size_t a = addr + 4 * k;
      if (a + 4 <= buf->size())
         std::memcpy(&v, &(*buf)[a], 4);   /* out of bounds reads 0 */
      respond((base + k) / 8, (base + k) % 8, v);
   }
}

void
message::block_write(std::vector<uint8_t> *buf, size_t addr, unsigned dwords, unsigned first)
{
   for (unsigned k = 0; k < dwords; k++) {
      size_t a = addr + 4 * k;
      if (a + 4 > buf->size())
         c.fail("block write at byte %zu beyond the buffer (%zu bytes)", a, buf->size());
      uint32_t v = ud(first + k / 8, k % 8);
      std::memcpy(&(*buf)[a], &v, 4);
   }
}

/* Stateless binding-table indices (GFX8_BTI_STATELESS_*) reach the thread's
 * scratch space, which is how brw addresses spills.
 */
std::vector<uint8_t> &
message::block_target(unsigned bti)
{
   if (bti >= 250)
      return mem.scratch;
   return surf(bti).data;
}

/* Constant cache: OWord block read, offset in OWords in header.2. */
bool
message::const_cache()
{
   unsigned type = bits(desc, 18, 14);
   if (type != 0)
      c.fail("constant cache message %u not modeled", type);
   if (!header)
      c.fail("OWord block read without header");
   unsigned ctl = bits(desc, 13, 8);
   unsigned dwords = oword_block_dwords(c, ctl);
   block_read(&block_target(bits(desc, 7, 0)), size_t(ud(0, 2)) * 16, dwords, (ctl & 7) == 1);
   return true;
}

bool
message::data_cache()
{
   if (bits(desc, 18, 18)) {
      /* Scratch block read/write (gfx7_set_dp_scratch_message). */
      bool write = bits(desc, 17, 17);
      if (bits(desc, 16, 16))
         c.fail("DWord scratch messages not modeled");
      unsigned regs = 1u << bits(desc, 13, 12);
      size_t addr = size_t(bits(desc, 11, 0)) * grf_size;
      if (!write) {
         block_read(&mem.scratch, addr, regs * 8, false);
         return true;
      }
      if (nregs < 1 + regs)
         c.fail("scratch write of %u registers with %u in the payload", regs, nregs);
      /* Each dword follows the enable of its channel (modulo exec size). */
      for (unsigned k = 0; k < regs * 8; k++) {
         if (!on(k % in.exec_size))
            continue;
         size_t a = addr + 4 * k;
         if (a + 4 > mem.scratch.size())
            mem.scratch.resize(a + 4);
         uint32_t v = ud(1 + k / 8, k % 8);
         std::memcpy(&mem.scratch[a], &v, 4);
      }
      return true;
   }
   unsigned type = bits(desc, 18, 14);
   unsigned ctl = bits(desc, 13, 8);
   unsigned bti = bits(desc, 7, 0);
   switch (type) {
   case 3:      /* DWord scattered read */
   case 11:     /* DWord scattered write */
   case 4:      /* byte scattered read */
   case 12:     /* byte scattered write */
      return scattered(type, ctl, bti);
   case 7:      /* memory fence */
      /* Everything completes at once; with commit enable (control bit 5)
       * the fence answers one register the thread waits on (its contents
       * carry nothing: the model writes zeros).
       */
      if (bits(ctl, 5, 5)) {
         if (rlen != 1)
            c.fail("memory fence with commit and response length %u", rlen);
         for (unsigned k = 0; k < 8; k++)
            respond(0, k, 0);
      }
      return true;
   default:
      break;
   }
   if (!header)
      c.fail("OWord block message without header");
   switch (type) {
   case 0:    /* OWord block read: offset in OWords */
   case 1: {  /* unaligned OWord block read: offset in bytes */
      size_t addr = type == 0 ? size_t(ud(0, 2)) * 16 : ud(0, 2);
      block_read(&block_target(bti), addr, oword_block_dwords(c, ctl), (ctl & 7) == 1);
      return true;
   }
   case 8: {
      std::vector<uint8_t> &buf = block_target(bti);
      size_t addr = size_t(ud(0, 2)) * 16;
      unsigned dwords = oword_block_dwords(c, ctl);
      if (&buf == &mem.scratch && addr + 4 * dwords > buf.size())
         buf.resize(addr + 4 * dwords);
      block_write(&buf, addr, dwords, 1);
      return true;
   }
   default:
      c.fail("data cache message %u not modeled", type);
   }
}

/* DWord scattered (brw_dp_dword_scattered_rw_desc) and byte scattered
 * (brw_dp_byte_scattered_rw_desc) read/write: [header], one address per
 * channel, [data, one dword per channel].  DWord messages: control 1:0
 * block size (2: 8 dwords, 3: 16), addresses in DWords.  Byte messages:
 * control 0 SIMD16, 3:2 data size (0 byte, 1 word, 2 dword), addresses in
 * bytes; data in the low bits of each dword, reads zero-extended.  The
 * stateless BTIs (>= 250) reach the scratch space; reads out of bounds
 * give 0, writes out of bounds are dropped (scratch grows instead).
 */
bool
message::scattered(unsigned type, unsigned ctl, unsigned bti)
{
   const bool dword = type == 3 || type == 11;
   const bool write = type == 11 || type == 12;
   unsigned width, size;
   if (dword) {
      unsigned block = bits(ctl, 1, 0);
      if (block < 2)
         c.fail("DWord scattered block size %u not modeled", block);
      width = block == 3 ? 16 : 8;
      size = 4;
   } else {
      width = bits(ctl, 0, 0) ? 16 : 8;
      unsigned ds = bits(ctl, 3, 2);
      if (ds > 2)
         c.fail("byte scattered data size %u", ds);
      size = 1u << ds;
   }
   if (in.exec_size != width)
      c.fail("scattered SIMD%u message with exec size %u", width, in.exec_size);
   const unsigned n = width / 8, first = header ? 1 : 0;
   if (nregs != first + n * (write ? 2 : 1))
      c.fail("scattered %s payload of %u registers", write ? "write" : "read", nregs);
   if (!write && rlen != n)
      c.fail("scattered read response length %u, expected %u", rlen, n);
   std::vector<uint8_t> &buf = block_target(bti);
   const bool scratch = &buf == &mem.scratch;
   for (unsigned i = 0; i < width; i++) {
      if (!on(i))
         continue;
      size_t a = size_t(param(first, i)) * (dword ? 4 : 1);
      if (write) {
         if (scratch && a + size > buf.size())
            buf.resize(a + size);
         uint32_t v = param(first + n, i);
         if (a + size <= buf.size())
            std::memcpy(&buf[a], &v, size);
      } else {
         uint32_t v = 0;
         if (a + size <= buf.size())
            std::memcpy(&v, &buf[a], size);
         respond(i / 8, i % 8, v);
      }
   }
   return true;
}

/* The atomic operations (BRW_AOP_*) on a 32-bit value. */
uint32_t
atomic_op(exec_ctx &c, unsigned op, uint32_t old, uint32_t s0, uint32_t s1)
{
   switch (op) {
   case 1: return old & s0;
   case 2: return old | s0;
   case 3: return old ^ s0;
   case 4: return s0;
   case 5: return old + 1;
   case 6: return old - 1;
   case 7: return old + s0;
   case 8: return old - s0;
   case 9: return s0 - old;
   case 10: return uint32_t(std::max(int32_t(old), int32_t(s0)));
   case 11: return uint32_t(std::min(int32_t(old), int32_t(s0)));
   case 12: return std::max(old, s0);
   case 13: return std::min(old, s0);
   case 14: return old == s0 ? s1 : old;
   case 15: return old - 1;
   default: c.fail("atomic operation %u not modeled", op);
   }
}

/* Typed surface read/write/atomic (brw_dp_typed_*_desc), SIMD8 on Gen9
 * without a header: coordinates u [v [r [lod]]], then data per enabled
 * component (read/write) or the atomic's sources.  Control: read/write
 * 3:0 disabled components, 5:4 slot group (1 channels 0-7, 2 channels
 * 8-15); atomic 3:0 op, 4 slot group (channels 8-15), 5 return.  The
 * coordinate count is what the payload holds beyond the data.  Texels
 * of level 0 of a texture surface; out of bounds reads give 0 and
 * writes are dropped.
 */
bool
message::typed(unsigned type, unsigned ctl, unsigned bti)
{
   if (in.exec_size != 8)
      c.fail("typed message with exec size %u (SIMD8 only)", in.exec_size);
   surface &s = surf(bti);
   if (!s.texture)
      c.fail("typed message to binding table index %u, which is not a texture", bti);
   const bool atomic = type == 6;
   const bool high = atomic ? bits(ctl, 4, 4) : bits(ctl, 5, 4) == 2;
   if (!atomic && bits(ctl, 5, 4) == 0)
      c.fail("typed message slot group 0");
   if (high != (in.group % 16 >= 8))
      c.fail("typed message slot group for channel group %u", in.group);
   const unsigned first = header ? 1 : 0;
   std::vector<unsigned> comps;
   unsigned ndata = 0;
   unsigned op = 0;
   if (atomic) {
      op = bits(ctl, 3, 0);
      ndata = op == 5 || op == 6 || op == 15 ? 0 : op == 14 ? 2 : 1;
   } else {
      for (unsigned k = 0; k < 4; k++) {
         if (!((ctl >> k) & 1))
            comps.push_back(k);
      }
      ndata = type == 13 ? unsigned(comps.size()) : 0;
   }
   if (nregs < first + 1 + ndata || nregs > first + 4 + ndata)
      c.fail("typed message payload of %u registers", nregs);
   const unsigned ncoord = nregs - first - ndata;
   const unsigned data = first + ncoord;
   const unsigned fsize = format_size(s.fmt);
   const bool wide = fsize == 16;
   for (unsigned i = 0; i < 8; i++) {
      if (!on(i))
         continue;
      int32_t xyz[3] = { 0, 0, 0 };
      for (unsigned k = 0; k < ncoord && k < 3; k++)
         xyz[k] = int32_t(param(first + k, i));
      uint32_t lod = ncoord == 4 ? param(first + 3, i) : 0;
      bool in_bounds = lod < s.levels && xyz[0] >= 0 && xyz[1] >= 0 && xyz[2] >= 0 &&
                       unsigned(xyz[0]) < s.level_width(lod) &&
                       unsigned(xyz[1]) < s.level_height(lod) &&
                       unsigned(xyz[2]) < s.level_depth(lod);
      size_t off = 0;
      if (in_bounds) {
         off = s.level_offset(lod) +
               ((size_t(xyz[2]) * s.level_height(lod) + xyz[1]) * s.level_width(lod) + xyz[0]) *
                  fsize;
         if (off + fsize > s.data.size())
            c.fail("typed access beyond the texture data");
      }
      if (type == 5) {
         std::array<uint32_t, 4> v{};
         if (in_bounds)
            v = fetch(s, lod, xyz[0], xyz[1], xyz[2]).v;
         for (unsigned k = 0; k < comps.size(); k++)
            respond(k, i, v[comps[k]]);
      } else if (type == 13) {
         if (!in_bounds)
            continue;
         for (unsigned k = 0; k < comps.size(); k++) {
            unsigned comp = comps[k];
            uint32_t v = param(data + k, i);
            if (s.fmt == format::rgba8_unorm) {
               float f = bits_to_float(v);
               f = std::isnan(f) ? 0 : std::min(1.0f, std::max(0.0f, f));
               s.data[off + comp] = uint8_t(std::nearbyint(f * 255.0f));
            } else if (wide || comp == 0) {
               std::memcpy(&s.data[off + 4 * comp], &v, 4);
            }
         }
      } else {
         if (wide || s.fmt == format::rgba8_unorm)
            c.fail("typed atomic on a format wider than 32 bits");
         uint32_t old = 0;
         if (in_bounds)
            std::memcpy(&old, &s.data[off], 4);
         uint32_t s0 = ndata > 0 ? param(data, i) : 0, s1 = ndata > 1 ? param(data + 1, i) : 0;
         uint32_t nv = atomic_op(c, op, old, s0, s1);
         if (in_bounds)
            std::memcpy(&s.data[off], &nv, 4);
         if (bits(ctl, 5, 5))
            respond(0, i, op == 15 ? nv : old);
      }
   }
   return true;
}

/* Untyped surface read/write and atomics (brw_dp_untyped_*_desc). */
bool
message::data_cache1()
{
   unsigned type = bits(desc, 18, 14);
   unsigned ctl = bits(desc, 13, 8);
   unsigned bti = bits(desc, 7, 0);
   unsigned first = header ? 1 : 0;
   std::vector<uint8_t> &buf = surf(bti).data;
   auto read32 = [&](size_t a, bool *ok) {
      uint32_t v = 0;
      *ok = a + 4 <= buf.size();
      if (*ok)
         std::memcpy(&v, &buf[a], 4);
      return v;
   };
   auto write32 = [&](size_t a, uint32_t v) {
      if (a + 4 <= buf.size())   /* out-of-bounds writes are dropped */
         std::memcpy(&buf[a], &v, 4);
   };

   switch (type) {
   case 1:    /* untyped surface read */
   case 9: {  /* untyped surface write */
      unsigned simd = bits(ctl, 5, 4);
      unsigned width = simd == 2 ? 8 : simd == 1 ? 16 : 0;
      if (!width)
         c.fail("untyped surface SIMD mode %u not modeled", simd);
      if (in.exec_size != width)
         c.fail("untyped SIMD%u message with exec size %u", width, in.exec_size);
      unsigned n = width / 8;
      std::vector<unsigned> comps;
      for (unsigned k = 0; k < 4; k++) {
         if (!((ctl >> k) & 1))
            comps.push_back(k);
      }
      unsigned data = first + n;
      if (type == 9 && nregs != data + comps.size() * n)
         c.fail("untyped write payload of %u registers", nregs);
      for (unsigned i = 0; i < width; i++) {
         if (!on(i))
            continue;
         size_t addr = param(first, i);
         for (unsigned s = 0; s < comps.size(); s++) {
            size_t a = addr + 4 * comps[s];
            if (type == 9) {
               write32(a, param(data + s * n, i));
            } else {
               bool ok;
               uint32_t v = read32(a, &ok);   /* out of bounds reads 0 */
               respond(s * n + i / 8, i % 8, v);
            }
         }
      }
      return true;
   }
   case 2:       /* untyped atomic */
   case 0x1b: {  /* untyped atomic float */
      bool simd8 = bits(ctl, 4, 4), ret = bits(ctl, 5, 5);
      unsigned width = simd8 ? 8 : 16;
      if (in.exec_size != width)
         c.fail("untyped atomic SIMD%u message with exec size %u", width, in.exec_size);
      unsigned n = width / 8;
      unsigned op = type == 2 ? bits(ctl, 3, 0) : bits(ctl, 1, 0);
      for (unsigned i = 0; i < width; i++) {
         if (!on(i))
            continue;
         size_t a = param(first, i);
         bool ok;
         uint32_t old = read32(a, &ok);
         uint32_t s0 = nregs > first + n ? param(first + n, i) : 0;
         uint32_t s1 = nregs > first + 2 * n ? param(first + 2 * n, i) : 0;
         uint32_t nv = old;
         if (type == 2) {
            switch (op) {
            case 1: nv = old & s0; break;
            case 2: nv = old | s0; break;
            case 3: nv = old ^ s0; break;
            case 4: nv = s0; break;
            case 5: nv = old + 1; break;
            case 6: nv = old - 1; break;
            case 7: nv = old + s0; break;
            case 8: nv = old - s0; break;
            case 9: nv = s0 - old; break;
            case 10: nv = uint32_t(std::max(int32_t(old), int32_t(s0))); break;
            case 11: nv = uint32_t(std::min(int32_t(old), int32_t(s0))); break;
            case 12: nv = std::max(old, s0); break;
            case 13: nv = std::min(old, s0); break;
            case 14: nv = old == s0 ? s1 : old; break;
            case 15: nv = old - 1; break;
            default: c.fail("atomic operation %u not modeled", op);
            }
         } else {
            float fo = bits_to_float(old), f0 = bits_to_float(s0);
            switch (op) {
            /* A number wins over a NaN; -0.0 is below +0.0 as in sel.l/
             * sel.ge (for the atomics an assumption, by analogy with the
             * ALU; both sides of the check agree on it).
             */
            case 1:
            case 2: {
               bool take = std::isnan(f0) ? false : std::isnan(fo) ? true
                         : fo == f0 ? std::signbit(op == 1 ? fo : f0)
                         : op == 1 ? f0 > fo : f0 < fo;
               nv = take ? s0 : old;
               break;
            }
            case 3: nv = fo == f0 ? s1 : old; break;
            default: c.fail("float atomic operation %u not modeled", op);
            }
         }
         if (ok)
            write32(a, nv);
         if (ret)
            respond(i / 8, i % 8, op == 15 && type == 2 ? nv : old);
      }
      return true;
   }
   case 5:    /* typed surface read */
   case 13:   /* typed surface write */
   case 6:    /* typed atomic */
      return typed(type, ctl, bti);
   default:
      c.fail("data cache 1 message %u not modeled", type);
   }
}

/* Pixel interpolator (brw_pixel_interp_desc): barycentrics of the
 * primitive at a position in each pixel.  Descriptor: message data 7:0,
 * slot group 11 (channels 16-31), type 13:12 (0 centroid, 1 sample,
 * 2 shared offset, 3 per-slot offset), no perspective 14, SIMD16 16.
 * Offsets are signed 4-bit 1/16 pixels from the pixel centre: the
 * descriptor's 3:0 (x) and 7:4 (y) for a shared offset, the low bits of
 * an x register block then a y register block for per-slot offsets.  The
 * response is the PLN layout: [I 0-7][J 0-7] ([I 8-15][J 8-15]).
 */
bool
message::pixel_interp()
{
   if (!t.fragment)
      c.fail("pixel interpolator message outside a fragment thread");
   if (!mem.pi.valid)
      c.fail("pixel interpolator message without primitive setup (memory.pi)");
   const unsigned type = bits(desc, 13, 12);
   const bool noperspective = bits(desc, 14, 14);
   const unsigned width = bits(desc, 16, 16) ? 16 : 8;
   if (in.exec_size != width)
      c.fail("pixel interpolator SIMD%u message with exec size %u", width, in.exec_size);
   if (bits(desc, 11, 11) != (in.group >= 16 ? 1u : 0u))
      c.fail("pixel interpolator slot group %u for channel group %u", bits(desc, 11, 11),
             in.group);
   const unsigned n = width / 8;
   if (rlen != 2 * n)
      c.fail("pixel interpolator response length %u, expected %u", rlen, 2 * n);
   if (type == 3 && nregs < 2 * n)
      c.fail("per-slot offset payload of %u registers, expected %u", nregs, 2 * n);
   auto s4 = [](uint32_t v) { int x = int(v & 15); return x >= 8 ? x - 16 : x; };
   const auto &v = mem.pi.vertex;
   for (unsigned i = 0; i < width; i++) {
      if (!on(i))
         continue;
      unsigned ch = in.group + i;
      double px = 0.5, py = 0.5;
      switch (type) {
      case 0:   /* centroid: single-sampled, the pixel centre */
         break;
      case 1: {
         unsigned idx = bits(desc, 7, 4);
         px = mem.pi.sample_pos[idx][0];
         py = mem.pi.sample_pos[idx][1];
         break;
      }
      case 2:
         px += s4(bits(desc, 3, 0)) / 16.0;
         py += s4(bits(desc, 7, 4)) / 16.0;
         break;
      default:
         px += s4(param(0, i)) / 16.0;
         py += s4(param(n, i)) / 16.0;
         break;
      }
      double x = t.pixel_x[ch] + px, y = t.pixel_y[ch] + py;
      double d = (v[1][0] - v[0][0]) * (v[2][1] - v[0][1]) -
                 (v[2][0] - v[0][0]) * (v[1][1] - v[0][1]);
      if (d == 0)
         c.fail("pixel interpolator on a degenerate primitive");
      double b1 = ((x - v[0][0]) * (v[2][1] - v[0][1]) - (v[2][0] - v[0][0]) * (y - v[0][1])) / d;
      double b2 = ((v[1][0] - v[0][0]) * (y - v[0][1]) - (x - v[0][0]) * (v[1][1] - v[0][1])) / d;
      if (!noperspective) {
         double p0 = (1 - b1 - b2) / v[0][2], p1 = b1 / v[1][2], p2 = b2 / v[2][2];
         double sum = p0 + p1 + p2;
         b1 = p1 / sum;
         b2 = p2 / sum;
      }
      respond(2 * (i / 8), i % 8, float_to_bits(float(b1)));
      respond(2 * (i / 8) + 1, i % 8, float_to_bits(float(b2)));
   }
   return true;
}

} /* namespace */

bool
execute_send(exec_ctx &c)
{
   message m(c);
   return m.execute();
}

} /* namespace ibis::sim */
