/*
 * ibis-shader-runner: compiles, links and draws once with the GLSL
 * program of a piglit .shader_test through the GL driver on a surfaceless
 * EGL context, printing each line the driver's shader compiler reports
 * (shader-db's stats lines, ibis fallbacks) as "NAME - MESSAGE".
 *
 *    ibis-shader-runner [--name NAME] FILE.shader_test
 *
 * The draw makes the driver program its state from the prog data the
 * compiler returned (push constants, URB and VUE layout, binding table,
 * FS dispatch), as an application's first draw would.  Exit status: 0
 * when the program linked and drew, 1 on a GL error or a file the runner
 * cannot use (with a message on stderr), 2 when the environment lacks
 * EGL/GL.  Part of the ibis project (scripts/mesa-driver.sh builds it).
 */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum stage_kind {
   ST_VERTEX, ST_TESS_CTRL, ST_TESS_EVAL, ST_GEOMETRY, ST_FRAGMENT, ST_COMPUTE,
   ST_COUNT
};

static const GLenum gl_stage[ST_COUNT] = {
   GL_VERTEX_SHADER, GL_TESS_CONTROL_SHADER, GL_TESS_EVALUATION_SHADER,
   GL_GEOMETRY_SHADER, GL_FRAGMENT_SHADER, GL_COMPUTE_SHADER,
};

struct shader_test {
   int glsl_version;           /* 130 for "GLSL >= 1.30" */
   bool glsl_es;
   char *source[ST_COUNT];     /* concatenated sections of each stage */
   bool passthrough_vs;
};

static const char *file_name;
static const char *test_name;

static void
fail(int status, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   fprintf(stderr, "%s: ", file_name);
   vfprintf(stderr, fmt, ap);
   fputc('\n', stderr);
   va_end(ap);
   exit(status);
}

static char *
read_file(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      fail(1, "cannot open");
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *buf = malloc(n + 1);
   if (!buf || fread(buf, 1, n, f) != (size_t)n)
      fail(1, "cannot read");
   buf[n] = 0;
   fclose(f);
   return buf;
}

static void
append(char **dst, const char *text, size_t len)
{
   size_t old = *dst ? strlen(*dst) : 0;
   *dst = realloc(*dst, old + len + 1);
   memcpy(*dst + old, text, len);
   (*dst)[old + len] = 0;
}

/* piglit's format: "[section]" lines, a stage's GLSL up to the next one. */
static void
parse(char *text, struct shader_test *t)
{
   int cur = -1;
   bool in_require = false;
   for (char *line = text; line && *line;) {
      char *next = strchr(line, '\n');
      size_t len = next ? (size_t)(next - line + 1) : strlen(line);
      if (line[0] == '[') {
         in_require = !strncmp(line, "[require]", 9);
         cur = -1;
         if (!strncmp(line, "[vertex shader passthrough]", 27))
            t->passthrough_vs = true;
         else if (!strncmp(line, "[vertex shader]", 15))
            cur = ST_VERTEX;
         else if (!strncmp(line, "[tessellation control shader]", 29))
            cur = ST_TESS_CTRL;
         else if (!strncmp(line, "[tessellation evaluation shader]", 32))
            cur = ST_TESS_EVAL;
         else if (!strncmp(line, "[geometry shader]", 17))
            cur = ST_GEOMETRY;
         else if (!strncmp(line, "[fragment shader]", 17))
            cur = ST_FRAGMENT;
         else if (!strncmp(line, "[compute shader]", 16))
            cur = ST_COMPUTE;
         /* Other sections ([test], [vertex data], ...) are not compiled. */
      } else if (in_require) {
         unsigned major, minor;
         if (sscanf(line, "GLSL ES >= %u.%u", &major, &minor) == 2) {
            t->glsl_es = true;
            t->glsl_version = major * 100 + minor;
         } else if (sscanf(line, "GLSL >= %u.%u", &major, &minor) == 2) {
            t->glsl_version = major * 100 + minor;
         }
      } else if (cur >= 0) {
         append(&t->source[cur], line, len);
      }
      line = next ? next + 1 : NULL;
   }
}

static void APIENTRY
debug_message(GLenum source, GLenum type, GLuint id, GLenum severity,
              GLsizei length, const GLchar *message, const void *user)
{
   (void)id; (void)severity; (void)user;
   if (source != GL_DEBUG_SOURCE_SHADER_COMPILER || type != GL_DEBUG_TYPE_OTHER)
      return;
   int n = length >= 0 ? length : (int)strlen(message);
   while (n > 0 && (message[n - 1] == '\n' || message[n - 1] == ' '))
      n--;
   printf("%s - %.*s\n", test_name, n, message);
   fflush(stdout);
}

static EGLContext
make_context(EGLDisplay dpy, const struct shader_test *t)
{
   if (t->glsl_es) {
      if (!eglBindAPI(EGL_OPENGL_ES_API))
         fail(2, "eglBindAPI(GLES) failed");
      const EGLint attrs[] = { EGL_CONTEXT_MAJOR_VERSION, 3,
                               EGL_CONTEXT_MINOR_VERSION, 2,
                               EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE, EGL_NONE };
      return eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
   }
   if (!eglBindAPI(EGL_OPENGL_API))
      fail(2, "eglBindAPI(GL) failed");
   /* As shader-db's runner: a core context from GLSL 1.40 on, else a
    * compatibility one (4.6 where the driver has it, for the program
    * interface queries the draw uses).
    */
   const bool core = t->glsl_version >= 140;
   const EGLint attrs[] = {
      EGL_CONTEXT_MAJOR_VERSION, 4,
      EGL_CONTEXT_MINOR_VERSION, 6,
      EGL_CONTEXT_OPENGL_PROFILE_MASK,
      core ? EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
           : EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
      EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE,
      EGL_NONE };
   return eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
}

static GLuint
compile(GLenum kind, const char *src)
{
   GLuint sh = glCreateShader(kind);
   glShaderSource(sh, 1, &src, NULL);
   glCompileShader(sh);
   GLint ok = 0;
   glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
   if (!ok) {
      char log[4096];
      glGetShaderInfoLog(sh, sizeof(log), NULL, log);
      fail(1, "compile error: %s", log);
   }
   return sh;
}

/* Zero-filled buffers behind every uniform and storage block, so the
 * draw reads memory rather than unbound slots.
 */
static void
bind_blocks(GLuint prog, bool storage)
{
   GLint n = 0;
   const GLenum iface = storage ? GL_SHADER_STORAGE_BLOCK : GL_UNIFORM_BLOCK;
   const GLenum target = storage ? GL_SHADER_STORAGE_BUFFER : GL_UNIFORM_BUFFER;
   glGetProgramInterfaceiv(prog, iface, GL_ACTIVE_RESOURCES, &n);
   for (GLint i = 0; i < n; i++) {
      const GLenum prop = GL_BUFFER_DATA_SIZE;
      GLint size = 0;
      glGetProgramResourceiv(prog, iface, i, 1, &prop, 1, NULL, &size);
      GLuint buf;
      glGenBuffers(1, &buf);
      glBindBuffer(target, buf);
      size_t bytes = size > 0 ? (size_t)size : 16;
      void *zeros = calloc(1, bytes + 4096);
      glBufferData(target, bytes + 4096, zeros, GL_STATIC_DRAW);
      free(zeros);
      if (storage)
         glShaderStorageBlockBinding(prog, i, i);
      else
         glUniformBlockBinding(prog, i, i);
      glBindBufferBase(target, i, buf);
   }
}

static bool
is_sampler(GLenum type)
{
   return (type >= GL_SAMPLER_1D && type <= GL_SAMPLER_2D_RECT_SHADOW) ||
          (type >= GL_SAMPLER_1D_ARRAY && type <= GL_UNSIGNED_INT_SAMPLER_BUFFER &&
           (type < GL_UNSIGNED_INT_VEC2 || type > GL_UNSIGNED_INT_VEC4)) ||
          (type >= GL_SAMPLER_CUBE_MAP_ARRAY &&
           type <= GL_UNSIGNED_INT_SAMPLER_CUBE_MAP_ARRAY) ||
          (type >= GL_SAMPLER_2D_MULTISAMPLE &&
           type <= GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE_ARRAY);
}

/* A texture unit of its own for every sampler: samplers of different
 * types on one unit make the draw an error.
 */
static void
assign_texture_units(GLuint prog)
{
   GLint n = 0, unit = 0;
   glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &n);
   for (GLint i = 0; i < n; i++) {
      char name[256];
      GLint size;
      GLenum type;
      glGetActiveUniform(prog, i, sizeof(name), NULL, &size, &type, name);
      if (!is_sampler(type))
         continue;
      const GLint loc = glGetUniformLocation(prog, name);
      for (GLint e = 0; loc >= 0 && e < size; e++)
         glUniform1i(loc + e, unit++);
   }
}

/* Every active vertex attribute reads a zero-filled buffer. */
static void
bind_attributes(GLuint prog)
{
   GLuint vbo;
   glGenBuffers(1, &vbo);
   glBindBuffer(GL_ARRAY_BUFFER, vbo);
   static const double zeros[3 * 16];
   glBufferData(GL_ARRAY_BUFFER, sizeof(zeros), zeros, GL_STATIC_DRAW);

   GLint n = 0;
   glGetProgramiv(prog, GL_ACTIVE_ATTRIBUTES, &n);
   for (GLint i = 0; i < n; i++) {
      char name[256];
      GLint array_size;
      GLenum type;
      glGetActiveAttrib(prog, i, sizeof(name), NULL, &array_size, &type, name);
      GLint loc = glGetAttribLocation(prog, name);
      if (loc < 0)
         continue;  /* gl_VertexID and friends */
      unsigned cols = 1;
      switch (type) {
      case GL_FLOAT_MAT2: case GL_FLOAT_MAT2x3: case GL_FLOAT_MAT2x4:
      case GL_DOUBLE_MAT2: case GL_DOUBLE_MAT2x3: case GL_DOUBLE_MAT2x4:
         cols = 2; break;
      case GL_FLOAT_MAT3: case GL_FLOAT_MAT3x2: case GL_FLOAT_MAT3x4:
      case GL_DOUBLE_MAT3: case GL_DOUBLE_MAT3x2: case GL_DOUBLE_MAT3x4:
         cols = 3; break;
      case GL_FLOAT_MAT4: case GL_FLOAT_MAT4x2: case GL_FLOAT_MAT4x3:
      case GL_DOUBLE_MAT4: case GL_DOUBLE_MAT4x2: case GL_DOUBLE_MAT4x3:
         cols = 4; break;
      default: break;
      }
      const bool integer = type == GL_INT || type == GL_UNSIGNED_INT ||
         (type >= GL_INT_VEC2 && type <= GL_INT_VEC4) ||
         (type >= GL_UNSIGNED_INT_VEC2 && type <= GL_UNSIGNED_INT_VEC4) ||
         type == GL_BOOL || (type >= GL_BOOL_VEC2 && type <= GL_BOOL_VEC4);
      const bool dbl = type == GL_DOUBLE ||
         (type >= GL_DOUBLE_VEC2 && type <= GL_DOUBLE_VEC4) ||
         (type >= GL_DOUBLE_MAT2 && type <= GL_DOUBLE_MAT4x3);
      for (unsigned c = 0; c < cols * (unsigned)array_size; c++) {
         glEnableVertexAttribArray(loc + c);
         if (dbl)
            glVertexAttribLPointer(loc + c, 4, GL_DOUBLE, 0, NULL);
         else if (integer)
            glVertexAttribIPointer(loc + c, 4, GL_INT, 0, NULL);
         else
            glVertexAttribPointer(loc + c, 4, GL_FLOAT, GL_FALSE, 0, NULL);
      }
   }
}

/* As many color attachments as the program has color outputs. */
static void
bind_framebuffer(GLuint prog)
{
   GLint n = 0, regions = 1;
   glGetProgramInterfaceiv(prog, GL_PROGRAM_OUTPUT, GL_ACTIVE_RESOURCES, &n);
   for (GLint i = 0; i < n; i++) {
      const GLenum props[2] = { GL_LOCATION, GL_ARRAY_SIZE };
      GLint v[2] = { -1, 1 };
      glGetProgramResourceiv(prog, GL_PROGRAM_OUTPUT, i, 2, props, 2, NULL, v);
      char name[64];
      glGetProgramResourceName(prog, GL_PROGRAM_OUTPUT, i, sizeof(name), NULL, name);
      if (!strncmp(name, "gl_FragData", 11))
         regions = 8;
      else if (v[0] >= 0 && v[0] + v[1] > regions)
         regions = v[0] + v[1];
   }
   if (regions > 8)
      regions = 8;
   GLuint fbo, rb[8];
   GLenum bufs[8];
   glGenFramebuffers(1, &fbo);
   glBindFramebuffer(GL_FRAMEBUFFER, fbo);
   glGenRenderbuffers(regions, rb);
   for (GLint i = 0; i < regions; i++) {
      glBindRenderbuffer(GL_RENDERBUFFER, rb[i]);
      glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 64, 64);
      glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i,
                                GL_RENDERBUFFER, rb[i]);
      bufs[i] = GL_COLOR_ATTACHMENT0 + i;
   }
   GLuint depth;
   glGenRenderbuffers(1, &depth);
   glBindRenderbuffer(GL_RENDERBUFFER, depth);
   glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, 64, 64);
   glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT,
                             GL_RENDERBUFFER, depth);
   glDrawBuffers(regions, bufs);
   glViewport(0, 0, 64, 64);
}

int
main(int argc, char **argv)
{
   const char *path = NULL;
   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "--name") && i + 1 < argc)
         test_name = argv[++i];
      else
         path = argv[i];
   }
   if (!path) {
      fprintf(stderr, "usage: ibis-shader-runner [--name NAME] FILE.shader_test\n");
      return 1;
   }
   file_name = path;
   if (!test_name)
      test_name = path;

   struct shader_test t = { 0 };
   parse(read_file(path), &t);
   if (t.passthrough_vs && !t.source[ST_VERTEX])
      fail(1, "[vertex shader passthrough] is not supported");
   bool any = false;
   for (int s = 0; s < ST_COUNT; s++)
      any |= t.source[s] != NULL;
   if (!any)
      fail(1, "no shader sections");

   PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
   if (!get_platform_display)
      fail(2, "no eglGetPlatformDisplayEXT");
   EGLDisplay dpy = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA,
                                         EGL_DEFAULT_DISPLAY, NULL);
   if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL))
      fail(2, "no surfaceless EGL display");
   EGLContext ctx = make_context(dpy, &t);
   if (ctx == EGL_NO_CONTEXT)
      fail(2, "cannot create a %s context (GLSL %d)",
           t.glsl_es ? "GLES" : "GL", t.glsl_version);
   if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
      fail(2, "eglMakeCurrent failed");

   glEnable(GL_DEBUG_OUTPUT);
   glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
   glDebugMessageCallback(debug_message, NULL);
   glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_FALSE);
   glDebugMessageControl(GL_DEBUG_SOURCE_SHADER_COMPILER, GL_DEBUG_TYPE_OTHER,
                         GL_DONT_CARE, 0, NULL, GL_TRUE);

   GLuint prog = glCreateProgram();
   for (int s = 0; s < ST_COUNT; s++) {
      if (t.source[s])
         glAttachShader(prog, compile(gl_stage[s], t.source[s]));
   }
   glLinkProgram(prog);
   GLint ok = 0;
   glGetProgramiv(prog, GL_LINK_STATUS, &ok);
   if (!ok) {
      char log[4096];
      glGetProgramInfoLog(prog, sizeof(log), NULL, log);
      fail(1, "link error: %s", log);
   }
   glUseProgram(prog);

   GLuint vao;
   glGenVertexArrays(1, &vao);
   glBindVertexArray(vao);
   bind_blocks(prog, false);
   bind_blocks(prog, true);
   assign_texture_units(prog);

   if (t.source[ST_COMPUTE]) {
      glDispatchCompute(1, 1, 1);
   } else {
      bind_attributes(prog);
      bind_framebuffer(prog);
      if (t.source[ST_TESS_CTRL] || t.source[ST_TESS_EVAL]) {
         glPatchParameteri(GL_PATCH_VERTICES, 3);
         glDrawArrays(GL_PATCHES, 0, 3);
      } else {
         glDrawArrays(GL_TRIANGLES, 0, 3);
      }
   }
   glFinish();
   GLenum err = glGetError();
   if (err != GL_NO_ERROR)
      fail(1, "GL error 0x%x after the draw", err);

   printf("%s - drawn\n", test_name);
   eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
   eglDestroyContext(dpy, ctx);
   eglTerminate(dpy);
   return 0;
}
