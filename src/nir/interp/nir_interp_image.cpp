/*
 * Storage images: their description and texel addressing (docs/interp.md
 * "Images").
 */
#include "nir/interp/nir_interp_private.h"
#include "util/ibis_error.h"

namespace ibis::nir::interp {

unsigned
image::components() const
{
   return format == image_format::rgba32ui || format == image_format::rgba32i ||
                format == image_format::rgba32f
             ? 4
             : 1;
}

unsigned
image::coords() const
{
   switch (dim) {
   case image_dim::d1:
   case image_dim::buf:
      return 1;
   case image_dim::d2:
      return array ? 3 : 2;
   case image_dim::d3:
      return 3;
   }
   return 1;
}

void
check_image(const image &im, unsigned index)
{
   if (im.width == 0 || im.height == 0 || im.depth == 0)
      throw error(strfmt("image %u: a size of 0", index));
   if (im.array && im.dim != image_dim::d2)
      throw error(strfmt("image %u: only 2D images can be arrays", index));
   if ((im.dim == image_dim::d1 || im.dim == image_dim::buf) && (im.height != 1 || im.depth != 1))
      throw error(strfmt("image %u: a 1D or buffer image has one size", index));
   if (im.dim == image_dim::d2 && !im.array && im.depth != 1)
      throw error(strfmt("image %u: a 2D image has two sizes", index));
   if (im.words.size() != im.texel_count() * im.components())
      throw error(strfmt("image %u: %zu words, expected %zu (%u per texel)", index,
                         im.words.size(), im.texel_count() * im.components(),
                         im.components()));
}

int64_t
image_texel(const image &im, const int32_t *xyz)
{
   const int32_t x = xyz[0], y = im.coords() > 1 ? xyz[1] : 0, z = im.coords() > 2 ? xyz[2] : 0;
   if (x < 0 || y < 0 || z < 0 || unsigned(x) >= im.width || unsigned(y) >= im.height ||
       unsigned(z) >= im.depth)
      return -1;
   return (int64_t(z) * im.height + y) * im.width + x;
}

words4
image_read(const image &im, const int32_t *xyz)
{
   const int64_t t = image_texel(im, xyz);
   if (t < 0)
      return {0, 0, 0, 0};
   const size_t at = size_t(t) * im.components();
   if (im.components() == 4)
      return {im.words[at], im.words[at + 1], im.words[at + 2], im.words[at + 3]};
   /* Missing components read as 0, 0, 1 (1.0 for float formats). */
   return {im.words[at], 0, 0, im.format == image_format::r32f ? as_word(1.0f) : 1u};
}

} /* namespace ibis::nir::interp */
